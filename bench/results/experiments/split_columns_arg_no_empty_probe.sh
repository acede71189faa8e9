#!/usr/bin/env bash
# Prepared in session 56, not yet run: split_columns_arg_no_empty_slot_test.patch
# (an arg element's test without the slot's empty-index test, one fix-up a
# lane after its loop) timed against HEAD in turn, on one GPU. SASS of the
# hot loop (sass_split_columns_arg_no_empty_slot_test_60b33f9.txt): 2.1-2.7
# fewer instructions an element, 23-29% of them.
# Build on the CPU machine (Release, sm_90, toolkit CCCL), one bench_compare
# each, packed as head/ and noempty/:
#   cmake -S . -B build-probe -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
#   ninja -C build-probe bench_compare; cp build-probe/bench/bench_compare /tmp/pk2/head/
#   git apply <patch>; ninja -C build-probe bench_compare; cp ... /tmp/pk2/noempty/; git checkout kernels/
#   (cd /tmp/pk2 && tar -cf - head noempty | xz -T2 --lzma2=preset=6,dict=512MiB) > deps/s57_arg_no_empty_pack.tar.xz
# Run: bash bench/results/experiments/split_columns_arg_no_empty_probe.sh (carry the pack).
# Prediction: the half argmax down 4096 columns 32 -> about 28 us, floats
# 0.5-1.5 us faster; no row slower by more than 0.3. Every row is checked bit
# for bit by the benchmark, but only the README's tests (test_shapes_gpu's
# columns of nothing but the identity's value, -inf for an argmax of
# floats) reach the fix-up: run them at the commit that keeps it.
set -uo pipefail
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64:/usr/local/cuda-13.0/lib
start=$(date +%s)
since() { echo "$(( $(date +%s) - start ))"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p /tmp/p && xz -dc deps/s57_arg_no_empty_pack.tar.xz | tar -x -C /tmp/p || exit 1
{
time_one() { # build type op cols [rows]
    timeout 30 /tmp/p/$1/bench_compare --type $2 --op $3 --cols $4 ${5:+--rows $5} --axis 0 -S 100 \
        -m split_columns 2>&1 | grep -E "^split_columns " | sed "s/^/$1 $2 $3 cols $4  /"
}
/tmp/p/head/bench_compare -S 100 -m one_pass_ilp 2>&1 | grep -E "^one_pass_ilp " | sed "s/^/whole sum  /"
for shape in "half argmax 4096" "half argmax 16384" "half argmin 2048" "bfloat16 argmax 4096" \
             "float argmax 1" "float argmax 32" "float argmax 1024" "float argmax 4096" \
             "float argmin 8192" "float argmax 100003 167" "float argmax 33 508400" \
             "double argmax 4096" "int32 argmax 4096" "uint32 argmin 1024"; do
    for b in head noempty head noempty; do time_one $b $shape; done
done
echo "--- every type, argmax and argmin, after $(since) s"
for shape in "3 5592405" "32" "33 508400" "1024" "4096" "100003 167"; do
    set -- $shape
    for op in argmax argmin; do
        timeout 60 /tmp/p/noempty/bench_compare --cols $1 ${2:+--rows $2} --axis 0 --type all --op $op \
            -S 3 -w 1 -m split_columns > /tmp/b.log 2>&1
        echo "noempty cols $1 $op rc=$? $(awk '$2 ~ /^(argmax|argmin)$/ {n++; if ($NF != "PASS" && $NF != "REFUSED") {bad++; print "NOT PASS: " $0}}
                        END {print n " rows, " bad + 0 " neither PASS nor REFUSED"}' /tmp/b.log)"
    done
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/split_columns_arg_no_empty.log
