#!/usr/bin/env bash
# Where a kernel's warps wait, by machine instruction: Nsight Compute's
# warp-state sampling of one launch, the instructions with the most samples
# printed with their share, after the warp-state and source-counter
# sections' own summaries.
#
#   ncu_source_stalls.sh BUILD KERNEL_REGEX BENCH_ARGS...
#     e.g. ncu_source_stalls.sh build-gpu merge_path_segments_kernel \
#            --segments uniform:10000 -m merge_path_segments -S 3
# Writes $OUT/<label>.ncu-rep and .sass.csv; appends the tables to
# $OUT/source_stalls.log.
set -uo pipefail
build=$1 kernel=$2; shift 2
label=$(echo "$kernel $*" | tr -c 'A-Za-z0-9\n' '_' | cut -c1-60)
rep=${OUT:?set OUT}/$label
ncu --kernel-name "regex:$kernel" --launch-skip 2 --launch-count 1 \
    --section WarpStateStats --section SourceCounters --import-source yes \
    -f -o "$rep" "$build/bench/bench_compare" "$@" >/dev/null 2>&1 || { echo "ncu failed" >&2; exit 1; }
{
    echo "=== $kernel $*"
    ncu -i "$rep.ncu-rep" --page details --section WarpStateStats --section SourceCounters 2>&1 | grep -v "^  *-*$"
    ncu -i "$rep.ncu-rep" --page source --print-source sass --csv >"$rep.sass.csv" 2>&1
    python3 - "$rep.sass.csv" <<'PYTHON'
import csv, sys
def num(s):
    try: return float(s.replace(",", ""))
    except ValueError: return 0.0
body, cols, where, first = [], None, "?", []
for r in csv.reader(open(sys.argv[1])):
    if len(first) < 8: first.append(",".join(r)[:200])
    if any("Sampling" in c for c in r):
        cols = r
        pick = max(range(len(r)), key=lambda i: ("Sampling" in r[i], "All" in r[i], "Not" not in r[i]))
        src = next((i for i, c in enumerate(r) if "Source" in c), 1)
        line = next((i for i, c in enumerate(r) if c.strip() in ("#", "Line", "Address")), 0)
    elif cols is None or len(r) <= pick:
        if len(r) == 1 and r[0].strip(): where = r[0].strip().split("/")[-1][:40]
    else:
        body.append((num(r[pick]), where + ":" + r[line], r[src].strip()[:100]))
if not body:
    print("no sampling column; first lines:"); print("\n".join(first)); sys.exit()
total = sum(b[0] for b in body) or 1
print("column:", cols[pick], " total samples:", int(total))
for s, l, text in sorted(body, reverse=True)[:40]:
    print(f"{100 * s / total:5.1f}%  {l:>40}  {text}")
PYTHON
} >>"$OUT/source_stalls.log"
