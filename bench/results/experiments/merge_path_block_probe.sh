#!/usr/bin/env bash
# Probe: step 36 with smaller blocks, more of them an SM (the threads an SM
# and the items a thread as before, or more items). Run on a GPU machine
# after bench/gpu_check.sh build; appends to $OUT/block_probe.log.
# Variants: threads a block, blocks an SM, bytes a thread (items: 21 at 176,
# 25 at 200, 27 at 232 for floats).
set -uo pipefail
f=kernels/rows/36_merge_path_segments.cu
c=kernels/blocks/segment_carries.cuh
b=build-gpu/bench/bench_compare
log=$OUT/block_probe.log
python3 bench/zipf_lengths.py > /tmp/zipf.txt
for v in "256 4 176" "128 8 176" "128 7 200" "128 6 232"; do
  set -- $v
  sed -i "s/^constexpr int SEGMENT_BLOCK = .*/constexpr int SEGMENT_BLOCK = $1;/" $c
  sed -i "s/^constexpr int MIN_BLOCKS_PER_SM = .*/constexpr int MIN_BLOCKS_PER_SM = $2;/; s/^constexpr int TILE_BYTES_PER_THREAD = .*/constexpr int TILE_BYTES_PER_THREAD = $3;/" $f
  cmake --build build-gpu -j16 --target bench_compare test_shapes_gpu >/dev/null 2>&1 || { echo "build $v failed" >>$log; continue; }
  echo "=== threads=$1 blocks=$2 bytes=$3" >>$log
  build-gpu/tests/test_shapes_gpu --method merge_path_segments --quick 2>&1 | tail -2 >>$log
  $b -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " >>$log
  for s in uniform:1 uniform:8 uniform:100 uniform:10000 powerlaw:8 powerlaw:100 file:/tmp/zipf.txt; do
    echo "-- $s" >>$log
    $b --segments $s -S 100 -m merge_path_segments 2>&1 | grep -E "^merge_path_segments " >>$log
  done
done
git checkout $f $c
