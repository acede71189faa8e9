#!/usr/bin/env bash
# Session 35, probe 3: what step 37's last kernel costs where it has nothing
# to join. Lengths that divide a tile (1024 floats), on an aligned input:
# no segment crosses a tile, so without the last kernel (PROBE35_SKIP) the
# results stay right and the bench times the tiles' kernel alone.
set -uo pipefail
mkdir -p /tmp/p
xz -dc deps/probe35/bench_compare.xz >/tmp/p/b && chmod +x /tmp/p/b || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
for len in 4 8 32 1024; do
    python3 -c "import sys; sys.stdout.write('$len\n' * ((1 << 24) // $len))" >/tmp/p/len$len.txt
done
/tmp/p/b -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " | awk '{print "-- whole:", $3, $4}'
for round in 1 2; do
    for len in 4 8 32 1024; do
        for v in X=0 PROBE35_SKIP=1; do
            printf -- "-- every length %s %s: " "$len" "$v"
            env $v /tmp/p/b --segments file:/tmp/p/len$len.txt -S 100 -m lane_run_segments 2>&1 |
                grep -E "^lane_run_segments |rror" | awk '{printf "%s %s %s %s", $1, $3, $4, $12}'
            echo
        done
    done
done
echo "-- done"
