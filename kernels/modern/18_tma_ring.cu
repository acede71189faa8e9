/* Step 18 - the bulk copy engine streams the input.
 *
 * Idea: one block per SM. Thread 0 keeps a ring of shared-memory buffers of
 * CHUNK_BYTES (32 KB), as many as the SM's shared memory holds (7 on an
 * H100), filled by cp.async.bulk - Hopper's Tensor Memory Accelerator (TMA)
 * copying global memory into shared memory on its own - each buffer landing
 * on its own mbarrier. The block's threads add a buffer once it has landed,
 * hand it back (a __syncthreads) and thread 0 refills it with the block's
 * next chunk. Chunks go to blocks round robin; the few elements before the
 * first 16-byte boundary and after the last whole chunk are read with plain
 * loads. Chunks are bytes, so any element type streams the same way; the
 * threshold below is in bytes too (MIN_RING_FILLS fills of the ring).
 * Blocks combine as in step 17 (last_block_done.cuh): one launch, bitwise
 * reproducible.
 *
 * Fixes from step 17: there, the loads in flight are thousands of 512-byte
 * warp requests (64 KB an SM for the float sum as compiled: its header);
 * here ~224 KB per SM is in flight as 32 KB bulk
 * requests, fewer and larger, and the DRAM sustains more of its
 * theoretical bandwidth at 4 GiB than step 17 in the same runs
 * (bench/NOTES.md, "16-byte loads versus bulk copies (TMA)").
 *
 * Cost: the ring's first fill is SMs x 224 KB = 30 MB on an H100. Below
 * MIN_RING_FILLS fills its ramp and uneven last chunks cost more than the
 * faster stream gains (at 64 MiB it is slower than step 17), so the
 * launcher hands those inputs to step 17. At 4 GiB: the bytes at the rate
 * it sustains plus the launch, the ramp and the last block
 * (bench/NOTES.md, sessions 2-3).
 * Needs code compiled for sm_90 (cp.async.bulk, mbarrier transaction
 * counts); built for anything older, the launcher uses step 17 at every size.
 * Inputs below the threshold go to step 17 through its descriptor.
 *   bench_compare -m tma_ring,cub -b 1073741824
 */
#include <cuda_runtime.h>

#include <cstdint>

#include "block_reduce.cuh"
#include "bulk_copy.cuh"
#include "cuda_check.h"
#include "grid_override.h"
#include "grid_size.cuh"
#include "last_block_done.cuh"
#include "method.cuh"
#include "vector_loads.cuh"

/* Step 17's descriptor (17_one_pass_ilp.cu): inputs too small for the ring go there. */
extern "C" const struct method method_one_pass_ilp;

