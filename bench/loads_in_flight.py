#!/usr/bin/env python3
"""How many global loads each loop of a compiled kernel keeps in flight, read
from its SASS: what the source asks for (LOADS loads before the first add)
is not always what ptxas emits.

    python3 bench/loads_in_flight.py [--match REGEX] FILE...
    python3 bench/loads_in_flight.py --self-test

FILE: an object file or executable (the tool runs `cuobjdump -sass` on it)
or a text file of that command's output (ending in .sass or .txt). REGEX
picks kernels by their demangled names (c++filt; Python's re.search). For
each loop - the instructions from a backward branch's target to the branch -
it prints the kernel, the loop's addresses, the global loads (LDG) in it and
the most of them in flight at once along one pass through the loop.

In flight: a warp issues in order, so a load stays in flight until the
first later instruction that reads or writes one of its destination
registers, which must wait for it. A loop whose loads each land in the
registers of the one before, used in between, has one in flight however
many it issues. Predicated instructions count as executed; the pass ignores
branches inside the loop and loads still in flight from the iteration
before. Exit status: 0, 1 when cuobjdump fails or a file cannot be read, 2
usage."""
import argparse
import re
import subprocess
import sys

FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;")
PREDICATE = re.compile(r"^@!?U?P[T0-9]+\s+")
REGISTER = re.compile(r"\bR(\d+)(\.64)?\b")
BRANCH = re.compile(r"^BRA(\.\w+)*\s+(?:\S+,\s*)?(0x[0-9a-f]+)")
# Instructions whose first operand is read, not written.
NO_DESTINATION = ("ST", "STG", "STS", "STL", "RED", "BRA", "EXIT", "BAR", "ISETP", "FSETP",
                  "DSETP", "HSETP2", "PLOP3", "WARPSYNC", "BSSY", "BSYNC", "NOP", "RET", "CALL")


def registers(text, width=1):
    """The register numbers an operand names: R4 one, R4.64 two, and the
    `width` registers from a destination's first."""
    found = set()
    for match in REGISTER.finditer(text):
        first = int(match.group(1))
        count = 2 if match.group(2) else width
        found.update(range(first, first + count))
    return found


def load_width(opcode):
    """The registers a global load writes: LDG.E.128 four, .64 two, else one."""
    return 4 if ".128" in opcode else 2 if ".64" in opcode else 1


def split(instruction):
    """(opcode, destination registers, registers read) of one SASS line."""
    body = PREDICATE.sub("", instruction)
    opcode, _, rest = body.partition(" ")
    operands = [o.strip() for o in rest.split(",")] if rest else []
    base = opcode.split(".")[0]
    if not operands or base in NO_DESTINATION or not REGISTER.match(operands[0]):
        return opcode, set(), registers(rest)
    width = load_width(opcode) if base == "LDG" else 2 if (".64" in opcode or ".WIDE" in opcode) else 1
    return opcode, registers(operands[0], width), registers(",".join(operands[1:]))


def most_in_flight(body):
    """(global loads, most in flight at once) over one in-order pass through
    a loop body's instructions."""
    in_flight, most, loads = [], 0, 0
    for instruction in body:
        opcode, written, read = split(instruction)
        touched = written | read
        in_flight = [regs for regs in in_flight if not regs & touched]
        if opcode.split(".")[0] == "LDG":
            loads += 1
            in_flight.append(written)
            most = max(most, len(in_flight))
    return loads, most


def loops(lines):
    """(first address, last address, instructions) of every loop: a branch
    back to an earlier address."""
    addresses = [address for address, _ in lines]
    found = []
    for i, (address, instruction) in enumerate(lines):
        match = BRANCH.match(PREDICATE.sub("", instruction))
        if match and int(match.group(2), 16) <= address:
            target = int(match.group(2), 16)
            if target in addresses:
                start = addresses.index(target)
                found.append((target, address, [text for _, text in lines[start:i + 1]]))
    return found


def kernels(sass):
    """{mangled name: [(address, instruction)]} of cuobjdump -sass output."""
    found, current = {}, None
    for line in sass.splitlines():
        match = FUNCTION.match(line)
        if match:
            current = found.setdefault(match.group(1), [])
            continue
        match = INSTRUCTION.match(line)
        if match and current is not None:
            current.append((int(match.group(1), 16), match.group(2)))
    return found


