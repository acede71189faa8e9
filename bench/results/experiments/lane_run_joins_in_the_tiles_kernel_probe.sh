#!/usr/bin/env bash
# Session 36, call 4: step 37 with its crossing segments joined inside the
# tiles' kernel (no last kernel) against step 37 as it is (3e5e1c5's CCCL
# 3.5 build: the same step 37), both builds made off the GPU machine; then
# every type and operator of the new build on four distributions.
set -uo pipefail
mkdir -p /tmp/p
test -x /tmp/p/old || { echo "no /tmp/p/old: unpacked by the call before on this machine"; exit 1; }
xz -dc deps/probe36b/bench_compare.xz >/tmp/p/new && chmod +x /tmp/p/new || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 bench/zipf_lengths.py >/tmp/p/zipf.txt
python3 -c "import sys; sys.stdout.write('8\n' * ((1 << 24) // 8))" >/tmp/p/len8.txt
/tmp/p/old -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " | awk '{print "-- whole:", $3, $4}'
for round in 1 2; do
    for spec in uniform:8 powerlaw:8 file:/tmp/p/zipf.txt uniform:1 uniform:100 powerlaw:100 powerlaw:1000 uniform:10000 file:/tmp/p/len8.txt; do
        printf -- "-- %s:" "$spec"
        for b in old new; do
            /tmp/p/$b --segments "$spec" -S 100 -m lane_run_segments 2>&1 |
                grep -E "^lane_run_segments |rror" | awk -v b=$b '{printf " %s %s %s %s", b, $3, $4, $12}'
        done
        echo
    done
done
echo "-- every type and operator, the new build"
for spec in powerlaw:8 uniform:1 file:/tmp/p/zipf.txt uniform:10000; do
    /tmp/p/new --segments $spec --type all --op all -S 2 -m lane_run_segments 2>&1 |
        grep -E "^lane_run_segments |rror" | grep -oE "PASS|FAIL|REFUSED|rror" | sed "s|^|$spec |"
done | sort | uniq -c
echo "-- done"
