#!/usr/bin/env python3
"""Checks that every measured figure quoted in README.md and docs/*.md with a
pointer still matches the committed result file the pointer names.

  check_figures.py ROOT      check ROOT/README.md and ROOT/docs/*.md
  check_figures.py --self-test
                           check a made-up tree whose wrong figures are known,
                           so the checker is shown to fail where it should

A pointer is an HTML comment (invisible on the rendered page) right after the
figure it vouches for; the figure is the last number before the comment on the
same line, with at most a unit between them (" µs", " GB/s", "x", "%"):

  26.88 µs<!-- figure: bench/results/h100_64mib.csv name=one_pass_ilp column=median_us -->

  FILE          a path from ROOT: .csv (bench_compare --csv; '#' lines skipped),
                .json (bench_compare --json: rows are its "methods"; path=a.b.0
                walks to another list, or to a single value), .md (its pipe
                tables), anything else as text (see line= and field=)
  KEY=VALUE     picks the one row whose KEY column holds VALUE (numbers compare
                as numbers: n=4096 matches 4096.0); several pick by all of
                them; no row or two rows is an error
  column=NAME   the cell of that row that is quoted; quote names with spaces:
                column="median µs"
  line=TEXT field=N
                in any file read as text (a log, a printed table): the one
                line holding TEXT (runs of spaces count as one), its N-th
                whitespace-separated field (from 1); a trailing 'x' or '%' of
                the field is dropped
  after=MARK    with line=: the first line holding TEXT below the one line
                holding MARK (one run of several printed in a file:
                after="from uniform:8;" line=adaptive_rows field=3)
  A / B         a ratio of two cells, each written as above; B without a FILE
                reads A's file
  percent       the figure is 100 times the value (a share written as 83%)

The quoted figure must equal the value rounded to the figure's own decimals
(26.7 vouches for 26.70; 23 for 22.88). Figures inside a generated block
(<!-- NAME:begin --> ... <!-- NAME:end -->, bench/update_readme.py) need no
pointer: their own tests regenerate them.
Exit status: 0 every pointed figure matches, 1 one does not (each printed),
2 usage."""
import csv
import json
import pathlib
import re
import shlex
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import doc_pages  # noqa: E402 (found through the line above)

POINTER = re.compile(r"<!--\s*figure:(.*?)-->")
NUMBER = re.compile(r"(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?")
MAX_UNIT_CHARS = 12


class Broken(Exception):
    """A pointer that cannot be followed: its message says why."""


def as_number(text):
    try:
        return float(str(text).strip().rstrip("x%×").replace(",", ""))
    except ValueError:
        return None


def same(cell, wanted):
    a, b = as_number(cell), as_number(wanted)
    if a is not None and b is not None:
        return a == b
    return str(cell).strip().strip("`") == wanted


def markdown_rows(text):
    """Every row of every pipe table in a page, as a dict by its header."""
    rows, header = [], None
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = [c.strip("`") for c in cells]
        elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
            rows.append(dict(zip(header, cells)))
    return rows


