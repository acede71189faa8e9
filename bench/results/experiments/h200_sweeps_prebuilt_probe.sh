#!/usr/bin/env bash
# Session 36: on an H200 only - the segment sweep, the argmax row sweep and
# the column sweep with HEAD's CCCL 3.5 build (built off the GPU machine,
# for sm_90, without PyTorch: its torch rows are REFUSED). Each stage's
# files are packed as it ends (a call returns eight files at most).
set -uo pipefail
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$name"
case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
mkdir -p build-cccl/bench
xz -dc deps/probe36c/bench_compare.xz >build-cccl/bench/bench_compare && chmod +x build-cccl/bench/bench_compare || exit 1
for stage in segment_sweep argmax_rows columns; do
    mkdir -p "/tmp/o/$stage"
    OUT="/tmp/o/$stage" GPU_CHECK_BUILD=build-cccl timeout 180 bash bench/gpu_check.sh "$stage"
    tar -C /tmp/o -czf "$OUT/h200_$stage.tgz" "$stage"
done
