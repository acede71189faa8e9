#!/usr/bin/env bash
# Session 35, probe 2: where step 39's time goes at uniform:8 (no long
# segments): without the parts' kernel (PROBE39_SKIP), with one block of it
# (PROBE39_DIV=100000), beside a thread per row; the kernels' own times by ncu.
set -uo pipefail
mkdir -p /tmp/p
xz -dc deps/probe35/bench_compare.xz >/tmp/p/b && chmod +x /tmp/p/b || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
for round in 1 2; do
    for v in X=0 PROBE39_SKIP=1 PROBE39_DIV=100000 PROBE39_MIN=1; do
        printf -- "-- uniform:8 %s: " "$v"
        env $v /tmp/p/b --segments uniform:8 -S 100 -m by_length_segments,thread_per_row 2>&1 |
            grep -E "^(by_length_segments|thread_per_row) |rror" | awk '{printf "%s %s %s %s  ", $1, $3, $4, $12}'
        echo
    done
done
timeout 120 ncu --clock-control none -k regex:"short_and_middle|long_parts|lane_group_rows" -c 6 \
    --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__bytes_read.sum \
    /tmp/p/b --segments uniform:8 -S 1 -w 1 -m by_length_segments,thread_per_row 2>&1 | grep -E "short_and|long_parts|lane_group|duration|registers|warps_active|inst_executed|dram__bytes" | cut -c1-150
echo "-- done"
