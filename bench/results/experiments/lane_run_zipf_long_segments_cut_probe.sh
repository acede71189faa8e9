#!/usr/bin/env bash
# Session 36: does the Zipf group-by's longest segments' chain of rounds in
# step 37's last kernel set its time? The same Zipf lengths with every
# segment longer than CAP elements cut into pieces of at most CAP (same n,
# a few more segments): if the long chains cost the time, step 37 gets
# faster as CAP falls. HEAD's CCCL 3.5 build, made off the GPU machine.
set -uo pipefail
mkdir -p /tmp/p
xz -dc deps/probe36c/bench_compare.xz >/tmp/p/b && chmod +x /tmp/p/b || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 bench/zipf_lengths.py >/tmp/p/zipf.txt
for cap in 262144 65536 16384 4096; do
    python3 - "$cap" <<'PY'
import sys
cap = int(sys.argv[1])
out = []
for line in open('/tmp/p/zipf.txt'):
    n = int(line)
    while n > cap:
        out.append(cap)
        n -= cap
    out.append(n)
open('/tmp/p/zipf_cap%d.txt' % cap, 'w').write('\n'.join(map(str, out)) + '\n')
print('cap', cap, 'segments', len(out), 'elements', sum(out))
PY
done
/tmp/p/b -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " | awk '{print "-- whole:", $3, $4}'
for round in 1 2; do
    for f in zipf zipf_cap262144 zipf_cap65536 zipf_cap16384 zipf_cap4096; do
        printf -- "-- %s:" "$f"
        /tmp/p/b --segments file:/tmp/p/$f.txt -S 100 -m lane_run_segments,merge_path_segments 2>&1 |
            grep -E "^(lane_run|merge_path)_segments |rror" | awk '{printf " %s %s %s %s", $1, $3, $4, $12}'
        echo
    done
done
echo "-- done"
