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
(26.7 vouches for 26.70; 23 for 22.88).

A claim pointer vouches for prose that compares two methods over a whole
sweep ("faster than CUB at every power of two"); it needs no figure:

  <!-- claim: bench/results/h200_sweep.csv faster=one_pass_ilp than=cub column=median_us over=n except=4096 powers-of-two -->

  FILE          as above, a table (.csv, .json, .md); rows are picked by
                their name (or method) column
  faster=A than=B
                at every value of the over= column that both A and B have,
                A's column= value is lower than B's; A or B may be 'best':
                the lowest, at that value, of the methods best=a,b,c lists
  except=V,W    the values stated as exceptions: at each of them B is the
                faster (or as fast), else the claim says less than the data
  where=K=V     only rows whose K column holds V (several allowed)
  powers-of-two only the over= values that are powers of two

The check fails at the first counter-example, naming the value and both
numbers, and at an except= value where A is in fact faster.

Figures inside a generated block
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
CLAIM = re.compile(r"<!--\s*claim:(.*?)-->")
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


def shown(value):
    """A number as a page writes it: 4096, not 4096.0."""
    return f"{value:g}" if value != int(value) else str(int(value))


def method_values(rows, file, name_key, method, column, over):
    """{over value: column value} of one method's rows."""
    values = {}
    for row in rows:
        if not same(row.get(name_key, ""), method):
            continue
        key, value = as_number(row.get(over)), as_number(row.get(column))
        if key is None or value is None:
            raise Broken(f"{file} {method} has no number in {over} or {column}")
        if key in values:
            raise Broken(f"2 rows of {file} for {method} at {over}={shown(key)}")
        values[key] = value
    if not values:
        raise Broken(f"no rows of {file} for {method}")
    return values


def side_values(rows, file, name_key, side, best, column, over):
    """{over value: (value, who)} of faster= or than=: one method, or 'best',
    the lowest of best='s methods at each value."""
    if side != "best":
        return {k: (v, side) for k, v in method_values(rows, file, name_key, side, column, over).items()}
    if not best:
        raise Broken("'best' without best=a,b,c")
    lowest = {}
    for method in best:
        for key, value in method_values(rows, file, name_key, method, column, over).items():
            if key not in lowest or value < lowest[key][0]:
                lowest[key] = (value, f"best ({method})")
    return lowest


def claim_problem(root, spec):
    """None when the data bears the claim out, else the first place it does not."""
    try:
        words = shlex.split(spec)
    except ValueError as e:
        raise Broken(f"unreadable claim ({e})")
    if not words or "=" in words[0]:
        raise Broken("no file named")
    file, words = words[0], words[1:]
    powers = "powers-of-two" in words
    fields, where = {}, []
    for word in (w for w in words if w != "powers-of-two"):
        key, eq, value = word.partition("=")
        if not eq:
            raise Broken(f"'{word}' is not KEY=VALUE")
        if key == "where":
            where.append(value.partition("="))
        else:
            fields[key] = value
    faster, than, column, over = (fields.get(k) for k in ("faster", "than", "column", "over"))
    if None in (faster, than, column, over):
        raise Broken("a claim needs faster=, than=, column= and over=")
    path = root / file
    if not path.is_file():
        raise Broken(f"no such file {file}")
    rows = rows_of(path, fields.get("path"))
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], dict):
        raise Broken(f"{file} holds no table")
    rows = [r for r in rows if all(k in r and same(r[k], v) for k, _, v in where)]
    name_key = "name" if "name" in rows[0] else "method"
    best = [m for m in fields.get("best", "").split(",") if m]
    ours = side_values(rows, file, name_key, faster, best, column, over)
    theirs = side_values(rows, file, name_key, than, best, column, over)
    keys = sorted(k for k in ours if k in theirs and
                  (not powers or (k >= 1 and k == int(k) and int(k) & (int(k) - 1) == 0)))
    if not keys:
        raise Broken(f"no {over} that both {faster} and {than} have")
    excepted = {as_number(v): v for v in fields.get("except", "").split(",") if v}
    for value, text in excepted.items():
        if value not in keys:
            raise Broken(f"except={text}: no such {over} in the claim")
    for key in keys:
        (a, a_who), (b, b_who) = ours[key], theirs[key]
        if (a < b) == (key in excepted):
            said = "not an exception" if a < b else "counter-example"
            return f"{said} at {over}={shown(key)}: {a_who} {shown(a)}, {b_who} {shown(b)}"
    return None


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
        for match in POINTER.finditer(CLAIM.sub("", line)):
            before = match.string[start:match.start()]
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
        for match in CLAIM.finditer(line):
            checked += 1
            where = f"{name}:{number}: claim"
            try:
                problem = claim_problem(root, match.group(1))
            except Broken as e:
                problem = str(e)
            if problem:
                wrong.append(f"{where} {problem}")
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
    "bench/s.csv": "n,method,type,median_us\n1000,ours,float,9\n1000,cub,float,8\n"
                   "1024,ours,float,3\n1024,cub,float,4\n1024,fast,float,3.5\n2048,ours,float,3.5\n"
                   "2048,cub,float,5\n2048,fast,float,3\n4096,ours,float,4.5\n4096,cub,float,4\n"
                   "4096,fast,float,5\n1024,ours,double,6\n1024,cub,double,5\n",
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
Claims, true: faster but at 4096<!-- claim: bench/s.csv faster=ours than=cub column=median_us over=n where=type=float except=4096 powers-of-two -->
and the best of two<!-- claim: bench/s.csv faster=best best=ours,fast than=cub column=median_us over=n where=type=float except=4096 powers-of-two -->
False: <!-- claim: bench/s.csv faster=ours than=cub column=median_us over=n where=type=float powers-of-two --> 2.0<!-- claim: bench/s.csv faster=ours than=cub column=median_us over=n where=type=float except=4096 --><!-- figure: bench/s.csv method=ours n=2048 column=median_us -->
<!-- claim: bench/s.csv faster=best best=ours,fast than=cub column=median_us over=n where=type=float powers-of-two -->
Wrong except: <!-- claim: bench/s.csv faster=ours than=cub column=median_us over=n where=type=float except=2048,4096 powers-of-two -->
<!-- claim: bench/s.csv faster=ours than=cub column=median_us over=n where=type=float except=99 --> <!-- claim: bench/s.csv faster=ours than=cub column=median_us over=n except=4096 -->
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
    "README.md:14: 2.0 quoted, the file gives 3.500",
    "README.md:14: claim counter-example at n=4096: ours 4.5, cub 4",
    "README.md:14: claim counter-example at n=1000: ours 9, cub 8",
    "README.md:15: claim counter-example at n=4096: best (ours) 4.5, cub 4",
    "README.md:16: claim not an exception at n=2048: ours 3.5, cub 5",
    "README.md:17: claim except=99: no such n in the claim",
    "README.md:17: claim 2 rows of bench/s.csv for ours at n=1024",
]


WORDS = doc_pages.Words(
    problem="wrong figure",
    all_good="all {checked} pointed figures and claims match their files",
    some_wrong="{wrong} of {checked} pointed figures and claims wrong",
    self_test_good="the {wrong} wrong pointers of {checked} found, no others",
    counted="pointers")


if __name__ == "__main__":
    sys.exit(doc_pages.run(__doc__, check_tree, SELF_TEST_FILES, SELF_TEST_WRONG, WORDS,
                           expected_checked=29))
