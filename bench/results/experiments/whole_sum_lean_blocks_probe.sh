#!/usr/bin/env bash
# On the device machine: build whole_sum_lean_blocks_probe.cu there and time
# the whole-array float sum of 64 MiB by blocks that each read one chunk
# (8, 16 or 32 KiB) with every load issued first, joined four ways, beside a
# plain grid-stride read; two rounds.
# Question: does the shape that read argmax rows of 2048 floats at 18.62 us
# (faster than the plain read, 19.42) keep its pace once the blocks must
# be joined? one_pass_ilp takes about 20.5 us on an H200.
# Prediction (H200): plain read about 19.4; atomic_8k 18.8-19.5 (the
# atomics spread over the kernel); kernel_8k 20.5-21.5 (a second launch);
# ticket_16k 19.0-20.0 and ticket_32k 19.0-19.8 (4096 and 2048 tickets, the
# last block's add of their totals); every result right.
# Run: bash bench/results/experiments/whole_sum_lean_blocks_probe.sh (nothing to carry; under a minute).
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvcc -O3 -std=c++20 -arch=sm_90 -Xptxas -v -I kernels/blocks -I src/gpu -I src/host -o /tmp/wsum \
    bench/results/experiments/whole_sum_lean_blocks_probe.cu src/gpu/cuda_check.c 2>&1 | grep -E "registers|error"
/tmp/wsum
