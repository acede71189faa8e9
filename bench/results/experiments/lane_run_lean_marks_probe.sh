#!/usr/bin/env bash
# Step 37 with fewer instructions an end (lane_run_segments, this build)
# against step 37 as at c7fced2 (lane_run_main_segments, the same binary):
# every lane of a marking batch ORs into the end bits (a closing end its
# bit, the others nothing into their own word), so no branch and no
# convergence point surround the atomic; the results' batches whose empty
# words the tile kept run in a loop of their own, without a test a batch
# for the words it did not keep; a result's address from the tile's first
# output. Then the segment tests and the sanitizers over the new build,
# and every type and operator checked.
# Build on the CPU machine (Release, sm_90) with the change and step 37 as
# at c7fced2 beside it:
#   git show c7fced2:kernels/rows/37_lane_run_segments.cu |
#       sed 's/^DEFINE_METHOD(lane_run_segments,/DEFINE_METHOD(lane_run_main_segments,/' \
#       > kernels/rows/37_probe_main.cu
#   (and METHOD(lane_run_main_segments) after lane_run_segments in src/gpu/method_list.h)
#   ninja -C build-rel bench_compare test_shapes_gpu
#   tar -C build-rel -cf - bench/bench_compare tests/test_shapes_gpu |
#       xz --lzma2=preset=6,dict=256MiB > deps/marks_pack.tar.xz
# The float sum's marking batch: about 40 instructions where it took 43 and
# a branch around the atomic; a results batch 3-4 fewer (SASS here, by
# cuobjdump and nvdisasm from the CUDA 13.5 wheels).
# Run: bash bench/results/experiments/lane_run_lean_marks_probe.sh (carry deps/).
# Predictions: every test and sanitizer clean; 0.3-1.0 us faster where
# tiles hold many ends (uniform:8, powerlaw:8, the Zipf group-by), 0-0.3
# at the means of 100 and 1000, level at uniform:10000.
source bench/results/experiments/probe_setup.sh deps/marks_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
T=/tmp/p/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
time_whole_array $B
time_two_methods $B lane_run_segments lane_run_main_segments 3 uniform:8 powerlaw:8 file:/tmp/zipf.txt \
    uniform:100 powerlaw:100 powerlaw:1000 uniform:10000 uniform:1
echo "--- tests, after $(since) s"
check_segment_tests $T lane_run_segments
echo "--- every type and operator, after $(since) s"
check_every_type $B lane_run_segments uniform:1 uniform:8 powerlaw:1000 file:/tmp/zipf.txt
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_lean_marks_probe.log
