/* What the column steps that read a matrix flat share (38, 39, 41): the
 * add of a 16-byte vector into a thread's accumulators of fixed columns,
 * and the end - a block's totals in shared memory, laid out as rows of the
 * matrix (total i belongs to column (i + rotation) % cols), folded into one
 * row in a fixed order, written to the workspace, and added over the blocks
 * by the last block done (the counter of last_block_done.cuh, for a row of
 * totals instead of one value) or, after a grid barrier, by every block for
 * its own columns (step 41). A column's bits depend on the grid, not on
 * timing.
 *
 * Workspace: the counter, then a row of cols totals a block from
 * LAST_BLOCK_PARTIALS_OFFSET. */
#ifndef COLUMN_TOTALS_CUH
#define COLUMN_TOTALS_CUH

#include <cstring>

#include "cuda_check.h"
#include "last_block_done.cuh"
#include "method.cuh"
#include "vector_loads.cuh"

/* Step 32's descriptor (32_split_columns.cu): the shapes a flat column
 * step's kernel does not take go there. */
extern "C" const struct method method_split_columns;

/* One 16-byte vector into the W accumulators of a thread whose vector
 * elements each stay in one column: element j, in row row + lag[j], into
 * acc[j] (a thread reads its rows in order, so an arg element wins by its
 * value alone). */
template <class T, class Op>
__device__ __forceinline__ void add_vector(const uint4 &raw, size_t row, const unsigned (&lag)[VECTOR_WIDTH<T>],
                                           result_t<T, Op> (&acc)[VECTOR_WIDTH<T>])
{
    constexpr int W = VECTOR_WIDTH<T>;
    T e[W];
    memcpy(e, &raw, sizeof raw); /* a bit cast: stays in registers */
#pragma unroll
    for (int j = 0; j < W; ++j)
        acc[j] = combine_later_without_branch<Op>(acc[j], lift<Op>(e[j], row + lag[j]));
}

/* Workspace bytes for add_column_totals over a grid of `blocks`. */
template <class R> size_t column_totals_workspace_bytes(int blocks, size_t cols)
{
    return LAST_BLOCK_PARTIALS_OFFSET + (size_t)blocks * cols * sizeof(R);
}

/* The most slices one thread adds in a round of fold_slices after the
 * first, read FOLD_BATCH at a time. */
constexpr unsigned FOLD_RUN = 32, FOLD_BATCH = 8;

/* Op over totals[s x cols + c] for s < slices, into totals[c], in a fixed
 * order; every thread of the block calls it, after the totals' barrier.
 * Rounds, a barrier each: in a round, the thread for group g of column c
 * adds slices g, g + groups, g + 2 groups, ... one after another into slice
 * g. The first round has as many groups as threads allow, later ones a
 * FOLD_RUN-th of the slices left: 4096 slices of 1 column take 3 rounds,
 * where a tree of halves takes 12 barriers. No thread writes a slice another
 * reads in the same round: slice g < groups is read only by its own thread. */
template <int THREADS, class Op, class R>
__device__ void fold_slices(R *totals, unsigned slices, unsigned cols)
{
    const Op op;
    const unsigned most = THREADS / cols; /* groups a round can hold */
    while (slices > 1) {
        const unsigned groups = slices > most ? most : (slices + FOLD_RUN - 1) / FOLD_RUN;
        const unsigned step = groups * cols, end = slices * cols;
        if (threadIdx.x < step) {
            R total = totals[threadIdx.x];
            for (unsigned i = threadIdx.x + step; i < end; i += FOLD_BATCH * step) {
                R v[FOLD_BATCH]; /* read before their adds: one wait a batch */
#pragma unroll
                for (unsigned u = 0; u < FOLD_BATCH; ++u)
                    v[u] = i + u * step < end ? totals[i + u * step] : identity<Op, R>();
#pragma unroll
                for (unsigned u = 0; u < FOLD_BATCH; ++u)
                    total = op(total, v[u]);
            }
            totals[threadIdx.x] = total;
        }
        __syncthreads();
        slices = groups;
    }
}

/* Each column's totals of every block (partials, a row a block, rows
 * `pitch` totals apart; cols <= pitch columns from partials on), folded in
 * block order within each of the block's slices of threads and then over
 * the slices, into out: the last block done's work for every column
 * (pitch = cols), or one block's for its own columns (step 41). As few
 * slices as keep each thread's reads within one batch in flight, where
 * the threads allow: 132 blocks of 1 column take 17 slices of 8 reads, not
 * a slice of one read a thread and a fold of THREADS slices. Thread t
 * reads column t % cols of blocks t / cols, + slices, + 2 slices, ...:
 * totals i, i + slices x pitch, ..., with no division in the loop (a
 * division for the column at each read spaced the reads some twenty
 * dependent instructions apart, the most of the last block's time at 128
 * columns: bench/results/experiments/h200_column_totals_last_block_no_division_0efb2f7.log).
 * `totals` holds at least THREADS values. */
