#!/usr/bin/env bash
# How much of the Zipf group-by's gap is the warps' uneven ends: step 37 and
# the suite's other segment steps on the group-by's lengths in the sweep's
# order (zipf_lengths.py: shuffled) and in the order that evens out the ends
# step 37's warps hold (zipf_balanced_order.py: the giants first, then
# shares of equal ends), with uniform:8 and the whole-array sum in the same
# run. Float sums, 64 MiB, median of 100, two rounds in opposite orders.
# Build on the CPU machine (Release, sm_90) at the commit in the log's name:
#   cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build-rel bench_compare
#   tar -C build-rel -cf - bench/bench_compare |
#       xz --lzma2=preset=6,dict=256MiB > deps/balance_pack.tar.xz
# Run: bash bench/results/experiments/zipf_balance_floor_probe.sh (carry deps/).
# Predictions: the balanced order's busiest warp holds about 700 ends where
# the shuffled one's holds 1041 (lane_run_tiles.py, printed first); counted
# as session 25's model counts a warp (256 a tile plus its ends), the
# busiest 1985 against 2577, uniform:8's mean warp 1985, the mean Zipf warp
# 1652 in both orders. If the busiest warps set the time, step 37 on the
# balanced order 28-31 us against 32.7 on the shuffled one (its busiest
# warp as loaded as uniform:8's, with a third of the warps idle); if the
# SMs' issue rate does (the same total work), within a microsecond of it.
# merge_path_segments (a block's work fixed whatever the lengths) within a
# microsecond on both orders. A clean case of the same question: ten giants on
# the first 40% of the floats, uniform:8's lengths on the rest - its busy
# warps as loaded as uniform:8's, 40% of the warps idle: as slow as
# uniform:8 (31-33 us) if a warp's chain sets the time, about 60% of it
# if the SMs' issue rate does.
source bench/results/experiments/probe_setup.sh deps/balance_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
python3 bench/zipf_lengths.py >/tmp/zipf.txt
python3 bench/results/experiments/zipf_balanced_order.py >/tmp/zipf_balanced.txt
# uniform:8's lengths (0 to 16) on the last 60% of 2^24 floats, ten giants on the first 40%
python3 -c "
import random
r, rest = random.Random(8), 10066336
print('\n'.join(['671088'] * 10))
while rest > 0:
    x = min(r.randint(0, 16), rest); rest -= x; print(x)" >/tmp/giants_then_uniform8.txt
for f in /tmp/zipf.txt /tmp/zipf_balanced.txt /tmp/giants_then_uniform8.txt; do
    echo "--- $f"; python3 bench/results/experiments/lane_run_tiles.py $f --margins 4
done
time_whole_array $B
methods=lane_run_segments,adaptive_rows,merge_path_segments
for round in 1 2; do
    for spec in file:/tmp/zipf.txt file:/tmp/zipf_balanced.txt file:/tmp/giants_then_uniform8.txt uniform:8; do
        [ $round = 2 ] && methods=merge_path_segments,adaptive_rows,lane_run_segments
        timeout 120 $B --segments $spec -S 100 -m $methods 2>&1 |
            grep -E "^(lane_run|adaptive|merge_path)" | sed "s|^|$spec [$round] |"
    done
done
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/zipf_balance_floor_probe.log
