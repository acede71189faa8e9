#!/usr/bin/env bash
# Probe: split_columns' 16-byte loads in flight a lane (LOADS). Run on a GPU
# machine after bench/gpu_check.sh build; appends to $OUT/loads_probe.log.
set -uo pipefail
f=kernels/columns/32_split_columns.cu
b=build-gpu/bench/bench_compare
log=$OUT/loads_probe.log
for loads in 4 8 16; do
  sed -i "s/^constexpr unsigned LOADS = [0-9]*;/constexpr unsigned LOADS = $loads;/" $f
  cmake --build build-gpu -j16 --target bench_compare test_shapes_gpu >/dev/null 2>&1 || { echo "build $loads failed" >>$log; continue; }
  echo "=== LOADS=$loads" >>$log
  build-gpu/tests/test_shapes_gpu --method split_columns --quick 2>&1 | tail -1 >>$log
  for cols in 1 32 33 64 128 256 1024 4096 16384 65536; do
    echo "-- cols $cols" >>$log
    $b --cols $cols --axis 0 -S 100 -m split_columns,cublas_columns 2>&1 | grep -E "^(split_columns|cublas_columns) " >>$log
  done
done
git checkout $f
