#!/usr/bin/env bash
# The GPU session in one command: build for this GPU, run the full ctest, the
# bench table and whatever else is asked. Everything printed goes to
# $OUT/gpu_check.log; data files (CSV, JSON, markdown) go beside it.
#
#   bench/gpu_check.sh STEP...    steps, in the order given:
#     build        configure + build (Release, native architecture)
#     readme       the README's test command, verbatim (read from README.md)
#                  and timed, in /tmp/fresh: a copy of the tree without .git,
#                  builds or deps/, as a fresh clone has it; later steps of
#                  the same call use that build (GPU_CHECK_BUILD=/tmp/fresh/build
#                  does so in a later call on the same machine), its
#                  bench_compare then rebuilt to name SUITE_COMMIT when set
#     test         quicktest, then exhaustive: the whole suite
#     quicktest    ctest -LE exhaustive -j 4 of the build (the README's ctest),
#                  timed: every method x pair x awkward size and offset, every
#                  row method x shape, memcheck
#     exhaustive   ctest -L exhaustive, timed: every distribution, step 18's
#                  ring at its own sizes (memcheck too), racecheck, synccheck,
#                  initcheck, bench_compare at 2^31 + 5 floats, rows, segments
#                  and columns past 2^31 (the long tests split by shape or
#                  element type, side by side: -j 6);
#                  or in two halves (each fits one 10-minute device call):
#     exhaustive_checks    ... without the sanitizers
#     exhaustive_sanitize  ... the sanitizers alone
#     sanitize     compute-sanitizer summaries (ctest -L sanitize, verbose)
#     methods      test_methods_gpu --every-distribution alone (every method x
#                  pair x size x distribution), timed
#     bench        bench_compare at 64 MiB -> run.csv, run.json, run.md
#     matrix       --type all --op all at 64 MiB -> matrix_64mib.txt
#     matrix1gib   the same at 1 GiB of every type, step 17, step 18, CUB and
#                  Thrust -> matrix_1gib.txt
#     float1gib    float sum, every modern and vendor method, 1 GiB
#     progression  bench_compare --progression
#     large        one_pass_ilp and tma_ring vs CUB at 1 GiB and 4 GiB
#     sweep        bench_compare --sweep -> sweep.csv, sweep.json (the run format)
#     huge         every method at 2^31 + 5 elements
#     seed000      bench_compare -r 0 -s 509600000 (seed 000's example)
#     baseline     save a baseline, compare a rerun (SAME), then a test build
#                  with a slowed one_pass_ilp (SLOWER: exit 1 is this step's success)
#     grid         test_grid_independence alone: bits across forced grids,
#                  asserted for grid-independent methods, reported for the rest
#     accuracy     float and double sums of 2^24 elements, every method, every
#                  distribution -> accuracy_<type>_<dist>.csv, and the accuracy
#                  table of docs/accuracy.md -> accuracy.md (bench/update_readme.py
#                  accuracy.md --block accuracy puts it in)
#     multigpu     every visible GPU (bench_compare --gpus all): the multi-GPU
#                  tests, the scaling table at 4 GiB of floats (2 GiB per GPU
#                  on two) -> multigpu_4gib.txt, and the size ladder 2^24 ..
#                  past one GPU's memory -> multigpu_ladder.txt (docs/multi-gpu.md)
#     multigpupairs  --gpus all at 256 MiB for every (type, operator), 20 samples
#                  -> multigpu_pairs.txt
#     cubmodes     a second build (build-cccl) against the CCCL wheel in deps/
#                  (unzipped into deps/cccl-wheel when it is not yet) for CUB's
#                  determinism modes; its version; test_methods_gpu on the CUB
#                  rows; float sums at 64 MiB and 1 GiB of steps 17-20 and the
#                  three CUB modes (64 MiB: every method) ->
#                  cubmodes_{64mib,1gib}.{csv,md}; double sums at 1 GiB
#     cubsweep     after cubmodes: a sweep 2^10..2^30 of steps 17-20 against
#                  cub and cub_atomic -> cubmodes_sweep.{csv,json}
#     cccl         the CCCL 3.5 build alone (build-cccl), for the steps below
#     rows         with build-cccl's bench_compare when it exists (CUB's
#                  fixed-size rows need CCCL >= 3.1): test_shapes_gpu; the
#                  row methods are every GPU one that declares rows but
#                  thread_per_row (one thread reads a whole wide row: seconds);
#                  width sweep 1 .. 2^24 at 64 MiB of floats, every row method
#                  -> rows_sweep.{csv,json}, beside the whole-array sum in the
#                  same run; the ragged tables (uniform:8, uniform:100,
#                  uniform:10000, powerlaw:100) -> segments.txt; every
#                  (type, operator) at widths 32 and 4096 -> rows_matrix.txt
#     rows_sweep, segments, rows_matrix   the three parts of rows alone
#     segment_sweep  every GPU method that takes segments (with build-cccl's
#                  bench_compare when it exists: CUB's segmented reduce of
#                  CCCL 3.5) over the distributions of SEGMENT_SWEEP and the
#                  Zipf group-by of bench/zipf_lengths.py, at 64 MiB of
#                  floats, beside the whole-array sum measured first in the
#                  same call -> segment_sweep_*.csv and segment_sweep.md (each
#                  method's share of the whole array's GB/s)
#     columns      the column steps and vendors (every GPU method that declares
#                  columns): 128 columns at 64 MiB of floats, then the width
#                  sweep down the columns (all but steps 30-31, seconds a call
#                  at a few columns) -> cols_sweep.{csv,json}, beside the
#                  whole-array sum in the same run; then steps 30-31 alone
#                  over the same widths at 5 samples -> cols_sweep_first_steps.csv
#     columns_matrix  every (type, operator) down 32 and 4096 columns:
#                  the column steps but 30-31, cuBLAS's gemv and PyTorch
#                  -> columns_matrix.txt
#     argmax       argmax of 64 MiB of floats, every method that takes it, beside
#                  the float sum of the same buffer size (one_pass_ilp, cub);
#                  then the argmax size sweep 2^10 .. 2^28 of the one-pass steps
#                  and the vendors -> argmax_sweep.{csv,json}
#     argmax_rows  the argmax row sweep of adaptive_rows (step 28) against CUB's
#                  segmented ArgMax and PyTorch -> argmax_rows_sweep.{csv,json};
#                  then rows of 32000 and 128256 (vocabularies)
#     argmax_rows_every  the argmax row sweep of every GPU row method but
#                  thread_per_row, and the vendors (about 6 minutes on an
#                  H100, 5 on an H200 with PyTorch's rows, most of it the
#                  host's copies and checks of the 2^24 results of 1-8
#                  columns, before later calls were compared on the GPU;
#                  give it a call of its own)
#                  -> argmax_rows_every_method.{csv,json}
#     torch        with the build's PyTorch (python3's torch where CMake found
#                  it; the step fails when --version names none): its
#                  --version; test_methods_gpu on the torch row; float 64 MiB
#                  against our best and CUB -> torch_64mib.*; --type all --op
#                  all, our whole-array steps 16-18, CUB, Thrust and torch ->
#                  torch_matrix_64mib.txt; the float sweep 2^10..2^28 ->
#                  torch_sweep.{csv,json}; the row sweep beside it is the rows
#                  step's (torch declares rows)
#     loads_in_flight  bench/loads_in_flight.py on the build's objects of steps
#                  17, 19 and 25: the global loads each loop keeps in flight,
#                  read from this machine's own SASS -> loads_in_flight.txt
#     pack         last: every file and folder the steps wrote to $OUT but the
#                  log moved into $OUT/results.tar.xz, so that a device call
#                  that returns a few files brings back the log and one archive
# Example: OUT=/tmp/out bench/gpu_check.sh build test bench
#          OUT=/tmp/out bench/gpu_check.sh build argmax argmax_rows columns pack
# SUITE_COMMIT=<hash> names the commit in the results files: a copy of the
# tree sent to a GPU machine may carry a stale .git. Commit before measuring.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-logs}
mkdir -p "$out"
log="$out/gpu_check.log"
build=${GPU_CHECK_BUILD:-build-gpu}
bench="$build/bench/bench_compare"
status=0
# The distributions of the segment sweep (a Zipf group-by is added to them).
SEGMENT_SWEEP="uniform:1 uniform:8 uniform:100 uniform:1000 uniform:10000 powerlaw:8 powerlaw:100 powerlaw:1000"