def demangled(names):
    """{mangled: demangled} by c++filt, or the names as they are without it."""
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                             check=True).stdout.splitlines()
        return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}
    except (OSError, subprocess.CalledProcessError):
        return {n: n for n in names}


def read_sass(path):
    if path.endswith((".sass", ".txt")):
        with open(path, encoding="utf-8") as f:
            return f.read()
    return subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True,
                          check=True).stdout


def report(sass, match):
    """The table's lines for every loop with a global load, of every kernel
    whose demangled name matches."""
    found = kernels(sass)
    names = demangled(list(found))
    rows = []
    for mangled, lines in found.items():
        if not re.search(match, names[mangled]):
            continue
        for first, last, body in loops(lines):
            loads, most = most_in_flight(body)
            if loads:
                rows.append(f"{most:>9} {loads:>5}  {first:05x}-{last:05x}  {names[mangled]}")
    return rows


SELF_TEST = """
        Function : serial
        /*0490*/                   LDG.E.128.CONSTANT R4, desc[UR8][R12.64] ;
        /*04c0*/                   FADD R4, R4, R5 ;
        /*0500*/                   LDG.E.128.CONSTANT R4, desc[UR8][R14.64] ;
        /*0530*/                   FADD R4, R4, R5 ;
        /*0560*/              @!P0 BRA 0x490 ;
        Function : together
        /*0100*/                   LDG.E.128.CONSTANT R28, desc[UR14][R2.64] ;
        /*0110*/                   LDG.E.128.CONSTANT R16, desc[UR14][R2.64+0x1000] ;
        /*0120*/                   LDG.E.128.CONSTANT R20, desc[UR14][R2.64+0x2000] ;
        /*0130*/                   LDG.E.128.CONSTANT R24, desc[UR14][R2.64+0x3000] ;
        /*0140*/                   FADD R28, R28, R29 ;
        /*0150*/                   FADD R28, R16, R28 ;
        /*0160*/               @P1 BRA 0x100 ;
        Function : pairs
        /*0600*/                   LDG.E.128.CONSTANT R20, desc[UR14][R28.64] ;
        /*0610*/                   LDG.E.128.CONSTANT R16, desc[UR14][R28.64+0xffc] ;
        /*0620*/                   ISETP.GE.AND P0, PT, R20, R21, PT ;
        /*0710*/                   LDG.E.128.CONSTANT R20, desc[UR14][R28.64+0x1ffc] ;
        /*0740*/                   LDG.E.128.CONSTANT R24, desc[UR14][R28.64+0x2ffc] ;
        /*0750*/                   ISETP.GE.AND P4, PT, R17, R18, PT ;
        /*0760*/                   BRA 0x600 ;
        /*0770*/                   LDG.E R3, desc[UR14][R8.64] ;
"""


def self_test():
    """The table of three made-up kernels whose loads in flight are known:
    each load into the last one's registers (1), four before the first add
    (4), two, then the first's registers reused (3 at most: the second is
    still in flight when the third and fourth issue)."""
    got = {line.split()[-1]: int(line.split()[0]) for line in report(SELF_TEST, ".")}
    want = {"serial": 1, "together": 4, "pairs": 3}
    if got != want:
        print(f"loads_in_flight.py self-test: got {got}, want {want}", file=sys.stderr)
        return 1
    print("loads_in_flight.py self-test: the three made-up kernels read as expected")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", metavar="FILE")
    parser.add_argument("--match", default=".", help="kernels whose demangled name matches (re)")
    parser.add_argument("--self-test", action="store_true", help="check the reading on made-up SASS")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.files:
        parser.error("name at least one FILE, or --self-test")
    try:
        re.compile(args.match)
    except re.error as e:
        parser.error(f"--match: {e}")
    rows = []
    for path in args.files:
        try:
            rows += report(read_sass(path), args.match)
        except OSError as e:
            print(f"loads_in_flight.py: {path}: {e}", file=sys.stderr)
            return 1
        except subprocess.CalledProcessError as e:
            print(f"loads_in_flight.py: {path}: cuobjdump -sass failed: {e.stderr.strip()}",
                  file=sys.stderr)
            return 1
    print("\n".join(["in flight loads  loop         kernel"] + rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
