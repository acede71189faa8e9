#!/usr/bin/env python3
"""The accuracy table of docs/accuracy.md: every method's error on every
distribution, from one bench_compare --csv file per (type, distribution).

  accuracy_table.py RUN.csv...   (bench/gpu_check.sh accuracy writes them)

Prints, per element type, a markdown table: a row per method, a column per
distribution with the last result's error in ulps of the exactly rounded sum
(0: correctly rounded; FAIL / REFUSED / ERROR where it did not pass), then
determinism over all the runs: repeat (bitwise, or varies if any run varied)
and grid (same, differs if any forced grid changed the bits, or unforced).
"""
import csv
import sys

DISTRIBUTIONS = ["uniform", "small-ints", "wide-range", "signed", "ill-conditioned"]


def read_csv(path):
    """(context, rows) of a bench_compare --csv file: '# key=value' lines, a
    header, rows, '# end rows=N'."""
    context, lines = {}, []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("#"):
                key, _, value = line[1:].strip().partition("=")
                if value:
                    context[key.strip()] = value.strip()
            elif line.strip():
                lines.append(line)
    return context, list(csv.DictReader(lines))


def cell(row):
    if row["status"] != "PASS":
        return row["status"]
    ulps = float(row["error_ulps"])
    return "0" if ulps == 0 else f"{ulps:.3g}"


def worst(values, order):
    """The value furthest along `order` (unknown values last)."""
    return max(values, key=lambda v: order.index(v) if v in order else -1, default="-")


def table(element_type, runs):
    """runs: {distribution: (context, rows)} of one element type."""
    dists = [d for d in DISTRIBUTIONS if d in runs]
    first = runs[dists[0]][0]
    methods = []
    for d in dists:
        methods += [r["name"] for r in runs[d][1] if r["name"] not in methods]
    lines = [f"{element_type} {first['op']}, n = {first['n']}, {first['device_name']}, "
             f"suite {first['git_commit']}: error in ulps of the exactly rounded sum",
             "",
             "| method | " + " | ".join(dists) + " | repeat | grid |",
             "| --- | " + " | ".join("---:" for _ in dists) + " | --- | --- |"]
    for name in methods:
        rows = {d: next((r for r in runs[d][1] if r["name"] == name), None) for d in dists}
        passed = [r for r in rows.values() if r and r["status"] == "PASS"]
        repeat = worst([r["determinism"] for r in passed], ["-", "bitwise", "varies"])
        grid = worst([r["grid"] for r in passed], ["-", "unforced", "same", "differs"])
        cells = [cell(rows[d]) if rows[d] else "-" for d in dists]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {repeat} | {grid} |")
    return "\n".join(lines)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: accuracy_table.py RUN.csv...")
    by_type = {}
    for path in sys.argv[1:]:
        context, rows = read_csv(path)
        if "error_ulps" not in (rows[0] if rows else {}):
            sys.exit(f"accuracy_table.py: {path}: no error_ulps column (a file before v3?)")
        by_type.setdefault(context["element_type"], {})[context["distribution"]] = (context, rows)
    print("\n\n".join(table(t, runs) for t, runs in by_type.items()))


if __name__ == "__main__":
    main()
