#!/usr/bin/env bash
# On the device machine: build column_read_floor_probe.cu there and time the
# first pass of a column sum with nothing else in it (a block of whole rows
# of vectors, each thread four fixed columns, four loads in flight; the
# block's rows added in shared memory) at widths where the suite's column
# steps and cuBLAS read slowly (992, 1000, 1004 is not a multiple of 16 bytes
# a row, so 1008) and where they do not (256, 1024, 4096); then, given a
# bench_compare (Release, sm_90) as the argument, the suite's column steps
# and cuBLAS at the same widths, 16 Mi floats cut to whole rows.
# Question: is 1000 columns' shortfall (86.7% of the whole array on the
# H200, both libraries alike) in reading that pattern at all, or in what
# the column steps add to it?
# Prediction: column_pass within 3% of the values alone at every width,
# 1000 included: the loss is in the steps' combine, not the read.
# Seen (h200_column_read_floor_5571e48.log): column_pass 99-102% of the
# values alone at every width, 1000 included (19.18 us; the steps and
# cuBLAS 23.4-23.6). Second question: what does adding the blocks' rows
# cost - a second kernel of many blocks (combine_rows) against the last
# block to finish doing it alone (as steps 32, 38 and 39 do)?
# Prediction at 1000 columns: two kernels about 20.7 us, the last block
# about 23.
# Seen (h200_column_read_floor_combine_c3374fd.log): the second kernel
# 22.2-23.0 us at every width (3.4 over the pass: the launch), the last
# block 28.5 at 1000 and 50.5 at 4096. The suite's steps: 23.49 at 1000,
# 21.3 at 1024. Third question: a grid-wide barrier, then every block its
# own columns. Prediction: about 20.8 us at 1000, 1024 and 4096.
# Seen (h200_column_read_floor_grid_sync_ad484cd.log): 22.1 us at 1000,
# 22.05 at 1024, 22.2 at 4096 - as the second kernel. Fourth question: the
# floor of any combine after the read - each block's row added by atomic
# adds (the sums zeroed outside the timing). Prediction: about 20.3 us.
# Seen (h200_column_read_floor_atomic_b492a03.log): 24.06 us at 1000,
# 20.90 at 256. Fifth question: is 1000 columns' extra cost in the suite
# (4.3 us over the read, 2.2 at 1024) the combine, or split_columns' cut
# - a warp a tile of 128 columns of one row, 32 bytes into a line at 1000
# columns? tile_pass reads that cut alone. Prediction: 1000 about 21.5 us,
# 1024 about 19.3.
# Run: bash bench/results/experiments/column_read_floor_probe.sh [BENCH_COMPARE] (about a minute).
set -uo pipefail
dir=bench/results/experiments
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -I src/gpu -o /tmp/colfloor $dir/column_read_floor_probe.cu \
    src/gpu/cuda_check.c 2>&1 | grep -E "registers|error"
{
/tmp/colfloor 256 992 1000 1008 1024 4096
bench=${1:-}
if [ -n "$bench" ]; then
    for cols in 256 992 1000 1008 1024 4096; do
        rows=$(( 16777216 / cols ))
        timeout 60 $bench --cols $cols --rows $rows --axis 0 -S 100 -m split_columns,flat_columns,cublas_columns 2>&1 |
            grep -E "^(split_columns|flat_columns|cublas_columns) " | sed "s/^/cols $cols  /"
    done
fi
} | tee ${OUT:-/tmp}/column_read_floor.log
