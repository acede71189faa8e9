#!/usr/bin/env python3
"""Draws the README's plots from bench_compare's JSON results (--json), with
matplotlib (bench/requirements.txt) and no display.

  plot_results.py sweep SWEEP.json OUT   GB/s against n (log2 x), a line per method,
                                         the read ceiling dashed; for a row sweep,
                                         GB/s against the row width instead
  plot_results.py ratio SWEEP.json OUT   median time over CUB's at the same n (log x
                                         and y, the axis fitting every point), 1.0 marked
  plot_results.py bars RUN.json OUT      GB/s per method at the run's size, CUB marked
                                         (--n N picks one size of a sweep file)

Three kinds of file, one format ("reduction-suite run v5"; v2 to v4 still
read), all written by bench_compare --json F:
  a plain run   (bench_compare --json F): one size, a row per method; with
                --cols C or --segments SPEC the shape is in the context
                (shape, cols, segments) and the run draws as any other
  a size sweep  (--sweep): a row per method and size n, context n 0
  a row sweep   (--row-sweep): a row per method and row width (its "cols"),
                one total; context shape "rows" and cols 0. Only 'sweep'
                draws it: GB/s (bytes read and written) against the width
                (log2 x, 1 .. n), a line per method, titled with the total;
                a row with cols 0 in it is a whole-array reduction of the
                same total, and the best such PASS row is drawn as a
                horizontal line (none is drawn where the file holds none).
                A row without "cols" is refused.

OUT's extension picks the file type: .svg, .png or .pdf. Only PASS rows are
drawn; a footnote counts the rest. Titles name the device, the clocks the run
recorded and the commit.
Any problem (a missing or bad file, nothing to draw, no matplotlib) is one
line on stderr and exit status 2, with no output file written.
"""
import argparse
import json
import math
import os
import re
import sys
import tempfile

PROG = "plot_results.py"
FORMAT_RE = re.compile(r"reduction-suite run v(\d+)\Z")
VERSIONS = (2, 3, 4, 5)  # v2: no n in rows (the context's), no clock keys; v4: shapes;
                         # v5: result_index (argmax, argmin), not drawn
OUT_TYPES = ("svg", "png", "pdf")
ELEMENT_BYTES = {"float": 4, "double": 8, "int32": 4, "int64": 8, "uint32": 4,
                 "half": 2, "bfloat16": 2}
FAMILY_COLORS = {"progression": "#1f77b4", "modern": "#2ca02c", "vendor": "#ff7f0e",
                 "cpu": "#7f7f7f"}
CUB_COLOR = "#d62728"
UMASK = os.umask(0o022)
os.umask(UMASK)


class PlotError(Exception):
    """A problem for the user: printed as one line, exit status 2."""


# ---- reading a results file ------------------------------------------------

