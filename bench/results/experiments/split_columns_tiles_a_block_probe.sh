#!/usr/bin/env bash
# Ready, not run (session 37 ran out of device time): split_columns with a
# block of 2 or 4 tiles where the tiles outnumber the resident blocks
# (split_columns_tiles_a_block_in_one_wave.patch, which also states in
# test_column_cuts the plan it expects; new: the same change made on 85b31ce,
# before the cut moved to column_cuts.cuh, carried as
# deps/probe37l/bench_compare.xz) against 85b31ce (old: deps/probe37k, unpacked
# into /tmp/p/old by a call before on the same machine:
#   mkdir -p /tmp/p && xz -dc deps/probe37k/bench_compare.xz >/tmp/p/old && chmod +x /tmp/p/old).
# Both CCCL 3.5 builds for sm_90 made off the GPU machine.
# Prediction: down 65536 and 131072 floats (512 and 1024 tiles; two rounds of
# the 264 resident blocks at old) new reads about as 32768 does, about 26.7 us;
# 16384 and 32768, whose cut does not change, level.
set -uo pipefail
test -x /tmp/p/old || { echo "no /tmp/p/old: unpack it in a call before on this machine"; exit 1; }
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
xz -dc deps/probe37l/bench_compare.xz >/tmp/p/new && chmod +x /tmp/p/new || exit 1
for round in 1 2; do
    for cols in 16384 32768 65536 131072; do
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
for cols in 65536 131072; do
    /tmp/p/new --cols $cols --axis 0 --type all --op all -S 2 -w 1 -m split_columns 2>&1 |
        grep split_columns | grep -oE "PASS|FAIL|REFUSED" | sed "s|^|$cols |"
done | sort | uniq -c
echo "-- done"
