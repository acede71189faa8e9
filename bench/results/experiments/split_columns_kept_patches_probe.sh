#!/usr/bin/env bash
# Session 57: split_columns at 9fc120d (head) against the tree that keeps
# both of session 56's patches, narrowed by their first timing
# (h200_split_columns_two_patches_9fc120d.log): the arg elements' empty-slot
# test dropped in the 16-byte-load builds only (the four-byte-load builds
# were slower without it), and every sum's rows of one with parts on the
# narrow builds' kernel, its part-empty last batch by 16-byte loads.
# Pack (git-ignored deps/s57_kept_pack.tar.xz): head/ and kept/, each one
# bench_compare built Release for sm_90 (toolkit CCCL); rebuild as in
# split_columns_two_patches_probe.sh.
# Run: bash bench/results/experiments/split_columns_kept_patches_probe.sh (carry the pack; about 5 minutes).
# Predictions: arg rows as the first timing - halves and bfloat16 at 4096
# columns 4-5 us faster, floats 0.3-1 us, 33 and 100003 columns (four-byte
# loads, unchanged) level; sums at 640-3000 and 12288 floats level or
# faster, the whole column sweep no width slower by more than 0.3 us.
source bench/results/experiments/probe_setup.sh deps/s57_kept_pack.tar.xz
{
time_one() { # build type op cols [rows]
    timeout 30 /tmp/p/$1/bench_compare --type $2 --op $3 --cols $4 ${5:+--rows $5} --axis 0 -S 100 \
        -m split_columns 2>&1 | grep -E "^split_columns " | sed "s/^/$1 $2 $3 cols $4  /"
}
/tmp/p/head/bench_compare -S 100 -m one_pass_ilp 2>&1 | grep -E "^one_pass_ilp " | sed "s/^/whole sum  /"
echo "-- arg"
for shape in "half argmax 4096" "half argmin 2048" "half argmax 32" "bfloat16 argmax 4096" \
             "float argmax 32" "float argmax 1024" "float argmin 2048" "float argmax 4096" \
             "float argmax 33 508400" "float argmax 100003 167" "double argmax 4096" \
             "int32 argmax 4096" "int32 argmin 1024" "int64 argmax 4096" "int8 argmax 4096"; do
    for b in head kept head kept; do time_one $b $shape; done
done
echo "-- sums, after $(since) s"
for shape in "float sum 640 26214" "float sum 768 21845" "float sum 1000 16777" "float sum 1536 10922" \
             "float sum 3000 5592" "float sum 12288 1365" "half sum 1000 33554" "half sum 4096" \
             "double sum 1000 8388" "int32 sum 2048"; do
    for b in head kept head kept; do time_one $b $shape; done
done
echo "-- column sweeps, after $(since) s"
for round in 1 2; do
    for b in head kept; do
        timeout 60 /tmp/p/$b/bench_compare --col-sweep -S 100 -m split_columns,cublas_columns \
            --csv $OUT/cols_sweep_sum_${b}_$round.csv > /tmp/sweep.txt 2>&1
        echo "sweep $b round $round rc=$? after $(since) s"
    done
done
echo "--- every type, after $(since) s"
# (As run, "sum 1000" and "sum 640" had no rows: 16 Mi floats are not whole
# rows of either, so bench_compare refused the shape, rc=2, no rows.)
for shape in "argmax 4096" "argmin 2048" "argmax 32" "argmin 100003 167" "sum 1000" "sum 12288 1365" "sum 640"; do
    set -- $shape
    timeout 60 /tmp/p/kept/bench_compare --cols $2 ${3:+--rows $3} --axis 0 --type all --op $1 -S 3 -w 1 \
        -m split_columns > /tmp/b.log 2>&1
    echo "kept cols $2 $1 rc=$? $(awk '$2 ~ /^(sum|max|min|argmax|argmin)$/ {n++; if ($NF != "PASS" && $NF != "REFUSED") {bad++; print "NOT PASS: " $0}}
                    END {print n " rows, " bad + 0 " neither PASS nor REFUSED"}' /tmp/b.log)"
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/split_columns_kept_patches.log
