/* Step 38 - the columns of a narrow matrix, staged through shared memory.
 *
 * Idea: the matrix is read as a flat array, as the whole-array steps read
 * it - every lane's 16-byte copy busy, every warp's copies whole 128-byte
 * lines - and the columns are sorted out in shared memory, where an odd
 * stride costs nothing. The array is cut into chunks of whole rows and whole
 * vectors (about CHUNK_BYTES); a block per SM takes every gridDim-th chunk
 * and keeps STAGES of them in flight in a ring of shared-memory buffers,
 * filled by cp.async (copies that go straight to shared memory, with no
 * register to wait in). When a chunk has landed, thread t adds its elements
 * t, t + used, t + 2 used, ... where `used` is the largest multiple of the
 * width within the block: a chunk is whole rows, so thread t's column is
 * t % cols in every chunk and it keeps a single accumulator. At the end the
 * threads of a column fold their totals as a tree, and the last block done
 * folds the blocks' totals the same way (the counter of last_block_done.cuh,
 * for a row of totals instead of one).
 *
 * Fixes from split_columns (step 32): there a lane keeps the same columns
 * at every stretch of rows it reads, so a width whose runs of whole rows and
 * whole vectors do not fill a warp's 128 floats leaves lanes idle (3 floats:
 * 24 of 32) or reads four neighbouring vectors a lane (33 floats); here no
 * lane is idle on the reads at any width, and only the adds, which the SM
 * has time for, see the width.
 *
 * What it costs: the bytes, each written to and read from shared memory once
 * more; two barriers a chunk; a tree of barriers at the end of each block
 * and in the last one; and the last block's reads of SMs x cols totals.
 * That last read grows with the width, so wider matrices, and those of a
 * few rows or an input off 16 bytes, go to split_columns (MAX_COLS,
 * FEW_ROWS). A column's bits depend on the grid, which follows the GPU's SMs.
 *   bench_compare --cols 3 --rows 5592405 --axis 0 -m staged_columns,split_columns
 */
#include <cuda/atomic>

#include "cuda_check.h"
#include "grid_size.cuh"
#include "last_block_done.cuh"
#include "method.cuh"
#include "vector_loads.cuh"

/* Step 32's descriptor (32_split_columns.cu): the shapes this step leaves go there. */
extern "C" const struct method method_split_columns;

namespace {

constexpr int THREADS = 1024;
/* Bytes of one chunk, at most: a whole number of rows and of 16-byte vectors. */
constexpr size_t CHUNK_BYTES = 16 * 1024;
/* Chunks in the ring: STAGES - 1 in flight while one is added. */
constexpr unsigned STAGES = 8;
/* The widest matrix it takes: at least one thread a column. */
constexpr size_t MAX_COLS = 256;
/* A matrix of at most this many rows goes to split_columns (a thread a
 * vector of columns down every row there). */
constexpr size_t FEW_ROWS = 64;

/* How the matrix is cut (computed on the host, passed by value). */
struct staged_plan {
    size_t n, cols;
    size_t chunk;  /* elements a chunk: whole rows, whole vectors */
    size_t chunks; /* ceil(n / chunk) */
    unsigned used; /* threads that add: THREADS / cols x cols */
};

__device__ __forceinline__ void copy_16_bytes(void *to_shared, const void *from_global)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned to = (unsigned)__cvta_generic_to_shared(to_shared);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(from_global)
                 : "memory");
#else
    *(uint4 *)to_shared = __ldg((const uint4 *)from_global);
#endif
}

/* Closes this thread's group of copies (empty ones too: the count stays
 * one a chunk), and waits until at most `pending` groups are in flight. */
__device__ __forceinline__ void close_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <unsigned pending> __device__ __forceinline__ void wait_copies()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory");
}

/* The block's share of chunk `chunk` into `stage`: whole vectors by copies,
 * the elements after the array's last whole vector by plain loads. */
template <class T>
__device__ __forceinline__ void fetch_chunk(const T *__restrict__ in, const staged_plan &p,
                                            size_t chunk, T *stage)
{
    if (chunk >= p.chunks)
        return;
    const size_t first = chunk * p.chunk;
    const size_t length = p.n - first < p.chunk ? p.n - first : p.chunk;
    const size_t vectors = length / VECTOR_WIDTH<T>;
    for (size_t v = threadIdx.x; v < vectors; v += THREADS)
        copy_16_bytes(stage + v * VECTOR_WIDTH<T>, in + first + v * VECTOR_WIDTH<T>);
    for (size_t e = vectors * VECTOR_WIDTH<T> + threadIdx.x; e < length; e += THREADS)
        stage[e] = in[first + e];
}

