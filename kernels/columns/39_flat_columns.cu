/* Step 39 - the columns of a narrow matrix, read as step 17 reads an array.
 *
 * Idea: thread g of a grid of S threads reads 16-byte vectors g, g + S,
 * g + 2S, ... of the matrix taken as a flat array, LOADS of them in flight,
 * as the whole-array steps do. Element j of vector v is element W v + j of
 * the array (W elements a vector), in column (W v + j) % cols. Where the
 * grid's stride W S is a whole number of rows, that column is the same at
 * every vector a thread reads: the thread keeps one accumulator a vector
 * element, W of them, each for one fixed column, and never looks at the
 * width while it reads. Where lanes of a warp hold the same columns (cols
 * / gcd(cols, W) a power of two below 32: powers of two up to 64 columns
 * of floats, 128 of halves), shuffles first add them into the warp's first
 * lanes. The block then lays the accumulators left out as rows of the
 * matrix in shared memory and adds them as step 38 does
 * (column_totals.cuh). The grid is cut to a multiple of the odd part of
 * cols / gcd(cols, W), which makes the stride whole rows (whole_rows_grid.cuh).
 *
 * Fixes from staged_columns (step 38): the elements went to shared memory
 * and back, a barrier a chunk, and the ring's bulk copies were the only
 * reads in flight; here they stay in registers, each thread with LOADS
 * vectors in flight and no barrier until the end. From split_columns (step
 * 32): no idle lanes at widths whose runs of rows do not fill a stretch.
 *
 * What it costs: the bytes, plus the block's fold of up to W x THREADS
 * totals in shared memory (a barrier a round), plus the last block's reads of
 * blocks x cols totals, which grow with the width: wider matrices, those of
 * a few rows and an input off 16 bytes go to split_columns. A grid cut to a
 * multiple of the odd part leaves SMs idle where that part is large and
 * does not divide the SMs (125 floats: 125 blocks on an H100's 132 SMs). A
 * column's bits depend on the grid, which follows the GPU's SMs. In the
 * column sweep it is the fastest of steps 32, 38 and 39 at every width it
 * takes (bench/results/h200_cols_sweep_ead93a8.csv).
 *   bench_compare --cols 3 --rows 5592405 --axis 0 -m flat_columns,staged_columns,split_columns
 *   bench_compare --col-sweep -m flat_columns,staged_columns,split_columns,cublas_columns
 */
#include "column_totals.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "method.cuh"
#include "vector_loads.cuh"
#include "whole_rows_grid.cuh"

