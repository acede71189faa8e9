/* Step 31 - a block per 32 columns: its warps split the rows.
 *
 * Idea: a 256-thread block owns a tile of 32 adjacent columns (one per lane,
 * column_tiles.cuh). Its 8 warps take every 8th row each, so at any moment
 * the block has 8 rows of the tile in flight, each warp's load one coalesced
 * run of the row; each thread chains its rows with four loads in flight. The
 * warps' totals meet in shared memory and warp 0 adds them in warp order: a
 * fixed order, whatever the grid. A grid-stride loop walks the tiles.
 *
 * Fixes from step 30: a column had one thread and one load in flight; now it
 * has 8 threads with four loads each, 32x the bytes in flight per column,
 * and each serial chain is an eighth as long.
 *
 * Flaws: still one block per 32 columns. A matrix of a few hundred columns
 * is a few blocks, a few SMs of the GPU, however many rows it has; a single
 * column uses one lane of each warp. The next step to write splits the rows
 * across blocks (a tall matrix's rows cut into parts, a last-block combine).
 *   bench_compare --cols 128 --axis 0 -m block_columns
 */
#include "column_tiles.cuh"
#include "grid_size.cuh"
#include "method.cuh"

namespace {

template <class T, class Op>
__global__ __launch_bounds__(TILE_THREADS) void block_columns_kernel(const T *in, size_t cols,
                                                                     size_t rows,
                                                                     result_t<T, Op> *out)
{
    const size_t tiles = (cols + TILE_COLUMNS - 1) / TILE_COLUMNS;
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const size_t first_col = tile * TILE_COLUMNS;
        const result_t<T, Op> total = column_tile<T, Op>(in, cols, first_col, 0, rows);
        if (threadIdx.x < TILE_COLUMNS && first_col + threadIdx.x < cols)
            store_result(&out[first_col + threadIdx.x], total);
    }
}

template <class T, class Op> struct block_columns_launch {
    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out, void *,
                   cudaStream_t stream)
    {
        const auto kernel = block_columns_kernel<T, Op>;
        int grid = 0;
        PROPAGATE(capped_resident_grid((const void *)kernel, TILE_THREADS, shape.cols,
                                       TILE_COLUMNS, &grid));
        kernel<<<grid, TILE_THREADS, 0, stream>>>(d_in, shape.cols, n / shape.cols, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

} // namespace

DEFINE_METHOD(block_columns, .family = FAMILY_COLUMNS, .source = "this suite: columns, step 31",
              .idea = "a 256-thread block per 32 columns, its 8 warps splitting the rows",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<block_columns_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* a column's bits: its elements alone */
              .order = COLUMN_TILE_ORDER,
              .shapes = SHAPE_BIT(SHAPE_COLUMNS));
