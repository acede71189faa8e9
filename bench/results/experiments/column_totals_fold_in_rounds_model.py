"""A model of the end of steps 38 and 39 (kernels/blocks/column_totals.cuh,
kept in 5e2af30): fold_slices in rounds, a thread a
(group, column) adding a run of slices in batches, a barrier a round; and
the last block's add_blocks with as few slices as keep a thread's reads in
one batch. Integer sums, so any wrong or missing term shows: every column
total checked against the plain sum, every partial read exactly once, and
no thread reading in a round a slot another thread writes in it. Then the
rounds at the widths the sweeps run (flat_columns: 4 x 1024 totals a block;
staged_columns: 512 threads, a total each).

    python3 column_totals_fold_in_rounds_model.py
"""
import random
FOLD_RUN, FOLD_BATCH, IN_FLIGHT = 32, 8, 8
def fold_slices(T, totals, slices, cols):
    most = T // cols
    rounds = 0
    while slices > 1:
        groups = most if slices > most else (slices + FOLD_RUN - 1) // FOLD_RUN
        step, end = groups * cols, slices * cols
        assert step <= T
        written = {}
        reads = set()
        for t in range(step):
            tot = totals[t]
            i = t + step
            while i < end:
                for u in range(FOLD_BATCH):
                    if i + u * step < end:
                        tot += totals[i + u * step]; reads.add(i + u*step)
                i += FOLD_BATCH * step
            written[t] = tot
        assert not (reads & set(written)), "a thread reads a slice another writes"
        for t, v in written.items(): totals[t] = v
        slices = groups; rounds += 1
    return rounds
def add_blocks(T, cols, partials, grid):
    most = T // cols; batches = (grid + IN_FLIGHT - 1) // IN_FLIGHT
    slices = min(batches, most); used = slices * cols
    totals = [0] * T
    seen = [0]*grid*cols
    for t in range(used):
        tot = 0; b = t // cols
        while b < grid:
            for u in range(IN_FLIGHT):
                if b + u * slices < grid:
                    tot += partials[(b + u * slices) * cols + t % cols]; seen[(b+u*slices)*cols+t%cols]+=1
            b += IN_FLIGHT * slices
        totals[t] = tot
    assert all(x == 1 for x in seen)
    fold_slices(T, totals, slices, cols)
    return totals[:cols]
random.seed(1); cases = 0; maxr = 0
for T in (256, 512, 1024):
    for cols in list(range(1, 129)):
        if cols > T: continue
        for slices in {1, 2, 3, T // cols, -(-4 * T // cols), -(-8 * T // cols), random.randint(1, 3 * T)}:
            if slices < 1: continue
            vals = [random.randint(-1000, 1000) for _ in range(slices * cols)]
            totals = vals[:] + [0] * max(0, T - slices * cols)
            r = fold_slices(T, totals, slices, cols); maxr = max(maxr, r)
            want = [sum(vals[s * cols + c] for s in range(slices)) for c in range(cols)]
            assert totals[:cols] == want, (T, cols, slices)
            cases += 1
        for grid in (1, 7, 8, 9, 132, 133, 264, 1000):
            parts = [random.randint(-1000, 1000) for _ in range(grid * cols)]
            got = add_blocks(T, cols, parts, grid)
            assert got == [sum(parts[b * cols + c] for b in range(grid)) for c in range(cols)], (T, cols, grid)
            cases += 1
print("cases", cases, "most rounds", maxr)
# rounds at the shapes that matter: flat (W=4, T=1024), staged (T=512, used/cols slices)
for cols in (1, 2, 3, 4, 33, 64, 128):
    t = [0] * max(1024, -(-4096 // cols) * cols)
    print(cols, "flat rounds", fold_slices(1024, t, -(-4096 // cols), cols), "staged rounds", fold_slices(512, [0]*512, 512 // cols, cols))