/* Thread t's elements of a landed chunk into acc, in row order. */
template <class T, class Op, class R>
__device__ __forceinline__ void add_chunk(const staged_plan &p, size_t chunk, const T *stage,
                                          R &acc)
{
    const unsigned t = threadIdx.x;
    if (t >= p.used)
        return;
    const size_t first = chunk * p.chunk;
    const unsigned length = (unsigned)(p.n - first < p.chunk ? p.n - first : p.chunk);
    const size_t rows_step = p.used / p.cols;
    size_t row = first / p.cols + t / p.cols;
    for (unsigned e = t; e < length; e += p.used, row += rows_step)
        acc = combine_later<Op>(acc, lift<Op>(stage[e], row));
}

/* Op over totals[s x cols + c] for s < slices, into totals[c], as a tree in
 * a fixed order; every thread of the block calls it, after the totals'
 * barrier. */
template <class Op, class R> __device__ void fold_slices(R *totals, unsigned slices, unsigned cols)
{
    const Op op;
    while (slices > 1) {
        const unsigned half = (slices + 1) / 2;
        for (unsigned i = threadIdx.x; i < (slices - half) * cols; i += THREADS)
            totals[i] = op(totals[i], totals[i + half * cols]);
        __syncthreads();
        slices = half;
    }
}

/* The last block done: each column's totals of every block (partials, a
 * row of cols a block), folded in block order within each slice and then
 * over the slices, into out. */
template <class Op, class R>
__device__ void add_blocks(const staged_plan &p, const R *partials, R *totals, R *out)
{
    const Op op;
    const unsigned t = threadIdx.x, cols = (unsigned)p.cols, slices = p.used / cols;
    if (t < p.used) {
        constexpr unsigned IN_FLIGHT = 8; /* reads at L2 issued before their adds */
        R total = identity<Op, R>();
        for (unsigned b = t / cols; b < gridDim.x; b += IN_FLIGHT * slices) {
            R v[IN_FLIGHT];
#pragma unroll
            for (unsigned u = 0; u < IN_FLIGHT; ++u)
                v[u] = b + u * slices < gridDim.x
                           ? load_at_l2(&partials[(size_t)(b + u * slices) * cols + t % cols])
                           : identity<Op, R>();
#pragma unroll
            for (unsigned u = 0; u < IN_FLIGHT; ++u)
                total = op(total, v[u]);
        }
        totals[t] = total;
    }
    __syncthreads();
    fold_slices<Op>(totals, slices, cols);
    if (t < cols)
        out[t] = totals[t];
}

template <class T, class Op>
__global__ __launch_bounds__(THREADS) void staged_columns_kernel(const T *__restrict__ in,
                                                                 staged_plan p,
                                                                 result_t<T, Op> *__restrict__ out,
                                                                 void *workspace)
{
    using R = result_t<T, Op>;
    extern __shared__ uint4 ring[]; /* STAGES x CHUNK_BYTES */
    __shared__ R totals[THREADS];
    __shared__ bool is_last_block;
    T *const stages = (T *)ring;
    constexpr size_t STAGE = CHUNK_BYTES / sizeof(T);

    for (unsigned s = 0; s + 1 < STAGES; ++s) {
        fetch_chunk(in, p, blockIdx.x + (size_t)s * gridDim.x, stages + s * STAGE);
        close_copies();
    }
    R acc = identity<Op, R>();
    unsigned k = 0; /* the block's chunks so far */
    for (size_t chunk = blockIdx.x; chunk < p.chunks; chunk += gridDim.x, ++k) {
        /* refill the stage added last time: the barrier at the end of the
         * loop let every thread finish with it */
        fetch_chunk(in, p, chunk + (size_t)(STAGES - 1) * gridDim.x,
                    stages + (k + STAGES - 1) % STAGES * STAGE);
        close_copies();
        wait_copies<STAGES - 1>();
        __syncthreads(); /* every thread's copies of this chunk have landed */
        add_chunk<T, Op>(p, chunk, stages + k % STAGES * STAGE, acc);
        __syncthreads();
    }
    wait_copies<0>();

    if (threadIdx.x < p.used)
        totals[threadIdx.x] = acc;
    __syncthreads();
    fold_slices<Op>(totals, p.used / (unsigned)p.cols, (unsigned)p.cols);

    unsigned *blocks_done = (unsigned *)workspace;
    R *partials = (R *)((char *)workspace + LAST_BLOCK_PARTIALS_OFFSET);
    if (threadIdx.x < p.cols)
        partials[(size_t)blockIdx.x * p.cols + threadIdx.x] = totals[threadIdx.x];
    __threadfence(); /* this block's totals before its ticket */
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*blocks_done);
        is_last_block = done.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block)
        return;
    add_blocks<Op>(p, partials, totals, out);
    if (threadIdx.x == 0)
        *blocks_done = 0; /* ready for the next call */
}

