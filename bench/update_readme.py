#!/usr/bin/env python3
"""Puts a bench_compare --markdown table into README.md between the markers
<!-- results:begin --> and <!-- results:end -->, so the README's numbers are
generated, never typed.   update_readme.py RESULTS.md [README.md]"""
import sys

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"


def main(results_path, readme_path="README.md"):
    table = open(results_path).read().strip()
    readme = open(readme_path).read()
    head, found_begin, rest = readme.partition(BEGIN)
    _, found_end, tail = rest.partition(END)
    if not (found_begin and found_end):
        sys.exit(f"{readme_path}: no {BEGIN} ... {END} markers")
    with open(readme_path, "w") as f:
        f.write(f"{head}{BEGIN}\n{table}\n{END}{tail}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(*sys.argv[1:])
