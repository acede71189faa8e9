#!/usr/bin/env bash
# Session 36, call 3: what joining the tiles' segments inside step 37's
# tiles' kernel could save (PROBE36 modes: 0 as-is, 1 no last kernel, 2 no
# last kernel + a value-carrying 64-bit atomicExch at each warp boundary,
# 3 no last kernel + a fence, a ticket and an L2 read at each boundary).
# Modes 1-3 leave the segments that cross tiles unjoined: timing only.
set -uo pipefail
mkdir -p /tmp/p
xz -dc deps/probe36/bench_compare.xz >/tmp/p/b && chmod +x /tmp/p/b || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 bench/zipf_lengths.py >/tmp/p/zipf.txt
python3 -c "import sys; sys.stdout.write('8\n' * ((1 << 24) // 8))" >/tmp/p/len8.txt
/tmp/p/b -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " | awk '{print "-- whole:", $3, $4}'
for round in 1 2; do
    for spec in uniform:8 powerlaw:8 file:/tmp/p/zipf.txt uniform:100 file:/tmp/p/len8.txt; do
        for v in 0 1 2 3; do
            printf -- "-- %s PROBE36=%s: " "$spec" "$v"
            PROBE36=$v /tmp/p/b --segments "$spec" -S 100 -m lane_run_segments 2>&1 |
                grep -E "^lane_run_segments |rror" | awk '{printf "%s %s %s %s", $1, $3, $4, $12}'
            echo
        done
    done
done
echo "-- done"
