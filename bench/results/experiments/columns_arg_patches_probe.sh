#!/usr/bin/env bash
# Prepared in session 55, run in session 56: the two column-argmax patches
# of bench/results/experiments timed against HEAD in turn, on one GPU; 33 and
# 127 columns added in session 56 (four-byte loads, where split_columns' arg
# builds are far slower than step 39: bench/results/h200_cols_sweep_argmax_069db28.csv).
# In session 56 the flat build also carries a change to step 32 alone (its
# arg operators take four-byte loads where they took the runs build: 33-127
# floats not whole vectors), timed there against head with split_columns.
#   split_columns_int_ordinal_index.patch        (step 32: an int index a slot)
#   columns_38_39_value_test_without_branch.patch (steps 38, 39: no branch)
# Build on the CPU machine (Release, sm_90, toolkit CCCL), one bench_compare
# each, packed as head/, ordinal/ and flat/ (three binaries fit the carry
# limit only if the tree is small; otherwise two calls):
#   cmake -S . -B build-probe -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
#   ninja -C build-probe bench_compare; cp build-probe/bench/bench_compare /tmp/pk/head/
#   git apply <patch>; ninja -C build-probe bench_compare; cp ... /tmp/pk/<name>/; git checkout kernels/
#   (cd /tmp/pk && tar -cf - head ordinal flat | xz -T2 --lzma2=preset=6,dict=512MiB) > deps/columns_arg_pack.tar.xz
# Run: bash bench/results/experiments/columns_arg_patches_probe.sh (carry deps/columns_arg_pack.tar.xz).
# Every row is checked bit for bit by the benchmark; the README's tests at
# the kept commit afterwards (test_shapes_gpu's NaNs, ties, planted extremes).
source bench/results/experiments/probe_setup.sh deps/columns_arg_pack.tar.xz
{
time_one() { # build method type op cols [rows]
    timeout 30 /tmp/p/$1/bench_compare --type $3 --op $4 --cols $5 ${6:+--rows $6} --axis 0 -S 100 \
        -m $2 2>&1 | grep -E "^$2 " | sed "s/^/$1 $3 $4 cols $5  /"
}
/tmp/p/head/bench_compare -S 100 -m one_pass_ilp 2>&1 | grep -E "^one_pass_ilp " | sed "s/^/whole sum  /"
for shape in "half argmax 4096" "half argmax 16384" "half argmin 2048" "float argmax 1024" \
             "float argmax 4096" "float argmax 100003 167" "double argmax 4096" "int32 argmax 4096" \
             "float argmax 33 508400" "float argmin 127 132104"; do
    for b in head ordinal head ordinal; do time_one $b split_columns $shape; done
done
for shape in "float argmax 1" "float argmax 32" "float argmax 128" "half argmax 64" "double argmax 16" \
             "float argmax 3 5592405" "float argmax 33 508400"; do
    for b in head flat head flat; do time_one $b flat_columns $shape; time_one $b staged_columns $shape; done
done
for shape in "float argmax 33 508400" "float argmin 65 258111" "float argmax 127 132104" "double argmax 33 254200" \
             "int32 argmin 99 169466"; do
    for b in head flat head flat; do time_one $b split_columns $shape; done
done
echo "--- every type, argmax and argmin, after $(since) s"
for b in ordinal flat; do
    for shape in "3 5592405" "33 508400" "127 132104" "100003 167"; do
        set -- $shape
        for op in argmax argmin; do
            timeout 60 /tmp/p/$b/bench_compare --cols $1 ${2:+--rows $2} --axis 0 --type all --op $op \
                -S 3 -w 1 -m split_columns,staged_columns,flat_columns > /tmp/b.log 2>&1
            echo "$b cols $1 $op rc=$? $(awk '$2 ~ /^(argmax|argmin)$/ {n++; if ($NF != "PASS" && $NF != "REFUSED") {bad++; print "NOT PASS: " $0}}
                            END {print n " rows, " bad + 0 " neither PASS nor REFUSED"}' /tmp/b.log)"
        done
    done
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/columns_arg_patches.log
