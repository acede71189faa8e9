#!/usr/bin/env bash
# Step 43 as kept (eb6d6fc: each chunk at the input's place in a 128-byte
# row), built on the CPU machine and packed: the row tests of every method,
# the sanitizers over step 43, every type and operator at 33 columns
# (aligned and one element off), and the float sum and argmax of a few
# narrow widths beside adaptive_rows and CUB's segmented reduce.
# Predicted: every test right; staged_lane_rows as the probe's
# staged_lane_aligned_rows (h200_staged_lane_aligned_18aca15.log).
source bench/results/experiments/probe_setup.sh deps/staged_kept_pack.tar.xz
{
B=/tmp/p/bench/bench_compare T=/tmp/p/tests/test_shapes_gpu
echo "--- test_shapes_gpu --shape rows, after $(since) s"
timeout 200 $T --shape rows 2>&1 | grep -E '^(ok|FAIL|not ok)' | head -40
echo "test_shapes_gpu rc=${PIPESTATUS[0]}"
for tool in memcheck racecheck synccheck; do
    timeout 100 bash tests/run_sanitizer.sh $tool $T --quick --seed 1 --shape rows --method staged_lane_rows 2>&1 | tail -1
    echo "== $tool rc=${PIPESTATUS[0]} after $(since) s"
done
for args in "--rows 508400 --cols 33" "--rows 508400 --cols 33 --offset 1"; do
    timeout 60 $B $args --type all --op all -S 3 -w 1 -m staged_lane_rows >/tmp/b.log 2>&1
    echo "$args rc=$? $(awk '$2 ~ /^(sum|max|min|argmax|argmin)$/ {n++; if ($0 !~ /PASS/) {bad++; print "NOT PASS: " $0}}
                    END {print n " rows, " bad + 0 " not PASS"}' /tmp/b.log)"
done
time_whole_array $B
for args in "--rows 508400 --cols 33" "--rows 508400 --cols 33 --op argmax" "--rows 132104 --cols 127" "--rows 133152 --cols 63 --type double"; do
    timeout 60 $B $args -S 100 -m staged_lane_rows,adaptive_rows,cub_segmented 2>&1 |
        grep -E '^(staged_lane_rows|adaptive_rows|cub_segmented) ' | cut -c1-110 | sed "s|^|$args: |"
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/staged_lane_kept_checks.log
