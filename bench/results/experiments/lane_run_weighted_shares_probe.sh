#!/usr/bin/env bash
# Step 37 with each warp's run of tiles weighed by cost, not by count: a
# tile costs 1024, an end PROBE_END_COST (default 3); warp w starts at the
# first tile boundary whose cost reaches w/W of the whole and stops at the
# next warp's. The tiles stay where they are (the bits do not change), only
# which warp runs each. Its start: a search over the ends' costs from a
# guess, as first_segment_after searches positions, then one trip of offsets
# that also counts the ends before the tile when it must. The probe,
# lane_run_weighted_segments (kernels/rows/37_probe_weighted.cu, a copy of
# step 37 with lane_run_weighted_segments_probe_18aca15.patch's kernel),
# beside step 37 in one build.
# Version 1 read offsets[j] and offsets[j + 1] in a trip after the
# search, before the first tile's reads and copies could start; version 2
# takes them from the probes that bracketed j (the patch holds its last
# state, with the PROBE_MODE of lane_run_weighted_modes_probe.sh and
# lane_run_weighted_front_probe.sh; PROBE_MODE unset is version 2).
# Predicted (version 1): END_COST=0 (even shares found the new way) 0-0.5 us slower
# than step 37 everywhere; END_COST=4 against 0: the Zipf group-by 0.5-2 us
# faster, powerlaw:8 0.2-1, powerlaw:100 and :1000 0-0.5, the uniform ones
# level within 0.2; every test right whatever the cost. Seen: END_COST=0
# 1.3-2.2 us slower than step 37, END_COST=4 2 us faster than 0 on the
# Zipf group-by. Predicted (version 2): END_COST=0 within 0.3 of step 37;
# END_COST=4 the Zipf group-by 1.5-2 us faster than step 37, powerlaw:8
# 0.5-0.8, the uniform ones level.
source bench/results/experiments/probe_setup.sh deps/weighted_pack.tar.xz
{
B=/tmp/p/bench/bench_compare T=/tmp/p/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
P=lane_run_weighted_segments
for cost in 3 0 50; do
    PROBE_END_COST=$cost timeout 200 $T --shape segments --method $P >/tmp/t.log 2>&1
    echo "END_COST=$cost test_shapes_gpu rc=$? ok $(grep -c '^ok ' /tmp/t.log)"; grep -v '^ok ' /tmp/t.log | head -8
done
echo "--- memcheck, after $(since) s"
timeout 150 bash tests/run_sanitizer.sh memcheck /tmp/p/tests/test_shapes_gpu --quick --seed 1 --shape segments --method $P 2>&1 | tail -2
echo "memcheck rc=${PIPESTATUS[0]}"
echo "--- every type and operator, after $(since) s"
check_every_type $B $P powerlaw:1000 file:/tmp/zipf.txt uniform:8
time_whole_array $B
specs="uniform:8 powerlaw:8 file:/tmp/zipf.txt uniform:100 powerlaw:100 powerlaw:1000 uniform:10000"
for cost in 0 4 4 0; do
    echo "--- END_COST=$cost, after $(since) s"
    PROBE_END_COST=$cost time_two_methods $B lane_run_segments $P 1 $specs | sed "s|^|c$cost |"
done
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_weighted_shares_probe${PROBE_VERSION:-}.log
