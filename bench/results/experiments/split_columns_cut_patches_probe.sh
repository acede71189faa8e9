#!/usr/bin/env bash
# Ready, not run (session 37 ran out of device time): split_columns with both
# ready patches - split_columns_tiles_a_block_in_one_wave.patch (a block of 2
# or 4 tiles where the tiles outnumber the resident blocks) and
# split_columns_fewer_parts_in_strips.patch (strips of 4 rows where a span's
# tiles would need 32 parts or more) - on 34ff2c1 (new: deps/probe37m,
# carried) against 34ff2c1 (old: deps/probe37k, unpacked by a call before
# on the same machine:
#   mkdir -p /tmp/p && xz -dc deps/probe37k/bench_compare.xz >/tmp/p/old && chmod +x /tmp/p/old).
# Both CCCL 3.5 builds for sm_90 made off the GPU machine; each patch's
# test_column_cuts states the plan it expects.
# Predictions: down 65536 and 131072 floats (two rounds of the resident
# blocks at old) new reads about as 32768 does; down 256 about 0.4 us faster
# (session 37, call 4), 512 faster, 1024 level; 2048, 16384 and 32768, whose
# cut does not change, level.
set -uo pipefail
test -x /tmp/p/old || { echo "no /tmp/p/old: unpack it in a call before on this machine"; exit 1; }
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
xz -dc deps/probe37m/bench_compare.xz >/tmp/p/new && chmod +x /tmp/p/new || exit 1
for round in 1 2; do
    for cols in 256 512 1024 2048 16384 32768 65536 131072; do
        order="old new"; [ "$round" = 2 ] && order="new old"
        for b in $order; do
            printf -- "-- cols=%s %s (round %s):" "$cols" "$b" "$round"
            /tmp/p/$b --cols $cols --axis 0 -m split_columns,cublas_columns,torch 2>&1 |
                grep -E "^(split_columns|cublas_columns|torch) " | awk '{printf " %s %s %s", $1, $3, $12}'
            echo
        done
    done
done
echo "-- every type and operator, new (PASS / FAIL / REFUSED lines naming split_columns)"
for cols in 256 1024 65536 131072; do
    /tmp/p/new --cols $cols --axis 0 --type all --op all -S 2 -w 1 -m split_columns 2>&1 |
        grep split_columns | grep -oE "PASS|FAIL|REFUSED" | sed "s|^|$cols |"
done | sort | uniq -c
echo "-- done"
