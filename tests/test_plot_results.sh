#!/usr/bin/env bash
# plot_results.py on committed results files: every plot kind and file type is
# written and non-empty; each bad input exits 2 with one line on stderr naming
# the problem, no traceback, and no output file.
#   test_plot_results.sh PYTHON PLOT_RESULTS.py RUN.json SWEEP.json TMPDIR
set -u
py=$1 plot=$2 run=$3 sweep=$4 tmp=$5/plot_results
rm -rf "$tmp"; mkdir -p "$tmp/out" "$tmp/err" "$tmp/in"
failed=0 passed=0

draws() { # draws OUT ARGS...: exit 0 and a non-empty OUT
    local out=$tmp/out/$1; shift
    if "$py" "$plot" "$@" "$out" 2>"$tmp/stderr" && [ -s "$out" ] && [ ! -s "$tmp/stderr" ]; then
        passed=$((passed + 1)); echo "ok   $* $out"
    else
        failed=$((failed + 1)); echo "FAIL $* $out -> $(cat "$tmp/stderr")"
    fi
}

refuses() { # refuses 'PATTERN' ARGS...: exit 2, one line 'plot_results.py: ...PATTERN...', no file
    local pattern=$1; shift
    local err rc
    "$py" "$plot" "$@" >/dev/null 2>"$tmp/stderr"; rc=$?
    err=$(cat "$tmp/stderr")
    if [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
       [[ "$err" == "plot_results.py: "*"$pattern"* ]] && [ -z "$(ls -A "$tmp/err")" ]; then
        passed=$((passed + 1)); echo "ok   $* -> $err"
    else
        failed=$((failed + 1)); echo "FAIL $* -> exit $rc, stderr '$err'"
    fi
}

draws bars.svg bars "$run"
draws bars.png bars "$run"
draws sweep.svg sweep "$sweep"
draws sweep.png sweep "$sweep"
draws ratio.svg ratio "$sweep"
draws ratio.pdf ratio "$sweep"

# A v2 file (no n in rows, no clock keys) made from the committed run.
"$py" - "$run" "$tmp/in/v2.json" <<'EOF_PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["format"] = "reduction-suite run v2"
clock_keys = ("clocks", "sm_clock_mhz", "sm_clock_max_mhz", "mem_clock_mhz",
              "temperature_c", "power_w", "throttled", "throttle_reasons")
for d in [doc["context"]] + doc["methods"]:
    for key in clock_keys + (("n",) if d is not doc["context"] else ()):
        d.pop(key, None)
json.dump(doc, open(sys.argv[2], "w"))
EOF_PY
draws bars_v2.svg bars "$tmp/in/v2.json"
if grep -q "clocks not recorded" "$tmp/out/bars_v2.svg"; then
    passed=$((passed + 1)); echo "ok   a v2 file's title says clocks not recorded"
else
    failed=$((failed + 1)); echo "FAIL a v2 file's title does not say clocks not recorded"
fi

if "$py" "$plot" --help | grep -q "usage: plot_results.py"; then
    passed=$((passed + 1)); echo "ok   --help"
else
    failed=$((failed + 1)); echo "FAIL --help"
fi

# Bad inputs.
printf '{"format": "reduction-suite run v3", "context": {' >"$tmp/in/cut.json"
printf '{"format": "reduction-suite run v9", "context": {}, "methods": []}\n' >"$tmp/in/v9.json"
printf '{"format": "other", "context": {}, "methods": []}\n' >"$tmp/in/other.json"
"$py" - "$run" "$tmp/in/none_pass.json" <<'EOF_PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for row in doc["methods"]:
    row["status"] = "REFUSED"
json.dump(doc, open(sys.argv[2], "w"))
EOF_PY
refuses "cannot read $tmp/in/missing.json" bars "$tmp/in/missing.json" "$tmp/err/o.svg"
refuses "cut.json is not JSON" bars "$tmp/in/cut.json" "$tmp/err/o.svg"
refuses "format is 'reduction-suite run v9'" bars "$tmp/in/v9.json" "$tmp/err/o.svg"
refuses "format is 'other'" sweep "$tmp/in/other.json" "$tmp/err/o.png"
refuses "no PASS rows" bars "$tmp/in/none_pass.json" "$tmp/err/o.svg"
refuses "holds one size" sweep "$run" "$tmp/err/o.svg"
refuses "holds one size" ratio "$run" "$tmp/err/o.svg"
refuses "pick one with --n" bars "$sweep" "$tmp/err/o.svg"
refuses "the extension picks the file type" bars "$run" "$tmp/err/o.jpg"
refuses "cannot write $tmp/err/no_dir/o.svg" bars "$run" "$tmp/err/no_dir/o.svg"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