template <class T, class Op> struct staged_columns_launch {
    using R = result_t<T, Op>;
    static constexpr reduce_spec spec = {type_code<T>, Op::code};
    static constexpr size_t RING_BYTES = STAGES * CHUNK_BYTES;

    /* The shapes this step takes; the rest go to split_columns. */
    static bool takes(const T *d_in, reduce_shape shape, size_t n)
    {
        return (uintptr_t)d_in % 16 == 0 && shape.cols >= 1 && shape.cols <= MAX_COLS &&
               n / shape.cols > FEW_ROWS;
    }

    /* Blocks of the kernel resident at once, with its ring allowed: the
     * shared-memory attribute is set in each device's context (bench_compare
     * --gpus launches on several), once. */
    static int resident_blocks(int *grid)
    {
        constexpr int DEVICES = 64;
        static bool allowed[DEVICES] = {};
        int device = 0;
        CUDA_TRY(cudaGetDevice(&device));
        if (device < 0 || device >= DEVICES)
            return (int)cudaErrorInvalidDevice;
        const auto kernel = staged_columns_kernel<T, Op>;
        if (!allowed[device]) {
            CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)RING_BYTES));
            allowed[device] = true;
        }
        return resident_grid_size((const void *)kernel, THREADS, RING_BYTES, grid);
    }

    static int plan(reduce_shape shape, size_t n, staged_plan *p, int *grid)
    {
        const size_t whole = lcm(shape.cols, VECTOR_WIDTH<T>); /* whole rows, whole vectors */
        const size_t chunk = CHUNK_BYTES / sizeof(T) / whole * whole;
        *p = staged_plan{.n = n, .cols = shape.cols, .chunk = chunk,
                         .chunks = ceil_div(n, chunk),
                         .used = (unsigned)(THREADS / shape.cols * shape.cols)};
        PROPAGATE(resident_blocks(grid));
        if ((size_t)*grid > p->chunks)
            *grid = (int)p->chunks;
        *grid = launch_grid(*grid);
        return 0;
    }

    /* The pointer is not known to the query: room for this step's cut and
     * for split_columns'. */
    static int workspace(reduce_shape shape, size_t n, size_t *bytes)
    {
        PROPAGATE(method_split_columns.workspace(spec, shape, n, bytes));
        if (shape.cols < 1 || shape.cols > MAX_COLS || n / shape.cols <= FEW_ROWS)
            return 0;
        staged_plan p;
        int grid = 0;
        PROPAGATE(plan(shape, n, &p, &grid));
        const size_t own = LAST_BLOCK_PARTIALS_OFFSET + (size_t)grid * shape.cols * sizeof(R);
        *bytes = own > *bytes ? own : *bytes;
        return 0;
    }

    static int run(const T *d_in, reduce_shape shape, size_t n, R *d_out, void *workspace,
                   cudaStream_t stream)
    {
        if (!takes(d_in, shape, n))
            return method_split_columns.launch(spec, shape, d_in, n, d_out, workspace, stream);
        staged_plan p;
        int grid = 0;
        PROPAGATE(plan(shape, n, &p, &grid));
        staged_columns_kernel<T, Op><<<grid, THREADS, RING_BYTES, stream>>>(d_in, p, d_out,
                                                                             workspace);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

} // namespace

DEFINE_METHOD(staged_columns, .family = FAMILY_COLUMNS, .source = "this suite: columns, step 38",
              .idea = "a narrow matrix read as a flat array: chunks of whole rows copied (cp.async) into a shared-memory ring, columns added there; split_columns past 256 columns",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<staged_columns_launch, ALL_OPS>,
              .workspace = workspace_any_pair<staged_columns_launch, ALL_OPS>,
              /* no METHOD_GRID_INDEPENDENT: the blocks follow the GPU's SMs */
              .order = {.kind = ORDER_SERIAL_CHAIN}, .shapes = SHAPE_BIT(SHAPE_COLUMNS));