class Run:
    """One results file: its context, the PASS rows, and what was left out."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        doc = load_json(path)
        if not isinstance(doc, dict) or "format" not in doc:
            raise PlotError(f"{path}: no \"format\" key, not a bench_compare --json file")
        match = FORMAT_RE.match(str(doc["format"]))
        if not match or int(match.group(1)) not in VERSIONS:
            raise PlotError(f"{path}: format is {doc['format']!r}, expected "
                            f"'reduction-suite run v{VERSIONS[-1]}' (or "
                            + ", ".join(f"v{v}" for v in VERSIONS[:-1]) + ")")
        self.context = doc.get("context")
        methods = doc.get("methods")
        if not isinstance(self.context, dict) or not isinstance(methods, list):
            raise PlotError(f"{path}: needs a \"context\" object and a \"methods\" list")
        run_n = self.context.get("n") or 0
        # A row sweep keeps the total and varies the width: the x of its plot
        # is each row's cols. A --cols run has the width in the context.
        self.row_sweep = (self.context.get("shape") == "rows"
                          and not self.context.get("cols"))
        self.x_name = "cols" if self.row_sweep else "n"
        self.rows, self.left_out = [], []  # left_out: (why, name, n)
        self.whole = []  # a row sweep's PASS whole-array rows (cols 0)
        for i, row in enumerate(methods):
            where = f"{path}: methods[{i}]"
            if not isinstance(row, dict) or not isinstance(row.get("name"), str):
                raise PlotError(f"{where} has no method name")
            status = row.get("status")
            n = number(row, "n", where) if "n" in row else run_n
            if not isinstance(n, (int, float)) or n <= 0 or n != int(n):
                raise PlotError(f"{where} ({row['name']}) has no size n")
            cols = row_width(row, where) if self.row_sweep else 0
            median_us, gbps = number(row, "median_us", where), number(row, "gbps", where)
            if status != "PASS" or median_us is None or gbps is None:
                why = str(status) if status != "PASS" else "PASS, no finite time or GB/s"
                self.left_out.append((why, row["name"], int(n)))
                continue
            drawn = {"name": row["name"], "family": row.get("family", ""), "n": int(n),
                     "x": cols if self.row_sweep else int(n), "median_us": median_us,
                     "gbps": gbps, "throttled": bool(row.get("throttled"))}
            (self.whole if self.row_sweep and cols == 0 else self.rows).append(drawn)
        if not self.rows:
            raise PlotError(f"{path}: no PASS rows to draw ({len(methods)} rows in all)")
        self.sizes = sorted({r["x"] for r in self.rows})  # the x axis: n, or a row sweep's cols
        # Registry order as the file lists it, failed rows included: the same
        # colour per method in every plot of the file.
        self.methods = [m for m in dict.fromkeys(row["name"] for row in methods)
                        if any(r["name"] == m for r in self.rows)]

    def need_sweep(self, plot):
        if len(self.sizes) < 2:
            raise PlotError(f"{self.path} holds one size ({self.x_name}={self.sizes[0]}); "
                            f"'{plot}' needs a sweep file (bench_compare --sweep or "
                            "--row-sweep --json F)")

    def refuse_row_sweep(self, plot):
        if self.row_sweep:
            raise PlotError(f"{self.path} is a row sweep (one total, a row per width); "
                            f"'{plot}' draws a run or a size sweep: draw it with 'sweep'")

    def text(self, key, default="?"):
        value = self.context.get(key)
        return default if value is None or value == "" else str(value)

    def clocks(self):
        """SM/mem clocks as recorded at the start of the run, or why there are none."""
        how = self.context.get("clocks")
        if how is None:
            return "clocks not recorded"
        sm, sm_max = self.context.get("sm_clock_mhz"), self.context.get("sm_clock_max_mhz")
        mem = self.context.get("mem_clock_mhz")
        if how != "nvml" or sm is None or mem is None:
            return f"clocks not recorded ({how})"
        at_max = "" if not sm_max or sm_max == sm else f" (max {sm_max})"
        return f"SM {sm} MHz{at_max}, mem {mem} MHz"

    def element(self):
        return self.text("element_type", "float")

    def title(self, what):
        return (f"{what}\n{self.text('device_name')}, {self.clocks()}, "
                f"commit {self.text('git_commit')}")

    def footnote(self, n=None):
        """Where the data came from, and the rows (at size n, or all) not drawn."""
        parts = [f"{self.name}, {self.text('date')}, {self.text('samples')} samples, "
                 f"L2 flush {self.text('flush_mode')}, {self.text('distribution')} data"]
        left_out = [(why, name) for why, name, row_n in self.left_out if n in (None, row_n)]
        if left_out:
            by_why = {}
            for why, name in left_out:
                names = by_why.setdefault(why, {})
                names[name] = names.get(name, 0) + 1
            detail = "; ".join(
                f"{why}: " + ", ".join(name + (f" x{k}" if k > 1 else "")
                                       for name, k in names.items())
                for why, names in sorted(by_why.items()))
            parts.append(f"{plural(len(left_out), 'row')} not drawn ({detail})")
        throttled = sum(r["throttled"] for r in self.rows if n in (None, r["n"]))
        if throttled:
            parts.append(f"{plural(throttled, 'row')} drawn measured while the GPU "
                         "reported throttling")
        return "\n".join(parts)


def plural(count, noun):
    return f"{count} {noun}{'s' * (count != 1)}"


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise PlotError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise PlotError(f"{path} is not JSON (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        raise PlotError(f"{path} is not JSON (line {e.lineno} column {e.colno}: {e.msg})") from None


def row_width(row, where):
    """A row sweep's row width: its x, so a row without one cannot be placed."""
    if "cols" not in row:
        raise PlotError(f"{where} ({row['name']}) has no \"cols\": a row sweep's rows "
                        "each need their width (bench_compare --row-sweep writes it)")
    cols = number(row, "cols", where)
    if cols is None or cols < 0 or cols != int(cols):
        raise PlotError(f"{where}.cols is {row['cols']!r}, not a row width")
    return int(cols)


