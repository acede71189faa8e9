#!/usr/bin/env bash
# balanced_segments with the tiles' first segments from a first kernel: tests, row sanitizers, segments.
set -u
export OUT=${OUT:-/tmp/out}
b=build-gpu
bench/gpu_check.sh build > /dev/null 2>&1; tail -n 1 $OUT/gpu_check.log
$b/tests/test_shapes_gpu > $OUT/shapes.log 2>&1; echo "test_shapes_gpu exit $?"; grep -E "FAIL|CHECK|balanced|adaptive" $OUT/shapes.log | head -8
$b/bench/bench_compare -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp"
for s in uniform:8 uniform:100 uniform:10000 powerlaw:100; do
  $b/bench/bench_compare --segments $s -S 100 -m balanced_segments,adaptive_rows 2>&1 | grep -E "^shape|^(balanced|adaptive)"
done
ctest --test-dir $b -R "sanitize_(memcheck|racecheck|synccheck|initcheck)_rows" -j 4 2>&1 | grep -E "Test +#|tests passed|Failed"
