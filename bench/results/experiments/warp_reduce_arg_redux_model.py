"""A model of the arg warp reduction by REDUX (warp_reduce_arg in
kernels/blocks/block_reduce.cuh, first prepared as a patch) against the pair
tree: the winning
4-byte value found as the extreme of arg_order_key over the warp (REDUX), the
lanes holding it, the lowest index among them in two 32-bit halves, against
the butterfly of pairs by arg_wins. Random warps of float32 values with ties,
NaNs of either sign, +0 and -0, infinities and the identity (NO_INDEX), and of
int32 values with ties. Prints the number of warps where the two disagree
(value bits or index).  python3 warp_reduce_arg_redux_model.py"""
import random, struct
from warp_reduce_arg_model import NO, is_nan, pair_tree  # the pair tree, by arg_wins
def f32(x): return struct.unpack('<f', struct.pack('<f', x))[0]
def bits(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def key(x, MAX, is_float):  # arg_order_key
    if not is_float: return x
    if x != x: return 0xFFFFFFFF if MAX else 0
    b = 0 if x == 0 else bits(x)
    return (~b & 0xFFFFFFFF) if b & 0x80000000 else b | 0x80000000
def redux(v, MAX, is_float):
    keys = [key(p[0], MAX, is_float) for p in v]
    best = max(keys) if MAX else min(keys)
    holds = [k == best for k in keys]
    lanes = [l for l in range(32) if holds[l]]
    if len(lanes) > 1:
        high = min((v[l][1] >> 32) if holds[l] else 0xFFFFFFFF for l in range(32))
        low = min((v[l][1] & 0xFFFFFFFF) if holds[l] and (v[l][1] >> 32) == high else 0xFFFFFFFF
                  for l in range(32))
        index = high << 32 | low
        lanes = [l for l in range(32) if holds[l] and v[l][1] == index]
    return v[lanes[0]]
def same(a, b, is_float):
    if not is_float: return a == b
    return a[1] == b[1] and (bits(a[0]) == bits(b[0]) or (is_nan(a[0]) and is_nan(b[0]) and bits(a[0]) == bits(b[0])))
random.seed(1)
nan_pos = struct.unpack('<f', struct.pack('<I', 0x7fc00000))[0]
nan_neg = struct.unpack('<f', struct.pack('<I', 0xffc00001))[0]
floats = [0.0, -0.0, 1.0, -1.0, float('inf'), float('-inf'), nan_pos, nan_neg, 2.5, f32(1e-40), f32(-1e-40)]
bad = 0
for trial in range(200000):
    MAX = random.random() < 0.5
    is_float = random.random() < 0.7
    if is_float:
        ident = (float('-inf') if MAX else float('inf'), NO)
        pool = floats[:random.randint(1, len(floats))]
    else:
        ident = (-2**31 if MAX else 2**31 - 1, NO)
        pool = [random.randint(-3, 3) for _ in range(random.randint(1, 6))] + [-2**31, 2**31 - 1]
    # distinct indices (as in a reduction), some either side of 2^32
    indices = random.sample(list(range(40)) + list(range(2**32 - 4, 2**32 + 4)) + random.sample(range(2**33), 8), 32)
    v = [ident if random.random() < 0.2 else (random.choice(pool), indices[l]) for l in range(32)]
    a, b = pair_tree(v, MAX), redux(v, MAX, is_float)
    if not same(a, b, is_float):
        bad += 1
        if bad < 5: print(MAX, is_float, a, b, v)
print("mismatches", bad)
