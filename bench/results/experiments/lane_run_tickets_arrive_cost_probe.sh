#!/usr/bin/env bash
# Where step 37's tickets cost: PROBE_ARRIVE=0 as built (release fence, tickets,
# acquire fence, joins), 1 no fences, 2 no arrival at all (crossing segments
# unjoined: wrong, so timed by ncu alone), 3 tickets and fences but no join.
# Predictions: 2 within 1 us of main's tiles kernel alone; 1 and 3 between.
# Build as lane_run_tickets_probe.sh says, bench_compare alone:
#   tar -C build-lean -cf - bench/bench_compare | xz -6 > deps/arrive_pack.tar.xz
# Log: h200_lane_run_tickets_arrive_cost_76e8798.log (ncu prints nanoseconds
# with thousands commas: 31,456 is 31.456 us).
source bench/results/experiments/probe_setup.sh deps/arrive_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
echo "--- bench_compare, after $(since) s"
for spec in uniform:100 powerlaw:1000 uniform:8; do
    for probe in 0 1; do
        PROBE_ARRIVE=$probe timeout 60 $B --segments $spec -S 100 -m lane_run_segments,lane_run_main_segments 2>&1 |
            grep -E "^lane_run" | sed "s|^|$spec probe=$probe |"
    done
done
echo "--- ncu kernel durations (cold caches, clocks as they run), after $(since) s"
for spec in uniform:100 powerlaw:1000; do
    for probe in 0 1 2 3 main; do
        m=lane_run_segments; [ $probe = main ] && m=lane_run_main_segments
        PROBE_ARRIVE=$probe timeout 90 ncu --clock-control none --cache-control all -c 12 \
            -k regex:"lane_run_segments_kernel|combine_tile_parts" --metrics gpu__time_duration.sum --csv \
            $B --segments $spec -S 5 -w 1 -m $m >/tmp/n.csv 2>/tmp/n.err
        echo "$spec probe=$probe rc=$? $(grep -E 'lane_run_segments_kernel|combine_tile_parts' /tmp/n.csv |
            awk -F'","' '{k=($5 ~ /combine/) ? "combine" : "tiles"; gsub(/"/, "", $NF); v[k] = v[k] " " $NF} END {for (k in v) printf "%s:%s  ", k, v[k]}')"
        [ $probe = 0 ] && [ $spec = uniform:100 ] && head -3 /tmp/n.csv && tail -2 /tmp/n.err
    done
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/arrive_probe.log
