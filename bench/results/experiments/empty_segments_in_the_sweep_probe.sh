#!/usr/bin/env bash
# Session 35, call 7: step 37 with empty segments' identities written in
# the closed sweep (PROBE35_SWEEP=1: each slot's lane first writes the
# empty segments before its own) against as-is, where mark_ends writes
# them as it finds them.
set -uo pipefail
mkdir -p /tmp/p
xz -dc deps/probe35/bench_compare.xz >/tmp/p/b && chmod +x /tmp/p/b || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 bench/zipf_lengths.py >/tmp/p/zipf.txt
python3 - <<'PY'
import random
n = 1 << 24
def drawn(name, lo, hi):
    r, out, total = random.Random(1), [], 0
    while total < n:
        x = min(r.randint(lo, hi), n - total)
        out.append(x)
        total += x
    open('/tmp/p/' + name, 'w').write('\n'.join(map(str, out)) + '\n')
drawn('u1_15.txt', 1, 15)
drawn('u0_16.txt', 0, 16)
PY
/tmp/p/b -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " | awk '{print "-- whole:", $3, $4}'
for round in 1 2; do
    for spec in file:/tmp/p/u1_15.txt file:/tmp/p/u0_16.txt uniform:8 powerlaw:8 file:/tmp/p/zipf.txt powerlaw:100 uniform:1000; do
        for v in X=0 PROBE35_SWEEP=1; do
            printf -- "-- %s %s: " "$spec" "$v"
            env $v /tmp/p/b --segments "$spec" -S 100 -m lane_run_segments 2>&1 |
                grep -E "^lane_run_segments |rror" | awk '{printf "%s %s %s %s", $1, $3, $4, $12}'
            echo
        done
    done
done
echo "-- correctness: every type and operator, PROBE35_SWEEP=1"
for spec in powerlaw:8 uniform:1 file:/tmp/p/zipf.txt; do
    PROBE35_SWEEP=1 /tmp/p/b --segments $spec --type all --op all -S 2 -m lane_run_segments 2>&1 |
        grep -E "^lane_run_segments |rror" | grep -oE "PASS|FAIL|REFUSED|rror" | sed "s|^|$spec |"
done | sort | uniq -c
echo "-- done"
