#!/usr/bin/env bash
# Step 37 at seven blocks an SM (28 warps, 72 registers) against six (24
# warps, 80 registers, as on main), in one binary. The Zipf balance probe
# (h200_zipf_balance_floor_c7fced2.log) ran uniform:8's lengths with 40% of
# the warps idle (ten giant segments first) as slowly as uniform:8: a busy
# warp's chain of dense tiles takes as long with 14 busy warps an SM as with
# 24, so the SMs had room for more chains. Seven blocks give each warp 4.4
# tiles where six give 5.2.
# Build on the CPU machine (Release, sm_90) at c7fced2 with step 37 copied
# as the method lane_run7_segments, MIN_BLOCKS_PER_SM = 7:
#   sed -e "s/MIN_BLOCKS_PER_SM = 6;/MIN_BLOCKS_PER_SM = 7;/" \
#       -e 's/^DEFINE_METHOD(lane_run_segments,/DEFINE_METHOD(lane_run7_segments,/' \
#       kernels/rows/37_lane_run_segments.cu > kernels/rows/37_probe_seven.cu
#   (and METHOD(lane_run7_segments) after lane_run_segments in src/gpu/method_list.h)
#   ninja -C build-rel bench_compare
#   tar -C build-rel -cf - bench/bench_compare |
#       xz --lzma2=preset=6,dict=256MiB > deps/seven_pack.tar.xz
# ptxas (float sum): 72 registers, 8 bytes of stack, 8 bytes of spill
# stores and 24 of spill loads; six blocks: 80 registers, no spill.
# Run: bash bench/results/experiments/lane_run_seven_blocks_probe.sh (carry deps/).
# Predictions: if a warp's chain sets the time, 10-14% faster where tiles
# hold many ends (uniform:8, powerlaw:8, the Zipf group-by: 28.5-30 us from
# about 33), less at the means of 100 and 1000, level at uniform:10000
# (read at the memory's pace); if the spills sit in the tile loop or the
# SMs were in fact full, slower (session 25's 28 warps an SM, one-warp
# blocks at 72 registers on an H100, were 5-10% slower).
source bench/results/experiments/probe_setup.sh deps/seven_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
python3 bench/zipf_lengths.py >/tmp/zipf.txt
time_whole_array $B
time_two_methods $B lane_run7_segments lane_run_segments 2 uniform:8 powerlaw:8 file:/tmp/zipf.txt \
    uniform:100 powerlaw:100 powerlaw:1000 uniform:10000 uniform:1
echo "--- every type and operator, after $(since) s"
check_every_type $B lane_run7_segments,lane_run_segments uniform:8 powerlaw:1000 file:/tmp/zipf.txt
cp /tmp/b.log ${OUT:-/tmp}/seven_blocks_types_zipf.log
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_seven_blocks_probe.log
