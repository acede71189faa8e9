#!/usr/bin/env python3
"""Puts a generated file into README.md between the markers
<!-- NAME:begin --> and <!-- NAME:end -->, so the README's numbers are
generated, never typed.

  update_readme.py FILE [--block NAME] [--code] [--readme README.md]

FILE is a bench_compare --markdown table (block 'results', the default) or,
with --code, any text bench_compare printed (a --type all summary, say),
which goes in as a code block."""
import argparse
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--block", default="results")
    parser.add_argument("--code", action="store_true")
    parser.add_argument("--readme", default="README.md")
    args = parser.parse_args()
    begin, end = f"<!-- {args.block}:begin -->", f"<!-- {args.block}:end -->"
    try:
        text = open(args.file).read().strip()
        readme = open(args.readme).read()
    except OSError as e:
        sys.exit(f"update_readme.py: {e}")
    if args.code:
        text = f"```\n{text}\n```"
    head, found_begin, rest = readme.partition(begin)
    _, found_end, tail = rest.partition(end)
    if not (found_begin and found_end):
        sys.exit(f"update_readme.py: {args.readme}: no {begin} ... {end} markers")
    with open(args.readme, "w") as f:
        f.write(f"{head}{begin}\n{text}\n{end}{tail}")


if __name__ == "__main__":
    main()
