/* Step 41 - synced columns: blocks of whole rows, one grid barrier, then
 * every block adds its own columns.
 *
 * Idea: a row of cols elements is V = cols / W 16-byte vectors (W elements
 * a vector). A block of 1024 threads reads k = 1024 / V whole rows at a
 * time, thread t vector t % V of row t / V, and the grid - one resident
 * wave - steps k x blocks rows at a time. So each thread's W elements stay
 * in the same W columns at every step, added in registers with four
 * vectors in flight (as in step 39), and each step of a block reads k
 * neighbouring rows: one contiguous stretch of memory, whatever the pitch.
 * The block folds its k rows of totals in shared memory and writes one row
 * of cols totals; then a grid-wide barrier (a cooperative launch: every
 * block resident), after which block b adds every block's totals of its
 * own ceil(cols / blocks) columns, in block order.
 *
 * Fixes from flat_columns (39) and split_columns (32): step 39's last block
 * adds every block's totals alone, a read that grows with the width (it
 * stops at 128 columns). Step 32 reads a wide matrix in tiles of 128
 * columns split into parts, whose last part adds the others' totals; at
 * widths that are not a power of two (992-1008 floats) it is slower than
 * at 1024, whatever the cut (bench/NOTES.md, sessions 55 and 58). Here
 * every read is whole rows and the combine is shared by every block. The
 * design was first timed by a probe (bench/results/experiments/column_read_floor_probe.cu,
 * its run in bench/results/experiments/h200_column_read_floor_grid_sync_ad484cd.log).
 *
 * What it costs: the bytes, plus blocks x cols totals written and read once
 * more at L2, plus the barrier: no column is added before the slowest block
 * has read its rows. It takes whole vectors a row, up to 1024 elements (a
 * thread a column in the folds: kernels/blocks/row_blocks.cuh, tested on
 * the CPU); other widths, matrices of a few rows and an input off 16 bytes
 * go to split_columns. 1024 - k V threads of a block read nothing (24 at
 * 1000 floats). A column's bits depend on the grid,
 * which follows the GPU's SMs; a test's forced grid larger than the
 * resident wave is cut to it, since the barrier needs every block resident.
 * Against the other column steps, cuBLAS and PyTorch at every width:
 * bench/results/h200_cols_sweep_23e1e09.csv; other types and argmax:
 * bench/results/experiments/h200_columns_synced_argmax_23e1e09.log.
 *   bench_compare --cols 1000 --rows 16777 --axis 0 -m synced_columns,split_columns,cublas_columns
 *   bench/gpu_check.sh columns (every column step at every width of the sweep)
 */
#include <cooperative_groups.h>

#include "column_totals.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "method.cuh"
#include "row_blocks.cuh"
#include "vector_loads.cuh"

namespace {

constexpr int THREADS = 1024;
constexpr int LOADS = 4;
/* A matrix of at most this many rows goes to split_columns. */
constexpr size_t FEW_ROWS = 64;

/* Thread t's W accumulators (t < k V): vector t % V of rows r, r + step,
 * ... (r = k b + t / V, step = k x blocks), LOADS in flight, the last ones
 * loaded together. */
template <class T, class Op>
__device__ __forceinline__ void add_rows(const T *__restrict__ in, const row_blocks &p,
                                         result_t<T, Op> (&acc)[VECTOR_WIDTH<T>])
{
    constexpr int W = VECTOR_WIDTH<T>;
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in);
    const unsigned lag[W] = {}; /* a vector lies in one row */
    const size_t step = (size_t)gridDim.x * p.block_rows, stride = step * p.row_vectors;
    size_t row = blockIdx.x * (size_t)p.block_rows + threadIdx.x / p.row_vectors;
    size_t at = row * p.row_vectors + threadIdx.x % p.row_vectors;
    for (; row + (LOADS - 1) * step < p.rows; row += LOADS * step, at += LOADS * stride) {
        uint4 raw[LOADS];
#pragma unroll
        for (int k = 0; k < LOADS; ++k)
            raw[k] = __ldg(&body[at + k * stride]);
#pragma unroll
        for (int k = 0; k < LOADS; ++k)
            add_vector<T, Op>(raw[k], row + k * step, lag, acc);
    }
    uint4 raw[LOADS - 1];
#pragma unroll
    for (int k = 0; k < LOADS - 1; ++k)
        if (row + k * step < p.rows)
            raw[k] = __ldg(&body[at + k * stride]);
#pragma unroll
    for (int k = 0; k < LOADS - 1; ++k)
        if (row + k * step < p.rows)
            add_vector<T, Op>(raw[k], row + k * step, lag, acc);
}