def number(row, key, where):
    """A row's number; None where the writer stored a non-finite value as null."""
    value = row.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PlotError(f"{where}.{key} is {value!r}, not a number")
    return value if math.isfinite(value) else None


# ---- drawing ---------------------------------------------------------------

def new_figure(width, height):
    """The first use of matplotlib: --help and the file's checks need none (and
    stay quick without its second of importing)."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError("matplotlib is not installed "
                        "(python3 -m pip install -r bench/requirements.txt)") from None
    matplotlib.rcParams["svg.hashsalt"] = "reduction-suite"  # the same SVG for the same data
    return Figure(figsize=(width, height), layout="constrained")


def method_style(run, name):
    """CUB thick and red everywhere; the others by their place in the file."""
    if name == "cub":
        return {"color": CUB_COLOR, "linewidth": 2.6, "zorder": 3}
    import matplotlib
    others = [m for m in run.methods if m != "cub"]
    colors = [c for c in matplotlib.colormaps["tab10"].colors
              if matplotlib.colors.to_hex(c) != CUB_COLOR]  # red is CUB's alone
    index = others.index(name)
    return {"color": colors[index % len(colors)],
            "linestyle": ("-", "--", ":")[index // len(colors) % 3], "linewidth": 1.5}


def log2_n_axis(ax, run):
    from matplotlib.ticker import NullLocator
    ax.set_xscale("log", base=2)
    lo, hi = math.floor(math.log2(run.sizes[0])), math.ceil(math.log2(run.sizes[-1]))
    step = 1 if hi - lo <= 12 else 2
    ax.set_xticks([2.0 ** e for e in range(lo, hi + 1, step)],
                  [f"$2^{{{e}}}$" for e in range(lo, hi + 1, step)])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel(f"row width: cols ({run.element()} elements, log scale)" if run.row_sweep
                  else f"n ({run.element()} elements, log scale)")
    ax.grid(True, which="major", color="#e5e5e5")


def series(run, value):
    """{method: (sizes, [value(row) or nan])} for the methods with any value: a
    size without one (a FAIL row, say) is a gap in the line, not a straight
    line over it."""
    values = {}
    for r in run.rows:
        y = value(r)
        if y is not None:
            values.setdefault(r["name"], {})[r["x"]] = y
    return {m: (run.sizes, [values[m].get(n, math.nan) for n in run.sizes])
            for m in run.methods if m in values}


def sweep_plot(run, args):
    run.need_sweep("sweep")
    fig = new_figure(10, 6)
    ax = fig.add_subplot()
    for name, (xs, ys) in series(run, lambda r: r["gbps"]).items():
        ax.plot(xs, ys, marker="o", markersize=3, label=name, **method_style(run, name))
    if run.whole:  # the same bytes as one array: what every width aims at
        best = max(run.whole, key=lambda r: r["gbps"])
        ax.axhline(best["gbps"], color="black", linestyle="-.", linewidth=1.2,
                   label=f"whole array ({best['name']}) {best['gbps']:.0f} GB/s")
    ceiling = run.context.get("read_ceiling_gbs")
    if isinstance(ceiling, (int, float)) and ceiling > 0:
        ax.axhline(ceiling, color="black", linestyle="--", linewidth=1,
                   label=f"read ceiling {ceiling:.0f} GB/s")
    peak = run.context.get("peak_gbs")
    if isinstance(peak, (int, float)) and peak > 0:
        ax.axhline(peak, color="#999999", linestyle=":", linewidth=1,
                   label=f"theoretical peak {peak:.0f} GB/s")
    log2_n_axis(ax, run)
    ax.set_ylim(bottom=0)
    op = run.text('op', 'sum').capitalize()
    if run.row_sweep:
        ax.set_ylabel("GB/s (bytes read and results written / median time)")
        total = max(r["n"] for r in run.rows + run.whole)
        what = f"{op} of the rows of {size_text(total, run.element())}"
        ax.set_title(run.title(f"{what}: GB/s against row width"))
    else:
        ax.set_ylabel("GB/s (bytes read / median time)")
        ax.set_title(run.title(f"{op} of n {run.element()}s: GB/s against n"))
    ax.legend(loc="upper left", fontsize=8)
    footnote(fig, run.footnote())
    return fig


def ratio_plot(run, args):
    """Median time over CUB's at each n; below 1 is faster than CUB."""
    run.refuse_row_sweep("ratio")
    run.need_sweep("ratio")
    cub_us = {r["n"]: r["median_us"] for r in run.rows if r["name"] == "cub"}
    if not cub_us:
        raise PlotError(f"{run.path}: no PASS cub row, nothing to divide by")
    lines = series(run, lambda r: r["median_us"] / cub_us[r["n"]]
                   if r["name"] != "cub" and cub_us.get(r["n"], 0) > 0 else None)
    if not lines:
        raise PlotError(f"{run.path}: no method but cub passed")
    fig = new_figure(10, 6)
    ax = fig.add_subplot()
    for name, (xs, ys) in lines.items():
        ax.plot(xs, ys, marker="o", markersize=3, label=name, **method_style(run, name))
    ax.axhline(1.0, color=CUB_COLOR, linewidth=2.6, label="cub (1.0)")
    ratios = [y for _, ys in lines.values() for y in ys if not math.isnan(y)]
    ratio_axis(ax, min(ratios + [1.0]), max(ratios + [1.0]))
    log2_n_axis(ax, run)
    ax.set_ylabel("median time / CUB's at the same n (log scale; below 1: faster)")
    ax.set_title(run.title("Time relative to cub::DeviceReduce, same run"))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    footnote(fig, run.footnote())
    return fig


