#!/usr/bin/env python3
"""Puts generated text into a page between the markers <!-- NAME:begin -->
and <!-- NAME:end -->, so the numbers in README.md and docs/ are generated,
never typed.

  update_readme.py FILE [--block NAME] [--code] [--page PAGE] [--check]
  update_readme.py --summary RUN.csv... [--block NAME] [--page PAGE] [--check]
  update_readme.py --rows-sweep RUN.json... [--block NAME] [--page PAGE] [--check]
  update_readme.py --torch-sweep RUN.json... [--block NAME] [--page PAGE] [--check]

FILE is a bench_compare --markdown table (block 'results', the default) or,
with --code, any text bench_compare printed (a --type all summary, say),
which goes in as a code block. With --summary the text is the front page's
table (block 'summary'), made from bench_compare --csv files of one
reduction, one file per GPU: our fastest kernels in the first file, then
every vendor row, with each file's time, GB/s and ratio to CUB.

With --rows-sweep (block 'rows_sweep') the text is the body of docs/rows.md's
width table, from bench_compare --row-sweep --json files, one per GPU: per
width, our fastest row step, its GB/s and its share of the same run's
whole-array one_pass_ilp, then the GB/s of cub_segmented, cub_fixed_size and
torch (a CUB row at least as fast as ours in bold). With --torch-sweep (block
'torch_sweep') it is the body of docs/pytorch.md's size table, from
bench_compare --sweep --json files, one per GPU: per power of two, the faster
of one_pass_ilp and tma_ring, cub, torch (median us) and ours over cub (in
bold above 1). Each GPU's column group is named by its model (H100, H200).

The page is the one file among README.md and docs/*.md that holds the
block's markers, unless --page names it. --check writes nothing and exits 1
when the page differs from what would be written."""
import argparse
import json
import pathlib
import sys

from accuracy_table import read_csv

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The families of our whole-array kernels, as report.c counts them for "best
# kernel" (it adds the row and column steps for shaped runs).
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


def read_json(path):
    """(context, rows) of a bench_compare --json file."""
    with open(path) as f:
        run = json.load(f)
    return run["context"], run["methods"]


def power_label(n):
    return f"2^{n.bit_length() - 1}"


def gpu_model(context):
    """'H100' for 'NVIDIA H100 80GB HBM3': the word a table's column names."""
    return short_device(context["device_name"]).split()[0]


def rows_sweep(paths):
    """docs/rows.md's width table: a line per width, a column group per run."""
    runs = [read_json(p) for p in paths]
    widths = sorted({r["cols"] for _, rows in runs for r in rows if r["cols"] > 0})
    lines = ["| cols | " + " | ".join(f"{gpu_model(c)} best of ours | GB/s | of whole | "
                                      "`cub_segmented` | `cub_fixed_size` | `torch`" for c, _ in runs) + " |",
             "| ---: |" + " --- | ---: | ---: | ---: | ---: | ---: |" * len(runs)]
    for cols in widths:
        cells = []
        for path, (_, rows) in zip(paths, runs):
            whole = next((r for r in rows if r["cols"] == 0 and r["name"] == "one_pass_ilp"), None)
            here = {r["name"]: r for r in rows if r["cols"] == cols}
            ours = [r for r in here.values() if r["family"] == "rows" and r["status"] == "PASS"]
            if whole is None or not ours:
                fail(f"{path}: no whole-array one_pass_ilp row or no PASS row step at {cols} columns")
            best = max(ours, key=lambda r: r["gbps"])
            cells += [best["name"], f"{best['gbps']:.0f}", f"{100 * best['gbps'] / whole['gbps']:.0f}%"]
            for name in ("cub_segmented", "cub_fixed_size", "torch"):
                row = here.get(name)
                if row is None or row["status"] != "PASS":
                    cells.append(row["status"] if row else "-")
                    continue
                text = f"{row['gbps']:.0f}"
                cub_as_fast = name.startswith("cub") and row["gbps"] >= best["gbps"]
                cells.append(f"**{text}**" if cub_as_fast else text)
        label = power_label(cols) if cols >= 1 << 17 and cols & (cols - 1) == 0 else str(cols)
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def torch_sweep(paths):
    """docs/pytorch.md's size table: a line per power of two, a column group per run."""
    runs = [read_json(p) for p in paths]
    sizes = sorted({r["n"] for _, rows in runs for r in rows if r["n"] & (r["n"] - 1) == 0})
    lines = ["| n | " + " | ".join(f"{gpu_model(c)} ours µs | cub | torch | ours / cub"
                                   for c, _ in runs) + " |",
             "| ---: |" + " ---: | ---: | ---: | ---: |" * len(runs)]
    for n in sizes:
        cells = []
        for path, (_, rows) in zip(paths, runs):
            here = {r["name"]: r for r in rows if r["n"] == n and r["status"] == "PASS"}
            if not all(k in here for k in ("one_pass_ilp", "tma_ring", "cub", "torch")):
                fail(f"{path}: n = {n} lacks a PASS row of one_pass_ilp, tma_ring, cub or torch")
            ours = min(here["one_pass_ilp"]["median_us"], here["tma_ring"]["median_us"])
            ratio = ours / here["cub"]["median_us"]
            cells += [f"{ours:.2f}", f"{here['cub']['median_us']:.2f}",
                      f"{here['torch']['median_us']:.2f}",
                      f"**{ratio:.2f}x**" if ratio > 1 else f"{ratio:.2f}x"]
        lines.append(f"| {power_label(n)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--block")
    parser.add_argument("--code", action="store_true")
    parser.add_argument("--summary", action="store_true")
    parser.add_argument("--rows-sweep", action="store_true")
    parser.add_argument("--torch-sweep", action="store_true")
    parser.add_argument("--page")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    kinds = [k for k in ("summary", "rows_sweep", "torch_sweep", "code") if getattr(args, k)]
    if len(kinds) > 1:
        fail(f"--{kinds[0].replace('_', '-')} and --{kinds[1].replace('_', '-')} "
             "are two kinds of text: give one")
    per_gpu = args.summary or args.rows_sweep or args.torch_sweep
    if not per_gpu and len(args.files) != 1:
        fail("one FILE, or --summary, --rows-sweep or --torch-sweep with one file per GPU")
    block = args.block or (kinds[0] if per_gpu else "results")
    begin, end = f"<!-- {block}:begin -->", f"<!-- {block}:end -->"
    try:
        if args.summary:
            text = summary(args.files)
        elif args.rows_sweep:
            text = rows_sweep(args.files)
        elif args.torch_sweep:
            text = torch_sweep(args.files)
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
    except (KeyError, TypeError) as e:
        fail(f"{' '.join(args.files)}: no {e} key or column (not a bench_compare --csv or --json file?)")
    except ValueError as e:
        fail(f"{' '.join(args.files)}: {e}")
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