template <class T, class Op>
__global__ __launch_bounds__(THREADS, 1) void synced_columns_kernel(const T *__restrict__ in,
                                                                    row_blocks p,
                                                                    result_t<T, Op> *__restrict__ out,
                                                                    void *workspace)
{
    using R = result_t<T, Op>;
    constexpr int W = VECTOR_WIDTH<T>;
    extern __shared__ __align__(16) unsigned char shared[]; /* k rows of cols totals */
    R *totals = reinterpret_cast<R *>(shared);
    R *partials = reinterpret_cast<R *>((char *)workspace + LAST_BLOCK_PARTIALS_OFFSET);
    const unsigned cols = (unsigned)p.cols;

    if (threadIdx.x < p.block_rows * p.row_vectors) {
        R acc[W];
#pragma unroll
        for (int j = 0; j < W; ++j)
            acc[j] = identity<Op, R>();
        add_rows<T, Op>(in, p, acc);
        /* thread t's total j: row t / V of the block's, column W (t % V) + j */
#pragma unroll
        for (int j = 0; j < W; ++j)
            totals[W * threadIdx.x + j] = acc[j];
    }
    __syncthreads();
    fold_slices<THREADS, Op>(totals, p.block_rows, cols);
    if (threadIdx.x < cols)
        store_result(&partials[blockIdx.x * (size_t)cols + threadIdx.x], totals[threadIdx.x]);
    cooperative_groups::this_grid().sync(); /* every block's row of totals written */

    const unsigned first = blockIdx.x * p.block_columns;
    if (first < cols) {
        const unsigned mine = cols - first < p.block_columns ? cols - first : p.block_columns;
        add_blocks<THREADS, Op>(mine, cols, partials + first, totals, out + first);
    }
}

/* What a device allows the kernel, asked once per device. */
struct synced_config {
    bool usable;  /* cooperative launches, and the totals fit a block's shared memory */
    int resident; /* blocks the GPU keeps resident */
};

template <class T, class Op>
struct synced_columns_launch : split_columns_otherwise<synced_columns_launch<T, Op>, T, Op> {
    using R = result_t<T, Op>;
    using Config = synced_config;
    static constexpr size_t W = VECTOR_WIDTH<T>;
    /* W totals a thread (k rows of cols: at most W x THREADS), at least THREADS. */
    static constexpr size_t SHARED_BYTES = W * THREADS * sizeof(R);

    /* Asked once per (type, operator) and device (once_per_device,
     * grid_size.cuh). */
    static int config(synced_config *out)
    {
        return once_per_device<synced_columns_launch>(out, [](synced_config *c) {
            int device = 0, cooperative = 0;
            bool fits = false;
            CUDA_TRY(cudaGetDevice(&device));
            CUDA_TRY(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
            *c = {};
            PROPAGATE(fit_dynamic_smem((const void *)synced_columns_kernel<T, Op>, THREADS,
                                       SHARED_BYTES, &fits, &c->resident));
            c->usable = cooperative != 0 && fits;
            return 0;
        });
    }

    /* Whether this step's kernel takes the shape (the pointer aside). */
    static bool shape_fits(reduce_shape shape, size_t n)
    {
        return row_blocks_take(n, shape.cols, W, THREADS, FEW_ROWS);
    }

    /* One resident wave, or the grid a test forces cut to it; and the plan. */
    static row_blocks plan(reduce_shape shape, size_t n, const synced_config &c, int *grid)
    {
        const int forced = launch_grid(c.resident);
        *grid = forced < c.resident ? forced : c.resident;
        return plan_row_blocks(n, shape.cols, W, THREADS, *grid);
    }

    static int launch(const T *d_in, const row_blocks &p, int grid, R *d_out, void *workspace,
                      cudaStream_t stream)
    {
        row_blocks plan = p;
        void *args[] = {(void *)&d_in, (void *)&plan, (void *)&d_out, (void *)&workspace};
        CUDA_TRY(cudaLaunchCooperativeKernel((const void *)synced_columns_kernel<T, Op>, grid,
                                             THREADS, args, SHARED_BYTES, stream));
        return 0;
    }
};

} // namespace

DEFINE_METHOD(synced_columns, .family = FAMILY_COLUMNS, .source = "this suite: columns, step 41",
              .idea = "blocks of whole rows read by 16-byte vectors that stay in their columns, one grid barrier (a cooperative launch), then every block adds its own columns over the blocks; split_columns past 1024 columns or off whole vectors",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<synced_columns_launch, ALL_OPS>,
              .workspace = workspace_any_pair<synced_columns_launch, ALL_OPS>,
              /* no METHOD_GRID_INDEPENDENT: the blocks follow the GPU's SMs */
              .order = {.kind = ORDER_SERIAL_CHAIN}, .shapes = SHAPE_BIT(SHAPE_COLUMNS));
