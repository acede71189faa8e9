#!/usr/bin/env python3
"""The segment sweep as one markdown table: each method's time and its share
of the whole-array sum's GB/s, a row per distribution.

    python3 bench/segment_sweep_table.py WHOLE.csv SEGMENTS.csv...
    python3 bench/segment_sweep_table.py --check TABLE.md WHOLE.csv SEGMENTS.csv...

WHOLE.csv: bench_compare's --csv of the whole array (the best PASSing row is
the reference); each SEGMENTS.csv: a --segments run of the same element
type, operator and GPU, in the same call (bench/gpu_check.sh segment_sweep).
A cell reads "median us (share of whole)", or the row's status when it did
not PASS; the last column names the fastest PASSing method that is not a
vendor's, and its share. GB/s counts what bench_compare counts for segments: the input,
the offsets read and the results written. --check writes nothing and exits
1 when TABLE.md is not what the CSV files give."""
import csv
import sys


def read_run(path):
    """The context (# key=value lines) and the rows of a bench_compare CSV."""
    context, lines = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                key, _, value = line[1:].strip().partition("=")
                context[key] = value
            else:
                lines.append(line)
    return context, list(csv.DictReader(lines))


def spec_order(context):
    """Rows in the sweep's order: uniform by mean, powerlaw by mean, files."""
    kind, _, mean = context.get("segments", "").partition(":")
    rank = {"uniform": 0, "powerlaw": 1}.get(kind, 2)
    return (rank, int(mean) if rank < 2 and mean.isdigit() else 0, mean)


def fail(message):
    sys.exit(f"segment_sweep_table.py: {message}")


def cell(row, whole_gbps):
    """A method's cell: median us and share of whole, or its status."""
    if row is None:
        return "-"
    if row["status"] != "PASS":
        return row["status"]
    return f"{float(row['median_us']):.2f} ({100 * float(row['gbps']) / whole_gbps:.0f}%)"


def table(paths):
    """The markdown table of a whole-array CSV and the segments CSVs."""
    whole_context, whole_rows = read_run(paths[0])
    if whole_context.get("segments") or whole_context.get("shape", "whole") != "whole":
        fail(f"{paths[0]}: not a whole-array run (the first file is the reference)")
    passing = [r for r in whole_rows if r["status"] == "PASS"]
    if not passing:
        fail(f"{paths[0]}: no PASSing whole-array row")
    best = max(passing, key=lambda r: float(r["gbps"]))
    whole_gbps = float(best["gbps"])
    runs = []
    for path in paths[1:]:
        context, rows = read_run(path)
        for key in ("device_name", "element_type", "op"):
            if context.get(key) != whole_context.get(key):
                fail(f"{path}: {key} {context.get(key)!r}, the whole array's {whole_context.get(key)!r}")
        if not context.get("segments"):
            fail(f"{path}: not a --segments run")
        runs.append((context, rows))
    runs.sort(key=lambda run: spec_order(run[0]))
    methods = [r["name"] for r in runs[0][1]]
    lines = [f"{whole_context['device_name']}, {whole_context['element_type']} {whole_context['op']}, "
             f"commit {whole_context.get('git_commit', '?')}: whole array {best['name']} "
             f"{whole_gbps:.0f} GB/s ({float(best['median_us']):.2f} us)", "",
             "| segments | count | n | " + " | ".join(methods) + " | best of ours |",
             "| --- | ---: | ---: |" + " ---: |" * len(methods) + " --- |"]
    for context, rows in runs:
        by_name = {r["name"]: r for r in rows}
        cells = [cell(by_name.get(m), whole_gbps) for m in methods]
        ours = [r for r in rows if r["status"] == "PASS" and r["family"] != "vendor"]
        fastest = min(ours, key=lambda r: float(r["median_us"]), default=None)
        cells.append(f"{fastest['name']}, {100 * float(fastest['gbps']) / whole_gbps:.0f}%"
                     if fastest else "-")
        spec = context["segments"].rsplit("/", 1)[-1]
        lines.append(f"| {spec} | {context['result_count']} | {context['n']} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(args):
    check = None
    if args[:1] == ["--check"] and len(args) > 1:
        check, args = args[1], args[2:]
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return
    if len(args) < 2:
        fail("needs the whole-array CSV and at least one segments CSV (see --help)")
    text = table(args)
    if check is None:
        sys.stdout.write(text)
    elif open(check).read() != text:
        fail(f"{check} differs from what {len(args)} CSV files give; regenerate it")


if __name__ == "__main__":
    main(sys.argv[1:])
