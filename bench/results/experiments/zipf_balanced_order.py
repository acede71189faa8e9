#!/usr/bin/env python3
"""The Zipf group-by's lengths (bench/zipf_lengths.py, its defaults) in the
order that evens out the segment ends step 37's warps hold, for a floor:
how fast step 37 could read these lengths if an even share of tiles a warp
gave every busy warp the same ends.

Segments as long as a warp's share of elements or longer (the giants)
cover whole shares with no end whatever the order; they come first. Each
later share gets the longer segments (64 elements or more) in proportion
to its room, the largest first to the share furthest below its part,
and short ones up to its end. So every share outside the giants holds
about the same ends, about the fewest any order can give the busiest
warp. (Warps of neighbouring blocks run on different SMs, so the giants'
place does not load one SM.)

  zipf_balanced_order.py [--warps W] > zipf_balanced.txt
  lane_run_tiles.py zipf_balanced.txt --warps W   (the ends a warp, both orders)

W: the resident warps (132 SMs x 24 on an H100 or an H200: 3168)."""
import argparse
import heapq
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from zipf_lengths import zipf_lengths  # noqa: E402

TILE = 1024
SHORT = 64


def balanced_order(lengths, bounds):
    """The lengths in the order described above; bounds[w] is warp w's
    first element under even shares of tiles (bounds[-1]: the tiles' end)."""
    warps = len(bounds) - 1
    share = min(bounds[w + 1] - bounds[w] for w in range(warps))
    giants = [x for x in lengths if x >= share]
    longer = sorted((x for x in lengths if SHORT <= x < share), reverse=True)
    short = [x for x in lengths if x < SHORT]
    random.Random(2).shuffle(short)
    begin = sum(giants)  # the giants first: whole shares without an end
    first = max(w for w in range(warps) if bounds[w] <= begin)
    room = [bounds[w + 1] - max(bounds[w], begin) for w in range(first, warps)]
    # each share's longer segments in proportion to its room, largest first
    # to the share furthest below its part
    part = sum(longer) / (sum(longer) + sum(short))
    heap = [(-part * r, k) for k, r in enumerate(room)]
    heapq.heapify(heap)
    chosen = [[] for _ in room]
    for x in longer:
        left, k = heapq.heappop(heap)
        chosen[k].append(x)
        heapq.heappush(heap, (left + x, k))
    order, placed = list(giants), begin
    for k, share_longer in enumerate(chosen):
        order += share_longer
        placed += sum(share_longer)
        while short and placed < bounds[first + k + 1]:
            order.append(short.pop())
            placed += order[-1]
    return order + short


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warps", type=int, default=3168, help="resident warps (default 3168)")
    args = parser.parse_args()
    if args.warps < 1:
        sys.exit("zipf_balanced_order.py: --warps must be 1 or more")
    lengths = zipf_lengths(1 << 24, 1 << 20, 1.0, 1)
    tiles = -(-sum(lengths) // TILE)
    bounds = [TILE * (w * (tiles // args.warps) + min(w, tiles % args.warps))
              for w in range(args.warps + 1)]
    order = balanced_order(lengths, bounds)
    assert sorted(order) == sorted(lengths)
    sys.stdout.write("\n".join(map(str, order)) + "\n")


if __name__ == "__main__":
    main()