namespace {

constexpr int THREADS = 1024;
constexpr int LOADS = 4;
/* The widest matrix it takes (as step 38: the last block's reads of every
 * block's totals grow with it). */
constexpr size_t MAX_COLS = 128;
/* THREADS a power of two, at least MAX_COLS: it holds every power of two of
 * cols, as whole_rows_grid requires. */
static_assert(MAX_COLS <= THREADS && (THREADS & (THREADS - 1)) == 0, "whole rows a stride");
/* A matrix of at most this many rows goes to split_columns. */
constexpr size_t FEW_ROWS = 64;

/* How the matrix is read (computed on the host, passed by value). */
struct flat_plan {
    size_t n, cols;
    size_t vectors;   /* whole 16-byte vectors: n / W */
    size_t rows_step;    /* rows a thread's stride crosses: W x S / cols */
    unsigned lanes_kept; /* lanes of a warp whose totals stay after its shuffles */
    unsigned slices;     /* rows of the block's totals: ceil(lanes kept x warps x W / cols) */
};

/* Lanes l and l + d of a warp keep their W totals in the same columns when
 * cols divides W x d, first at d = cols / gcd(cols, W). Where that is a
 * power of two below 32, xor shuffles at offsets 16, 8, ..., d add each
 * warp's totals into its first d lanes, whose d x W totals are whole rows;
 * elsewhere all 32 lanes keep theirs. */
static inline unsigned lanes_kept(size_t cols, size_t width)
{
    const size_t d = cols / gcd(cols, width);
    return d < 32 && (d & (d - 1)) == 0 ? (unsigned)d : 32;
}

/* At most LOADS - 1 vectors left to thread g from vector v (row `row`),
 * loaded together (one at a time they would cost a trip to DRAM each), and
 * with them the array's last elements, short of a vector: they sit where
 * vector p.vectors would, and the thread that would read it adds them. */
template <class T, class Op>
__device__ __forceinline__ void add_last_vectors(const T *__restrict__ in, const flat_plan &p,
                                                 size_t v, size_t row,
                                                 const unsigned (&lag)[VECTOR_WIDTH<T>],
                                                 result_t<T, Op> (&acc)[VECTOR_WIDTH<T>])
{
    constexpr int W = VECTOR_WIDTH<T>;
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in);
    const size_t stride = (size_t)gridDim.x * THREADS;
    uint4 raw[LOADS - 1];
    unsigned left = 0;
#pragma unroll
    for (int k = 0; k < LOADS - 1; ++k)
        if (v + k * stride < p.vectors) {
            raw[k] = __ldg(&body[v + k * stride]);
            ++left;
        }
    const size_t last_vector = v + left * stride;
    T last[W];
#pragma unroll
    for (int j = 0; j < W; ++j)
        if (last_vector == p.vectors && W * last_vector + j < p.n)
            last[j] = in[W * last_vector + j];
#pragma unroll
    for (int k = 0; k < LOADS - 1; ++k)
        if (k < left)
            add_vector<T, Op>(raw[k], row + k * p.rows_step, lag, acc);
    const size_t last_row = row + left * p.rows_step;
#pragma unroll
    for (int j = 0; j < W; ++j)
        if (last_vector == p.vectors && W * last_vector + j < p.n)
            acc[j] = combine_later_without_branch<Op>(acc[j], lift<Op>(last[j], last_row + lag[j]));
}

/* Thread g's W accumulators, element j's of every vector it reads. */
template <class T, class Op>
__device__ __forceinline__ void add_vectors(const T *__restrict__ in, const flat_plan &p,
                                            size_t g, result_t<T, Op> (&acc)[VECTOR_WIDTH<T>])
{
    constexpr int W = VECTOR_WIDTH<T>;
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in);
    const size_t stride = (size_t)gridDim.x * THREADS;
    /* Row of element j of the thread's vectors: row + lag[j]. */
    size_t row = W * g / p.cols;
    unsigned lag[W];
#pragma unroll
    for (int j = 0; j < W; ++j)
        lag[j] = (unsigned)((W * g + j) / p.cols - row);

    size_t v = g;
    for (; v + (LOADS - 1) * stride < p.vectors; v += LOADS * stride) {
        uint4 raw[LOADS];
#pragma unroll
        for (int k = 0; k < LOADS; ++k)
            raw[k] = __ldg(&body[v + k * stride]);
#pragma unroll
        for (int k = 0; k < LOADS; ++k, row += p.rows_step)
            add_vector<T, Op>(raw[k], row, lag, acc);
    }
    add_last_vectors<T, Op>(in, p, v, row, lag, acc);
}

template <class T, class Op>
__global__ __launch_bounds__(THREADS, 1) void flat_columns_kernel(const T *__restrict__ in,
                                                                  flat_plan p,
                                                                  result_t<T, Op> *__restrict__ out,
                                                                  void *workspace)
{
    using R = result_t<T, Op>;
    constexpr int W = VECTOR_WIDTH<T>;
    extern __shared__ __align__(16) unsigned char shared[]; /* slices x cols totals */
    R *totals = reinterpret_cast<R *>(shared);

    R acc[W];
#pragma unroll
    for (int j = 0; j < W; ++j)
        acc[j] = identity<Op, R>();
    add_vectors<T, Op>(in, p, blockIdx.x * (size_t)THREADS + threadIdx.x, acc);

    /* The warp's lanes that share columns added into its first lanes_kept;
     * then total i of the block, in column (rotation + i) % cols, is element
     * i of the kept lanes' W totals, warp after warp (a warp's are whole rows
     * where it shuffled); the last slice's missing ones are identities. */
    const unsigned cols = (unsigned)p.cols, kept = p.lanes_kept;
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (unsigned offset = 16; offset >= kept; offset /= 2)
#pragma unroll
        for (int j = 0; j < W; ++j)
            acc[j] = Op{}(acc[j], shuffle_xor(acc[j], (int)offset));
    if (lane < kept)
#pragma unroll
        for (int j = 0; j < W; ++j)
            totals[W * (warp * kept + lane) + j] = acc[j];
    for (unsigned i = W * (THREADS / 32) * kept + threadIdx.x; i < p.slices * cols; i += THREADS)
        totals[i] = identity<Op, R>();
    __syncthreads();
    const unsigned rotation = (unsigned)((size_t)W * THREADS * blockIdx.x % p.cols);
    add_column_totals<THREADS, Op>(totals, p.slices, cols, rotation, out, workspace);
}

