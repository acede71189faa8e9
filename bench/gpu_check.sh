#!/usr/bin/env bash
# The GPU session in one command: build for this GPU, run the full ctest,
# the bench table and whatever else is asked, with every log under $OUT.
#
#   bench/gpu_check.sh STEP...    steps, in the order given:
#     build      configure + build (Release, native architecture)
#     test       full ctest (GPU tests included), log test.log
#     sanitize   ctest -L sanitize (compute-sanitizer memcheck/racecheck/...)
#     bench      bench_compare at 64 MiB -> bench.txt, run.csv, run.json, run.md
#     progression  bench_compare --progression -> progression.txt
#     large      best kernels vs CUB at 1 GiB and 4 GiB -> large.txt
#     sweep      --sweep of modern + vendor methods -> sweep.txt, sweep.csv
#     huge       2^31 + 5 elements, every method -> huge.txt
#     seed000    bench_compare -r 0 -s 509600000 -> seed000.txt
#     sass       cuobjdump -sass of the one-pass kernels -> sass.txt
# Example: OUT=/tmp/out bench/gpu_check.sh build test bench
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-logs}
mkdir -p "$out"
build=build-gpu
bench="$build/bench/bench_compare"
status=0

run() { # run NAME COMMAND...: tee output to $out/NAME, remember a failure
    local name=$1; shift
    echo "== $name: $*"
    "$@" 2>&1 | tee "$out/$name"
    local rc=${PIPESTATUS[0]}
    echo "== $name: exit $rc"
    [ "$rc" -eq 0 ] || status=1
}

for step in "$@"; do
    case $step in
    build)
        run build.log bash -c "cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build $build -j 16 2>&1 | grep -E 'warning|error|Linking' ; exit \${PIPESTATUS[0]}" ;;
    test)
        run test.log ctest --test-dir "$build" --output-on-failure -LE sanitize -j 1 ;;
    sanitize)
        run sanitize.log ctest --test-dir "$build" --output-on-failure -L sanitize ;;
    bench)
        run bench.txt "$bench" --csv "$out/run.csv" --json "$out/run.json" --markdown "$out/run.md" ;;
    progression)
        run progression.txt "$bench" --progression ;;
    large)
        run large.txt bash -c "$bench -m one_pass_ilp,vec4,single_pass,cub -n 268435456 && $bench -m one_pass_ilp,cub -n 1073741824" ;;
    sweep)
        run sweep.txt "$bench" --sweep --sweep-csv "$out/sweep.csv" ;;
    huge)
        run huge.txt "$bench" -n 2147483653 -S 3 -w 1 ;;
    seed000)
        run seed000.txt "$bench" -r 0 -s 509600000 -S 10 ;;
    sass)
        run sass.txt bash -c "cuobjdump -sass -fun one_pass_kernel $build/libreduce_gpu.a 2>/dev/null | grep -E 'LDG|Function' | head -40" ;;
    *)
        echo "unknown step '$step'"; exit 2 ;;
    esac
done
exit $status
