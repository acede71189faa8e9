#!/usr/bin/env bash
# On the device machine: build segment_staged_probe.cu there and time a
# warp's tile of short segments copied into shared memory (coalesced
# 16-byte cp.async) before its lanes sum their own segments, against a
# thread a segment and the values alone, 64 MiB of floats, uniform means
# 2, 4, 8 and 16. Then, given a bench_compare (a Release build for sm_90)
# as the argument, the suite's own segment steps at the same means for
# scale (its lengths are drawn by another generator, the same law).
# Question: is the L1's keeping of lines a lane reads piecemeal what holds
# the short means at 77-80% of the whole array, when the bytes alone move
# at 110% at a mean of 8 (h200_segment_bytes_floor_4faacd3.log)?
# Prediction: staged S4 at a mean of 8 within 15% of the floor probe's
# 24.06 us (about 27 us, some 3100 GB/s), thread_per_segment about 36 us
# as the suite's thread_per_row.
# Second question, after the first run (h200_segment_staged_7d27956.log,
# staged tiles at 91-98% of the whole array at uniform:4-16): does it hold
# on skewed lengths if a tile is copied and walked CAP elements at a time,
# the whole warp summing each long piece (chunked)? Prediction: chunked S2
# within 5% of staged at uniform:8 and 16; powerlaw:8 about 33 us (85% of
# the whole array), powerlaw:100 about 24 us.
# Seen (h200_segment_staged_chunked_69eceeb.log): uniform:16 level with
# thread_per_row, powerlaw:8 60.35 us and powerlaw:100 54.99, step 37 38.43
# and 25.36. Third question: is it the tail (a long tile's chunks chained in
# one warp while the grid stride gives it as many tiles as the others) or
# the walk (a lane's pieces of up to LONG = 32 elements, one at a time)?
# Tiles claimed from a counter (dyn) against the stride, LONG 32 against 8.
# Prediction: dyn brings powerlaw:8 to about 45 us, LONG 8 another 5.
# Seen (h200_segment_staged_claims_and_pieces.log): dyn 57.90 against
# 59.78 at powerlaw:8 and slower on uniform ones, LONG 8 slower everywhere:
# it is the walk, a lane a few segments. Fourth question: does a walk by
# element runs (a lane CAP / 32 consecutive elements whatever their
# segments, a segmented scan over the lanes; runs in the .cu) read skewed
# lengths at the pace of uniform ones? Prediction: runs S8 cap2048 about
# 32 us at uniform:8, 33-35 at powerlaw:8 (step 37 38.4), 24 at powerlaw:100.
# Seen (h200_segment_staged_runs_6e69614.log): runs 2-3x slower than step
# 37 everywhere, slower still with CAP 4096; its SASS here has some 7000
# instructions, the vectors' loop unrolled with a segment end's branch at
# each element: more than the instruction cache holds. Fifth question: the
# same walk with that loop not unrolled. Prediction: runs S8 cap2048 about
# 35 us at uniform:8 and 36 at powerlaw:8.
# Seen (h200_segment_staged_runs_rolled_b26d707.log): 1088 instructions,
# uniform:8 95 -> 77 us, powerlaw:8 121 -> 93: still twice step 37. What is
# left is an end's branch at each element, taken by some lane at almost
# every element. Sixth question: bit_runs, the same walk with a bit for
# each end marked before it and no branch an element (a predicated store
# by the segment's rank). Prediction: bit_runs S8 about 33 us at
# uniform:8 and 34 at powerlaw:8; S2 best at powerlaw:100.
# Run: bash bench/results/experiments/segment_staged_probe.sh [BENCH_COMPARE] (about two minutes).
set -euo pipefail
dir=bench/results/experiments
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -I src/gpu -o /tmp/staged $dir/segment_staged_probe.cu \
    src/gpu/cuda_check.c 2>&1 | grep -E "registers|error" | sort | uniq -c
/tmp/staged 16777216 u2 u8 u16 p2 p8 p100 | tee ${OUT:-/tmp}/segment_staged.log
bench=${1:-}
[ -n "$bench" ] || exit 0
{
$bench -S 100 -m one_pass_ilp 2>&1 | grep -E "^one_pass_ilp " | sed "s/^/whole sum  /" || true
for spec in uniform:2 uniform:8 uniform:16 powerlaw:2 powerlaw:8 powerlaw:100; do
    $bench --segments $spec -S 100 -m lane_run_segments 2>&1 |
        grep -E "^(thread_per_row|adaptive_rows|lane_segments|lane_run_segments) " | sed "s/^/$spec  /" || true
done
} | tee -a ${OUT:-/tmp}/segment_staged.log
