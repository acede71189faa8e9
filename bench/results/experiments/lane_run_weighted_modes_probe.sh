#!/usr/bin/env bash
# Where the weighed shares' start costs 1-2 us (lane_run_weighted_shares_probe.sh,
# h200_lane_run_weighted_shares_v2_18aca15.log: END_COST=0, even shares
# found the new way, 1.0-1.8 us slower than step 37). The same probe build
# (lane_run_weighted_segments_probe_18aca15.patch) with PROBE_MODE:
#   1: step 37's even shares and start (first_segment_after, then the
#      begin) inside the probe's loop, which stops by cost;
#   2: step 37's even shares (the same tiles a warp) found by the probe's
#      search over costs (END_COST 0);
#   0: the probe's own shares at END_COST=0 (ceil of w D / W: the warps
#      with a tile more spread over the grid, not the first ones).
# Predicted: if mode 1 is level with step 37, the loop is not the cost; if
# mode 2 is too, the search is not, and the order of the shares is.
source bench/results/experiments/probe_setup.sh deps/weighted_pack.tar.xz
{
B=/tmp/p/bench/bench_compare T=/tmp/p/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
P=lane_run_weighted_segments
for mode in 1 2; do
    PROBE_MODE=$mode timeout 200 $T --shape segments --method $P >/tmp/t.log 2>&1
    echo "PROBE_MODE=$mode test_shapes_gpu rc=$? $(grep "^ok .*$P" /tmp/t.log)"
done
time_whole_array $B
specs="uniform:8 file:/tmp/zipf.txt uniform:100 uniform:10000"
for mode in 1 2 0 1 2 0; do
    echo "--- PROBE_MODE=$mode, after $(since) s"
    PROBE_MODE=$mode PROBE_END_COST=0 time_two_methods $B lane_run_segments $P 1 $specs | sed "s|^|m$mode |"
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_weighted_modes_probe.log
