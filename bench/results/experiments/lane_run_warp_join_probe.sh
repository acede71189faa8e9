#!/usr/bin/env bash
# Step 37 joining, in the warp, a segment that begins in one of the warp's
# tiles and ends in the next (the tail part kept by lane 0 in shared
# memory, joined with the next tile's head by join_tail_and_head, the last
# kernel's own short path, so the same bits on any grid), its two parts
# then marked none; against c69d4ca's step 37 as lane_run_main_segments in
# the same binary. The last kernel still runs over every tile, so it keeps
# its launch, its wait for the tiles' grid and its one read of each tile's
# parts; what goes is its stores of those segments and their joins.
# Build on the CPU machine (Release, sm_90) at c69d4ca with the change to
# kernels/rows/37_lane_run_segments.cu and kernels/blocks/segment_carries.cuh,
# the old step copied as kernels/rows/37_probe_main.cu (method
# lane_run_main_segments, its METHOD line after lane_run_segments):
#   ninja -C build-rel bench_compare test_shapes_gpu
#   tar -C build-rel -cf - bench/bench_compare tests/test_shapes_gpu |
#       xz -T2 --lzma2=preset=6,dict=256MiB > deps/join_pack.tar.xz
# ptxas: no spill in any instantiation (a register copy of the tail made
# the 8-byte types' argmax and argmin spill; in shared memory it does not).
# Predictions: 0.2-0.5 us faster where most crossing segments end in the
# next tile (uniform:8, uniform:100, powerlaw:8, powerlaw:100), level where
# segments run on (uniform:10000); every test right with the same bits.
source bench/results/experiments/probe_setup.sh deps/join_pack.tar.xz
{
B=/tmp/p/bench/bench_compare T=/tmp/p/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
time_whole_array $B
time_two_methods $B lane_run_segments lane_run_main_segments 2 uniform:100 powerlaw:100 \
    powerlaw:1000 uniform:8 powerlaw:8 file:/tmp/zipf.txt uniform:1000 uniform:10000
check_all_segment_methods $T lane_run_segments
echo "--- every type and operator, after $(since) s"
check_every_type $B lane_run_segments uniform:8 powerlaw:1000 file:/tmp/zipf.txt
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_warp_join_probe.log
