#!/usr/bin/env bash
# Run on a GPU machine after "git apply bench/results/experiments/merge_path_dynamic_shared.patch"
# (the tile in dynamic shared memory, past 48 KiB a block) and bench/gpu_check.sh build.
# Probe: step 36's tile size (items a thread) and blocks an SM.
set -uo pipefail
f=kernels/rows/36_merge_path_segments.cu
b=build-gpu/bench/bench_compare
log=$OUT/probe.log
python3 bench/zipf_lengths.py > /tmp/zipf.txt
for v in "288 3" "176 4" "424 2" "232 3"; do
  set -- $v
  sed -i "s/^constexpr int TILE_BYTES_PER_THREAD = .*/constexpr int TILE_BYTES_PER_THREAD = $1;/; s/^constexpr int MIN_BLOCKS_PER_SM = .*/constexpr int MIN_BLOCKS_PER_SM = $2;/" $f
  cmake --build build-gpu -j16 --target bench_compare test_shapes_gpu >/dev/null 2>&1 || { echo "build $v failed" >>$log; continue; }
  echo "=== variant bytes=$1 blocks=$2" >>$log
  build-gpu/tests/test_shapes_gpu --method merge_path_segments --quick 2>&1 | tail -2 >>$log
  $b -m one_pass_ilp -S 100 2>&1 | grep -E "one_pass_ilp" >>$log
  for s in uniform:1 uniform:8 uniform:100 uniform:10000 powerlaw:8 powerlaw:100 file:/tmp/zipf.txt; do
    echo "-- $s" >>$log
    $b --segments $s -S 100 -m merge_path_segments 2>&1 | grep -E "merge_path_segments" >>$log
  done
done
