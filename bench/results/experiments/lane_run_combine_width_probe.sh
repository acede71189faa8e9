#!/usr/bin/env bash
# Step 37's last kernel (combine_tile_parts_kernel) with more tiles a warp:
# main gives a warp four tiles, a lane each, so the 16384 tiles of 64 MiB
# of floats take 1024 blocks of 128 threads; session 62 measured those
# blocks at 0.5-0.8 us of the step's time beyond a last kernel that only
# waits (bench/results/experiments/h200_combine_launch_ed0c5f7.log). Here
# 8, 16 and 32 tiles a warp (512, 256 and 128 blocks) as
# lane_run_c{8,16,32}_segments, step 37 unchanged otherwise; a warp's
# segments that run past the next tile take the whole warp one after
# another, so a warp of 32 tiles meets up to eight times as many.
# Build on the CPU machine (Release, sm_90) at e6c396e with the launcher's
# tiles a warp a template parameter (default 4) in
# kernels/blocks/segment_carries.cuh, the copies
# kernels/rows/37_probe_c{8,16,32}.cu passing 8, 16 and 32, and their
# METHOD lines after lane_run_segments in src/gpu/method_list.h:
#   ninja -C build-rel bench_compare
#   tar -C build-rel -cf - bench/bench_compare |
#       xz -T2 --lzma2=preset=6,dict=256MiB > deps/combine_pack.tar.xz
# Predictions: where no segment runs past the next tile (uniform:8,
# uniform:100) 0.3-0.6 us faster at 32 tiles a warp, less at 8 and 16;
# where many do (uniform:10000, powerlaw:1000, the Zipf group-by) 32
# slower, 8 about level.
source bench/results/experiments/probe_setup.sh deps/combine_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
python3 bench/zipf_lengths.py >/tmp/zipf.txt
time_whole_array $B
for width in 32 16 8; do
    echo "--- lane_run_c${width}_segments, after $(since) s"
    time_two_methods $B lane_run_c${width}_segments lane_run_segments 2 uniform:100 powerlaw:100 \
        powerlaw:1000 uniform:1000 uniform:10000 uniform:8 powerlaw:8 file:/tmp/zipf.txt
done
echo "--- every type and operator, after $(since) s"
check_every_type $B lane_run_c32_segments,lane_run_c8_segments powerlaw:1000 file:/tmp/zipf.txt
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_combine_width_probe.log
