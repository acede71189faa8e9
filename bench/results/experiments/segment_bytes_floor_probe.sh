#!/usr/bin/env bash
# On the device machine: build segment_bytes_floor_probe.cu there and time
# the bytes of segmented sums of means 2-1024 floats with no dependences,
# beside the values alone (the whole array's pace), 64 MiB of floats.
# Question: how far below the whole array's GB/s is the floor of a segment
# shape's own bytes? The segments' goal is 85% of the whole array's GB/s
# counted the same way; the best of ours at uniform:8 reads about 77%.
# Prediction: at a mean of 8, 93-97% (the offsets and results are streams
# too; the writes turn the bus around).
# Run: bash bench/results/experiments/segment_bytes_floor_probe.sh (nothing to carry; under a minute).
set -euo pipefail
dir=bench/results/experiments
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -I src/gpu -o /tmp/floor $dir/segment_bytes_floor_probe.cu \
    src/gpu/cuda_check.c 2>&1 | grep -E "registers|error"
echo "16-byte global loads and stores a kernel, in SASS:"
cuobjdump -sass /tmp/floor | awk '/Function :/ {f = $3} /LDG.E.128|STG.E.128/ {c[f]++}
                                  END {for (k in c) print "  " k, c[k]}'
/tmp/floor 16777216 2 4 8 16 128 1024 | tee ${OUT:-/tmp}/segment_bytes_floor.log
