"""What the page checks (check_figures.py, check_links.py,
check_kernel_paths.py) share: the pages they read, the lines of a page outside
its code blocks, and the frame of each script: its command line, its report
and its self-test on a made-up tree whose problems are known.

A script imports it from its own folder, so it runs from any directory:

  sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
  import doc_pages"""
import pathlib
import re
import sys
import tempfile
from typing import NamedTuple

FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            yield number, line


def pages(root):
    """The pages checked: root/README.md, then root/docs/*.md in name order."""
    root = pathlib.Path(root)
    return [root / "README.md"] + sorted((root / "docs").glob("*.md"))


def page_texts(root, problems):
    """(page, its text) of each of pages(root) that exists; each missing one
    is added to problems as 'PAGE: missing', PAGE its path from root."""
    root = pathlib.Path(root)
    for page in pages(root):
        if page.is_file():
            yield page, page.read_text(encoding="utf-8")
        else:
            problems.append(f"{page.relative_to(root)}: missing")


class Words(NamedTuple):
    """What a script prints. {wrong} is the number of problems found,
    {checked} the number of things looked at."""
    problem: str         # before each problem: "broken link"
    all_good: str        # the last line when none is wrong
    some_wrong: str      # the last line when some are
    self_test_good: str  # the self-test's line when it finds just the known problems
    counted: str = ""    # what {checked} counts, where the self-test checks that too


def write_tree(folder, files):
    """Each {path from folder: text} written under folder, and a docs folder."""
    for name, text in files.items():
        path = pathlib.Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (pathlib.Path(folder) / "docs").mkdir(exist_ok=True)


def listed(lines):
    return "\n  " + "\n  ".join(lines)


def self_test(name, check, files, expected, words, expected_checked):
    """check on a made-up tree: 0 when it finds just the expected problems
    (and looks at expected_checked things, where that is not None), else 1."""
    with tempfile.TemporaryDirectory() as tmp:
        write_tree(tmp, files)
        checked, found = check(tmp)
    if expected_checked is None and found != expected:
        print(f"{name} --self-test: expected{listed(expected)}\nfound{listed(found)}")
        return 1
    if expected_checked is not None and (found, checked) != (expected, expected_checked):
        print(f"{name} --self-test: expected {expected_checked} {words.counted} and"
              f"{listed(expected)}\nfound {checked} and{listed(found)}")
        return 1
    print(f"{name} --self-test: " + words.self_test_good.format(wrong=len(found), checked=checked))
    return 0


def report(name, check, root, words):
    """check on root, each problem printed: 0 none, 1 some."""
    checked, found = check(root)
    for line in found:
        print(f"{words.problem}: {line}")
    summary = words.some_wrong if found else words.all_good
    print(f"{name}: " + summary.format(wrong=len(found), checked=checked))
    return 1 if found else 0


def run(usage, check, self_test_files, expected, words, expected_checked=None):
    """A page check's command line: 'ROOT' checks ROOT's pages, '--self-test'
    checks self_test_files; anything else prints usage. check(root) returns
    (things looked at, [problem, ...]). The exit status: 0 all good, 1 a
    problem (or a self-test that went wrong), 2 usage."""
    name = pathlib.Path(sys.argv[0]).name
    if sys.argv[1:] == ["--self-test"]:
        return self_test(name, check, self_test_files, expected, words, expected_checked)
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print(usage, file=sys.stderr)
        return 2
    return report(name, check, sys.argv[1], words)
