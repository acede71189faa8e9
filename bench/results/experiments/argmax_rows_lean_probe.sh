#!/usr/bin/env bash
# On the device machine: build argmax_rows_lean_probe.cu there and time a
# lean block a row (CUB's launch shape, about 80 warp instructions a warp
# outside warp 0 in local sm_90 SASS, against CUB's 161 a warp under Nsight
# Compute and the suite's probe of session 63 at 239) beside CUB's segmented
# ArgMax and a plain read of the same 64 MiB, float argmax rows of 2048,
# 4096, 8192 and 16384 columns; then Nsight Compute's instruction counts
# of the lean kernel and CUB's at 2048.
# Question: was the instruction count the whole of CUB's lead at 2048?
# Prediction (H200): plain read about 19.3 us; at 2048 lean 19.2-19.6
# against CUB 19.2-19.3 (level: CUB is at the plain read's pace); at 8192
# and 16384 lean 19.4-19.8 against CUB's 19.6 and 20.1; every row right.
# Run: bash bench/results/experiments/argmax_rows_lean_probe.sh (nothing to carry; about a minute).
set -uo pipefail
dir=bench/results/experiments
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvcc -O3 -std=c++20 -arch=sm_90 -Xptxas -v -I kernels/blocks -I src/gpu -I src/host -o /tmp/lean \
    $dir/argmax_rows_lean_probe.cu src/gpu/cuda_check.c 2>&1 | grep -E "registers|error" | head -8
/tmp/lean 2048 4096 8192 16384
/tmp/lean 2048 8192
for kernel in lean_argmax DeviceSegmented; do
    timeout 120 ncu --cache-control all --clock-control none -c 5 \
        --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum \
        --print-summary per-kernel -k regex:"$kernel" /tmp/lean 2048 2>&1 |
        grep -E "lean_argmax|DeviceSegmented|gpu__time|inst_executed|warps_active|dram__bytes" | cut -c1-140
done