/* What a device allows the kernel, asked once per device. */
struct flat_config {
    bool usable;  /* the widest matrix's totals fit a block's shared memory */
    int resident; /* blocks the GPU keeps resident */
};

template <class T, class Op>
struct flat_columns_launch : split_columns_otherwise<flat_columns_launch<T, Op>, T, Op> {
    using R = result_t<T, Op>;
    using Config = flat_config;
    static constexpr size_t W = VECTOR_WIDTH<T>;
    /* Shared memory for the widest matrix's totals: W x THREADS, rounded
     * up to whole rows. */
    static constexpr size_t MAX_SHARED_BYTES = (W * THREADS + MAX_COLS - 1) * sizeof(R);

    /* Asked once per (type, operator) and device (once_per_device,
     * grid_size.cuh). */
    static int config(flat_config *out)
    {
        return once_per_device<flat_columns_launch>(out, [](flat_config *c) {
            *c = {};
            return fit_dynamic_smem((const void *)flat_columns_kernel<T, Op>, THREADS,
                                    MAX_SHARED_BYTES, &c->usable, &c->resident);
        });
    }

    /* Whether this step's kernel takes the shape (the pointer aside). */
    static bool shape_fits(reduce_shape shape, size_t n)
    {
        return shape.cols >= 1 && shape.cols <= MAX_COLS && n / shape.cols > FEW_ROWS;
    }

    static size_t shared_bytes(size_t cols)
    {
        return ceil_div(W * THREADS, cols) * cols * sizeof(R);
    }

    /* One resident wave (or the grid a test forces) cut to a multiple of the
     * odd part of cols / gcd(cols, W), so that the stride is whole rows;
     * and the plan. */
    static flat_plan plan(reduce_shape shape, size_t n, const flat_config &c, int *grid)
    {
        const size_t blocks = whole_rows_grid((size_t)launch_grid(c.resident), shape.cols, W);
        const unsigned kept = lanes_kept(shape.cols, W);
        *grid = (int)blocks;
        return {.n = n, .cols = shape.cols, .vectors = n / W,
                .rows_step = W * blocks * THREADS / shape.cols, .lanes_kept = kept,
                .slices = (unsigned)ceil_div(W * (THREADS / 32) * kept, shape.cols)};
    }

    static int launch(const T *d_in, const flat_plan &p, int grid, R *d_out, void *workspace,
                      cudaStream_t stream)
    {
        flat_columns_kernel<T, Op><<<grid, THREADS, shared_bytes(p.cols), stream>>>(d_in, p, d_out,
                                                                                   workspace);
        return 0;
    }
};

} // namespace

DEFINE_METHOD(flat_columns, .family = FAMILY_COLUMNS, .source = "this suite: columns, step 39",
              .idea = "a narrow matrix read as a flat array by a grid whose stride is whole rows: each thread's vector elements stay in their columns, added in registers; split_columns past 128 columns",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<flat_columns_launch, ALL_OPS>,
              .workspace = workspace_any_pair<flat_columns_launch, ALL_OPS>,
              /* no METHOD_GRID_INDEPENDENT: the blocks follow the GPU's SMs */
              .order = {.kind = ORDER_SERIAL_CHAIN}, .shapes = SHAPE_BIT(SHAPE_COLUMNS));
