#!/usr/bin/env bash
# Session 57: two short questions on one GPU.
# 1. What d047b28's put-right of CUB's start costs cub_segmented's arg rows
#    (a test of the found index inside CUB's store, element 1 read only
#    where it is 1): 9fc120d (head) against d047b28 (fix), in turn.
#    Prediction: level, within 0.2 us, at every shape.
# 2. Why split_columns' sums down 1000 floats took 23.4 us timed alone and
#    24.4 inside a column sweep in one call
#    (h200_split_columns_kept_patches_9fc120d.log): the same program alone,
#    in a sweep, alone again. Prediction: none - the question is whether
#    the sweep's context or the time in the call moves it.
# Pack (git-ignored deps/s57_cub_fix_bench_pack.tar.xz): head/ and fix/,
# each one bench_compare built Release for sm_90 (toolkit CCCL).
# Run: bash bench/results/experiments/cub_segmented_start_and_1000_probe.sh [PACK] (carry the pack; about 2 minutes).
# Session 58 ran it again with PACK deps/s58_pack.tar.xz: head/ 9fc120d, fix/ 4faacd3 (32c6a31's put-right).
# As first run (h200_cub_segmented_start_and_1000_d047b28.log) alone() had
# no --rows, and 16 Mi floats are not whole rows of 1000: it printed
# nothing, and the runs alone were made in a second call; --rows added since.
source bench/results/experiments/probe_setup.sh ${1:-deps/s57_cub_fix_bench_pack.tar.xz}
{
/tmp/p/head/bench_compare -S 100 -m one_pass_ilp 2>&1 | grep -E "^one_pass_ilp " | sed "s/^/whole sum  /"
echo "-- cub_segmented"
for shape in "float argmax --cols 32" "float argmax --cols 1024" "half argmin --cols 32" \
             "float argmax --segments uniform:8"; do
    set -- $shape
    for b in head fix head fix; do
        timeout 30 /tmp/p/$b/bench_compare --type $1 --op $2 $3 $4 -S 100 -m cub_segmented 2>&1 |
            grep -E "^cub_segmented " | sed "s/^/$b $1 $2 $3 $4  /"
    done
done
echo "-- 1000 floats, after $(since) s"
alone() {
    timeout 30 /tmp/p/fix/bench_compare --cols 1000 --rows 16777 --axis 0 -S 100 -m split_columns,flat_columns,cublas_columns 2>&1 |
        grep -E "^(split_columns|flat_columns|cublas_columns) " | sed "s/^/alone $1  /"
}
alone 1; alone 2; alone 3
timeout 90 /tmp/p/fix/bench_compare --col-sweep -S 100 -m split_columns,flat_columns,cublas_columns \
    --csv $OUT/cols_sweep_1000_probe.csv > /tmp/sweep.txt 2>&1
echo "sweep rc=$? after $(since) s"
awk -F, '$29 == 1000 {print "sweep  " $1, $5}' $OUT/cols_sweep_1000_probe.csv
alone 4; alone 5
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/cub_segmented_start_and_1000.log
