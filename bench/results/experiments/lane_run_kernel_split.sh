#!/usr/bin/env bash
# Where step 37's time over the whole array's goes, kernel by kernel: Nsight
# Compute's durations of the tiles' kernel and of the last kernel
# (combine_tile_parts_kernel) of one timed call each, beside the whole
# array's one_pass_ilp_kernel, with the bench's own L2 flush before each
# call (--cache-control none: the last kernel finds the tiles' parts in L2,
# as in the bench) and clocks as the bench runs them (--clock-control
# none). Under the profiler the two kernels run one after the other; in
# the bench the last kernel is a programmatic dependent launch that waits
# for the tiles' grid to end. The bench's own medians of the same methods
# follow, for the step's time as run.
# Build on the CPU machine (Release, sm_90) at e6c396e:
#   ninja -C build-rel bench_compare
#   tar -C build-rel -cf - bench/bench_compare |
#       xz -T2 --lzma2=preset=6,dict=256MiB > deps/main_pack.tar.xz
# Predictions: one_pass_ilp 19.5-20.5 us; the tiles' kernel 21-22.5 us at
# uniform:100 and powerlaw:1000, 29-31 at uniform:8; the last kernel alone
# 1.5-3 us at uniform:100 and uniform:8, more at powerlaw:1000 (segments
# past a tile take its rounds). If the tiles' kernel is within 1.5 us of
# the whole array where the step is 4 us behind, the last kernel and the
# wait for the tiles' grid to end are most of the gap at the long means.
source bench/results/experiments/probe_setup.sh deps/main_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
python3 bench/zipf_lengths.py >/tmp/zipf.txt
durations() { # SKIP COUNT KERNELS BENCH-ARGS...
    local skip=$1 count=$2 kernels=$3
    shift 3
    timeout 90 ncu --clock-control none --cache-control none -k "regex:$kernels" --launch-skip "$skip" \
        -c "$count" --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
        "$B" "$@" -S 3 -w 1 2>&1 | grep -E "Context|gpu__time|dram__" | sed 's/^ */  /'
}
for round in 1 2; do
    echo "=== round $round, after $(since) s"
    echo "--- one_pass_ilp"
    durations 2 1 one_pass_ilp_kernel -m one_pass_ilp
    for spec in uniform:100 powerlaw:1000 uniform:10000 uniform:8 file:/tmp/zipf.txt; do
        echo "--- $spec lane_run_segments"
        durations 4 2 "lane_run_segments_kernel|combine_tile_parts_kernel" --segments $spec -m lane_run_segments
    done
done
echo "=== the bench's medians, after $(since) s"
time_whole_array $B
for spec in uniform:100 powerlaw:1000 uniform:10000 uniform:8 file:/tmp/zipf.txt; do
    timeout 60 $B --segments $spec -S 100 -m lane_run_segments 2>&1 | grep -E "^lane_run_segments" | sed "s|^|$spec |"
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_kernel_split.log