step_expecting() { # step_expecting CODE NAME COMMAND...: log the command, its
    local want=$1 name=$2 started=$SECONDS; shift 2 # output and its seconds; note a
    echo "== $name: $*" | tee -a "$log" # failure if it exits other than CODE
    "$@" 2>&1 | tee -a "$log"
    local rc=${PIPESTATUS[0]}
    echo "== $name: exit $rc (expected $want) after $((SECONDS - started)) s" | tee -a "$log"
    [ "$rc" -eq "$want" ] || status=1
    return "$rc"
}
step() { step_expecting 0 "$@"; }

pack_results() { # every entry of $out but the log into $out/results.tar.xz, then removed
    local archive="$out/results.tar.xz" list
    if [ -e "$archive" ]; then
        echo "pack: $archive exists already"
        return 1
    fi
    list=$(mktemp) || return 1
    (cd "$out" && find . -mindepth 1 -maxdepth 1 ! -name gpu_check.log -print0) >"$list"
    if [ ! -s "$list" ]; then
        echo "pack: nothing in $out besides the log"
        rm -f "$list"
        return 0
    fi
    (cd "$out" && tar --null -T "$list" -cJf results.tar.xz && xargs -0 rm -rf <"$list")
    local rc=$?
    rm -f "$list"
    [ "$rc" -eq 0 ] && echo "pack: $(tar -tJf "$archive" | wc -l) entries in $archive"
    return "$rc"
}