def rows_of(path, path_in_json):
    """The rows of a result file, or (for path= to a scalar) the value itself."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".csv":
        return list(csv.DictReader(l for l in text.splitlines() if l.strip() and not l.startswith("#")))
    if path.suffix == ".json":
        data = json.loads(text)
        if path_in_json is None:
            return data["methods"] if isinstance(data, dict) and "methods" in data else data
        for step in path_in_json.split("."):
            try:
                data = data[int(step)] if isinstance(data, list) else data[step]
            except (KeyError, IndexError, ValueError, TypeError):
                raise Broken(f"no {path_in_json} in {path.name}")
        return data
    if path.suffix == ".md":
        return markdown_rows(text)
    return text.splitlines()


def lines_holding(text, lines):
    """The indexes of the lines holding text, runs of spaces counting as one."""
    text = " ".join(text.split())
    return [i for i, line in enumerate(lines) if text in " ".join(line.split())]


def pointed_line(lines, file, text, after):
    """The one line holding text or, with after, the first holding it below
    the one line holding after."""
    if after is None:
        found = lines_holding(text, lines)
        if len(found) != 1:
            raise Broken(f"{len(found)} lines of {file} hold '{text}'")
        return lines[found[0]]
    marks = lines_holding(after, lines)
    if len(marks) != 1:
        raise Broken(f"{len(marks)} lines of {file} hold '{after}'")
    below = lines[marks[0] + 1:]
    found = lines_holding(text, below)
    if not found:
        raise Broken(f"no line of {file} below '{after}' holds '{text}'")
    return below[found[0]]


def line_field(lines, file, text, field, after):
    """The number in field N (from 1) of the line line= and after= name."""
    parts = pointed_line(lines, file, text, after).split()
    text = " ".join(text.split())
    if field is None or not field.isdigit() or not 1 <= int(field) <= len(parts):
        raise Broken(f"no field {field} in the line of {file} holding '{text}'")
    value = as_number(parts[int(field) - 1])
    if value is None:
        raise Broken(f"field {field} of the line holding '{text}' is not a number")
    return value


def cell(root, words, default_file):
    """The value one operand of a pointer names."""
    file = default_file
    if words and "=" not in words[0]:
        file, words = words[0], words[1:]
    if file is None:
        raise Broken("no file named")
    fields = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq:
            raise Broken(f"'{word}' is not KEY=VALUE")
        fields[key] = value
    path = root / file
    if not path.is_file():
        raise Broken(f"no such file {file}")
    column = fields.pop("column", None)
    rows = rows_of(path, fields.pop("path", None))
    if "line" in fields:
        return file, line_field(path.read_text(encoding="utf-8").splitlines(), file,
                                fields.pop("line"), fields.pop("field", None), fields.pop("after", None))
    if not isinstance(rows, list):
        return file, as_number(rows)
    found = [r for r in rows if isinstance(r, dict) and
             all(k in r and same(r[k], v) for k, v in fields.items())]
    where = " ".join(f"{k}={v}" for k, v in fields.items())
    if len(found) != 1:
        raise Broken(f"{len(found)} rows of {file} match {where or '(nothing)'}")
    if column is None or column not in found[0]:
        raise Broken(f"no column {column} in {file}")
    value = as_number(found[0][column])
    if value is None:
        raise Broken(f"{file} {where} {column} is '{found[0][column]}', not a number")
    return file, value


def pointed_value(root, spec):
    try:
        words = shlex.split(spec)
    except ValueError as e:
        raise Broken(f"unreadable pointer ({e})")
    percent = "percent" in words
    words = [w for w in words if w != "percent"]
    if "/" in words:
        split = words.index("/")
        file, top = cell(root, words[:split], None)
        _, bottom = cell(root, words[split + 1:], file)
        if bottom == 0:
            raise Broken("a ratio over 0")
        value = top / bottom
    else:
        _, value = cell(root, words, None)
    return value * 100 if percent else value


def quoted_figure(before):
    """(text, value, decimals) of the last number before a pointer."""
    numbers = list(NUMBER.finditer(before))
    if not numbers:
        return None
    last = numbers[-1]
    if len(before) - last.end() > MAX_UNIT_CHARS:
        return None
    decimals = len(last.group(2) or "")
    return last.group(0), as_number(last.group(0)), decimals


def check_page(root, page, text):
    """(pointers checked, ['page:line: why' for each that fails])."""
    checked, wrong = 0, []
    name = page.relative_to(root)
    for number, line in doc_pages.prose_lines(text):
        start = 0
        for match in POINTER.finditer(line):
            before = line[start:match.start()]
            start = match.end()
            checked += 1
            where = f"{name}:{number}:"
            figure = quoted_figure(before)
            if figure is None:
                wrong.append(f"{where} no figure right before the pointer '{match.group(1).strip()}'")
                continue
            text, quoted, decimals = figure
            try:
                value = pointed_value(root, match.group(1))
            except Broken as e:
                wrong.append(f"{where} {text}: {e}")
                continue
            if abs(quoted - value) > 0.5 * 10 ** -decimals * (1 + 1e-9) + 1e-12:
                wrong.append(f"{where} {text} quoted, the file gives {value:.{decimals + 2}f}")
    return checked, wrong


def check_tree(root):
    """(pointers checked, ['page:line: why' for each that fails]) over root's pages."""
    root = pathlib.Path(root)
    checked, wrong = 0, []
    for page, text in doc_pages.page_texts(root, wrong):
        count, found = check_page(root, page, text)
        checked += count
        wrong += found
    return checked, wrong


