#!/usr/bin/env bash
# Prepared in session 56, not yet run: two patches of split_columns (step 32)
# timed against HEAD in turn, on one GPU, every row checked bit for bit.
#   noempty: split_columns_arg_no_empty_slot_test.patch - an arg element's
#     test without the slot's empty-index test, one fix-up a lane after its
#     loop (SASS: 2.1-2.7 fewer instructions an element, every load still
#     issued before the first compare: sass_split_columns_arg_*_60b33f9.txt).
#   tails: split_columns_narrow_kernel_vector_tails_probe.patch - the
#     one-test builds' part-empty last batch by 16-byte loads, and
#     SPLIT_NARROW_ROWS=1 putting the sums' rows of one on the narrow kernel.
# Build on the CPU machine (Release, sm_90, toolkit CCCL), one bench_compare
# each, packed as head/, noempty/ and tails/ (about 35 MB with xz):
#   cmake -S . -B build-probe -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
#   ninja -C build-probe bench_compare; cp build-probe/bench/bench_compare /tmp/pk2/head/
#   for each patch: git apply <patch>; ninja -C build-probe bench_compare;
#     cp build-probe/bench/bench_compare /tmp/pk2/<name>/; git checkout kernels/
#   (cd /tmp/pk2 && tar -cf - head noempty tails | xz -T2 --lzma2=preset=6,dict=512MiB) > deps/s57_split_pack.tar.xz
# Run: bash bench/results/experiments/split_columns_two_patches_probe.sh (carry the pack; about 5 minutes).
# Predictions: noempty - the half argmax down 4096 columns 32 -> about 28
# us, floats 0.5-1.5 us faster, no row slower by more than 0.3. tails - the
# narrow kernel (SPLIT_NARROW_ROWS=1) at least level with the wide one at
# 640, 768, 1536 and 3000 floats, and still 0.5 us ahead at 1024; the
# narrow widths (1-32 columns) level with head. Only the README's tests
# (test_shapes_gpu's columns of nothing but the identity's value) reach
# noempty's fix-up: run them at the commit that keeps it.
source bench/results/experiments/probe_setup.sh deps/s57_split_pack.tar.xz
{
narrow_env() { [ "$1" = 1 ] && echo SPLIT_NARROW_ROWS=1; }
time_one() { # label build narrow(0|1) type op cols [rows]
    env -u SPLIT_NARROW_ROWS $(narrow_env $3) timeout 30 /tmp/p/$2/bench_compare --type $4 --op $5 --cols $6 \
        ${7:+--rows $7} --axis 0 -S 100 -m split_columns 2>&1 | grep -E "^split_columns " | sed "s/^/$1 $4 $5 cols $6  /"
}
/tmp/p/head/bench_compare -S 100 -m one_pass_ilp 2>&1 | grep -E "^one_pass_ilp " | sed "s/^/whole sum  /"
echo "-- noempty"
for shape in "half argmax 4096" "half argmin 2048" "bfloat16 argmax 4096" "float argmax 32" \
             "float argmax 1024" "float argmax 4096" "float argmax 100003 167" "float argmax 33 508400" \
             "double argmax 4096" "int32 argmax 4096"; do
    for b in head noempty head noempty; do time_one $b $b 0 $shape; done
done
echo "-- tails, after $(since) s"
for shape in "float sum 640 26214" "float sum 768 21845" "float sum 1024" "float sum 1536 10922" \
             "float sum 2048" "float sum 3000 5592" "half sum 2048" "float sum 2" "float sum 32" "double sum 8"; do
    for round in 1 2; do
        time_one head head 0 $shape
        time_one tails tails 0 $shape
        time_one tails_narrow tails 1 $shape
    done
done
echo "--- every type, after $(since) s"
check_all() { # build narrow(0|1) op cols [rows]
    env -u SPLIT_NARROW_ROWS $(narrow_env $2) timeout 60 /tmp/p/$1/bench_compare --cols $4 ${5:+--rows $5} \
        --axis 0 --type all --op $3 -S 3 -w 1 -m split_columns > /tmp/b.log 2>&1
    echo "$1 narrow=$2 cols $4 $3 rc=$? $(awk '$2 ~ /^(sum|max|min|argmax|argmin)$/ {n++; if ($NF != "PASS" && $NF != "REFUSED") {bad++; print "NOT PASS: " $0}}
                    END {print n " rows, " bad + 0 " neither PASS nor REFUSED"}' /tmp/b.log)"
}
for shape in "3 5592405" "33 508400" "1024" "4096" "100003 167"; do
    check_all noempty 0 argmax $shape
    check_all noempty 0 argmin $shape
done
for shape in "3 5592405" "32" "1536 10922" "4096"; do
    check_all tails 0 sum $shape
    check_all tails 1 sum $shape
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/split_columns_two_patches.log
