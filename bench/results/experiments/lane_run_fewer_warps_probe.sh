#!/usr/bin/env bash
# Step 37 at fewer warps an SM, beside main's 24, in one binary. Session
# 73's seven blocks an SM (28 warps) and this session's five blocks of five
# warps (25, lane_run_early_wide_probe.sh) were both slower than 24 at
# every distribution: does the trend go on below 24?
# - lane_run_twenty_segments: blocks of 128 threads, five an SM (20 warps),
# - lane_run_twentytwo_segments: blocks of 64 threads, eleven an SM (22
#   warps).
# Both compile to 80 registers with no spill, as main (the occupancy
# calculator would then place six and twelve blocks), so each launch adds
# dynamic shared memory it does not use - 24 KiB and 10 KiB - that leaves
# room for five and eleven blocks an SM and not one more.
# Build on the CPU machine (Release, sm_90) at 0e650e8 with the copies
# kernels/rows/37_probe_{twenty,twentytwo}.cu (BLOCK, MIN_BLOCKS_PER_SM and
# the launch's dynamic shared memory changed) and their METHOD lines after
# lane_run_segments in src/gpu/method_list.h:
#   ninja -C build-rel bench_compare
#   tar -C build-rel -cf - bench/bench_compare |
#       xz -T2 --lzma2=preset=6,dict=256MiB > deps/warps_pack.tar.xz
# Predictions: if more chains an SM cost more in contention (the offsets'
# dependent reads waiting behind the copies) than they give, 0.3-1.0 us
# faster at the means of 8 and on the Zipf group-by; at the means of 100
# to 10000, where the bytes in flight set the pace, slower (20 x 4 KiB a
# tile in flight an SM against 24); 64 MiB of floats is 6.2 tiles a warp at
# 20 warps an SM (seven for some), 5.6 at 22, 5.2 at 24.
source bench/results/experiments/probe_setup.sh deps/warps_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
python3 bench/zipf_lengths.py >/tmp/zipf.txt
time_whole_array $B
for variant in twenty twentytwo; do
    echo "--- lane_run_${variant}_segments, after $(since) s"
    time_two_methods $B lane_run_${variant}_segments lane_run_segments 2 uniform:8 powerlaw:8 \
        file:/tmp/zipf.txt uniform:100 powerlaw:100 powerlaw:1000 uniform:10000 uniform:1
done
for method in lane_run_segments lane_run_twenty_segments lane_run_twentytwo_segments; do
    echo "--- $method's launch (Nsight Compute), after $(since) s"
    timeout 60 ncu --clock-control none -k "regex:lane_run_segments_kernel" --launch-skip 2 -c 1 \
        --section LaunchStats --section Occupancy \
        $B --segments uniform:100 -m $method -S 3 -w 1 2>&1 |
        grep -E "Grid Size|Block Size|Registers Per|Dynamic Shared|Block Limit|Theoretical Occupancy|Waves|ERR|rror" | head -14
done
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_fewer_warps_probe.log
