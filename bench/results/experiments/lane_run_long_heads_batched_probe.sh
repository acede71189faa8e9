#!/usr/bin/env bash
# Session 36: step 37's last kernel folding a long segment's heads past its
# first 33 tiles in batches of reads in flight, its last tile read from the
# offsets once the first round is whole (new), against HEAD's rounds (old: /tmp/p/old, unpacked by the call before on
# this machine from deps/probe36c). Both CCCL 3.5 builds made off the GPU
# machine. Then every type and operator of the new build on four arrays.
set -uo pipefail
mkdir -p /tmp/p
test -x /tmp/p/old || { echo "no /tmp/p/old: unpacked by the call before on this machine"; exit 1; }
xz -dc deps/probe36f/bench_compare.xz >/tmp/p/new && chmod +x /tmp/p/new || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 bench/zipf_lengths.py >/tmp/p/zipf.txt
python3 - <<'PY'
out = []
for line in open('/tmp/p/zipf.txt'):
    n = int(line)
    while n > 65536:
        out.append(65536)
        n -= 65536
    out.append(n)
open('/tmp/p/zipf_cap65536.txt', 'w').write('\n'.join(map(str, out)) + '\n')
PY
/tmp/p/old -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " | awk '{print "-- whole:", $3, $4}'
for round in 1 2; do
    for spec in file:/tmp/p/zipf.txt uniform:8 powerlaw:8 uniform:1000 uniform:10000 powerlaw:100 powerlaw:1000; do
        printf -- "-- %s (round %s):" "$spec" "$round"
        order="old new"
        [ "$round" = 2 ] && order="new old"
        for b in $order; do
            /tmp/p/$b --segments "$spec" -S 100 -m lane_run_segments 2>&1 |
                grep -E "^lane_run_segments |rror" | awk -v b=$b '{printf " %s %s %s %s", b, $3, $4, $12}'
        done
        echo
    done
done
echo "-- every type and operator, the new build (lines naming lane_run_segments: PASS, FAIL or REFUSED)"
for spec in file:/tmp/p/zipf.txt powerlaw:1000 uniform:10000 uniform:1; do
    /tmp/p/new --segments $spec --type all --op all -S 2 -m lane_run_segments 2>&1 |
        grep "lane_run_segments" | grep -oE "PASS|FAIL|REFUSED" | sed "s|^|$spec |"
done | sort | uniq -c
echo "-- done"
