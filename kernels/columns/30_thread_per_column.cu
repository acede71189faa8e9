/* Step 30 - one thread per column: the first column kernel, and the obvious one.
 *
 * Idea: the columns of a row-major matrix (the columns shape, shape.h:
 * element (r, c) at r x cols + c), one thread each. A thread walks its
 * column down the rows in order; a grid-stride loop covers any number of
 * columns. Neighbouring threads own neighbouring columns, so at every row a
 * warp reads 32 neighbouring elements: coalesced, with no shuffle, no shared
 * memory and no barrier.
 *
 * Fixes from the row kernels (steps 21-29): they reduce contiguous runs; a
 * column is cols elements apart, and one thread per column reading it with
 * the row kernels' vectors would touch a new line at every element. Here the
 * warp, not the thread, reads the contiguous run.
 *
 * Flaws: the work is only as wide as the matrix. A few hundred columns are a
 * few hundred threads for the whole input: a handful of warps on one or two
 * SMs, each with one load in flight, so the read is bound by latency, not
 * bandwidth; a tall column is one long serial chain. Only many thousands of
 * columns fill the GPU. Step 31 gives each column more than one thread.
 *   bench_compare --cols 128 --axis 0 -m thread_per_column
 */
#include "grid_size.cuh"
#include "method.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void thread_per_column_kernel(const T *in, size_t cols,
                                                                  size_t rows,
                                                                  result_t<T, Op> *out)
{
    for (size_t col = blockIdx.x * (size_t)BLOCK + threadIdx.x; col < cols;
         col += (size_t)gridDim.x * BLOCK) {
        result_t<T, Op> acc = identity<Op, result_t<T, Op>>();
        for (size_t row = 0; row < rows; ++row)
            acc = Op{}(acc, lift<Op>(in[row * cols + col], row));
        store_result(&out[col], acc);
    }
}

template <class T, class Op> struct thread_per_column_launch {
    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out, void *,
                   cudaStream_t stream)
    {
        const auto kernel = thread_per_column_kernel<T, Op>;
        int grid = 0;
        PROPAGATE(capped_resident_grid((const void *)kernel, BLOCK, shape.cols, BLOCK, &grid));
        kernel<<<grid, BLOCK, 0, stream>>>(d_in, shape.cols, n / shape.cols, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

} // namespace

DEFINE_METHOD(thread_per_column, .family = FAMILY_COLUMNS, .source = "this suite: columns, step 30",
              .idea = "one thread per column down the rows in order, a warp's loads coalesced",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<thread_per_column_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* a column's bits: its elements alone */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_COLUMNS));
