#!/usr/bin/env python3
"""How a segment array falls into step 37's tiles, from its lengths alone
(no GPU): the ends each tile holds, the share of tiles whose ends need a
second trip of offset reads, the tiles each warp gets and the ends they hold.

  lane_run_tiles.py LENGTHS_FILE [--warps W] [--margins 2,3,4]

LENGTHS_FILE: one segment length a line (bench/zipf_lengths.py writes one).
W: resident warps (132 SMs x 24 on an H100: 3168). A tile is 1024 floats;
a tile's first trip reads ceil((margin x expected + 1) / 32) batches of 32
offsets, at most 8 (step 37's READ_MARGIN and BATCHES), then twice as many
while every end read was inside."""
import argparse
import math

import numpy as np

ELEMENTS, BATCHES = 1024, 8


def trips(ends, batches):
    """Trips of offset reads a tile of `ends` ends takes."""
    count, read = 0, 0
    while True:
        count, read = count + 1, read + 32 * batches
        if ends < read:
            return count
        batches = min(2 * batches, BATCHES)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lengths")
    parser.add_argument("--warps", type=int, default=3168)
    parser.add_argument("--margins", default="2,3,4")
    args = parser.parse_args()
    lengths = np.loadtxt(args.lengths, dtype=np.int64, ndmin=1)
    n, count = int(lengths.sum()), len(lengths)
    if n == 0:
        raise SystemExit(f"{args.lengths}: no elements")
    tiles = math.ceil(n / ELEMENTS)
    # The tile whose last position an end reaches (empty segments too: their
    # offsets are read like the others).
    last = np.clip((np.cumsum(lengths) - 1) // ELEMENTS, 0, tiles - 1)
    ends = np.bincount(last, minlength=tiles)
    print(f"{count} segments, {n} elements, {tiles} tiles; ends a tile (empty segments too): mean "
          f"{ends.mean():.1f}, median {np.median(ends):.0f}, 90th percentile "
          f"{np.percentile(ends, 90):.0f}, none in {100 * (ends == 0).mean():.1f}% of tiles")
    expected = ELEMENTS * count // n
    for margin in (int(m) for m in args.margins.split(",")):
        batches = min(math.ceil((margin * expected + 1) / 32), BATCHES)
        second = np.mean([trips(e, batches) > 1 for e in ends])
        print(f"margin {margin}: {batches} batches first, {100 * second:.1f}% of tiles take a second trip")
    print(f"{args.warps} warps: {tiles / args.warps:.2f} tiles a warp on average, "
          f"{math.ceil(tiles / args.warps)} at most")
    # Even shares as step 37's even_share gives them: the first tiles % W warps one tile more.
    warp = np.arange(args.warps + 1)
    bounds = warp * (tiles // args.warps) + np.minimum(warp, tiles % args.warps)
    # (a warp with no tile holds no end; reduceat would give it its next tile's)
    starts = np.minimum(bounds[:-1], tiles - 1)
    per_warp = np.add.reduceat(ends, starts) * (bounds[1:] > bounds[:-1])
    print(f"ends a warp, even shares: mean {per_warp.mean():.0f}, busiest {per_warp.max()}")


if __name__ == "__main__":
    main()
