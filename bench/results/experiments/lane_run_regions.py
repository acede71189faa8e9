#!/usr/bin/env python3
"""Step 37's tiles kernel by part: the instructions executed and the stall
samples of each part of the code, from Nsight Compute's source page.

    tar -xJf h200_lane_run_source_counters_accd221.tar.xz
    python3 lane_run_regions.py u100_sass.csv u8_sass.csv zipf_sass.csv

The parts are address ranges of the float sum kernel as built at accd221
(read off its SASS: the copies end at LDGDEPBAR, the marking's batches hold
the ATOMS.OR, the walk the predicated STS, the results' loop the STG);
another build moves them. Per tile: the instructions over 16384 tiles (64
MiB of floats)."""
import csv
import sys

PARTS = [(0x0, "start and search"), (0xa00, "tile start, copies"), (0x2760, "offsets' read"),
         (0x31e0, "marking"), (0x4890, "wait, run reads, slots' scan"), (0x6980, "walk"),
         (0x76d0, "lanes' join, head"), (0x7bf0, "results"), (0x8090, "parts, loop"),
         (0x8430, "paths not run")]
TILES = 16384


def main(paths):
    for path in paths:
        rows = list(csv.reader(open(path)))
        header = rows[1]
        at, executed, sampled = (header.index(c) for c in (
            "Address", "Instructions Executed", "Warp Stall Sampling (All Samples)"))
        base, count, samples = None, {}, {}
        for r in rows[2:]:
            if len(r) != len(header):
                continue
            address = int(r[at], 16)
            base = address if base is None else base
            part = [name for start, name in PARTS if address - base >= start][-1]
            count[part] = count.get(part, 0) + int(r[executed] or 0)
            samples[part] = samples.get(part, 0) + int(r[sampled] or 0)
        total, total_samples = sum(count.values()), sum(samples.values()) or 1
        print(f"{path}: {total} warp instructions, {total / TILES:.0f} a tile")
        for _, name in PARTS:
            print(f"  {name:30s} {count.get(name, 0) / TILES:7.1f} a tile  "
                  f"{100 * count.get(name, 0) / total:5.1f}% of instructions  "
                  f"{100 * samples.get(name, 0) / total_samples:5.1f}% of samples")


if __name__ == "__main__":
    main(sys.argv[1:])
