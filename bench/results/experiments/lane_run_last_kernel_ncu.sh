#!/usr/bin/env bash
# Session 35, call 5: ncu times of step 37's two kernels where the last
# kernel joins nothing (every length 8 on an aligned input) and where it
# joins a segment at almost every tile (uniform:8, powerlaw:8).
set -uo pipefail
mkdir -p /tmp/p
xz -dc deps/cccl34/bench_compare.xz >/tmp/p/b && chmod +x /tmp/p/b || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c "import sys; sys.stdout.write('8\n' * ((1 << 24) // 8))" >/tmp/p/len8.txt
for spec in file:/tmp/p/len8.txt uniform:8 powerlaw:8; do
    echo "== $spec"
    timeout 100 ncu --clock-control none -k regex:"lane_run_segments_kernel|combine_tile_parts" -c 6 \
        --metrics gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum \
        /tmp/p/b --segments "$spec" -S 2 -w 1 -m lane_run_segments 2>&1 |
        grep -E "^  [a-z].*(lane_run_segments_kernel|combine_tile_parts)|duration|inst_executed|bytes_write|sectors_op_write" | cut -c1-110
done
echo "-- done"
