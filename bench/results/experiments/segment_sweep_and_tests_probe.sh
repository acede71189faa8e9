#!/usr/bin/env bash
# Session 35, call 8: step 37 with empty segments written in the sweep
# (3e5e1c5): the segment sweep (CCCL 3.5 binary built here), then the
# default build and the README's tests.
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p build-cccl/bench
xz -dc deps/cccl35/bench_compare.xz >build-cccl/bench/bench_compare && chmod +x build-cccl/bench/bench_compare
SUITE_COMMIT=3e5e1c5 timeout 560 bash bench/gpu_check.sh segment_sweep build quicktest
cd "$OUT" && mkdir -p sweep && mv segment_sweep* zipf_lengths.txt sweep/ 2>/dev/null
tar czf segment_sweep_3e5e1c5.tgz sweep && rm -rf sweep
