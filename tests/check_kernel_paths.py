#!/usr/bin/env python3
"""Checks every source path that README.md and docs/*.md name under kernels/,
vendor_shims/ and src/ (in prose and in code blocks alike): it exists, or it
is the example of a new kernel step, kernels/<folder>/NN_<name>.cu, in an
existing folder with the next free step number (the highest NN under
kernels/*/ plus one), so that an example never names a step that exists.

  check_kernel_paths.py ROOT     check ROOT/README.md and ROOT/docs/*.md
  check_kernel_paths.py --self-test
                                 check a made-up tree whose bad paths are known

Paths with a pattern in them (*, <name>, {a,b}) are skipped.
Exit status: 0 all good, 1 a path is wrong (each printed), 2 usage."""
import pathlib
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import doc_pages  # noqa: E402 (found through the line above)

PATH = re.compile(r"(?<![\w/.-])((?:kernels|vendor_shims|src)/[\w./*<>{},-]*)")
STEP = re.compile(r"kernels/(\w+)/(\d\d)_\w+\.cu")
STEP_FILE = re.compile(r"(\d\d)_\w+\.cu")


def next_free_step(root):
    steps = [int(STEP_FILE.match(p.name).group(1)) for p in (root / "kernels").glob("*/*.cu")
             if STEP_FILE.match(p.name)]
    return max(steps, default=-1) + 1


def wrong_paths(root):
    """(paths checked, ['page:line: path (why)' for each wrong one]) over
    root's pages, code blocks included."""
    root = pathlib.Path(root)
    free = next_free_step(root)
    checked, wrong = 0, []
    for page, text in doc_pages.page_texts(root, wrong):
        for number, line in enumerate(text.splitlines(), 1):
            for path in PATH.findall(line):
                path = path.rstrip(".,")
                if any(c in path for c in "*<{"):
                    continue
                checked += 1
                if (root / path).exists():
                    continue
                where = f"{page.relative_to(root)}:{number}: {path}"
                step = STEP.fullmatch(path)
                if not step:
                    wrong.append(f"{where} (no such file)")
                elif not (root / "kernels" / step.group(1)).is_dir():
                    wrong.append(f"{where} (no folder kernels/{step.group(1)})")
                elif int(step.group(2)) != free:
                    wrong.append(f"{where} (a new step's example: the next free number is {free:02d})")
    return checked, wrong


SELF_TEST_FILES = {
    "kernels/classic/00_first.cu": "",
    "kernels/rows/07_last.cu": "",
    "kernels/blocks/method.cuh": "",
    "src/gpu/registry.c": "",
    "README.md": """# Paths
`kernels/classic/00_first.cu`, kernels/blocks/method.cuh, src/gpu/registry.c.
add kernels/rows/08_my_idea.cu; CMake globs kernels/*/*.cu; `kernels/<folder>/NN_<name>.cu`
add kernels/rows/07_my_idea.cu, kernels/modern/08_x.cu, kernels/08_flat.cu
kernels/method.cuh and vendor_shims/none.cu
""",
}
SELF_TEST_WRONG = [
    "README.md:4: kernels/rows/07_my_idea.cu (a new step's example: the next free number is 08)",
    "README.md:4: kernels/modern/08_x.cu (no folder kernels/modern)",
    "README.md:4: kernels/08_flat.cu (no such file)",
    "README.md:5: kernels/method.cuh (no such file)",
    "README.md:5: vendor_shims/none.cu (no such file)",
]


WORDS = doc_pages.Words(
    problem="wrong path",
    all_good="every source path exists or is the next new step",
    some_wrong="{wrong} wrong path(s)",
    self_test_good="the {wrong} wrong paths found, no others")


if __name__ == "__main__":
    sys.exit(doc_pages.run(__doc__, wrong_paths, SELF_TEST_FILES, SELF_TEST_WRONG, WORDS))
