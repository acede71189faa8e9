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
import tempfile

PATH = re.compile(r"(?<![\w/.-])((?:kernels|vendor_shims|src)/[\w./*<>{},-]*)")
STEP = re.compile(r"kernels/(\w+)/(\d\d)_\w+\.cu")
STEP_FILE = re.compile(r"(\d\d)_\w+\.cu")


def next_free_step(root):
    steps = [int(STEP_FILE.match(p.name).group(1)) for p in (root / "kernels").glob("*/*.cu")
             if STEP_FILE.match(p.name)]
    return max(steps, default=-1) + 1


def wrong_paths(root):
    root = pathlib.Path(root)
    free = next_free_step(root)
    pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    wrong = []
    for page in pages:
        if not page.is_file():
            wrong.append(f"{page.relative_to(root)}: missing")
            continue
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for path in PATH.findall(line):
                path = path.rstrip(".,")
                if any(c in path for c in "*<{") or (root / path).exists():
                    continue
                where = f"{page.relative_to(root)}:{number}: {path}"
                step = STEP.fullmatch(path)
                if not step:
                    wrong.append(f"{where} (no such file)")
                elif not (root / "kernels" / step.group(1)).is_dir():
                    wrong.append(f"{where} (no folder kernels/{step.group(1)})")
                elif int(step.group(2)) != free:
                    wrong.append(f"{where} (a new step's example: the next free number is {free:02d})")
    return wrong


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


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in SELF_TEST_FILES.items():
            (pathlib.Path(tmp) / name).parent.mkdir(parents=True, exist_ok=True)
            (pathlib.Path(tmp) / name).write_text(text, encoding="utf-8")
        (pathlib.Path(tmp) / "docs").mkdir()
        found = wrong_paths(tmp)
    if found != SELF_TEST_WRONG:
        print("check_kernel_paths.py --self-test: expected\n  " + "\n  ".join(SELF_TEST_WRONG) +
              "\nfound\n  " + "\n  ".join(found))
        return 1
    print(f"check_kernel_paths.py --self-test: the {len(found)} wrong paths found, no others")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    wrong = wrong_paths(sys.argv[1])
    for line in wrong:
        print(f"wrong path: {line}")
    print(f"check_kernel_paths.py: {len(wrong)} wrong path(s)" if wrong else
          "check_kernel_paths.py: every source path exists or is the next new step")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
