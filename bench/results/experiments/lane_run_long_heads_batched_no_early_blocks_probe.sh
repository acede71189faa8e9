#!/usr/bin/env bash
# Session 37, call B of two: step 37's last kernel folding a long segment's
# heads in batches (session 36's variant 4) with 26 KiB of unused dynamic
# shared memory a block, so that none of its blocks fits beside the tiles'
# kernel's (new: lane_run_long_heads_batched_no_early_blocks.patch on 41e4019),
# against HEAD's (old, unpacked by call A on this machine). Rounds old-new, then new-old.
set -uo pipefail
test -x /tmp/p/old || { echo "no /tmp/p/old: run after session37i.sh on the same machine"; exit 1; }
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
xz -dc deps/probe37h/bench_compare.xz >/tmp/p/new && chmod +x /tmp/p/new || exit 1
python3 bench/zipf_lengths.py >/tmp/p/zipf.txt
/tmp/p/old -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp " | awk '{print "-- whole:", $3, $4}'
for round in 1 2; do
    for spec in file:/tmp/p/zipf.txt uniform:8 powerlaw:8 uniform:1000 powerlaw:100 powerlaw:1000; do
        printf -- "-- %s (round %s):" "$spec" "$round"
        order="old new"; [ "$round" = 2 ] && order="new old"
        for b in $order; do
            /tmp/p/$b --segments "$spec" -S 100 -m lane_run_segments 2>&1 |
                grep -E "^lane_run_segments |rror" | awk -v b=$b '{printf " %s %s %s %s", b, $3, $4, $12}'
        done
        echo
    done
done
echo "-- done"
