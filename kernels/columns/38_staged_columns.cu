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
 * threads of a column fold their totals in a few rounds of batched
 * shared-memory reads, and the last block done adds the blocks' totals
 * (column_totals.cuh).
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
 * (SMs x STAGES x CHUNK_BYTES) before the first add; a barrier a round of
 * the fold at the end of each block and in the last one; and the last
 * block's reads of SMs x cols totals, which grow with the width: wider
 * matrices, and those of a few rows or an input off 16 bytes, go to
 * split_columns (MAX_COLS, FEW_ROWS), as does every matrix on a GPU before
 * sm_90 or with too little shared memory for the ring. A column's bits
 * depend on the grid, which follows the GPU's SMs.
 *   bench_compare --cols 3 --rows 5592405 --axis 0 -m staged_columns,split_columns
 */
#include "bulk_copy.cuh"
#include "column_totals.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "method.cuh"
#include "vector_loads.cuh"

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
            acc = combine_later_without_branch<Op>(acc, lift<Op>(x[k], row));
    }
    for (; e < length; e += p.used, row += rows_step) {
        const T x = e < copied ? stage[e] : in[chunk * p.chunk + e];
        acc = combine_later_without_branch<Op>(acc, lift<Op>(x, row));
    }
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

    __shared__ R totals[THREADS];
    if (adds)
        totals[threadIdx.x] = acc;
    __syncthreads();
    add_column_totals<THREADS, Op>(totals, p.used / (unsigned)p.cols, (unsigned)p.cols, 0, out,
                                   workspace);
#else
    __trap(); /* the launcher never starts it unless compiled for sm_90 */
#endif
}

/* What a device allows the kernel, asked once per device. */
struct ring_config {
    bool usable; /* compiled for sm_90 or later, and the ring fits the SM */
    int grid;    /* one block per SM */
};

template <class T, class Op>
struct staged_columns_launch : split_columns_otherwise<staged_columns_launch<T, Op>, T, Op> {
    using R = result_t<T, Op>;
    using Config = ring_config;
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

    static int launch(const T *d_in, const staged_plan &p, int grid, R *d_out, void *workspace,
                      cudaStream_t stream)
    {
        staged_columns_kernel<T, Op><<<grid, THREADS, RING_BYTES, stream>>>(d_in, p, d_out,
                                                                             workspace);
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
