#!/usr/bin/env bash
# The multi-GPU test beside a busy GPU, the fixed harness against the one
# before (its workspace zeroed on the legacy stream), alternately.
# Run after gpu_check.sh readme (uses /tmp/fresh/build).
set -u
b=/tmp/fresh/build
here=$PWD
cp $b/tests/test_multi_gpu /tmp/multi_new
(cd /tmp/fresh && patch -s -R -p1 < $here/bench/results/experiments/multi_gpu_fix.patch) && cmake --build $b --target test_multi_gpu >/dev/null && cp $b/tests/test_multi_gpu /tmp/multi_old
(cd /tmp/fresh && patch -s -p1 < $here/bench/results/experiments/multi_gpu_fix.patch) && cmake --build $b --target test_multi_gpu >/dev/null
cmp -s /tmp/multi_new $b/tests/test_multi_gpu && echo "rebuilt the fixed binary: same bytes"
declare -A runs fails
for round in 1; do
  $b/tests/test_methods_gpu > /dev/null 2>&1 & l1=$!
  $b/tests/test_shapes_gpu > /dev/null 2>&1 & l2=$!
  $b/tests/test_methods_gpu > /dev/null 2>&1 & l3=$!
  for i in 1 2 3 4; do
    for v in old new; do
      /tmp/multi_$v > /tmp/multi_$v.log 2>&1; rc=$?
      runs[$v]=$(( ${runs[$v]:-0} + 1 ))
      nf=$(grep -c ' FAIL ' /tmp/multi_$v.log)
      echo "round $round try $i $v: exit $rc, $nf FAIL rows"
      grep ' FAIL ' /tmp/multi_$v.log | grep -v test_wrong_value | head -3
      [ $rc -ne 0 ] && fails[$v]=$(( ${fails[$v]:-0} + 1 ))
    done
  done
  wait $l1 $l2 $l3
done
for v in old new; do echo "$v: ${fails[$v]:-0} of ${runs[$v]} runs failed"; done
