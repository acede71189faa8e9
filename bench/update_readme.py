#!/usr/bin/env python3
"""Puts generated text into a page between the markers <!-- NAME:begin -->
and <!-- NAME:end -->, so the numbers in README.md and docs/ are generated,
never typed.

  update_readme.py FILE [--block NAME] [--code] [--page PAGE] [--check]
  update_readme.py --summary RUN.csv... [--block NAME] [--page PAGE] [--check]

FILE is a bench_compare --markdown table (block 'results', the default) or,
with --code, any text bench_compare printed (a --type all summary, say),
which goes in as a code block. With --summary the text is the front page's
table (block 'summary'), made from bench_compare --csv files of one
reduction, one file per GPU: our fastest kernels in the first file, then
every vendor row, with each file's time, GB/s and ratio to CUB.

The page is the one file among README.md and docs/*.md that holds the
block's markers, unless --page names it. --check writes nothing and exits 1
when the page differs from what would be written."""
import argparse
import pathlib
import sys

from accuracy_table import read_csv

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The families that are ours, as report.c counts them for "best kernel".
OUR_FAMILIES = ("progression", "modern")
OUR_FASTEST_SHOWN = 3


def fail(message):
    sys.exit(f"update_readme.py: {message}")


def pages_holding(begin):
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    return [p for p in pages if begin in p.read_text()]


def short_device(name):
    return name.removeprefix("NVIDIA ")


def summary(paths):
    """The front page's table: a row per method (our fastest kernels in the
    first run, then its vendor rows), a column group per run."""
    runs = [read_csv(p) for p in paths]
    context, rows = runs[0]
    for path, (other, _) in zip(paths[1:], runs[1:]):
        for key in ("element_type", "op", "n"):
            if other.get(key) != context.get(key):
                fail(f"{path}: {key} {other.get(key)} is not {paths[0]}'s {context.get(key)}")
    ours = sorted((r for r in rows if r["family"] in OUR_FAMILIES and r["status"] == "PASS"),
                  key=lambda r: float(r["median_us"]))[:OUR_FASTEST_SHOWN]
    names = [r["name"] for r in ours] + [r["name"] for r in rows if r["family"] == "vendor"]
    if not ours or len(names) == len(ours):
        fail(f"{paths[0]}: needs PASS rows of our kernels and vendor rows")
    devices = [short_device(c["device_name"]) for c, _ in runs]
    lines = ["| method | " + " | ".join(f"{d} µs | GB/s | vs CUB" for d in devices) + " |",
             "| --- |" + " ---: | ---: | ---: |" * len(runs)]
    for name in names:
        cells = []
        for _, run_rows in runs:
            row = next((r for r in run_rows if r["name"] == name), None)
            if row is None or row["status"] != "PASS":
                cells += [row["status"] if row else "-", "-", "-"]
            else:
                cells += [f"{float(row['median_us']):.2f}", f"{float(row['gbps']):.1f}",
                          f"{float(row['ratio_to_cub']):.2f}x"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    sources = "; ".join(f"`{pathlib.Path(p).name}`: {c['device_name']}, suite {c['git_commit']}"
                        for p, (c, _) in zip(paths, runs))
    lines += ["", f"{context['element_type']} {context['op']}, n = {context['n']}, median of "
              f"{context['samples']} samples, L2 flush {context['flush_mode']} ({sources})."]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--block")
    parser.add_argument("--code", action="store_true")
    parser.add_argument("--summary", action="store_true")
    parser.add_argument("--page")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.summary and args.code:
        fail("--summary and --code are two kinds of text: give one")
    if not args.summary and len(args.files) != 1:
        fail("one FILE, or --summary with one CSV file per GPU")
    block = args.block or ("summary" if args.summary else "results")
    begin, end = f"<!-- {block}:begin -->", f"<!-- {block}:end -->"
    try:
        if args.summary:
            text = summary(args.files)
        else:
            text = pathlib.Path(args.files[0]).read_text().strip()
        if args.page:
            page = pathlib.Path(args.page)
        else:
            holding = pages_holding(begin)
            if len(holding) != 1:
                fail(f"{len(holding)} pages hold {begin} (README.md, docs/*.md): "
                     "name one with --page")
            page = holding[0]
        old = page.read_text()
    except OSError as e:
        fail(e)
    except KeyError as e:
        fail(f"{' '.join(args.files)}: no {e} key or column (not a bench_compare --csv file?)")
    if args.code:
        text = f"```\n{text}\n```"
    head, found_begin, rest = old.partition(begin)
    _, found_end, tail = rest.partition(end)
    if not (found_begin and found_end):
        fail(f"{page}: no {begin} ... {end} markers")
    new = f"{head}{begin}\n{text}\n{end}{tail}"
    if args.check:
        if new != old:
            sys.exit(f"update_readme.py: {page}: block {block} differs from what "
                     f"{' '.join(args.files)} give; run without --check to update it")
        return
    page.write_text(new)


if __name__ == "__main__":
    main()