configure_and_build() { # configure_and_build DIR [CMAKE ARGS...]
    local dir=$1; shift
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DREDUCE_GIT_COMMIT="${SUITE_COMMIT:-}" "$@" >/dev/null &&
        cmake --build "$dir" -j 16 | grep -E 'warning|error|Linking CUDA executable'
    return "${PIPESTATUS[0]}"
}

# The nvidia-cuda-cccl wheel's headers (CCCL 3.5): deps/cccl-wheel, unzipped
# from deps/*.whl on first use (deps/ is git-ignored; the lead carries it).
cccl_root() {
    local root=deps/cccl-wheel/nvidia/cu13
    if [ ! -d "$root/include/cccl" ]; then
        local wheel
        wheel=$(ls deps/nvidia_cuda_cccl-*.whl 2>/dev/null | head -n 1)
        [ -n "$wheel" ] || { echo "no deps/nvidia_cuda_cccl-*.whl" >&2; return 1; }
        python3 -m zipfile -e "$wheel" deps/cccl-wheel || unzip -q -o "$wheel" -d deps/cccl-wheel || return 1
    fi
    echo "$PWD/$root"
}

# Four tests at a time, as the README's command: one at a time the default set
# outlasts a 300 s device call (bench/results/h100_quicktest_cut_at_300s_5e8e2ab.log).
# The GPU column steps and vendors the bench lists, comma-separated; with
# `whole`, all but steps 30-31 (seconds a call on a matrix of a few columns).
column_methods() {
    local all
    all=$("$bench" --list | awk '$3 ~ /columns/ && $2 != "cpu" {print $1}')
    [ "${1:-}" = whole ] && all=$(echo "$all" | grep -v -x -e thread_per_column -e block_columns)
    echo "$all" | paste -sd, -
}
quick_tests() { step quicktest bash -c "time ctest --test-dir $build -LE exhaustive -j 4 --output-on-failure"; }
exhaustive_tests() { # exhaustive_tests NAME [CTEST ARGS...]
    local name=$1; shift
    step "$name" bash -c "time ctest --test-dir $build -L exhaustive -j 6 $* --output-on-failure"
}

