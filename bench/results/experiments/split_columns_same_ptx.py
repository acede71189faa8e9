#!/usr/bin/env python3
"""Checks that each split_columns kernel of one build is, in PTX, the kernel
that was measured: a kernel whose last template argument (one bounds test a
batch of loads) is true against the build with that test everywhere, one
whose argument is false against the build with a test a load everywhere.
Names, line information and labels are left out of the comparison.

  split_columns_same_ptx.py TEST_A_LOAD.ptx TEST_A_BATCH.ptx BUILD.ptx

The PTX comes from the build's nvcc command for
kernels/columns/32_split_columns.cu with -ptx in place of -c (session 17:
736a40a, 89a7bca and 4ab06cf; all 130 kernels the same).
"""
import re
import sys


def kernels(path):
    text = open(path).read()
    found = {}
    for m in re.finditer(r"\.entry (\S+)\(", text):
        name = m.group(1)
        if "split_columns_kernel" not in name:
            continue
        body = text[m.start():text.index("\n}\n", m.start())]
        prefix = name[:name.index("20split_columns_kernel")]
        body = body.replace(name, "K").replace(prefix, "P")
        body = re.sub(r"\$L__BB\d+_", "$L__BB_", body)
        body = re.sub(r"__local_depot\d+", "__local_depot", body)
        body = re.sub(r"_ZZN\S*?E1s", "SMEM", body)
        body = "\n".join(line for line in body.split("\n")
                         if not line.strip().startswith((".loc", "$L__tmp")))
        found[name[len(prefix):]] = body
    return found


def main():
    per_load, per_batch, build = (kernels(p) for p in sys.argv[1:4])
    differ = 0
    for name, body in build.items():
        one_test = "ELb1EEEvPKT_" in name
        measured = re.sub(r"ELb[01]EEEvPKT_", "EEEvPKT_", name)
        reference = per_batch if one_test else per_load
        if reference.get(measured) != body:
            differ += 1
            print("differs:", measured[:90])
    print(f"{len(build) - differ} of {len(build)} kernels as measured")
    return 1 if differ or not build else 0


if __name__ == "__main__":
    sys.exit(main())
