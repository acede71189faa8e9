#!/usr/bin/env python3
"""Draws the README's pictures from bench_compare's own files, as SVG, with the
standard library only (the GPU machine and CI have no matplotlib).

  plot_results.py sweep SWEEP.csv OUT.svg   GB/s against n (log2 axis), a line per method
  plot_results.py ratio SWEEP.csv OUT.svg   time over CUB's against n, the modern methods
  plot_results.py bars RUN.csv OUT.svg      the 64 MiB table: GB/s per method, CUB marked

SWEEP.csv is written by `bench_compare --sweep --sweep-csv`, RUN.csv by
`bench_compare --csv`; both start with '# key=value' context lines.
"""
import csv
import math
import sys
from xml.sax.saxutils import escape

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
          "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]


def read_csv(path):
    """Returns (context dict, rows) of a bench_compare file."""
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


def svg_text(x, y, text, size=12, anchor="start", extra=""):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-family="sans-serif" {extra}>{escape(text)}</text>')


def line_plot(context, series, out_svg, title, y_label, y_lo, y_hi, y_step, reference):
    """Lines of (n, y) per method against log2 n; reference = (y, label) or None."""
    width, height, left, right, top, bottom = 900, 520, 70, 170, 50, 60
    xs = [n for pts in series.values() for n, _ in pts]
    x_lo, x_hi = math.log2(min(xs)), math.log2(max(xs))

    def px(n):
        return left + (math.log2(n) - x_lo) / (x_hi - x_lo) * (width - left - right)

    def py(y):
        y = min(max(y, y_lo), y_hi)  # off-scale points sit on the frame
        return height - bottom - (y - y_lo) / (y_hi - y_lo) * (height - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">',
           '<rect width="100%" height="100%" fill="white"/>',
           svg_text(width / 2, 25, title, 15, "middle")]
    for e in range(int(math.ceil(x_lo)), int(x_hi) + 1, 2):
        x = px(2 ** e)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - bottom}" stroke="#eee"/>')
        out.append(svg_text(x, height - bottom + 18, f"2^{e}", 11, "middle"))
    ticks = int(round((y_hi - y_lo) / y_step))
    for i in range(ticks + 1):
        y = y_lo + i * y_step
        out.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{width - right}" y2="{py(y):.1f}" stroke="#eee"/>')
        out.append(svg_text(left - 6, py(y) + 4, f"{y:g}", 11, "end"))
    if reference:
        y, label = reference
        out.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{width - right}" y2="{py(y):.1f}" '
                   'stroke="black" stroke-dasharray="6,4"/>')
        out.append(svg_text(width - right - 4, py(y) - 6, label, 11, "end"))
    for i, (name, pts) in enumerate(sorted(series.items())):
        color = COLORS[i % len(COLORS)]
        pts.sort()
        path = " ".join(f"{px(n):.1f},{py(y):.1f}" for n, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
        out.append(f'<rect x="{width - right + 12}" y="{top + 18 * i}" width="14" height="4" fill="{color}"/>')
        out.append(svg_text(width - right + 32, top + 18 * i + 6, name, 12))
    out.append(svg_text(width / 2 - right / 2 + left / 2, height - 15, "n (floats, log scale)", 12, "middle"))
    out.append(svg_text(18, height / 2, y_label, 12, "middle", f'transform="rotate(-90 18 {height / 2})"'))
    out.append("</svg>")
    write(out_svg, out)


def sweep_plot(sweep_csv, out_svg):
    context, rows = read_csv(sweep_csv)
    series = {}
    for r in rows:
        if r["status"] == "PASS":
            series.setdefault(r["method"], []).append((int(r["n"]), float(r["gbps"])))
    peak = float(context.get("peak_gbs", "0"))
    y_hi = max([g for pts in series.values() for _, g in pts] + [peak]) * 1.05
    line_plot(context, series, out_svg,
              f"Sum of n floats: GB/s vs n on {context.get('device', '?')} "
              f"(L2 flush: {context.get('flush_mode', '?')})",
              "GB/s", 0, y_hi - y_hi % 500, 500 if y_hi > 1500 else 100,
              (peak, f"theoretical peak {peak:.0f} GB/s") if peak else None)


def ratio_plot(sweep_csv, out_svg):
    """Median time over CUB's at each n, for the modern methods: below 1 is faster."""
    context, rows = read_csv(sweep_csv)
    series = {}
    for r in rows:
        if r["status"] == "PASS" and r["family"] == "modern" and float(r["ratio_to_cub"]) > 0:
            series.setdefault(r["method"], []).append((int(r["n"]), float(r["ratio_to_cub"])))
    line_plot(context, series, out_svg,
              f"Time relative to cub::DeviceReduce::Sum, same run, on {context.get('device', '?')}",
              "median time / CUB's (below 1: faster)", 0.5, 1.5, 0.1, (1.0, "CUB"))


def bar_plot(run_csv, out_svg):
    context, rows = read_csv(run_csv)
    rows = [r for r in rows if r["status"] == "PASS"]
    peak = float(context.get("peak_gbs", "0"))
    bar, gap, left, right, top = 18, 6, 160, 120, 50
    width = 900
    height = top + len(rows) * (bar + gap) + 40
    g_max = max([float(r["gbps"]) for r in rows] + [peak]) * 1.02

    def px(g):
        return left + g / g_max * (width - left - right)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">',
           '<rect width="100%" height="100%" fill="white"/>',
           svg_text(width / 2, 25, f"{int(context.get('n', 0)) * 4 / 2**20:.0f} MiB of floats on "
                    f"{context.get('device_name', '?')}: GB/s (median of {context.get('samples', '?')})",
                    15, "middle")]
    for i, r in enumerate(rows):
        y = top + i * (bar + gap)
        g = float(r["gbps"])
        color = "#d62728" if r["family"] == "vendor" else "#1f77b4" if r["family"] != "cpu" else "#7f7f7f"
        out.append(f'<rect x="{left}" y="{y}" width="{px(g) - left:.1f}" height="{bar}" fill="{color}"/>')
        out.append(svg_text(left - 6, y + bar - 4, r["name"], 12, "end"))
        out.append(svg_text(px(g) + 4, y + bar - 4, f"{g:.0f} GB/s, {float(r['median_us']):.1f} us", 11))
    if peak:
        out.append(f'<line x1="{px(peak):.1f}" y1="{top - 8}" x2="{px(peak):.1f}" y2="{height - 30}" '
                   'stroke="black" stroke-dasharray="6,4"/>')
        out.append(svg_text(px(peak), height - 14, f"peak {peak:.0f}", 11, "middle"))
    out.append("</svg>")
    write(out_svg, out)


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    plots = {"sweep": sweep_plot, "ratio": ratio_plot, "bars": bar_plot}
    if len(sys.argv) != 4 or sys.argv[1] not in plots:
        sys.exit(__doc__)
    plots[sys.argv[1]](sys.argv[2], sys.argv[3])
