"""A model of step 39's indexing (kernels/columns/39_flat_columns.cu):
blocks of THREADS threads read W-element vectors g, g + S, ... of a row-major rows x cols
matrix taken flat, each lane j of a thread adding into its own accumulator;
the block's totals laid out as rows in shared memory, rotated by
(W x THREADS x block) % cols, folded into one row, written at their columns,
and added over the blocks. Checks every column's sum, and every column's
argmax row (the lowest row of its maximum), against a direct computation
for many small shapes, grids and thread counts (THREADS scaled down, the
rule for the grid the same: a multiple of the odd part of
cols / gcd(cols, W)). Prints the number of wrong cases.
python3 flat_columns_model.py"""
import math, random

def grid_for(chosen, cols, W):
    odd = cols // math.gcd(cols, W)
    while odd % 2 == 0:
        odd //= 2
    return chosen // odd * odd if chosen >= odd else odd

def model(a, rows, cols, W, THREADS, chosen):
    n = rows * cols
    blocks = grid_for(chosen, cols, W)
    S = blocks * THREADS
    assert W * S % cols == 0
    vectors = n // W
    rows_step = W * S // cols
    slices = -(-W * THREADS // cols)
    partials = {}
    for b in range(blocks):
        totals = []
        for t in range(THREADS):
            g = b * THREADS + t
            row = W * g // cols
            lag = [(W * g + j) // cols - row for j in range(W)]
            acc = [0] * W
            best = [(-math.inf, None)] * W
            v = g
            while v < vectors:
                for j in range(W):
                    x = a[W * v + j]
                    assert (W * v + j) // cols == row + lag[j]
                    acc[j] += x
                    if x > best[j][0]:
                        best[j] = (x, row + lag[j])
                v += S
                row += rows_step
            if v == vectors:
                for j in range(W):
                    if W * v + j < n:
                        x = a[W * v + j]
                        acc[j] += x
                        if x > best[j][0]:
                            best[j] = (x, row + lag[j])
            totals += [(acc[j], best[j]) for j in range(W)]
        totals += [(0, (-math.inf, None))] * (slices * cols - W * THREADS)
        rotation = W * THREADS * b % cols
        for c in range(cols):  # the fold, in any order for the model
            col_sum = sum(totals[s * cols + c][0] for s in range(slices))
            pairs = [totals[s * cols + c][1] for s in range(slices)]
            pairs = [p for p in pairs if p[1] is not None]
            col_best = max(pairs, key=lambda p: (p[0], -p[1])) if pairs else (-math.inf, None)
            column = c + rotation if c + rotation < cols else c + rotation - cols
            assert (b, column) not in partials
            partials[(b, column)] = (col_sum, col_best)
    sums = [sum(partials[(b, c)][0] for b in range(blocks)) for c in range(cols)]
    bests = []
    for c in range(cols):
        pairs = [partials[(b, c)][1] for b in range(blocks) if partials[(b, c)][1][1] is not None]
        bests.append(max(pairs, key=lambda p: (p[0], -p[1])))
    return sums, bests

random.seed(3)
bad = cases = 0
for trial in range(400):
    W = random.choice([2, 4, 8])
    THREADS = random.choice([4, 8, 16, 32])
    cols = random.choice([1, 2, 3, 4, 5, 6, 7, 8, 12, 15, 16, 31, 32, 33, 48, 64])
    rows = random.randint(1, 300)
    chosen = random.randint(1, 12)
    P = cols // math.gcd(cols, W)
    if THREADS % (P & -P):  # the kernel's THREADS, 1024, holds every power of two of P
        continue
    a = [random.randint(-5, 5) for _ in range(rows * cols)]
    sums, bests = model(a, rows, cols, W, THREADS, chosen)
    want_sums = [sum(a[r * cols + c] for r in range(rows)) for c in range(cols)]
    want_bests = []
    for c in range(cols):
        col = [a[r * cols + c] for r in range(rows)]
        m = max(col)
        want_bests.append((m, col.index(m)))
    cases += 1
    if sums != want_sums or bests != want_bests:
        bad += 1
        if bad < 4:
            print("wrong:", dict(W=W, THREADS=THREADS, cols=cols, rows=rows, chosen=chosen))
print("cases", cases, "wrong", bad)
