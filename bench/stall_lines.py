#!/usr/bin/env python3
"""Where a kernel's warps wait, by SASS line: Nsight Compute's stall samples
read from its source page.

    python3 bench/stall_lines.py [--top N] [--excess] FILE...
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
--excess prints instead the memory transactions beyond the ideal: for L2
sectors and for shared-memory wavefronts, the total and the excess over
the kernel, then the N lines with the most excess and how often each ran
(a copy into shared memory that is not on a 128-byte boundary shows here).
Exit status: 0, 1 when a file cannot be read or is not such a page, 2 usage."""
import argparse
import collections
import csv
import io
import sys

SAMPLES = "Warp Stall Sampling (All Samples)"
ADDRESS, SOURCE = "Address", "Source"
EXECUTED = "Instructions Executed"
TRANSACTIONS = ("L2 Theoretical Sectors Global", "L1 Wavefronts Shared")


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


def excess_report(text, name, top):
    """The lines stall_lines.py --excess prints for one page."""
    header, body = read_page(text)
    address, source = header.index(ADDRESS), header.index(SOURCE)
    out = []
    for column in TRANSACTIONS:
        wanted = (column, column + " Excessive", EXECUTED)
        missing = [c for c in wanted if c not in header]
        if missing:
            raise ValueError(f"no column '{missing[0]}' (take the report with --section SourceCounters)")
        total_at, excess_at, executed = (header.index(c) for c in wanted)
        total = sum(count(r[total_at]) for r in body)
        excess = sum(count(r[excess_at]) for r in body)
        out.append(f"== {name}: {column} {total}, {excess} beyond the ideal")
        for r in sorted(body, key=lambda r: -count(r[excess_at]))[:top]:
            if count(r[excess_at]) > 0:
                out.append(f"  {count(r[excess_at]):9d} over {count(r[executed]):8d} runs "
                           f"{r[address][-5:]} {r[source].strip()[:60]}")
    return out


SELF_TEST = '''"Kernel Name","made_up_kernel"
"Address","Source","Warp Stall Sampling (All Samples)","stall_barrier","stall_long_sb","stall_wait","stall_long_sb (Not Issued)"
"0x7f0000000000","      LDG.E.128 R4, desc[UR4][R2.64]","2","0","0","2","0"
"0x7f0000000010","      FADD R8, R4, R5","90","0","88","2","80"
"0x7f0000000020","      BAR.SYNC.DEFER_BLOCKING 0x0","8","8","0","0","0"
"0x7f0000000030","      EXIT","",""," ","",""
'''

SELF_TEST_EXCESS = '''"Kernel Name","made_up_kernel"
"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed","L1 Wavefronts Shared Excessive","L1 Wavefronts Shared","L2 Theoretical Sectors Global Excessive","L2 Theoretical Sectors Global"
"0x7f0000000000","      LDGSTS.E.BYPASS.128 [R2+0x100], desc[UR4][R4.64]","5","100","600","1000","800","2400"
"0x7f0000000010","      LDG.E.64 R6, desc[UR4][R8.64]","7","10","0","0","40","60"
"0x7f0000000020","      ATOMS.OR RZ, [R3], R5","1","50","90","140","0","0"
'''


def self_test():
    """A made-up page of four lines whose answers are known: 100 samples,
    long_sb ahead of barrier and wait (the Not Issued column not counted
    twice), the add first with 90%, the empty counts of EXIT as 0; then a
    page of three lines with transaction counts (--excess: the totals, the
    lines by excess, a line with none left out), and the first page
    refused for --excess, as it has no such columns."""
    got = report(SELF_TEST, "made_up", 2)
    want = ["== made_up: 100 samples; by reason: long_sb 88, barrier 8, wait 4",
            f"      90  90.0% 00010 {'FADD R8, R4, R5':60s} [(88, 'long_sb'), (2, 'wait')]",
            f"       8   8.0% 00020 {'BAR.SYNC.DEFER_BLOCKING 0x0':60s} [(8, 'barrier'), (0, 'wait')]"]
    if got != want:
        print("stall_lines.py self-test: got\n" + "\n".join(got) + "\nwant\n" + "\n".join(want),
              file=sys.stderr)
        return 1
    got = excess_report(SELF_TEST_EXCESS, "made_up", 2)
    want = ["== made_up: L2 Theoretical Sectors Global 2460, 840 beyond the ideal",
            "        800 over      100 runs 00000 LDGSTS.E.BYPASS.128 [R2+0x100], desc[UR4][R4.64]",
            "         40 over       10 runs 00010 LDG.E.64 R6, desc[UR4][R8.64]",
            "== made_up: L1 Wavefronts Shared 1140, 690 beyond the ideal",
            "        600 over      100 runs 00000 LDGSTS.E.BYPASS.128 [R2+0x100], desc[UR4][R4.64]",
            "         90 over       50 runs 00020 ATOMS.OR RZ, [R3], R5"]
    if got != want:
        print("stall_lines.py self-test: --excess got\n" + "\n".join(got) + "\nwant\n" + "\n".join(want),
              file=sys.stderr)
        return 1
    try:
        excess_report(SELF_TEST, "no_counters", 1)
        print("stall_lines.py self-test: --excess read a page without the transaction columns",
              file=sys.stderr)
        return 1
    except ValueError:
        pass
    try:
        report("not,a,page\n1,2,3\n", "bad", 1)
    except ValueError:
        print("stall_lines.py self-test: the made-up pages read as expected, a wrong file is refused")
        return 0
    print("stall_lines.py self-test: a file with no source-page header was read", file=sys.stderr)
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", metavar="FILE")
    parser.add_argument("--top", type=int, default=12, help="lines to print a file (default 12)")
    parser.add_argument("--excess", action="store_true",
                        help="memory transactions beyond the ideal, in place of the stall samples")
    parser.add_argument("--self-test", action="store_true", help="check the reading on made-up pages")
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
                lines = (excess_report if args.excess else report)(f.read(), path, args.top)
        except (OSError, ValueError) as e:
            print(f"stall_lines.py: {path}: {e}", file=sys.stderr)
            return 1
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
