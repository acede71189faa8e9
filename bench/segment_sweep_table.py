#!/usr/bin/env python3
"""The segment sweep as one markdown table: each method's time and its share
of the whole-array sum's GB/s, a row per distribution.

    python3 bench/segment_sweep_table.py WHOLE.csv SEGMENTS.csv...

WHOLE.csv: bench_compare's --csv of the whole array (the best PASSing row is
the reference); each SEGMENTS.csv: a --segments run of the same element
type, operator and GPU, in the same call (bench/gpu_check.sh segment_sweep).
A cell reads "median us (share of whole)", or the row's status when it did
not PASS. GB/s counts what bench_compare counts for segments: the input,
the offsets read and the results written."""
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


def fail(message):
    sys.exit(f"segment_sweep_table.py: {message}")


def main(paths):
    if len(paths) < 2:
        fail("needs the whole-array CSV and at least one segments CSV (see --help)")
    if paths[0] in ("-h", "--help"):
        print(__doc__)
        return
    whole_context, whole_rows = read_run(paths[0])
    passing = [r for r in whole_rows if r["status"] == "PASS"]
    if not passing:
        fail(f"{paths[0]}: no PASSing whole-array row")
    best = max(passing, key=lambda r: float(r["gbps"]))
    whole_gbps = float(best["gbps"])
    runs = [read_run(p) for p in paths[1:]]
    for path, (context, _) in zip(paths[1:], runs):
        for key in ("device_name", "element_type", "op"):
            if context.get(key) != whole_context.get(key):
                fail(f"{path}: {key} {context.get(key)!r}, the whole array's {whole_context.get(key)!r}")
        if not context.get("segments"):
            fail(f"{path}: not a --segments run")
    methods = [r["name"] for r in runs[0][1]]
    print(f"{whole_context['device_name']}, {whole_context['element_type']} {whole_context['op']}, "
          f"commit {whole_context.get('git_commit', '?')}: whole array {best['name']} "
          f"{whole_gbps:.0f} GB/s ({float(best['median_us']):.2f} us)\n")
    print("| segments | count | n | " + " | ".join(methods) + " |")
    print("| --- | ---: | ---: |" + " ---: |" * len(methods))
    for context, rows in runs:
        by_name = {r["name"]: r for r in rows}
        cells = []
        for m in methods:
            r = by_name.get(m)
            if r is None:
                cells.append("-")
            elif r["status"] != "PASS":
                cells.append(r["status"])
            else:
                share = 100 * float(r["gbps"]) / whole_gbps
                cells.append(f"{float(r['median_us']):.2f} ({share:.0f}%)")
        spec = context["segments"].rsplit("/", 1)[-1]
        print(f"| {spec} | {context['result_count']} | {context['n']} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