for s in "$@"; do
    case $s in
    build) step build configure_and_build "$build" ;;
    readme)
        rm -rf /tmp/fresh && mkdir -p /tmp/fresh &&
            tar --exclude=./.git --exclude='./build*' --exclude=./deps -cf - . | tar -xf - -C /tmp/fresh
        readme_command=$(grep -m 1 '&& ctest --test-dir build' README.md)
        step readme bash -c "cd /tmp/fresh && time ($readme_command)"
        build=/tmp/fresh/build bench=/tmp/fresh/build/bench/bench_compare
        # The copy has no .git, so its results would name no commit: name SUITE_COMMIT's.
        if [ -n "${SUITE_COMMIT:-}" ]; then
            step readme_commit bash -c "cmake -S /tmp/fresh -B $build -DREDUCE_GIT_COMMIT=$SUITE_COMMIT >/dev/null &&
                cmake --build $build --target bench_compare >/dev/null"
        fi ;;
    test) quick_tests; exhaustive_tests exhaustive ;;
    quicktest) quick_tests ;;
    exhaustive) exhaustive_tests exhaustive ;;
    exhaustive_checks) exhaustive_tests exhaustive_checks -LE sanitize ;;
    exhaustive_sanitize) exhaustive_tests exhaustive_sanitize -L sanitize ;;
    methods) step methods bash -c "time $build/tests/test_methods_gpu --every-distribution" ;;
    sanitize)
        step sanitize bash -c "ctest --test-dir $build -L sanitize -V | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Test #|tests passed|SKIP'" ;;
    bench)
        step bench "$bench" --csv "$out/run.csv" --json "$out/run.json" --markdown "$out/run.md" ;;
    progression) step progression "$bench" --progression -S 30 ;;
    matrix)
        step matrix_64MiB bash -c "set -o pipefail; $bench --type all --op all | tee $out/matrix_64mib.txt" ;;
    matrix1gib)
        step matrix_1GiB bash -c "set -o pipefail; $bench --type all --op all --bytes 1073741824 -m one_pass_ilp,tma_ring,cub,thrust | tee $out/matrix_1gib.txt" ;;
    float1gib)
        step float_1GiB "$bench" -n 268435456 -m grid_stride,cg_reduce,vector_loads,single_pass,one_pass_ilp,tma_ring,cub,thrust,cublas ;;
    large)
        step large_1GiB "$bench" -n 268435456 -S 100 -m one_pass_ilp,tma_ring,cub
        step large_4GiB "$bench" -n 1073741824 -S 100 -m one_pass_ilp,tma_ring,cub ;;
    sweep) step sweep "$bench" --sweep --csv "$out/sweep.csv" --json "$out/sweep.json" -S 50 ;;
    huge) step huge "$bench" -n 2147483653 -S 3 -w 1 ;;
    seed000) step seed000 "$bench" -r 0 -s 509600000 -S 10 ;;
    baseline)
        step baseline_save "$bench" -S 50 -m one_pass_ilp,single_pass,vector_loads,cub,thrust,cublas --csv "$out/baseline.csv"
        step baseline_same "$bench" -S 50 -m one_pass_ilp,single_pass,vector_loads,cub,thrust,cublas --baseline "$out/baseline.csv"
        configure_and_build build-slow -DREDUCE_SLOWDOWN_DEMO=ON -DREDUCE_BUILD_TESTS=OFF >/dev/null
        step_expecting 1 baseline_slower build-slow/bench/bench_compare -S 50 -m one_pass_ilp,single_pass,vector_loads,cub,thrust,cublas --baseline "$out/baseline.csv"
        ;;
    grid) step grid "$build/tests/test_grid_independence" ;;
    accuracy) # with the CCCL build's CUB modes when cubmodes built it
        acc_bench=$bench
        [ -x build-cccl/bench/bench_compare ] && acc_bench=build-cccl/bench/bench_compare
        for t in float double; do
            for d in uniform small-ints wide-range signed ill-conditioned; do
                step "accuracy_${t}_$d" "$acc_bench" -t "$t" -d "$d" -n 16777216 -S 5 -w 1 \
                    --csv "$out/accuracy_${t}_$d.csv"
            done
        done
        step accuracy_table bash -c "set -o pipefail; python3 bench/accuracy_table.py \
            $out/accuracy_float_*.csv $out/accuracy_double_*.csv | tee $out/accuracy.md" ;;
    multigpu)
        step multigpu_tests ctest --test-dir "$build" -R multi_gpu --output-on-failure
        step multigpu_4GiB bash -c "set -o pipefail; $bench --gpus all --bytes 4294967296 | tee $out/multigpu_4gib.txt"
        step multigpu_ladder bash -c "set -o pipefail; $bench --gpus all --ladder | tee $out/multigpu_ladder.txt"
        ;;
    multigpupairs)
        : >"$out/multigpu_pairs.txt"
        for t in float double int32 int64 uint32 half bfloat16; do
            for o in sum max min; do
                step "multigpu_${t}_$o" bash -c "set -o pipefail; $bench --gpus all -t $t -o $o --bytes 268435456 -S 20 | tee -a $out/multigpu_pairs.txt"
            done
        done ;;
    cubmodes)
        if ! root=$(cccl_root); then
            echo "== cubmodes: no CCCL wheel in deps/" | tee -a "$log"
            status=1
            continue
        fi
        cccl_bench=build-cccl/bench/bench_compare
        ours=one_pass_ilp,tma_ring,reproducible,exact
        step cubmodes_build configure_and_build build-cccl -DREDUCE_CCCL_ROOT="$root"
        step cubmodes_version "$cccl_bench" --version
        for m in cub_atomic cub_reproducible reproducible exact; do
            step "cubmodes_methods_$m" build-cccl/tests/test_methods_gpu --every-distribution --method "$m"
        done
        step cubmodes_64MiB "$cccl_bench" --csv "$out/cubmodes_64mib.csv" \
            --json "$out/cubmodes_64mib.json" --markdown "$out/cubmodes_64mib.md"
        step cubmodes_1GiB "$cccl_bench" -n 268435456 \
            -m "grid_stride,vector_loads,single_pass,$ours,cub,cub_atomic,cub_reproducible,thrust,cublas" \
            --csv "$out/cubmodes_1gib.csv" --markdown "$out/cubmodes_1gib.md"
        step cubmodes_double_1GiB "$cccl_bench" -t double -n 134217728 \
            -m one_pass_ilp,tma_ring,reproducible,exact,cub,cub_atomic,cub_reproducible
        ;;
    cubsweep) # after cubmodes: its build
        step cubmodes_sweep build-cccl/bench/bench_compare --sweep -S 30 \
            -m one_pass_ilp,tma_ring,reproducible,exact,cub,cub_atomic \
            --csv "$out/cubmodes_sweep.csv" --json "$out/cubmodes_sweep.json" ;;
    cccl)
        if root=$(cccl_root); then
            step cccl_build configure_and_build build-cccl -DREDUCE_CCCL_ROOT="$root"
        else
            echo "== cccl: no CCCL wheel in deps/" | tee -a "$log"
            status=1
        fi ;;
    rows | rows_sweep | segments | rows_matrix)
        rows_bench=$bench rows_tests=$build/tests
        [ -x build-cccl/bench/bench_compare ] && rows_bench=build-cccl/bench/bench_compare rows_tests=build-cccl/tests
        row_methods=$("$rows_bench" --list | awk '$3 ~ /rows|segments/ && $2 != "cpu" && $1 != "thread_per_row" {print $1}' | paste -sd, -)
        if [ "$s" = rows ] || [ "$s" = rows_sweep ]; then
            step rows_version "$rows_bench" --version
            step rows_test "$rows_tests/test_shapes_gpu"
            step rows_whole "$rows_bench" -m one_pass_ilp,cub -S 100
            step rows_sweep "$rows_bench" --row-sweep -S 100 -m "$row_methods" \
                --csv "$out/rows_sweep.csv" --json "$out/rows_sweep.json"
        fi
        if [ "$s" = rows ] || [ "$s" = segments ]; then
            : >"$out/segments.txt"
            for spec in uniform:8 uniform:100 uniform:10000 powerlaw:100; do
                step "segments_$spec" bash -c "set -o pipefail; $rows_bench --segments $spec -S 100 -m $row_methods | tee -a $out/segments.txt"
            done
        fi
        if [ "$s" = rows ] || [ "$s" = rows_matrix ]; then
            : >"$out/rows_matrix.txt"
            for cols in 32 4096; do
                step "rows_matrix_$cols" bash -c "set -o pipefail; $rows_bench --cols $cols --type all --op all -S 30 -m $row_methods | tee -a $out/rows_matrix.txt"
            done
        fi ;;
    segment_sweep)
        seg_bench=$bench
        [ -x build-cccl/bench/bench_compare ] && seg_bench=build-cccl/bench/bench_compare
        seg_methods=$("$seg_bench" --list | awk '$3 ~ /segments/ && $2 != "cpu" {print $1}' | paste -sd, -)
        python3 bench/zipf_lengths.py >"$out/zipf_lengths.txt"
        step segment_sweep_version "$seg_bench" --version
        step segment_sweep_whole "$seg_bench" -m one_pass_ilp,cub -S 100 --csv "$out/segment_sweep_whole.csv"
        for spec in $SEGMENT_SWEEP "file:$out/zipf_lengths.txt"; do
            name=${spec%%:*}_${spec##*:}
            [ "${spec%%:*}" = file ] && name=zipf
            step "segment_sweep_$name" "$seg_bench" --segments "$spec" -S 100 -m "$seg_methods" \
                --csv "$out/segment_sweep_$name.csv"
        done
        step segment_sweep_table bash -c "python3 bench/segment_sweep_table.py $out/segment_sweep_whole.csv $out/segment_sweep_*_*.csv $out/segment_sweep_zipf.csv | tee $out/segment_sweep.md" ;;
    columns)
        step columns_128 "$bench" --cols 128 --axis 0 -S 100 -m "$(column_methods)"
        # steps 30-31 take seconds a call on a matrix of a few columns: the
        # 128-column table shows them, the sweep the whole-GPU steps and the vendors
        step cols_sweep "$bench" --col-sweep -S 100 -m "$(column_methods whole)" \
            --csv "$out/cols_sweep.csv" --json "$out/cols_sweep.json"
        step cols_sweep_first_steps "$bench" --col-sweep -S 5 -w 1 -m thread_per_column,block_columns \
            --csv "$out/cols_sweep_first_steps.csv" ;;
    columns_matrix)
        for cols in 32 4096; do
            step "columns_matrix_$cols" bash -c "set -o pipefail; $bench --cols $cols --axis 0 --type all --op all -S 30 -m $(column_methods whole) | tee -a $out/columns_matrix.txt"
        done ;;
    argmax)
        arg_methods=$("$bench" --list | awk '$2 != "cpu" && $3 ~ /whole/ {print $1}' | paste -sd, -)
        step argmax_sum_64MiB "$bench" -m one_pass_ilp,cub -S 100
        step argmax_64MiB "$bench" -o argmax -m "$arg_methods" -S 100 \
            --csv "$out/argmax_64mib.csv" --markdown "$out/argmax_64mib.md"
        step argmax_sweep "$bench" --sweep --sweep-max 268435456 -o argmax -S 100 \
            -m vector_loads,single_pass,one_pass_ilp,arg_warp_shuffle,cub,thrust,cublas,torch \
            --csv "$out/argmax_sweep.csv" --json "$out/argmax_sweep.json" ;;
    argmax_rows) # our best row step against the vendors (CUB's fixed-size rows: CCCL >= 3.1)
        arg_bench=$bench
        [ -x build-cccl/bench/bench_compare ] && arg_bench=build-cccl/bench/bench_compare
        step argmax_rows_sweep "$arg_bench" --row-sweep -o argmax -S 100 \
            -m adaptive_rows,cub_segmented,cub_fixed_size,torch \
            --csv "$out/argmax_rows_sweep.csv" --json "$out/argmax_rows_sweep.json"
        for cols in 32000 128256; do # 64 MiB of whole rows
            step "argmax_rows_$cols" "$arg_bench" --cols $cols --rows $((16777216 / cols)) -o argmax -S 100 \
                -m adaptive_rows,cub_segmented,cub_fixed_size,torch
        done ;;
    argmax_rows_every)
        arg_bench=$bench
        [ -x build-cccl/bench/bench_compare ] && arg_bench=build-cccl/bench/bench_compare
        every=$("$arg_bench" --list | awk '$3 ~ /rows/ && $2 != "cpu" && $1 != "thread_per_row" {print $1}' | paste -sd, -)
        step argmax_rows_every_method "$arg_bench" --row-sweep -o argmax -S 100 -m "$every" \
            --csv "$out/argmax_rows_every_method.csv" --json "$out/argmax_rows_every_method.json" ;;
    torch)
        step torch_version bash -c "$bench --version && $bench --version | grep -q 'torch rows: PyTorch [0-9]'"
        step torch_methods "$build/tests/test_methods_gpu" --method torch
        step torch_64MiB "$bench" -m one_pass_ilp,tma_ring,cub,torch \
            --csv "$out/torch_64mib.csv" --json "$out/torch_64mib.json" --markdown "$out/torch_64mib.md"
        step torch_matrix_64MiB bash -c "set -o pipefail; $bench --type all --op all -m single_pass,one_pass_ilp,tma_ring,cub,thrust,torch | tee $out/torch_matrix_64mib.txt"
        step torch_sweep "$bench" --sweep --sweep-max 268435456 -m one_pass_ilp,tma_ring,cub,torch \
            --csv "$out/torch_sweep.csv" --json "$out/torch_sweep.json" ;;
    loads_in_flight)
        objects=$build/CMakeFiles/reduce_gpu.dir/kernels
        step loads_in_flight bash -c "set -o pipefail; python3 bench/loads_in_flight.py $objects/modern/17_one_pass_ilp.cu.o $objects/modern/19_reproducible.cu.o $objects/rows/25_block_per_row.cu.o | tee $out/loads_in_flight.txt" ;;
    pack) step pack pack_results ;;
    *) echo "unknown step '$s'"; exit 2 ;;
    esac
done
exit $status
