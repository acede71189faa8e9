#!/usr/bin/env python3
"""How many trips to memory step 36's tiles take to read their segment ends,
replayed on the CPU for the segment sweep's distributions (bench/NOTES.md,
session 15).

A tile of ITEMS items (elements and segment ends, the merge path) reads the
offsets of the ends that fall in it: a first trip of `reads` offsets, then,
while every offset read was inside the tile, trips of twice as many, at most
ROUNDS x 256. Each trip after the first is a dependent read of memory in the
tile's chain. This counts, for each distribution, the tiles that needed one,
two or more trips under a rule for `reads`:

  before   1.25 x the expected ends a tile, plus 2; 8 rounds at most (1bafa23)
  twice    2 x the expected ends plus 32, in whole rounds of 256; 8 rounds, or
           12 where the first trip needs more than 8 (28a1351)

Float sum: 21 items a thread, 256 threads, ITEMS = 5376. The uniform and
powerlaw lengths follow src/host/shape.c's draws (uniform on [0, 2 mean],
floor((mean + 1/2) (U^(-1/2) - 1))) from numpy's generator, not the suite's
own seed: the same distribution, not the same array. The Zipf lengths are
bench/zipf_lengths.py's, exactly.

    python3 bench/results/experiments/merge_path_trips.py   (needs numpy)
"""
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
from zipf_lengths import zipf_lengths  # noqa: E402

N = 1 << 24
ITEMS = 21 * 256
ROUND = 256


def draw(kind, mean, rng):
    if kind == "uniform":
        lengths = rng.integers(0, 2 * mean + 1, size=int(N / mean * 1.2) + 10)
    else:
        u = (rng.integers(0, 2**53, size=int(N / mean * 1.5) + 10) + 1) / 2.0**53
        lengths = np.minimum(np.floor((mean + 0.5) * (1 / np.sqrt(u) - 1)), 2**27).astype(np.int64)
    total = np.cumsum(lengths)
    last = int(np.searchsorted(total, N))
    lengths = lengths[:last + 1].copy()
    lengths[-1] -= total[last] - N
    return lengths


def first_reads(rule, expected):
    if rule == "before":
        return min(expected + expected // 4 + 2, 8 * ROUND), 8 * ROUND
    reads = -(-(2 * expected + 32) // ROUND) * ROUND
    most = 8 * ROUND if reads <= 8 * ROUND else 12 * ROUND
    return min(reads, most), most


def trips_per_tile(lengths, rule):
    lengths = np.asarray(lengths, dtype=np.int64)
    count, n = len(lengths), int(lengths.sum())
    ends_at = np.arange(count) + np.cumsum(lengths)  # item index of each end
    tiles = -(-(n + count) // ITEMS)
    ends = np.bincount(ends_at // ITEMS, minlength=tiles)
    first, most = first_reads(rule, ITEMS * count // (n + count))
    trips = []
    for e in ends:
        reads, got, trip = first, 0, 0
        while True:
            trip += 1
            found = min(reads, e - got)
            got += found
            if found < reads or got >= ITEMS:
                break
            reads = min(2 * reads, most)
        trips.append(trip)
    return np.bincount(trips)[1:], tiles


def main():
    rng = np.random.default_rng(1)
    cases = [(f"{kind}:{mean}", draw(kind, mean, rng))
             for kind, mean in [("uniform", 1), ("uniform", 8), ("uniform", 100),
                                ("uniform", 10000), ("powerlaw", 8), ("powerlaw", 100),
                                ("powerlaw", 1000)]]
    cases.append(("zipf", zipf_lengths(1 << 24, 1 << 20, 1.0, 1)))
    print("distribution  rule    tiles  tiles with 1 / 2 / 3+ trips  share with 2+")
    for name, lengths in cases:
        for rule in ("before", "twice"):
            counts, tiles = trips_per_tile(lengths, rule)
            one, two = (list(counts) + [0, 0])[:2]
            more = int(sum(counts[2:]))
            print(f"{name:13} {rule:6} {tiles:6}  {one:6} / {two:5} / {more:3}"
                  f"               {100 * (tiles - one) / tiles:5.1f}%")


if __name__ == "__main__":
    main()
