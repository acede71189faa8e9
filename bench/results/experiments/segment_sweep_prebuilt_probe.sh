#!/usr/bin/env bash
# Session 36: the segment sweep at HEAD (11d92a3: step 37 as at dae39cc)
# with its CCCL 3.5 build made off the GPU machine for sm_90 (no PyTorch),
# its files packed into one archive (a call returns eight files at most).
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
mkdir -p build-cccl/bench /tmp/o/segment_sweep
xz -dc deps/probe36c/bench_compare.xz >build-cccl/bench/bench_compare && chmod +x build-cccl/bench/bench_compare || exit 1
OUT=/tmp/o/segment_sweep GPU_CHECK_BUILD=build-cccl timeout 300 bash bench/gpu_check.sh segment_sweep
tar -C /tmp/o -czf "$OUT/segment_sweep.tgz" segment_sweep
cp /tmp/o/segment_sweep/segment_sweep.md "$OUT/"
