#!/usr/bin/env bash
# Step 37's tiles kernel at df26ea3 (the marking's OR in every lane, the
# results' batches in two loops): its warp instructions under Nsight
# Compute, one launch of the float sum at uniform:100, uniform:8, powerlaw:8
# and the Zipf group-by, against session 70's count at bd312e9 (the step as
# before, h200_lane_run_source_counters_bd312e9.log: 10.61 M, 15.56 M,
# 15.76 M and 11.53 M).
# Pack: deps/checks_pack.tar.xz of lane_run_lean_marks_checks.sh.
# Run: bash bench/results/experiments/lane_run_lean_marks_instructions.sh (carry deps/).
# Predicted: about 0.5 M fewer at the means of 8 and on the Zipf group-by
# (some 35 instructions a tile of 128 ends), 0.1 M at uniform:100.
source bench/results/experiments/probe_setup.sh deps/checks_pack.tar.xz
B=/tmp/p/main/bench/bench_compare
python3 bench/zipf_lengths.py >/tmp/zipf.txt
for spec in uniform:100 uniform:8 powerlaw:8 file:/tmp/zipf.txt; do
    echo "=== $spec after $(since) s"
    timeout 60 ncu --clock-control none --cache-control all -k "regex:lane_run_segments_kernel" \
        --launch-skip 2 -c 1 --metrics smsp__inst_executed.sum,gpu__time_duration.sum \
        $B --segments $spec -m lane_run_segments -S 3 -w 1 2>&1 | grep -E "inst_executed|duration"
done 2>&1 | tee ${OUT:-/tmp}/h200_lane_run_lean_marks_instructions_df26ea3.log
