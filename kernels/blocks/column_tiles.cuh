/* A block's tile of adjacent columns of a row-major matrix (the columns
 * shape, shape.h: element (r, c) at r x cols + c): step 31's, written to
 * serve a step that splits the rows across blocks too.
 *
 * Lane l of every warp owns column first_col + l; warp w reads the rows
 * first_row + w, + TILE_WARPS, ... of the tile's row range, so each warp's
 * load is TILE_COLUMNS neighbouring elements of one row (coalesced), and the
 * warps split the rows. Each thread chains its rows in order with four loads
 * in flight; the warps' totals meet in shared memory and warp 0 adds them in
 * warp order. Nothing depends on the grid: a column's bits are its elements'
 * and the row range's alone. */
#ifndef COLUMN_TILES_CUH
#define COLUMN_TILES_CUH

#include "element_traits.cuh"

constexpr int TILE_COLUMNS = 32; /* a warp's lanes: one column each */
constexpr int TILE_WARPS = 8;    /* split a tile's rows */
constexpr int TILE_THREADS = TILE_COLUMNS * TILE_WARPS;

/* Column col over rows row, row + TILE_WARPS, ... below end_row, in order. */
template <class T, class Op>
__device__ __forceinline__ result_t<T, Op> column_chain(const T *in, size_t cols, size_t col,
                                                        size_t row, size_t end_row)
{
    constexpr size_t STEP = TILE_WARPS;
    const Op op;
    result_t<T, Op> acc = identity<Op, result_t<T, Op>>();
    for (; row + 3 * STEP < end_row; row += 4 * STEP) {
        const T a = in[row * cols + col], b = in[(row + STEP) * cols + col];
        const T c = in[(row + 2 * STEP) * cols + col], d = in[(row + 3 * STEP) * cols + col];
        acc = op(op(op(op(acc, lift<Op>(a, row)), lift<Op>(b, row + STEP)), lift<Op>(c, row + 2 * STEP)),
                 lift<Op>(d, row + 3 * STEP));
    }
    for (; row < end_row; row += STEP)
        acc = op(acc, lift<Op>(in[row * cols + col], row));
    return acc;
}

/* Call from every thread of a TILE_THREADS block: the tile's columns
 * first_col .. first_col + TILE_COLUMNS - 1 (those below cols) over rows
 * [first_row, end_row). Warp 0's lane l returns column first_col + l's
 * total (the identity past cols); the other threads return the identity. */
template <class T, class Op>
__device__ __forceinline__ result_t<T, Op> column_tile(const T *in, size_t cols, size_t first_col,
                                                       size_t first_row, size_t end_row)
{
    using R = result_t<T, Op>;
    __shared__ R warp_totals[TILE_WARPS][TILE_COLUMNS];
    const unsigned lane = threadIdx.x % TILE_COLUMNS, warp = threadIdx.x / TILE_COLUMNS;
    const size_t col = first_col + lane;
    warp_totals[warp][lane] = col < cols ? column_chain<T, Op>(in, cols, col, first_row + warp,
                                                               end_row)
                                         : identity<Op, R>();
    __syncthreads();
    R total = identity<Op, R>();
    if (warp == 0)
        for (int w = 0; w < TILE_WARPS; ++w)
            total = Op{}(total, warp_totals[w][lane]);
    __syncthreads(); /* warp_totals is free for the block's next tile */
    return total;
}

/* The order within one column: a chain of ceil(rows / TILE_WARPS) a thread,
 * the warps' totals added in a chain of TILE_WARPS (as a block's tree,
 * depth); a step splitting the rows would add a chain over its row parts,
 * which the thread-chains kind's grid term (MAX_GRID_BLOCKS / width) covers. */
#define COLUMN_TILE_ORDER {.kind = ORDER_THREAD_CHAINS, .width = TILE_WARPS, .depth = TILE_WARPS}

#endif
