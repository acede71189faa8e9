#!/usr/bin/env bash
# split_columns with session 37's two ready patches (written then for
# binaries of 34ff2c1; run in session 39, call 2, in this form)
# (split_columns_tiles_a_block_in_one_wave.patch and
# split_columns_fewer_parts_in_strips.patch; new) against 9d7b324 (old), both
# bench_compare built off the GPU machine for sm_90 (toolkit CCCL, no PyTorch),
# alternating order by round; then every type and operator with new.
set -uo pipefail
nvidia-smi --query-gpu=name,uuid,clocks.max.sm,clocks.max.mem --format=csv,noheader
mkdir -p /tmp/p
xz -dc deps/probe39/pair.tar.xz | tar -C /tmp/p -xf - && mv /tmp/p/old.s /tmp/p/old && mv /tmp/p/new.s /tmp/p/new || exit 1
/tmp/p/new --version | head -2
start=$(date +%s)
for round in 1 2; do
    for cols in 128 256 512 1024 2048 4096 16384 32768 65536 131072; do
        order="old new"; [ "$round" = 2 ] && order="new old"
        for b in $order; do
            printf -- "-- cols=%s %s (round %s):" "$cols" "$b" "$round"
            /tmp/p/$b --cols $cols --axis 0 -m split_columns,cublas_columns 2>&1 |
                grep -E "^(split_columns|cublas_columns) " | awk '{printf " %s %s %s", $1, $3, $12}'
            echo
        done
    done
done
echo "-- A/B done after $(($(date +%s) - start)) s"
echo "-- every type and operator, new (PASS / FAIL / REFUSED lines naming split_columns)"
for cols in 256 1024 65536 131072; do
    /tmp/p/new --cols $cols --axis 0 --type all --op all -S 2 -w 1 -m split_columns 2>&1 |
        grep split_columns | grep -oE "PASS|FAIL|REFUSED" | sed "s|^|$cols |"
done | sort | uniq -c
echo "-- done after $(($(date +%s) - start)) s"
