#!/usr/bin/env bash
# bench_compare's bad input: each case must exit 2 with exactly one line on
# stderr naming the problem, print no table, and leave no file behind.
# These fail before any GPU work, so they run on CI too.
#   test_bench_bad_input.sh BENCH_COMPARE TMPDIR
set -u
bench=$1 tmp=$2/bad_input
rm -rf "$tmp"; mkdir -p "$tmp"
failed=0 passed=0
limit_s=5 # bad input fails before any work: past this (exit 124), a case that never ends

expect() { # expect 'PATTERN' ARGS...
    local pattern=$1; shift
    local out err rc
    out=$(timeout "$limit_s" "$bench" "$@" 2>"$tmp/stderr"); rc=$?
    err=$(cat "$tmp/stderr")
    if [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
       [[ "$err" == *"$pattern"* ]] && [ -z "$(ls "$tmp" | grep -v '^stderr$')" ]; then
        passed=$((passed + 1)); echo "ok   $* -> $err"
    else
        failed=$((failed + 1)); echo "FAIL $* -> exit $rc, stdout '${out:0:80}', stderr '$err'"
    fi
}

expect "--size: 0 is out of range (at least 1)" -n 0
expect "'-5' is not a whole non-negative number" -n -5
expect "'abc' is not a whole" -n abc
expect "'64M' is not a whole" -n 64M
expect "too large" -n 184467440737095516160
expect "unknown method 'nosuch'" -m nosuch
expect "'cub' is named twice" -m cub,cub
expect "samples: 0 is out of range" -S 0
expect "unknown option" --bogus
expect "--cols and --segments are two shapes" --cols 32 --segments uniform:8
expect "--rows needs --cols" --rows 8
expect "--cols: 0 is out of range (at least 1)" --cols 0
expect "--rows: 0 is out of range (at least 1)" --cols 4 --rows 0
expect "are not whole rows" --cols 33
expect "is 64 elements, not the 100 of -n" --cols 8 --rows 8 -n 100
expect "--gpus is for the whole array" --gpus 2 --cols 32
expect "--sweep is for the whole array" --sweep --segments uniform:8
expect "--batch is for the whole array" --batch 8 --cols 32
expect "--row-sweep chooses the widths" --row-sweep --cols 32
expect "--row-sweep needs one type and one operator" --row-sweep --type all
expect "--col-sweep needs one type and one operator" --col-sweep --op all
expect "--axis needs --cols" --axis 0
expect "--axis: 2 is out of range (at most 1" --cols 32 --axis 2
expect "are not whole rows" --cols 33 --axis 0
expect "--col-sweep chooses the widths" --col-sweep --cols 32
expect "--row-sweep and --col-sweep sweep two axes" --row-sweep --col-sweep
expect "is not uniform:MEAN, powerlaw:MEAN or file:PATH" --segments gauss:5
expect "the mean length must be 1 or more" --segments uniform:0
# A mean past 2^40 is refused as it is read: 2 MEAN + 1 once wrapped to 1 here
# (every length 0, offsets growing until memory ran out) or to 11 (a mean of 5).
expect "the mean length must be at most 1099511627776" --segments uniform:9223372036854775808
expect "the mean length must be at most 1099511627776" --segments uniform:9223372036854775813
expect "the mean length must be at most 1099511627776" --segments powerlaw:18446744073709551615
# Each option once; -m and -r add up
expect "-n is given twice" -n 5 -n 7
expect "--segments is given twice" --segments uniform:8 --segments uniform:8
expect "--compare is given twice" --compare "$tmp/a.csv" "$tmp/b.csv" --compare "$tmp/a.csv" "$tmp/b.csv"
expect "the lengths give the total" --segments file:/tmp/lengths.txt -n 100
expect "--rows with --cols gives the size" --cols 4 --rows 4 --bytes 64
expect "cannot write $tmp/missing/run.csv" -m cub --csv "$tmp/missing/run.csv"
expect "none.csv: cannot open" --compare "$tmp/none.csv" "$tmp/none2.csv"
expect "-n needs a value" -n

# element types and operators
expect "--type: unknown type 'nosuch'" --type nosuch
expect "--op: unknown operator 'nosuch'" --op nosuch
expect "--csv needs one type and one operator, not --type all" --type all --csv "$tmp/run.csv"
expect "--baseline needs one type and one operator, not --op all" --op all --baseline "$tmp/base.csv"
expect "--offset: 8 half elements is 16 bytes or more (at most 7)" --type half --offset 8
expect "--offset: 2 double elements is 16 bytes or more (at most 1)" --type double --offset 2

# --gpus: refused before any GPU is touched
expect "gpus: 0 is out of range" --gpus 0
expect "--sweep is not for --gpus" --gpus 2 --sweep
expect "--csv is not for --gpus" --gpus all --csv "$tmp/run.csv"
expect "--gpus needs one type and one operator, not --type all" --gpus 2 --type all
expect "--combine only applies to --gpus" --combine nccl
expect "--ladder chooses the sizes: not with -n" --gpus 2 --ladder -n 1000

# --compare of two valid results files of different reductions: no verdict.
# The files live outside $tmp, which expect() requires to hold only stderr.
files=$2/bad_input_files
rm -rf "$files"; mkdir -p "$files"
write_run() { # write_run FILE ELEMENT_TYPE OP [DEVICE]: a minimal valid v2 results file
    cat >"$1" <<EOF_CSV
# reduction-suite run v2
# device_name=${4:-NVIDIA H100 80GB HBM3}
# sm_count=132
# l2_bytes=52428800
# peak_gbs=3352.32
# read_ceiling_gbs=3000
# launch_floor_us=2.5
# driver_version=13000
# runtime_version=13000
# cccl_version=3000000
# cublas_version=130000
# flush_mode=read-sweep
# strategy=padded
# element_type=$2
# op=$3
# n=16777216
# offset=0
# samples=100
# distribution=uniform
# seed=1
# date=2026-11-22T09:00:00Z
# git_commit=abc1234
name,family,status,median_us,min_us,max_us,q1_us,q3_us,samples,gbps,pct_peak,ratio_to_cub,result,rel_error,determinism,noisy,host_timed,note
cub,vendor,PASS,32.5,32,33,32.25,32.75,100,2064.9,61.6,1,8388608,0,bitwise,0,0,
# end rows=1
EOF_CSV
}
write_run "$files/float_sum.csv" float sum
write_run "$files/int32_sum.csv" int32 sum
write_run "$files/float_max.csv" float max
write_run "$files/float_sum_h200.csv" float sum "NVIDIA H200"
# A rows file (v2 with the v4 shape keys: unknown keys are ignored by no
# one, optional keys read by v4) against a whole-array file: no verdict.
write_run "$files/float_sum_rows.csv" float sum
sed -i 's/^# git_commit=abc1234$/# git_commit=abc1234\n# shape=rows\n# result_count=524288\n# cols=32/' \
    "$files/float_sum_rows.csv"
expect "cannot compare: the baseline reduces whole array, this run rows of 32" \
    --compare "$files/float_sum.csv" "$files/float_sum_rows.csv"
expect "cannot compare: the baseline reduces rows of 32, this run whole array" \
    --compare "$files/float_sum_rows.csv" "$files/float_sum.csv"
expect "cannot compare: the baseline reduces float sum, this run int32 sum" \
    --compare "$files/float_sum.csv" "$files/int32_sum.csv"
expect "cannot compare: the baseline reduces int32 sum, this run float sum" \
    --compare "$files/int32_sum.csv" "$files/float_sum.csv"
expect "cannot compare: the baseline reduces float sum, this run float max" \
    --compare "$files/float_sum.csv" "$files/float_max.csv"

# the same files are valid: one reduction against itself compares (exit 0)
out=$("$bench" --compare "$files/float_sum.csv" "$files/float_sum.csv" 2>"$tmp/stderr"); rc=$?
if [ "$rc" -eq 0 ] && [[ "$out" == *"cub"*"SAME"* ]] && [ ! -s "$tmp/stderr" ]; then
    passed=$((passed + 1)); echo "ok   --compare float_sum.csv float_sum.csv -> exit 0, SAME"
else
    failed=$((failed + 1)); echo "FAIL --compare float_sum.csv float_sum.csv -> exit $rc, stdout '${out:0:200}', stderr '$(cat "$tmp/stderr")'"
fi
# Options that would be ignored or contradict each other: errors, nothing written.
expect "cannot compare: the baseline ran on 'NVIDIA H100 80GB HBM3', this run on 'NVIDIA H200'" \
    --compare "$files/float_sum.csv" "$files/float_sum_h200.csv"
expect "-m: method 'nosuch' is in neither file" \
    --compare "$files/float_sum.csv" "$files/float_sum.csv" -m nosuch
expect "--compare takes only -m and --ignore-device" \
    --compare "$files/float_sum.csv" "$files/float_sum.csv" -n 5 --csv "$tmp/x.csv"
expect "--list takes no other options" --list -m cub
expect "--ignore-device only applies to --compare and --baseline" --ignore-device
expect "unknown option '--sweep-csv'" --sweep --sweep-csv "$tmp/s.csv"
expect "--sweep-max only applies to --sweep" --sweep-max 4096 --csv "$tmp/x.csv"
expect "only one output can go to standard output" --csv - --json -
expect "unexpected argument 'extra'" -n 5 extra
expect "--size needs a value" --size
expect "'12x' is not a whole" --size=12x

# --version needs no GPU: the commit and the libraries built with, exit 0
out=$("$bench" --version 2>"$tmp/stderr"); rc=$?
if [ "$rc" -eq 0 ] && [[ "$out" == *"built with CUDA runtime"*"CCCL"*"cuBLAS"* ]] && [ ! -s "$tmp/stderr" ]; then
    passed=$((passed + 1)); echo "ok   --version -> exit 0, '$(echo "$out" | tail -1)'"
else
    failed=$((failed + 1)); echo "FAIL --version -> exit $rc, stdout '$out', stderr '$(cat "$tmp/stderr")'"
fi
# --help: exit 0, the limits list (from the parser's table) and the exit codes
out=$("$bench" --help 2>"$tmp/stderr"); rc=$?
if [ "$rc" -eq 0 ] && [[ "$out" == *"Limits"*"-S, --samples N"*"1 .. 2^31 - 1"*"MEAN 1 .. 2^40"* ]] &&
   [[ "$out" == *"Exit status: 0 all PASS or REFUSED"* ]] && [ ! -s "$tmp/stderr" ]; then
    passed=$((passed + 1)); echo "ok   --help -> exit 0, limits and exit codes"
else
    failed=$((failed + 1)); echo "FAIL --help -> exit $rc, stdout '${out:0:200}', stderr '$(cat "$tmp/stderr")'"
fi
# ... and across GPU models with --ignore-device, which still warns
out=$("$bench" --compare "$files/float_sum.csv" "$files/float_sum_h200.csv" --ignore-device -m cub 2>"$tmp/stderr"); rc=$?
if [ "$rc" -eq 0 ] && [[ "$out" == *"WARNING: different GPU"*"cub"*"SAME"* ]]; then
    passed=$((passed + 1)); echo "ok   --compare (H100, H200) --ignore-device -m cub -> exit 0, WARNING, SAME"
else
    failed=$((failed + 1)); echo "FAIL --compare --ignore-device -> exit $rc, stdout '${out:0:300}'"
fi
rm -rf "$files"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
