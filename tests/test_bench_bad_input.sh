#!/usr/bin/env bash
# bench_compare's bad input: each case must exit 2 with exactly one line on
# stderr naming the problem, print no table, and leave no file behind.
# These fail before any GPU work, so they run on CI too.
#   test_bench_bad_input.sh BENCH_COMPARE TMPDIR
set -u
bench=$1 tmp=$2/bad_input
rm -rf "$tmp"; mkdir -p "$tmp"
failed=0 passed=0

expect() { # expect 'PATTERN' ARGS...
    local pattern=$1; shift
    local out err rc
    out=$("$bench" "$@" 2>"$tmp/stderr"); rc=$?
    err=$(cat "$tmp/stderr")
    if [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
       [[ "$err" == *"$pattern"* ]] && [ -z "$(ls "$tmp" | grep -v '^stderr$')" ]; then
        passed=$((passed + 1)); echo "ok   $* -> $err"
    else
        failed=$((failed + 1)); echo "FAIL $* -> exit $rc, stdout '${out:0:80}', stderr '$err'"
    fi
}

expect "must be at least 1" -n 0
expect "'-5' is not a whole non-negative number" -n -5
expect "'abc' is not a whole" -n abc
expect "'64M' is not a whole" -n 64M
expect "too large" -n 184467440737095516160
expect "unknown method 'nosuch'" -m nosuch
expect "'cub' is named twice" -m cub,cub
expect "samples: 0 is out of range" -S 0
expect "unknown option" --bogus
expect "cannot write $tmp/missing/run.csv" -m cub --csv "$tmp/missing/run.csv"
expect "none.csv: cannot open" --compare "$tmp/none.csv" "$tmp/none2.csv"
expect "-n needs a value" -n

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
