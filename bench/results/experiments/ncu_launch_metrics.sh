#!/usr/bin/env bash
# Each kernel a bench_compare call launches, but the L2 flush's read sweeps
# and the empty kernel: its grid, block, registers, occupancy, time, DRAM
# bytes and throughput, by Nsight Compute (one line a metric).
#
#   ncu_launch_metrics.sh BUILD BENCH_ARGS...
#     e.g. ncu_launch_metrics.sh build-gpu --cols 4096 --axis 0 -m cublas_columns -S 2 -w 1
# Appends to $OUT/launch_metrics.log.
set -uo pipefail
build=$1; shift
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,\
launch__registers_per_thread,launch__shared_mem_per_block_static,\
sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers
{
    echo "=== $*"
    ncu --metrics "$metrics" --kernel-name 'regex:^(?!read_sweep|empty_kernel)' --launch-count 6 \
        "$build/bench/bench_compare" "$@" 2>&1 |
        awk '/^  [^ ]/ { keep = $1 !~ /^(read_sweep|empty_kernel)/ } keep && /^  / { print }'
} >>"${OUT:?set OUT}/launch_metrics.log"
