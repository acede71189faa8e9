/* Step 38 - the columns of a narrow matrix, staged through shared memory.
 *
 * Idea: the matrix is read as a flat array, as the whole-array steps read
 * it, and the columns are sorted out in shared memory, where an odd stride
 * costs nothing. The array is cut into chunks of whole rows and whole
 * 16-byte vectors (about CHUNK_BYTES); a block per SM takes every
 * gridDim-th chunk and keeps STAGES of them in flight in a ring of
 * shared-memory buffers, each filled by one bulk copy (bulk_copy.cuh, as
 * step 18's ring). When a chunk has landed, thread t adds its elements t,
 * t + used, t + 2 used, ... where `used` is the largest multiple of the
 * width within the block: a chunk is whole rows, so thread t's column is
 * t % cols in every chunk and it keeps a single accumulator. At the end the
 * threads of a column fold their totals as a tree, and the last block done
 * folds the blocks' totals the same way (the counter of last_block_done.cuh,
 * for a row of totals instead of one).
 *
 * Fixes from split_columns (step 32): there a lane keeps the same columns
 * at every stretch of rows it reads, so a width whose runs of whole rows and
 * whole vectors do not fill a warp's 128 floats leaves lanes idle (3 floats:
 * 24 of 32) or reads four neighbouring vectors a lane (33 floats); here the
 * reads do not see the width, and only the adds do. Those set the ring's
 * pace while each waited for its own shared-memory read: a thread now reads
 * BATCH elements, then adds them in row order. Copies of 16 bytes a thread
 * (cp.async) into the same ring read far slower than these bulk copies
 * (bench/NOTES.md, session 27).
 *
 * What it costs: the bytes, plus a barrier a chunk; the ring's first fill
 * (SMs x STAGES x CHUNK_BYTES) before the first add; a tree of barriers at
 * the end of each block and in the last one; and the last block's reads of
 * SMs x cols totals, which grow with the width: wider matrices, and those of
 * a few rows or an input off 16 bytes, go to split_columns (MAX_COLS,
 * FEW_ROWS), as does every matrix on a GPU before sm_90 or with too little
 * shared memory for the ring. A column's bits depend on the grid, which
 * follows the GPU's SMs.
 *   bench_compare --cols 3 --rows 5592405 --axis 0 -m staged_columns,split_columns
 */
#include "bulk_copy.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "last_block_done.cuh"
#include "method.cuh"
#include "vector_loads.cuh"

/* Step 32's descriptor (32_split_columns.cu): the shapes this step leaves go there. */
extern "C" const struct method method_split_columns;

