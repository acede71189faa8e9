#!/usr/bin/env python3
"""Which machine instructions waste memory transactions: from the SASS
tables that ncu_source_stalls.sh writes (ncu --page source --csv), each
file's totals of L2 sectors and shared-memory wavefronts beyond the ideal,
and the instructions with the most of them.

    ncu_excess.py FILE.sass.csv...
"""
import csv
import sys

COLUMNS = ("L2 Theoretical Sectors Global", "L1 Wavefronts Shared")


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def report(path, top=6):
    rows = list(csv.reader(open(path)))
    header, body = rows[1], rows[2:]  # row 0 names the kernel
    at = {name: i for i, name in enumerate(header)}
    print(f"== {path}")
    for column in COLUMNS:
        excess = column + " Excessive"
        total = sum(number(r[at[column]]) for r in body)
        extra = sum(number(r[at[excess]]) for r in body)
        print(f"  {column}: {total:,.0f}, of them excessive {extra:,.0f}")
        for r in sorted(body, key=lambda r: -number(r[at[excess]]))[:top]:
            if number(r[at[excess]]) > 0:
                print(f"    {number(r[at[excess]]):>10,.0f} excessive over "
                      f"{number(r[at['Instructions Executed']]):>9,.0f} executions: "
                      f"{r[at['Source']].strip()[:72]}")


for path in sys.argv[1:]:
    report(path)
