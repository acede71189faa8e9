"""A model of warp_reduce_arg_value_first.patch against the pair tree it replaces:
both reductions over 32 lanes of (value, index) pairs, as the butterflies of
block_reduce.cuh run them, on random warps with ties, NaNs, +0 and -0 and the
identity (NO_INDEX). Prints the number of warps where the two disagree (value
bits or index).  python3 warp_reduce_arg_model.py"""
import random, math, struct
NO = 2**64-1  # NO_INDEX as unsigned
def is_nan(x): return x != x
def beats(b, a, MAX):  # arg_beats_without_branch(b, a)
    if a != a: return False
    return not (b <= a) if MAX else not (a <= b)
def wins(b, a, MAX):  # arg_wins(b pair, a pair)
    bn, an = is_nan(b[0]), is_nan(a[0])
    if bn != an: return bn
    if not bn and b[0] != a[0]:
        return a[0] < b[0] if MAX else b[0] < a[0]
    return b[1] < a[1]
def pair_tree(v, MAX):
    v = list(v)
    off = 16
    while off:
        v = [ (v[l^off] if wins(v[l^off], v[l], MAX) else v[l]) for l in range(32)]
        off //= 2
    return v[0]
def value_first(v, MAX):
    best = [p[0] for p in v]
    off = 16
    while off:
        best = [ (best[l^off] if beats(best[l^off], best[l], MAX) else best[l]) for l in range(32)]
        off //= 2
    holds = [ (v[l][0] == best[l]) or (is_nan(v[l][0]) and is_nan(best[l])) for l in range(32)]
    lanes = [l for l in range(32) if holds[l]]
    if len(lanes) > 1:
        idx = [v[l][1] if holds[l] else NO for l in range(32)]
        m = min(idx)
        lanes = [l for l in range(32) if holds[l] and v[l][1] == m]
    return v[lanes[0]]
def same(a, b):
    return struct.pack('<d', a[0]) == struct.pack('<d', b[0]) and a[1] == b[1] or (is_nan(a[0]) and is_nan(b[0]) and a[1]==b[1])
if __name__ == "__main__":
    random.seed(1)
    vals = [0.0, -0.0, 1.0, -1.0, float('inf'), float('-inf'), float('nan'), 2.0]
    bad = 0
    for trial in range(200000):
        MAX = random.random() < 0.5
        ident = (float('-inf') if MAX else float('inf'), NO)
        used = random.sample(range(100), 32)
        v = []
        for l in range(32):
            r = random.random()
            if r < 0.2: v.append(ident)
            else: v.append((random.choice(vals[:random.randint(1, 8)]), used[l]))
        a, b = pair_tree(v, MAX), value_first(v, MAX)
        if not same(a, b):
            bad += 1
            if bad < 5: print(MAX, a, b, v)
    print("mismatches", bad)
