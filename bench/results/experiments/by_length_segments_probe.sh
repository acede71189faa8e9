#!/usr/bin/env bash
# Session 35, probe: step 39 (by_length_segments) against step 37 and a
# thread per row, with switches PROBE39_MIN (5: 48 registers, 1: 63),
# PROBE39_SHORT / PROBE39_MIDDLE (class limits in bytes), PROBE39_DIV
# (the parts' kernel grid divided by it).
set -uo pipefail
mkdir -p /tmp/p
xz -dc deps/probe35/bench_compare.xz >/tmp/p/b && chmod +x /tmp/p/b || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 bench/zipf_lengths.py >/tmp/p/zipf.txt
/tmp/p/b -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " | awk '{print "-- whole:", $3, $4}'
run() { # spec, variant name, env...
    local spec=$1 name=$2; shift 2
    printf -- "-- %s %s: " "$spec" "$name"
    env "$@" /tmp/p/b --segments "$spec" -S 100 -m by_length_segments,lane_run_segments 2>&1 |
        grep -E "^(by_length_segments|lane_run_segments) |rror" | awk '{printf "%s %s %s %s  ", $1, $3, $4, $12}'
    echo
}
for spec in uniform:8 powerlaw:8 file:/tmp/p/zipf.txt uniform:16 powerlaw:16 powerlaw:100 uniform:100; do
    run $spec v0 X=0
    run $spec min1 PROBE39_MIN=1
    run $spec div3 PROBE39_DIV=3
    run $spec short32 PROBE39_SHORT=32
    run $spec short128 PROBE39_SHORT=128
    run $spec middle256 PROBE39_MIDDLE=256
done
/tmp/p/b --segments uniform:8 -S 100 -m thread_per_row 2>&1 | grep -E "^thread_per_row " | awk '{print "-- uniform:8 thread_per_row", $3, $4, $12}'
/tmp/p/b -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " | awk '{print "-- whole:", $3, $4}'
echo "-- correctness: every type and operator"
for spec in uniform:8 file:/tmp/p/zipf.txt powerlaw:1000 uniform:1; do
    for v in X=0 PROBE39_MIDDLE=128 PROBE39_MIN=1; do
        env $v /tmp/p/b --segments $spec --type all --op all -S 2 -m by_length_segments 2>&1 |
            grep -E "^by_length_segments |rror" | awk -v s=$spec -v v=$v '{print s, v, $12}'
    done
done | sort | uniq -c
echo "-- done"
