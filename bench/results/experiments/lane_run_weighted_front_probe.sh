#!/usr/bin/env bash
# The weighed shares in step 37's order (PROBE_MODE=3): even shares of
# whole units of cost (1024 a tile, PROBE_END_COST an end), the first warps
# one unit more, as step 37's even_share gives its first warps a tile more
# (h200_lane_run_weighted_modes_18aca15.log: spreading those warps over the
# grid cost 0.7-1.5 us). Same probe build
# (lane_run_weighted_segments_probe_18aca15.patch, its last state).
# Predicted: END_COST=0 as mode 2 (0.4-0.9 us behind step 37, the probe's
# loop and search); END_COST=4 the Zipf group-by 1-1.5 us ahead of step
# 37, powerlaw:8 0-0.4 ahead, the uniform ones 0.4-0.9 behind.
source bench/results/experiments/probe_setup.sh deps/weighted_pack.tar.xz
{
B=/tmp/p/bench/bench_compare T=/tmp/p/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
P=lane_run_weighted_segments
for cost in 4 50; do
    PROBE_MODE=3 PROBE_END_COST=$cost timeout 200 $T --shape segments --method $P >/tmp/t.log 2>&1
    echo "PROBE_MODE=3 END_COST=$cost test_shapes_gpu rc=$? $(grep "^ok .*$P" /tmp/t.log)"
done
PROBE_MODE=3 PROBE_END_COST=4 check_every_type $B $P file:/tmp/zipf.txt powerlaw:8
time_whole_array $B
for cost in 4 0 4 6; do
    specs="uniform:8 powerlaw:8 file:/tmp/zipf.txt uniform:100 powerlaw:100 powerlaw:1000 uniform:10000"
    [ $cost = 0 ] && specs="uniform:8 file:/tmp/zipf.txt uniform:100"
    echo "--- PROBE_MODE=3 END_COST=$cost, after $(since) s"
    PROBE_MODE=3 PROBE_END_COST=$cost time_two_methods $B lane_run_segments $P 1 $specs | sed "s|^|c$cost |"
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_weighted_front_probe.log