SELF_TEST_FILES = {
    "bench/r.csv": "# run v3\n# device_name=X\nname,n,median_us,gbps,ratio_to_cub\n"
                   "one,4096,4.416,3.7,1.0454\ncub,4096,4.224,3.9,1\none,8192,5.0,6.5,0.9\n# end rows=3\n",
    "bench/r.json": json.dumps({"context": {"git_commit": "abc"},
                                "methods": [{"name": "one", "cols": 0, "gbps": 2439.97},
                                            {"name": "cub", "cols": 0, "gbps": 2359.0},
                                            {"name": "best", "cols": 33, "gbps": 2494.2}]}),
    "bench/r.md": "| method | median µs | GB/s |\n| --- | ---: | ---: |\n| `torch` | 30.78 | 2180.0 |\n",
    "bench/r.txt": "type op n best us\nfloat sum 16777216 one 26.82 0.94x PASS\n",
    "bench/runs.txt": "shape a\none 1.5\ntwo 2.5\nshape b\none 3.5\ntwo 4.5\n",
    "README.md": """# Figures
Good: 4.42 µs<!-- figure: bench/r.csv name=one n=4096 column=median_us -->, 1.05x<!-- figure: bench/r.csv name=one n=4096 column=ratio_to_cub -->,
2440 GB/s<!-- figure: bench/r.json name=one cols=0 column=gbps -->, **102%**<!-- figure: bench/r.json name=best cols=33 column=gbps / name=one cols=0 column=gbps percent -->,
1.05x<!-- figure: bench/r.csv name=one n=4096 column=median_us / bench/r.csv name=cub n=4096 column=median_us -->, 2,180<!-- figure: bench/r.md method=torch column="median µs" / method=torch column="median µs" --> no,
30.8<!-- figure: bench/r.md method=torch column="median µs" --> and 0.94x<!-- figure: bench/r.txt line="sum   16777216" field=6 -->, abc's sha <!-- figure: bench/r.json path=context.git_commit -->
Wrong: 4.16 µs<!-- figure: bench/r.csv name=cub n=4096 column=median_us --> 1.06x<!-- figure: bench/r.csv name=one n=4096 column=ratio_to_cub -->
Missing: 1.0<!-- figure: bench/none.csv name=one column=gbps --> 1.0<!-- figure: bench/r.csv name=two column=gbps -->
1.0<!-- figure: bench/r.csv name=one n=4096 column=watts --> 1.0<!-- figure: bench/r.csv name=one column=gbps -->
Far: 2440 and then a long way on<!-- figure: bench/r.json name=one cols=0 column=gbps -->
Runs: 3.5<!-- figure: bench/runs.txt after="shape b" line=one field=2 --> 1.5<!-- figure: bench/runs.txt after="shape b" line=one field=2 -->
1.0<!-- figure: bench/runs.txt after=shape line=one field=2 --> 1.0<!-- figure: bench/runs.txt after="shape b" line=three field=2 -->
```
9.99<!-- figure: bench/none.csv in a fence is text -->
```
""",
}
SELF_TEST_WRONG = [
    "README.md:4: 2,180 quoted, the file gives 1.00",
    "README.md:5: no figure right before the pointer 'bench/r.json path=context.git_commit'",
    "README.md:6: 4.16 quoted, the file gives 4.2240",
    "README.md:6: 1.06 quoted, the file gives 1.0454",
    "README.md:7: 1.0: no such file bench/none.csv",
    "README.md:7: 1.0: 0 rows of bench/r.csv match name=two",
    "README.md:8: 1.0: no column watts in bench/r.csv",
    "README.md:8: 1.0: 2 rows of bench/r.csv match name=one",
    "README.md:9: no figure right before the pointer 'bench/r.json name=one cols=0 column=gbps'",
    "README.md:10: 1.5 quoted, the file gives 3.500",
    "README.md:11: 1.0: 2 lines of bench/runs.txt hold 'shape'",
    "README.md:11: 1.0: no line of bench/runs.txt below 'shape b' holds 'three'",
]


WORDS = doc_pages.Words(
    problem="wrong figure",
    all_good="all {checked} pointed figures match their files",
    some_wrong="{wrong} of {checked} pointed figures wrong",
    self_test_good="the {wrong} wrong pointers of {checked} found, no others",
    counted="pointers")


if __name__ == "__main__":
    sys.exit(doc_pages.run(__doc__, check_tree, SELF_TEST_FILES, SELF_TEST_WRONG, WORDS,
                           expected_checked=20))
