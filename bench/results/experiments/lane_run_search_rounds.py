#!/usr/bin/env python3
"""Step 37's search for a warp's first segment, simulated on the CPU: checks
that a first round around a guess finds the same segment as a bisection, and
counts the rounds each way of searching takes at the warps' first elements.

    python3 lane_run_search_rounds.py

The ways: `usual` (rounds of 32 probes over the whole range, step 37 before
0496f88), `narrow` and `wide` (a first round of 32 probes sqrt(count) / 8 + 1
or / 2 + 1 apart around element x count / n; wide is 0496f88's), `spread`
(16 probes sqrt(count) / 8 + 1 apart around the guess, 8 each side at 4,
16, ... 4^8 times 8 such spacings: lane_run_spread_probe_prepared.patch).
Lengths as bench_compare draws them (uniform:MEAN, powerlaw:MEAN) and the
Zipf group-by of bench/zipf_lengths.py, 2^24 elements; 3168 warps' starts,
every 7th. A round count is not a time: the usual first rounds are shared
by every warp and hit in L2 (bench/NOTES.md, session 69)."""
import bisect
import math
import random

N, WARPS = 1 << 24, 3168


def rounds_after(off, count, element, lo, hi):
    """The usual rounds from [lo, hi): the answer and the rounds taken."""
    rounds = 0
    while lo < hi:
        rounds += 1
        step = (hi - lo + 31) // 32
        before = sum(1 for lane in range(32)
                     if lo + lane * step < hi and off[lo + lane * step + 1] <= element)
        if before == 0:
            hi = lo
        else:
            lo, hi = lo + (before - 1) * step + 1, min(lo + before * step, hi)
    return lo, rounds


def first_round_probes(way, count, element, n):
    guess = int(element * count / n)
    if way == "spread":
        w = int(math.sqrt(count)) // 8 + 1
        away = [-((8 * w) << (2 * (8 - j))) if j < 8 else (j - 16) * w if j < 24
                else (8 * w) << (2 * (j - 23)) for j in range(32)]
    else:
        w = int(math.sqrt(count)) // (8 if way == "narrow" else 2) + 1
        away = [(j - 16) * w for j in range(32)]
    return [max(guess + a, 0) for a in away]


def search(way, off, count, element, n):
    if way == "usual":
        return rounds_after(off, count, element, 0, count)
    probes = first_round_probes(way, count, element, n)
    before = sum(1 for k in probes if k < count and off[k + 1] <= element)
    if before == 0:
        lo, hi = 0, probes[0]
    else:
        lo = probes[before - 1] + 1
        hi = min(probes[before], count) if before < 32 else count
    answer, rounds = rounds_after(off, count, element, lo, hi)
    return answer, rounds + 1


def offsets_of(lengths):
    off = [0]
    for length in lengths:
        off.append(off[-1] + length)
    return off


def check_small(trials=1500):
    rng = random.Random(1)
    for _ in range(trials):
        count = rng.choice([1, 2, 5, 31, 33, 100, 1000, 5000])
        kind = rng.choice("upz")
        if kind == "u":
            lengths = [rng.randint(0, 16) for _ in range(count)]
        elif kind == "p":
            lengths = [int(rng.paretovariate(1.1)) - 1 for _ in range(count)]
        else:
            lengths = [0] * count
            lengths[rng.randrange(count)] = rng.randint(1, 10000)
        off = offsets_of(lengths)
        if off[-1] == 0:
            continue
        for _ in range(10):
            element = rng.randrange(off[-1])
            want = bisect.bisect_right(off[1:], element)
            for way in ("usual", "narrow", "wide", "spread"):
                assert search(way, off, count, element, off[-1])[0] == want, (way, count, element)
    print("every way finds the bisection's segment")


def lengths_to_n(draw):
    lengths, total = [], 0
    while total < N:
        length = min(draw(), N - total)
        lengths.append(length)
        total += length
    return lengths


def main():
    check_small()
    rng = random.Random(5)
    weights = [k ** -1.0 for k in range(1, (1 << 20) + 1)]
    scale = N / sum(weights)
    zipf = [int(w * scale + 0.5) for w in weights]
    random.Random(1).shuffle(zipf)
    arrays = {
        "uniform:8": lengths_to_n(lambda: rng.randint(0, 16)),
        "powerlaw:8": lengths_to_n(lambda: int(8.5 * (1 / math.sqrt(1 - rng.random()) - 1))),
        "uniform:100": lengths_to_n(lambda: rng.randint(0, 200)),
        "powerlaw:100": lengths_to_n(lambda: int(100.5 * (1 / math.sqrt(1 - rng.random()) - 1))),
        "zipf": zipf,
    }
    for name, lengths in arrays.items():
        off, count = offsets_of(lengths), len(lengths)
        starts = [i * N // WARPS for i in range(1, WARPS, 7)]
        line = []
        for way in ("usual", "narrow", "wide", "spread"):
            rounds = [search(way, off, count, e, N)[1] for e in starts]
            line.append(f"{way} {sum(rounds) / len(rounds):.2f} (most {max(rounds)})")
        print(f"{name:13s} {count:8d} segments: " + ", ".join(line))


if __name__ == "__main__":
    main()
