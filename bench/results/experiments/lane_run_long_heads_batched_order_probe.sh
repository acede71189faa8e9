#!/usr/bin/env bash
# Session 36: the order control for call ab4 - the same two binaries
# (/tmp/p/old, /tmp/p/new, left by the call before on this machine), new
# first, then old, on four arrays, twice.
set -uo pipefail
test -x /tmp/p/old && test -x /tmp/p/new || { echo "binaries missing: run after session36f.sh on the same machine"; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader
for round in 1 2; do
    for spec in file:/tmp/p/zipf.txt uniform:8 uniform:1000 powerlaw:1000; do
        printf -- "-- %s:" "$spec"
        for b in new old; do
            /tmp/p/$b --segments "$spec" -S 100 -m lane_run_segments 2>&1 |
                grep -E "^lane_run_segments |rror" | awk -v b=$b '{printf " %s %s %s %s", b, $3, $4, $12}'
        done
        echo
    done
done
echo "-- done"
