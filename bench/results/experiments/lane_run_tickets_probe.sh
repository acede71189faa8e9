#!/usr/bin/env bash
# Step 37 without its last kernel: a segment that crosses tiles is joined in
# the warp that ran them (shared memory) or, where its tiles were more than
# one warp's, by the last of those warps to take a ticket in the tile's
# record (lane_run_segments, this branch), against step 37 as on main, whose
# last kernel joins every tile's parts (lane_run_main_segments, the same
# binary). One GPU; the tests, the sanitizers on the new method, then float
# sums at seven distributions and the Zipf group-by in two rounds, then every
# type and operator checked.
# Build on the CPU machine (Release, sm_90) at 76e8798 with
# lane_run_tickets_probe_76e8798.patch applied (its PROBE_ARRIVE switch, added
# for the next call, unset: as run here) and step 37 as at 76e8798 beside it:
#   git show 76e8798:kernels/rows/37_lane_run_segments.cu |
#       sed 's/^DEFINE_METHOD(lane_run_segments,/DEFINE_METHOD(lane_run_main_segments,/' \
#       > kernels/rows/37_probe_main.cu
#   cmake -S . -B build-lean -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build-lean bench_compare test_shapes_gpu
#   tar -C build-lean -cf - bench/bench_compare tests/test_shapes_gpu |
#       xz --lzma2=preset=6,dict=256MiB > deps/tickets_pack.tar.xz (31 MB: the two share their kernels)
# The first call ran the patch without arrive()'s store of the open tail
# (h200_lane_run_tickets_tail_unstored_76e8798.log: every crossing segment
# wrong, and the tests said so); the second the patch
# (h200_lane_run_tickets_76e8798.log).
# Run: bash bench/results/experiments/lane_run_tickets_probe.sh (carry deps/).
# Predictions: every test and sanitizer clean; against main's, 1.0-1.7 us
# faster at uniform:100, uniform:1000, powerlaw:100 and powerlaw:1000 (the
# last kernel's grid-end wait and its blocks, less a release and a ticket
# at the end of each warp), about 1 us at uniform:8, powerlaw:8 and Zipf;
# the risk: the last warps' release and tickets, and a long segment's join
# on one warp at the grid's end.
source bench/results/experiments/probe_setup.sh deps/tickets_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
T=/tmp/p/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
echo "--- tests"
check_segment_tests $T lane_run_segments
echo "--- float sum, after $(since) s"
for round in 1 2; do
    for spec in uniform:8 uniform:100 uniform:1000 uniform:10000 powerlaw:8 powerlaw:100 \
                powerlaw:1000 file:/tmp/zipf.txt; do
        methods=lane_run_segments,lane_run_main_segments
        [ $round = 2 ] && methods=lane_run_main_segments,lane_run_segments
        timeout 60 $B --segments $spec -S 100 -m $methods 2>&1 | grep -E "^lane_run" | sed "s|^|$spec [$round] |"
    done
done
echo "--- every type and operator, after $(since) s"
check_every_type $B lane_run_segments uniform:1 uniform:100 powerlaw:1000 file:/tmp/zipf.txt
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_tickets_probe.log