namespace {

/* Threads a block: with the reads batched, 512 measured faster than 1024
 * and 256 (bench/NOTES.md, session 27). */
constexpr int THREADS = 512;
/* Bytes of a ring buffer; a chunk is at most this, a whole number of rows
 * and of 16-byte vectors. */
constexpr unsigned CHUNK_BYTES = 32 * 1024;
constexpr unsigned CHUNK_VECTORS = CHUNK_BYTES / 16;
/* Buffers in the ring: as many as an H100's or H200's SM holds beside the
 * block's totals. */
constexpr int STAGES = 6;
/* The widest matrix it takes: at 256 columns the last block's reads of
 * every block's totals made it slower than split_columns (bench/NOTES.md,
 * session 27). At most THREADS: a thread a column at least. */
constexpr size_t MAX_COLS = 128;
static_assert(MAX_COLS <= THREADS, "every column has a thread");
/* A matrix of at most this many rows goes to split_columns (a thread a
 * vector of columns down every row there). */
constexpr size_t FEW_ROWS = 64;

/* How the matrix is cut (computed on the host, passed by value). */
struct staged_plan {
    size_t n, cols;
    size_t chunk;  /* elements a chunk: whole rows, whole vectors */
    size_t chunks; /* ceil(n / chunk); the last may be shorter */
    unsigned used; /* threads that add: THREADS / cols x cols */
};

__device__ __forceinline__ size_t chunk_length(const staged_plan &p, size_t chunk)
{
    const size_t first = chunk * p.chunk;
    return p.n - first < p.chunk ? p.n - first : p.chunk;
}

/* Elements of a chunk the bulk copy brings: its whole 16-byte vectors (all
 * of them but in the array's last chunk). */
template <class T> __device__ __forceinline__ size_t copied_length(size_t length)
{
    return length / VECTOR_WIDTH<T> * VECTOR_WIDTH<T>;
}

#ifdef BULK_COPY_DEVICE_CODE
/* Thread 0: chunk `chunk` into `buffer`, landing on `landed`. */
template <class T>
__device__ __forceinline__ void fetch_chunk(const T *__restrict__ in, const staged_plan &p,
                                            size_t chunk, uint4 *buffer, uint64_t *landed)
{
    const unsigned bytes = (unsigned)(copied_length<T>(chunk_length(p, chunk)) * sizeof(T));
    if (bytes > 0)
        fetch_bytes(buffer, in + chunk * p.chunk, bytes, landed);
    else
        arrive_without_copy(landed);
}
#endif

/* Shared-memory reads a thread issues together before their adds. */
constexpr int BATCH = 8;

/* Thread t's elements of a landed chunk into acc, in row order: whole
 * batches of BATCH reads from shared memory in flight together, then the
 * rest one at a time, the few past the copy's last vector (the array's end)
 * from global memory. `lane_row`: t / cols, the row of t's first element. */
template <class T, class Op, class R>
__device__ __forceinline__ void add_chunk(const T *__restrict__ in, const staged_plan &p,
                                          size_t chunk, const T *stage, unsigned lane_row,
                                          R &acc)
{
    const unsigned length = (unsigned)chunk_length(p, chunk);
    const unsigned copied = (unsigned)copied_length<T>(length);
    const unsigned rows_step = p.used / (unsigned)p.cols;
    size_t row = chunk * (p.chunk / p.cols) + lane_row;
    unsigned e = threadIdx.x;
    for (; e + (BATCH - 1) * p.used < copied; e += BATCH * p.used) {
        T x[BATCH];
#pragma unroll
        for (int k = 0; k < BATCH; ++k)
            x[k] = stage[e + k * p.used];
#pragma unroll
        for (int k = 0; k < BATCH; ++k, row += rows_step)
            acc = combine_later<Op>(acc, lift<Op>(x[k], row));
    }
    for (; e < length; e += p.used, row += rows_step) {
        const T x = e < copied ? stage[e] : in[chunk * p.chunk + e];
        acc = combine_later<Op>(acc, lift<Op>(x, row));
    }
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
        store_result(&out[t], totals[t]);
}

/* Every thread of every block, with its accumulator (`adds`: its column's
 * elements): the block's total of each column into the workspace, and the
 * last block done adds every block's into out. */
template <class Op, class R>
__device__ void columns_of_all_blocks(const staged_plan &p, R acc, bool adds, R *out,
                                      void *workspace)
{
    __shared__ R totals[THREADS];
    if (adds)
        totals[threadIdx.x] = acc;
    __syncthreads();
    fold_slices<Op>(totals, p.used / (unsigned)p.cols, (unsigned)p.cols);

    unsigned *blocks_done = (unsigned *)workspace;
    R *partials = (R *)((char *)workspace + LAST_BLOCK_PARTIALS_OFFSET);
    if (threadIdx.x < p.cols)
        store_result(&partials[(size_t)blockIdx.x * p.cols + threadIdx.x], totals[threadIdx.x]);
    if (!draws_last_ticket(blocks_done, gridDim.x))
        return;
    add_blocks<Op>(p, partials, totals, out);
    if (threadIdx.x == 0)
        *blocks_done = 0; /* ready for the next call */
}

template <class T, class Op>
__global__ __launch_bounds__(THREADS, 1) void staged_columns_kernel(const T *__restrict__ in,
                                                                    staged_plan p,
                                                                    result_t<T, Op> *__restrict__ out,
                                                                    void *workspace)
{
#ifdef BULK_COPY_DEVICE_CODE
    using R = result_t<T, Op>;
    extern __shared__ __align__(128) uint4 ring[]; /* STAGES x CHUNK_VECTORS */
    __shared__ uint64_t landed[STAGES];
    /* This block's chunks: blockIdx.x, blockIdx.x + gridDim.x, ... */
    const size_t my_chunks = p.chunks > blockIdx.x ? (p.chunks - 1 - blockIdx.x) / gridDim.x + 1 : 0;

    if (threadIdx.x == 0) {
        init_landing(landed, STAGES);
        for (int s = 0; s < STAGES && (size_t)s < my_chunks; ++s)
            fetch_chunk(in, p, blockIdx.x + (size_t)s * gridDim.x, ring + s * CHUNK_VECTORS,
                        &landed[s]);
    }
    __syncthreads(); /* nobody waits on a barrier before it is initialised */

    R acc = identity<Op, R>();
    const bool adds = threadIdx.x < p.used;
    const unsigned lane_row = threadIdx.x / (unsigned)p.cols;
    int stage = 0;
    unsigned parity = 0; /* flips each time the ring wraps: the phase to wait for */
    for (size_t j = 0; j < my_chunks; ++j) {
        const size_t chunk = blockIdx.x + j * gridDim.x;
        wait_for_copy(&landed[stage], parity);
        uint4 *buffer = ring + stage * CHUNK_VECTORS;
        if (adds)
            add_chunk<T, Op>(in, p, chunk, (const T *)buffer, lane_row, acc);
        /* Every thread has read the buffer before the copy engine refills it. */
        __syncthreads();
        if (threadIdx.x == 0 && j + STAGES < my_chunks)
            fetch_chunk(in, p, chunk + (size_t)STAGES * gridDim.x, buffer, &landed[stage]);
        if (++stage == STAGES) {
            stage = 0;
            parity ^= 1u;
        }
    }

    columns_of_all_blocks<Op>(p, acc, adds, out, workspace);
#else
    __trap(); /* the launcher never starts it unless compiled for sm_90 */
#endif
}

/* What a device allows the kernel, asked once per device. */
struct ring_config {
    bool usable; /* compiled for sm_90 or later, and the ring fits the SM */
    int grid;    /* one block per SM */
};

template <class T, class Op> struct staged_columns_launch {
    using R = result_t<T, Op>;
    static constexpr reduce_spec spec = {type_code<T>, Op::code};
    static constexpr size_t RING_BYTES = (size_t)STAGES * CHUNK_BYTES;

    /* Asked once per (type, operator) and device (once_per_device,
     * grid_size.cuh). */
    static int config(ring_config *out)
    {
        return once_per_device<staged_columns_launch>(out, [](ring_config *c) {
            const auto kernel = staged_columns_kernel<T, Op>;
            kernel_room room;
            int per_sm = 0;
            PROPAGATE(ask_kernel_room((const void *)kernel, &room));
            *c = {};
            c->usable = room.attributes.ptxVersion >= 90 &&
                        room.attributes.sharedSizeBytes + RING_BYTES <= room.smem_optin;
            if (c->usable) {
                CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              (int)RING_BYTES));
                CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS,
                                                                       RING_BYTES));
                c->grid = room.sms * (per_sm > 0 ? per_sm : 1);
            }
            return 0;
        });
    }

    /* Whether this step's kernel takes the shape (the pointer aside). */
    static bool shape_fits(reduce_shape shape, size_t n)
    {
        return shape.cols >= 1 && shape.cols <= MAX_COLS && n / shape.cols > FEW_ROWS;
    }

    /* The cut, and the grid: one block per SM, no more than the chunks,
     * unless a test forces another (launch_grid). */
    static staged_plan plan(reduce_shape shape, size_t n, const ring_config &c, int *grid)
    {
        const size_t whole = lcm(shape.cols, VECTOR_WIDTH<T>); /* whole rows, whole vectors */
        const size_t chunk = CHUNK_BYTES / sizeof(T) / whole * whole;
        const staged_plan p = {.n = n, .cols = shape.cols, .chunk = chunk,
                               .chunks = ceil_div(n, chunk),
                               .used = (unsigned)(THREADS / shape.cols * shape.cols)};
        *grid = launch_grid((size_t)c.grid < p.chunks ? c.grid : (int)p.chunks);
        return p;
    }

    /* The pointer is not known to the query: room for this step's cut and
     * for split_columns'. */
    static int workspace(reduce_shape shape, size_t n, size_t *bytes)
    {
        PROPAGATE(method_split_columns.workspace(spec, shape, n, bytes));
        ring_config c;
        PROPAGATE(config(&c));
        if (!c.usable || !shape_fits(shape, n))
            return 0;
        int grid = 0;
        plan(shape, n, c, &grid);
        const size_t own = LAST_BLOCK_PARTIALS_OFFSET + (size_t)grid * shape.cols * sizeof(R);
        *bytes = own > *bytes ? own : *bytes;
        return 0;
    }

    static int run(const T *d_in, reduce_shape shape, size_t n, R *d_out, void *workspace,
                   cudaStream_t stream)
    {
        ring_config c;
        PROPAGATE(config(&c));
        if (!c.usable || !shape_fits(shape, n) || (uintptr_t)d_in % 16 != 0)
            return method_split_columns.launch(spec, shape, d_in, n, d_out, workspace, stream);
        int grid = 0;
        const staged_plan p = plan(shape, n, c, &grid);
        staged_columns_kernel<T, Op><<<grid, THREADS, RING_BYTES, stream>>>(d_in, p, d_out,
                                                                             workspace);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

} // namespace

DEFINE_METHOD(staged_columns, .family = FAMILY_COLUMNS, .source = "this suite: columns, step 38",
              .idea = "a narrow matrix read as a flat array: chunks of whole rows in a ring of bulk copies (TMA) to shared memory, columns added there; split_columns past 128 columns",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<staged_columns_launch, ALL_OPS>,
              .workspace = workspace_any_pair<staged_columns_launch, ALL_OPS>,
              /* no METHOD_GRID_INDEPENDENT: the blocks follow the GPU's SMs */
              .order = {.kind = ORDER_SERIAL_CHAIN}, .shapes = SHAPE_BIT(SHAPE_COLUMNS));
