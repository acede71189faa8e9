#!/usr/bin/env bash
# Two changes to step 37's start and shape, each beside main's step in one
# binary, and both together:
# - lane_run_early_segments: a warp issues its first tile's copies before
#   its search for the first segment, so they fly during the search's
#   dependent reads (every warp searches at once at the kernel's start,
#   with nothing else in flight). Session 21 tried this on an H100 when the
#   step took 51 us at uniform:8 and saw no gain; the step is a third
#   faster now.
# - lane_run_wide_segments: blocks of five warps, five blocks an SM (25
#   warps, 80 registers as now: 65536 / (160 x 5); __maxnreg__(80) in
#   place of __launch_bounds__(160, 5), under which ptxas chose 72 and
#   spilled). 64 MiB of floats is
#   16384 tiles: over 24 warps an SM (3168 warps) 544 warps take a sixth
#   tile after the rest have finished; over 25 (3300) every warp takes
#   four or five.
# - lane_run_both_segments: both.
# Build on the CPU machine (Release, sm_90) at the session's main with the
# three copies kernels/rows/37_probe_{early,wide,both}.cu and their
# METHOD lines after lane_run_segments in src/gpu/method_list.h:
#   ninja -C build-rel bench_compare test_shapes_gpu
#   tar -C build-rel -cf - bench/bench_compare tests/test_shapes_gpu |
#       xz -T2 --lzma2=preset=6,dict=256MiB > deps/early_pack.tar.xz
# Predictions (float sum, H200): early 0.3-1.0 us faster at every
# distribution, most where the bytes set the pace (the means of 100 to
# 10000); wide 1-2 us faster everywhere if the sixth tiles' round is a
# tail the SMs wait on, level if the SMs' throughput sets the pace (as
# session 73's seven blocks an SM suggest); both the sum of the two.
source bench/results/experiments/probe_setup.sh deps/early_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
python3 bench/zipf_lengths.py >/tmp/zipf.txt
time_whole_array $B
for variant in early wide both; do
    echo "--- lane_run_${variant}_segments, after $(since) s"
    time_two_methods $B lane_run_${variant}_segments lane_run_segments 2 uniform:8 powerlaw:8 \
        file:/tmp/zipf.txt uniform:100 powerlaw:100 powerlaw:1000 uniform:10000 uniform:1
done
echo "--- every type and operator, after $(since) s"
check_every_type $B lane_run_early_segments,lane_run_wide_segments,lane_run_both_segments \
    uniform:8 file:/tmp/zipf.txt
for variant in early wide; do
    echo "--- tests of lane_run_${variant}_segments, after $(since) s"
    timeout 240 /tmp/p/tests/test_shapes_gpu --shape segments --method lane_run_${variant}_segments \
        >/tmp/t.log 2>&1
    echo "test_shapes_gpu rc=$?"; grep -v "^ok " /tmp/t.log | head -20; grep -c "^ok " /tmp/t.log
done
echo "--- the wide kernel's launch, after $(since) s"
timeout 120 ncu --kernel-name regex:lane_run_segments_kernel --launch-count 1 --metrics \
    launch__grid_size,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem \
    $B --segments uniform:100 -S 1 -w 0 -m lane_run_wide_segments 2>&1 | grep -E "launch__|lane_run" | head -8
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_early_wide_probe.log
