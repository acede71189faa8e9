#!/usr/bin/env bash
# plot_results.py on committed results files: every plot kind and file type is
# written and non-empty; each bad input exits 2 with one line on stderr naming
# the problem, no traceback, and no output file. ROW_SWEEP.json is the
# hand-written fixture tests/fixtures/rows_sweep_fixture.json (synthetic
# numbers: 3 methods x 4 widths and one whole-array row, cols 0).
#   test_plot_results.sh PYTHON PLOT_RESULTS.py RUN.json SWEEP.json ROW_SWEEP.json TMPDIR
set -u
py=$1 plot=$2 run=$3 sweep=$4 row_sweep=$5 tmp=$6/plot_results
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
draws row_sweep.svg sweep "$row_sweep"
draws row_sweep.png sweep "$row_sweep"

# svg text as paths keeps each string in a comment: what the plot says is greppable.
svg_says() { # svg_says FILE.svg 'TEXT' 'WHAT IT MEANS'
    if grep -qsF -- "$2" "$tmp/out/$1"; then
        passed=$((passed + 1)); echo "ok   $3"
    else
        failed=$((failed + 1)); echo "FAIL $3: no '$2' in $1"
    fi
}
svg_says row_sweep.svg "GB/s against row width" "a row sweep is drawn against the width"
svg_says row_sweep.svg "4 MiB of float (n=1048576)" "a row sweep's title names the total"
svg_says row_sweep.svg "FIXTURE GPU" "a row sweep's title names the device"
svg_says row_sweep.svg "whole array (cub) 2200 GB/s" "the whole-array row is drawn as a line"
svg_says row_sweep.svg "cublas_rows" "each method of the row sweep has a line"

# The same row sweep without its whole-array row draws no whole-array line;
# one row without "cols" cannot be placed and is refused.
"$py" - "$row_sweep" "$tmp/in" <<'EOF_PY'
import json, sys
doc = json.load(open(sys.argv[1]))
whole = [row for row in doc["methods"] if row["cols"] == 0]
assert len(whole) == 1 and len(doc["methods"]) == 13, "the fixture changed: update this test"
doc["methods"].remove(whole[0])
json.dump(doc, open(sys.argv[2] + "/row_sweep_no_whole.json", "w"))
del doc["methods"][5]["cols"]
json.dump(doc, open(sys.argv[2] + "/row_sweep_no_cols.json", "w"))
EOF_PY
draws row_sweep_no_whole.svg sweep "$tmp/in/row_sweep_no_whole.json"
if [ -s "$tmp/out/row_sweep_no_whole.svg" ] &&
   ! grep -q "whole array" "$tmp/out/row_sweep_no_whole.svg"; then
    passed=$((passed + 1)); echo "ok   a row sweep without a whole-array row draws none"
else
    failed=$((failed + 1)); echo "FAIL a row sweep without a whole-array row: none drawn, or a whole-array line"
fi

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

# A v5 file (bench_compare --json today: result_index in every row) made from
# the committed run.
"$py" - "$run" "$tmp/in/v5.json" <<'EOF_PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["format"] = "reduction-suite run v5"
for m in doc["methods"]:
    m["result_index"] = -1
json.dump(doc, open(sys.argv[2], "w"))
EOF_PY
draws bars_v5.svg bars "$tmp/in/v5.json"

help=$("$py" "$plot" --help)
if [[ "$help" == *"usage: plot_results.py"* && "$help" == *"a plain run"* &&
      "$help" == *"a size sweep"* && "$help" == *"a row sweep"* ]]; then
    passed=$((passed + 1)); echo "ok   --help, naming the three kinds of file"
else
    failed=$((failed + 1)); echo "FAIL --help does not name a plain run, a size sweep and a row sweep"
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
refuses 'methods[5] (cub_fixed_size) has no "cols"' sweep "$tmp/in/row_sweep_no_cols.json" "$tmp/err/o.svg"
refuses "is a row sweep" bars "$row_sweep" "$tmp/err/o.svg"
refuses "is a row sweep" ratio "$row_sweep" "$tmp/err/o.png"
refuses "the extension picks the file type" bars "$run" "$tmp/err/o.jpg"
refuses "cannot write $tmp/err/no_dir/o.svg" bars "$run" "$tmp/err/no_dir/o.svg"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