template <int THREADS, class Op, class R>
__device__ void add_blocks(unsigned cols, size_t pitch, const R *partials, R *totals, R *out)
{
    const Op op;
    constexpr unsigned IN_FLIGHT = 8; /* reads at L2 issued before their adds */
    const unsigned most = THREADS / cols, batches = (gridDim.x + IN_FLIGHT - 1) / IN_FLIGHT;
    const unsigned t = threadIdx.x, slices = batches < most ? batches : most, used = slices * cols;
    if (t < used) {
        const size_t end = (size_t)gridDim.x * pitch, step = slices * pitch;
        R total = identity<Op, R>();
        for (size_t i = t / cols * pitch + t % cols; i < end; i += IN_FLIGHT * step) {
            R v[IN_FLIGHT];
#pragma unroll
            for (unsigned u = 0; u < IN_FLIGHT; ++u)
                v[u] = i + u * step < end ? load_at_l2(&partials[i + u * step]) : identity<Op, R>();
#pragma unroll
            for (unsigned u = 0; u < IN_FLIGHT; ++u)
                total = op(total, v[u]);
        }
        totals[t] = total;
    }
    __syncthreads();
    fold_slices<THREADS, Op>(totals, slices, cols);
    if (t < cols)
        store_result(&out[t], totals[t]);
}

/* Every thread of every block, once totals[0 .. slices x cols) are written
 * and behind a barrier (at least THREADS of them; total i of column
 * (i + rotation) % cols): the block's row of totals into the workspace, and
 * the last block done adds every block's into out. */
template <int THREADS, class Op, class R>
__device__ void add_column_totals(R *totals, unsigned slices, unsigned cols, unsigned rotation,
                                  R *out, void *workspace)
{
    fold_slices<THREADS, Op>(totals, slices, cols);
    unsigned *blocks_done = (unsigned *)workspace;
    R *partials = (R *)((char *)workspace + LAST_BLOCK_PARTIALS_OFFSET);
    if (threadIdx.x < cols) {
        const unsigned rotated = threadIdx.x + rotation; /* rotation < cols */
        const unsigned column = rotated < cols ? rotated : rotated - cols;
        store_result(&partials[(size_t)blockIdx.x * cols + column], totals[threadIdx.x]);
    }
    if (!draws_last_ticket(blocks_done, gridDim.x))
        return;
    add_blocks<THREADS, Op>(cols, cols, partials, totals, out);
    if (threadIdx.x == 0)
        *blocks_done = 0; /* ready for the next call */
}

/* The host side of steps 38, 39 and 41, a base of their launcher Step,
 * which gives Config (with `usable`), config(&c) (once per device),
 * shape_fits(shape, n), plan(shape, n, c, &grid) and launch(in, plan, grid,
 * out, workspace, stream), which returns an error code: a shape its kernel
 * does not take, or an input off 16 bytes, goes to split_columns, whose
 * workspace is reserved too (the query does not know the pointer). */
template <class Step, class T, class Op> struct split_columns_otherwise {
    using R = result_t<T, Op>;
    static constexpr reduce_spec spec = {type_code<T>, Op::code};

    static int workspace(reduce_shape shape, size_t n, size_t *bytes)
    {
        PROPAGATE(method_split_columns.workspace(spec, shape, n, bytes));
        typename Step::Config c;
        PROPAGATE(Step::config(&c));
        if (!c.usable || !Step::shape_fits(shape, n))
            return 0;
        int grid = 0;
        Step::plan(shape, n, c, &grid);
        const size_t own = column_totals_workspace_bytes<R>(grid, shape.cols);
        *bytes = own > *bytes ? own : *bytes;
        return 0;
    }

    static int run(const T *d_in, reduce_shape shape, size_t n, R *d_out, void *workspace,
                   cudaStream_t stream)
    {
        typename Step::Config c;
        PROPAGATE(Step::config(&c));
        if (!c.usable || !Step::shape_fits(shape, n) || (uintptr_t)d_in % 16 != 0)
            return method_split_columns.launch(spec, shape, d_in, n, d_out, workspace, stream);
        int grid = 0;
        const auto plan = Step::plan(shape, n, c, &grid);
        PROPAGATE(Step::launch(d_in, plan, grid, d_out, workspace, stream));
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

#endif