def ratio_axis(ax, lo, hi):
    """A log axis that holds every point with a margin, and plain-number ticks."""
    from matplotlib.ticker import FixedLocator, FormatStrFormatter, NullLocator
    ax.set_yscale("log")
    lo, hi = lo / 1.08, hi * 1.08
    ax.set_ylim(lo, hi)
    for mantissas in ((1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8), (1, 1.5, 2, 3, 5, 7),
                      (1, 2, 5), (1,)):
        ticks = [m * 10.0 ** e for e in range(math.floor(math.log10(lo)),
                                              math.ceil(math.log10(hi)) + 1)
                 for m in mantissas if lo <= m * 10.0 ** e <= hi]
        if len(ticks) <= 12:
            break
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.yaxis.set_minor_locator(NullLocator())


def bars_plot(run, args):
    run.refuse_row_sweep("bars")
    n = args.n
    if n is None:
        if len(run.sizes) > 1:
            raise PlotError(f"{run.path} holds {len(run.sizes)} sizes "
                            f"({run.sizes[0]}..{run.sizes[-1]}): pick one with --n")
        n = run.sizes[0]
    rows = [r for r in run.rows if r["n"] == n]
    if not rows:
        raise PlotError(f"{run.path}: no PASS row at n={n}")
    fig = new_figure(10, 1.2 + 0.32 * len(rows))
    ax = fig.add_subplot()
    y = list(range(len(rows)))[::-1]  # the file's order, top to bottom
    colors = [CUB_COLOR if r["name"] == "cub" else FAMILY_COLORS.get(r["family"], "#8c564b")
              for r in rows]
    ax.barh(y, [r["gbps"] for r in rows], color=colors, height=0.7)
    ax.set_yticks(y, [r["name"] for r in rows])
    for yi, r in zip(y, rows):
        ax.text(r["gbps"], yi, f"  {gbps_text(r['gbps'])}, {r['median_us']:.1f} µs",
                va="center", fontsize=8)
    from matplotlib.patches import Patch
    legend = [Patch(color=color, label=family) for family, color in FAMILY_COLORS.items()
              if any(r["family"] == family and r["name"] != "cub" for r in rows)]
    top = max(r["gbps"] for r in rows)
    for key, style, label in (("read_ceiling_gbs", "--", "read ceiling"),
                              ("peak_gbs", ":", "theoretical peak")):
        value = run.context.get(key)
        if isinstance(value, (int, float)) and value > 0:
            legend.append(ax.axvline(value, color="black", linestyle=style, linewidth=1,
                                     label=f"{label} {value:.0f} GB/s"))
            top = max(top, value)
    ax.set_xlim(0, top * 1.25)  # room for the labels right of the longest bar
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel("GB/s (bytes read / median time)")
    ax.grid(True, axis="x", color="#e5e5e5")
    ax.set_axisbelow(True)
    ax.legend(handles=legend, loc="lower right", fontsize=8)
    what = f"{run.text('op', 'sum').capitalize()} of {size_text(n, run.element())}"
    ax.set_title(run.title(f"{what}: GB/s per method (median; CUB in red)"))
    footnote(fig, run.footnote(n))
    return fig


