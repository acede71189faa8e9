#!/usr/bin/env python3
"""Where a kernel's warps wait, by SASS line: Nsight Compute's stall samples
read from its source page.

    python3 bench/stall_lines.py [--top N] FILE...
    python3 bench/stall_lines.py --self-test

FILE: the source page of one profiled launch as CSV, written by

    ncu --import REPORT.ncu-rep --page source --csv --print-source sass > FILE

(the report taken with --section WarpStateStats --section SourceCounters).
For each file it prints the samples in all, the six reasons with the most
samples over the kernel (long_sb: waiting for a load from memory; barrier:
at __syncthreads; ...), then the N lines with the most samples (12 unless
told): samples, their share, the line's address, its instruction and its
two main reasons. Nsight Compute samples every SM at a fixed interval, so
a phase in which one block runs alone (a last block's combine) takes time
but few samples: compare durations for those, not samples.
Exit status: 0, 1 when a file cannot be read or is not such a page, 2 usage."""
import argparse
import collections
import csv
import io
import sys

SAMPLES = "Warp Stall Sampling (All Samples)"
ADDRESS, SOURCE = "Address", "Source"


def read_page(text):
    """The page's header and rows: a first line names the kernel, the second
    the columns; a count left empty reads as 0."""
    rows = list(csv.reader(io.StringIO(text)))
    header = next((r for r in rows if SAMPLES in r and ADDRESS in r and SOURCE in r), None)
    if header is None:
        raise ValueError(f"no header with '{SAMPLES}', '{ADDRESS}' and '{SOURCE}'")
    body = [r for r in rows[rows.index(header) + 1:] if len(r) == len(header)]
    return header, body


def count(cell):
    return int(cell) if cell.strip().isdigit() else 0


def report(text, name, top):
    """The lines stall_lines.py prints for one page."""
    header, body = read_page(text)
    samples, address, source = (header.index(c) for c in (SAMPLES, ADDRESS, SOURCE))
    reasons = [(i, h[len("stall_"):]) for i, h in enumerate(header)
               if h.startswith("stall_") and "Not Issued" not in h]
    total = sum(count(r[samples]) for r in body)
    by_reason = collections.Counter()
    for r in body:
        for i, reason in reasons:
            by_reason[reason] += count(r[i])
    out = [f"== {name}: {total} samples; by reason: "
           + ", ".join(f"{reason} {n}" for reason, n in by_reason.most_common(6))]
    for r in sorted(body, key=lambda r: -count(r[samples]))[:top]:
        main = sorted(((count(r[i]), reason) for i, reason in reasons), reverse=True)[:2]
        share = 100 * count(r[samples]) / total if total else 0.0
        out.append(f"  {count(r[samples]):6d} {share:5.1f}% {r[address][-5:]} "
                   f"{r[source].strip()[:60]:60s} {main}")
    return out


SELF_TEST = '''"Kernel Name","made_up_kernel"
"Address","Source","Warp Stall Sampling (All Samples)","stall_barrier","stall_long_sb","stall_wait","stall_long_sb (Not Issued)"
"0x7f0000000000","      LDG.E.128 R4, desc[UR4][R2.64]","2","0","0","2","0"
"0x7f0000000010","      FADD R8, R4, R5","90","0","88","2","80"
"0x7f0000000020","      BAR.SYNC.DEFER_BLOCKING 0x0","8","8","0","0","0"
"0x7f0000000030","      EXIT","",""," ","",""
'''


def self_test():
    """A made-up page of four lines whose answers are known: 100 samples,
    long_sb ahead of barrier and wait (the Not Issued column not counted
    twice), the add first with 90%, the empty counts of EXIT as 0."""
    got = report(SELF_TEST, "made_up", 2)
    want = ["== made_up: 100 samples; by reason: long_sb 88, barrier 8, wait 4",
            f"      90  90.0% 00010 {'FADD R8, R4, R5':60s} [(88, 'long_sb'), (2, 'wait')]",
            f"       8   8.0% 00020 {'BAR.SYNC.DEFER_BLOCKING 0x0':60s} [(8, 'barrier'), (0, 'wait')]"]
    if got != want:
        print("stall_lines.py self-test: got\n" + "\n".join(got) + "\nwant\n" + "\n".join(want),
              file=sys.stderr)
        return 1
    try:
        report("not,a,page\n1,2,3\n", "bad", 1)
    except ValueError:
        print("stall_lines.py self-test: the made-up page reads as expected, a wrong file is refused")
        return 0
    print("stall_lines.py self-test: a file with no source-page header was read", file=sys.stderr)
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", metavar="FILE")
    parser.add_argument("--top", type=int, default=12, help="lines to print a file (default 12)")
    parser.add_argument("--self-test", action="store_true", help="check the reading on a made-up page")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.files:
        parser.error("name at least one FILE, or --self-test")
    if args.top < 1:
        parser.error("--top: at least 1")
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                lines = report(f.read(), path, args.top)
        except (OSError, ValueError) as e:
            print(f"stall_lines.py: {path}: {e}", file=sys.stderr)
            return 1
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
