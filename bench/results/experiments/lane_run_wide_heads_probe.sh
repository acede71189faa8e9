#!/usr/bin/env bash
# Step 37's last kernel folding a long segment's heads with 32 reads in
# flight a lane (512 tiles a trip to L2 become 1024): the Zipf group-by's
# longest segment, about 1100 tiles past its first round, then takes two
# trips, not three. The probe, lane_run_wide_heads_segments, is step 37
# with combine_tile_parts<A, Op, 2 * KNOWN_HEADS_IN_FLIGHT>; the reads in
# flight a template parameter of combine_tile_parts, its kernel,
# fold_long_segment and fold_known_heads (default unchanged, so step 37
# and step 36 as they are; lane_run_wide_heads_probe_2c65f91.patch). Build
# on the CPU machine (Release, sm_90) at
# 2c65f91 with that change and the copy as kernels/rows/37_probe_wide_heads.cu
# (every lane_run_segments in it renamed, its METHOD line after
# lane_run_segments):
#   ninja -C build-rel bench_compare test_shapes_gpu
#   tar -C build-rel -cf - bench/bench_compare tests/test_shapes_gpu |
#       xz -T2 --lzma2=preset=6,dict=256MiB > deps/wide_heads_pack.tar.xz
# Predictions: the last kernel on the Zipf group-by 0.3-0.6 us shorter
# under Nsight Compute (4.35-4.45 in session 74), the step as much faster
# in the bench; level (within 0.15 us) at every other distribution, whose
# segments past the first round need one trip either way; every test right.
source bench/results/experiments/probe_setup.sh deps/wide_heads_pack.tar.xz
{
B=/tmp/p/bench/bench_compare T=/tmp/p/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
for method in lane_run_segments lane_run_wide_heads_segments; do
    echo "=== the Zipf group-by, $method's last kernel, after $(since) s"
    timeout 90 ncu --clock-control none --cache-control none -k "regex:combine_tile_parts_kernel" \
        --launch-skip 2 -c 2 --metrics gpu__time_duration.sum,launch__registers_per_thread \
        "$B" --segments file:/tmp/zipf.txt -m $method -S 3 -w 1 2>&1 | grep -E "gpu__|launch__" | sed 's/^ */  /'
done
time_whole_array $B
time_two_methods $B lane_run_segments lane_run_wide_heads_segments 3 file:/tmp/zipf.txt \
    powerlaw:1000 powerlaw:100 uniform:100 uniform:8
echo "--- the double sum on the Zipf group-by, after $(since) s"
for round in 1 2; do
    timeout 60 $B --segments file:/tmp/zipf.txt --type double -S 100 \
        -m lane_run_segments,lane_run_wide_heads_segments 2>&1 | grep -E "^lane_run"
done
echo "--- test_shapes_gpu, after $(since) s"
timeout 150 $T --shape segments --method lane_run_wide_heads_segments 2>&1 | tail -3
echo "test_shapes_gpu rc=${PIPESTATUS[0]}"
echo "--- every type and operator, after $(since) s"
check_every_type $B lane_run_wide_heads_segments powerlaw:1000 file:/tmp/zipf.txt
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_wide_heads_probe.log