namespace {

constexpr int THREADS = 256;
/* 16 KB chunks sustained less, 64 KB the same (bench/NOTES.md, "16-byte
 * loads versus bulk copies (TMA)") */
constexpr unsigned CHUNK_BYTES = 32 * 1024;
constexpr unsigned CHUNK_VECTORS = CHUNK_BYTES / 16;
static_assert(CHUNK_VECTORS % THREADS == 0, "every thread reads the same number of vectors");
constexpr int MAX_STAGES = 8;
constexpr int MIN_RING_FILLS = 8;

/* The summation order (summation_order.h): besides its thread's chain over
 * its chunks, a term goes through its vector's tree, its chunk's chain of
 * CHUNK_VECTORS / THREADS vectors, the join of head and rest, and the block's
 * tree (a rest element: reduce_vectors' chain over at most a chunk instead).
 * Step 17, which takes the inputs below the ring's threshold, has more
 * threads per block and less depth: covered. */
constexpr summation_order TMA_RING_ORDER = {
    ORDER_THREAD_CHAINS, THREADS,
    VECTOR_LOADS_DEPTH + CHUNK_VECTORS / THREADS + 1 + BLOCK_REDUCE_DEPTH};

#ifdef BULK_COPY_DEVICE_CODE
/* Thread 0: expect CHUNK_BYTES on `landed`, and start the copy that delivers them. */
__device__ __forceinline__ void fetch_chunk(uint4 *buffer, const uint4 *src, uint64_t *landed)
{
    fetch_bytes(buffer, src, CHUNK_BYTES, landed);
}
#endif

template <class T, class Op>
__global__ __launch_bounds__(THREADS, 1) void tma_ring_kernel(const T *__restrict__ in, size_t n,
                                                              acc_t<T> *__restrict__ out,
                                                              void *workspace, int stages)
{
#ifdef BULK_COPY_DEVICE_CODE
    using A = acc_t<T>;
    const Op op;
    extern __shared__ __align__(128) uint4 ring[]; /* stages x CHUNK_VECTORS */
    __shared__ uint64_t landed[MAX_STAGES];

    /* in = head (up to a 16-byte boundary) + whole chunks + rest. */
    constexpr size_t CHUNK_ELEMENTS = CHUNK_BYTES / sizeof(T);
    const size_t head = misaligned_head(in, n);
    const uint4 *chunks = reinterpret_cast<const uint4 *>(in + head);
    const size_t chunk_count = (n - head) / CHUNK_ELEMENTS;
    const size_t rest_start = head + chunk_count * CHUNK_ELEMENTS;
    /* This block's chunks: blockIdx.x, blockIdx.x + gridDim.x, ... */
    const size_t my_chunks =
        chunk_count > blockIdx.x ? (chunk_count - 1 - blockIdx.x) / gridDim.x + 1 : 0;

    if (threadIdx.x == 0) {
        init_landing(landed, stages);
        for (int s = 0; s < stages && (size_t)s < my_chunks; ++s)
            fetch_chunk(ring + s * CHUNK_VECTORS, chunks + (blockIdx.x + s * (size_t)gridDim.x) * CHUNK_VECTORS,
                        &landed[s]);
    }
    __syncthreads(); /* nobody waits on a barrier before it is initialised */

    /* Head and rest with plain loads while the first chunks are in flight. */
    const size_t thread = blockIdx.x * (size_t)THREADS + threadIdx.x;
    A acc = thread < head ? widen(in[thread]) : identity<Op, A>();
    acc = op(acc, reduce_vectors<1, Op>(in + rest_start, n - rest_start, thread,
                                        (size_t)gridDim.x * THREADS));

    int stage = 0;
    unsigned parity = 0; /* flips each time the ring wraps: the phase to wait for */
    for (size_t j = 0; j < my_chunks; ++j) {
        wait_for_copy(&landed[stage], parity);
        uint4 *buffer = ring + stage * CHUNK_VECTORS;
        A chunk_acc = identity<Op, A>(); /* short float chains: one per chunk, then one op */
#pragma unroll
        for (unsigned k = 0; k < CHUNK_VECTORS / THREADS; ++k)
            chunk_acc = op(chunk_acc, fold_vector<Op, T>(buffer[k * THREADS + threadIdx.x]));
        acc = op(acc, chunk_acc);
        /* Every thread has read the buffer before the copy engine overwrites it. */
        __syncthreads();
        if (threadIdx.x == 0 && j + stages < my_chunks)
            fetch_chunk(buffer, chunks + (blockIdx.x + (j + stages) * gridDim.x) * CHUNK_VECTORS,
                        &landed[stage]);
        if (++stage == stages) {
            stage = 0;
            parity ^= 1u;
        }
    }
    acc = block_reduce<THREADS, Op>(acc);
    last_block_writes_total<THREADS, Op>(acc, out, workspace);
#else
    __trap(); /* the launcher never starts it unless compiled for sm_90 */
#endif
}

struct ring_config {
    bool usable;      /* compiled for sm_90 or later, and room for at least two stages */
    int grid;         /* one block per SM (the occupancy calculator's answer) */
    int stages;       /* ring buffers per block */
    size_t min_n;     /* smallest input worth MIN_RING_FILLS fills of the ring */
};

template <class T, class Op> struct tma_ring_launch {
    /* Derived from the device once per (type, operator) and device
     * (once_per_device, grid_size.cuh). */
    static int config(ring_config *out)
    {
        return once_per_device<tma_ring_launch>(out, [](ring_config *c) {
            const auto kernel = tma_ring_kernel<T, Op>;
            kernel_room room;
            int per_sm = 0;
            PROPAGATE(ask_kernel_room((const void *)kernel, &room));
            *c = {};
            const size_t free_bytes = room.smem_optin - room.attributes.sharedSizeBytes;
            c->stages = (int)(free_bytes / CHUNK_BYTES < MAX_STAGES ? free_bytes / CHUNK_BYTES
                                                                     : MAX_STAGES);
            /* older PTX JIT-compiled for this GPU holds the trap */
            c->usable = room.attributes.ptxVersion >= 90 && c->stages >= 2;
            if (c->usable) {
                const size_t ring_bytes = (size_t)c->stages * CHUNK_BYTES;
                CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              (int)ring_bytes));
                CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS,
                                                                       ring_bytes));
                c->grid = room.sms * (per_sm > 0 ? per_sm : 1);
                c->min_n = MIN_RING_FILLS * (size_t)c->grid * ring_bytes / sizeof(T);
            }
            return 0;
        });
    }

    static bool ring_runs(const ring_config &c, size_t n) { return c.usable && n >= c.min_n; }

    static constexpr reduce_spec spec = {type_code<T>, Op::code};

    /* The ring's grid, c.grid, is cached; a grid a test forces (launch_grid)
     * is not, so it is asked for at every call. */
    static int workspace(size_t n, size_t *bytes)
    {
        ring_config c;
        PROPAGATE(config(&c));
        if (!ring_runs(c, n))
            return method_one_pass_ilp.workspace(spec, whole_shape(), n, bytes);
        *bytes = last_block_workspace_bytes(launch_grid(c.grid));
        return 0;
    }

    static int run(const T *d_in, size_t n, acc_t<T> *d_out, void *workspace, cudaStream_t stream)
    {
        ring_config c;
        PROPAGATE(config(&c));
        if (!ring_runs(c, n))
            return method_one_pass_ilp.launch(spec, whole_shape(), d_in, n, d_out, workspace,
                                              stream);
        const int grid = launch_grid(c.grid);
        tma_ring_kernel<T, Op><<<grid, THREADS, (size_t)c.stages * CHUNK_BYTES, stream>>>(
            d_in, n, d_out, workspace, c.stages);
        CUDA_TRY_LAUNCH();
        return 0;
    }

    static int min_elements(size_t *n)
    {
        ring_config c;
        PROPAGATE(config(&c));
        *n = c.usable ? c.min_n : 0;
        return 0;
    }
};

} // namespace

static int tma_ring_min_elements(struct reduce_spec spec, size_t *n)
{
    return with_pair(spec, [&](auto type, auto op) {
        return tma_ring_launch<typename decltype(type)::type, decltype(op)>::min_elements(n);
    });
}

DEFINE_METHOD(tma_ring, .family = FAMILY_MODERN, .source = "this suite: whole array, step 18",
              .idea = "32 KB bulk copies (TMA) into a shared-memory ring, 1 block/SM; step 17 below 8 ring fills",
              .types = ALL_TYPES, .ops = VALUE_OPS, .launch = launch_any_pair<tma_ring_launch>,
              .workspace = workspace_any_pair<tma_ring_launch>,
              .order = TMA_RING_ORDER, .own_kernel_from = tma_ring_min_elements);