def gbps_text(gbps):
    return f"{gbps:.0f} GB/s" if gbps >= 100 else f"{gbps:.3g} GB/s"  # 3 digits for small n


def size_text(n, element):
    nbytes = n * ELEMENT_BYTES.get(element, 0)
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if nbytes and nbytes % scale == 0:
            return f"{nbytes // scale} {unit} of {element} (n={n})"
    return f"n={n} {element}s"


def footnote(fig, text):
    fig.text(0.0, -0.01, text, fontsize=7, color="#555555", va="top")


def save(fig, out, kind):
    """Writes next to OUT and renames, so a failed draw leaves no partial file."""
    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(kind)
    directory = os.path.dirname(out) or "."
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".plot_", suffix="." + kind)
    except OSError as e:
        raise PlotError(f"cannot write {out}: {e.strerror or e}") from None
    try:
        os.chmod(tmp, 0o666 & ~UMASK)  # mkstemp's 0600 is for the unfinished file
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format=kind, dpi=150, bbox_inches="tight", metadata=metadata)
        os.replace(tmp, out)
    except OSError as e:
        raise PlotError(f"cannot write {out}: {e.strerror or e}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


# ---- command line ----------------------------------------------------------

PLOTS = {"sweep": (sweep_plot, "GB/s against n, or against the row width, a line per "
                               "method (a size or row sweep file)"),
         "ratio": (ratio_plot, "median time over CUB's against n (a sweep file)"),
         "bars": (bars_plot, "GB/s per method at one size (a single run)")}


def main(argv):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    plots = parser.add_subparsers(dest="plot", required=True, metavar="{sweep,ratio,bars}")
    for name, (_, help_text) in PLOTS.items():
        sub = plots.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("results", metavar="RESULTS.json", help="bench_compare --json file")
        sub.add_argument("out", metavar="OUT", help="output file: .svg, .png or .pdf")
        if name == "bars":
            sub.add_argument("--n", type=int, help="the size to draw (needed for a sweep file)")
    args = parser.parse_args(argv)
    kind = os.path.splitext(args.out)[1].lstrip(".").lower()
    if kind not in OUT_TYPES:
        raise PlotError(f"{args.out}: the extension picks the file type: "
                        f"{', '.join('.' + t for t in OUT_TYPES)}")
    run = Run(args.results)
    fig = PLOTS[args.plot][0](run, args)
    save(fig, args.out, kind)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except PlotError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(2)
