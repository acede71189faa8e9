#!/usr/bin/env bash
# Step 43 with each chunk placed in its warp's buffer at the input's own
# place in a 128-byte row. Step 43's warps keep buffers of 32 rows and two
# vectors of slack, one after another: at 33 floats 266 vectors a warp, so
# warps 1-3 start 32, 64 and 96 bytes past a row of banks while every
# chunk's input starts on one (32 rows of 33 floats are 33 rows of 128
# bytes) - what cost step 37's in-warp join 1.2-1.7 us
# (h200_lane_run_warp_join_stalls_c69d4ca.log). The probe,
# staged_lane_aligned_rows (kernels/rows/43_probe_aligned.cu: a copy of step 43
# patched by staged_lane_aligned_probe_98dcf19.patch, step 43
# renamed): buffers of a multiple of eight vectors with seven more of
# slack, the shared array on a 128-byte boundary, and a chunk copied from
# vector (input's 16-byte index + first vector) mod 8 of its buffer.
# Build on the CPU machine (Release, sm_90) at 98dcf19 with the copy and its
# METHOD line after staged_lane_rows:
#   ninja -C build-rel bench_compare test_shapes_gpu
#   tar -C build-rel -cf - bench/bench_compare tests/test_shapes_gpu |
#       xz -T2 --lzma2=preset=6,dict=256MiB > deps/staged_aligned_pack.tar.xz
# Predictions: at 33 floats the copies' excessive L2 sectors and shared
# wavefronts near zero (step 43's: many, on its LDGSTS); the float sum of 33
# and 127 floats and the argmax of 33 0.3-1.0 us faster; level (within 0.2) where
# warps' buffers were already aligned; every test right.
source bench/results/experiments/probe_setup.sh deps/staged_aligned_pack.tar.xz
{
B=/tmp/p/bench/bench_compare T=/tmp/p/tests/test_shapes_gpu
S=bench/results/experiments/ncu_source_stalls.sh
for kernel in staged_lane_rows_kernel staged_lane_aligned_rows_kernel; do
    bash $S /tmp/p $kernel --rows 508400 --cols 33 -m ${kernel%_kernel} -S 3 -w 1
done
python3 bench/stall_lines.py --excess "$OUT"/*.sass.csv
time_whole_array $B
for round in 1 2; do
    methods=staged_lane_rows,staged_lane_aligned_rows
    [ $round = 2 ] && methods=staged_lane_aligned_rows,staged_lane_rows
    for args in "--rows 508400 --cols 33" "--rows 132104 --cols 127" "--rows 508400 --cols 33 --op argmax" "--rows 133152 --cols 63 --type double"; do
        timeout 60 $B $args -S 100 -m $methods 2>&1 | grep -E "^staged" | sed "s|^|$args [$round] |"
    done
done
echo "--- test_shapes_gpu --shape rows, after $(since) s"
timeout 60 $T --shape rows --method staged_lane_aligned_rows 2>&1 | tail -3
echo "test_shapes_gpu rc=${PIPESTATUS[0]}"
echo "--- every type and operator, after $(since) s"
for args in "--rows 508400 --cols 33" "--rows 508400 --cols 33 --offset 1"; do
    timeout 40 $B $args --type all --op all -S 3 -w 1 -m staged_lane_aligned_rows >/tmp/b.log 2>&1
    echo "$args rc=$? $(awk '$2 ~ /^(sum|max|min|argmax|argmin)$/ {n++; if ($0 !~ /PASS/) {bad++; print "NOT PASS: " $0}}
                    END {print n " rows, " bad + 0 " not PASS"}' /tmp/b.log)"
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/staged_lane_aligned_probe.log
