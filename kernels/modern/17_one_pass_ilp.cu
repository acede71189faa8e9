/* Step 17 - one pass, many loads in flight: the suite's answer to CUB.
 *
 * Idea: a single launch of a persistent grid (SMs x resident blocks, from the
 * occupancy calculator). Each thread's grid-stride loop issues LOADS
 * independent 16-byte loads before its first add, to keep them in flight
 * together. __launch_bounds__(THREADS, 1) lets ptxas take the registers that
 * needs (40-48 a thread: one block of 1024 an SM). Without the 1, ptxas
 * aimed at two blocks an SM and fitted the sums, max and min of 4-byte
 * types and double in 32 registers by landing each load in the registers of
 * the one before: one load in flight a thread, half the bytes in flight an
 * SM, and slower at 64 MiB and 1 GiB on an H200 (both builds timed back to
 * back: bench/results/experiments/h200_loads_in_flight_probes_1f9c8a8.log).
 * With it, every kernel keeps its four loads in flight (bench/loads_in_flight.py
 * reads it from the SASS; every type's kernel and registers in
 * bench/results/experiments/sass_loads_in_flight_sm90_07f98d2.txt).
 * Blocks reduce with shuffles and write one partial each;
 * the last block to finish (last_block_done.cuh, as in single_pass) adds
 * the partials in a fixed order, so the result is bitwise reproducible. A
 * grid of one block skips the counter.
 *
 * Fixes from single_pass (step 16): that kernel issues one load per thread
 * and iteration; here the loop keeps LOADS in flight together, and blocks
 * of 1024 threads halve the partials the last block must add. Small inputs
 * skip the counter: up to 16 KiB (4 Ki floats) is one block of 256 threads,
 * each folding four neighbouring vectors as CUB's single tile does, up to
 * 64 KiB one block of 1024 (one batch of loads each), and mid sizes
 * get only the blocks they have work for (one 16-byte vector per thread):
 * one launch, no memset, no host sync. The limits are in bytes, so they hold
 * for every element type; each vector is widened and combined in registers
 * (8 halves: 8 HADD2.F32 conversions, still far under the memory time).
 *
 * Expected cost: the bytes at the bandwidth this kernel sustains at 1 GiB,
 * plus the event-timed cost of an empty kernel, plus the DRAM ramp, the
 * drain and the last block - one launch fewer than CUB's two. The
 * %globaltimer timeline that splits those parts is in bench/NOTES.md
 * ("The two numbers first", "64 MiB: a timeline first").
 * argmax and argmin (the last step of their progression, after 33-35 and
 * 15-16): the same kernel on (value, index) pairs; each thread folds a
 * batch of loads as two trees, element j of every vector first, then the
 * vectors' winners by value and place (fold_batch_arg in vector_loads.cuh),
 * so keeping the first of equal values costs one comparison an element,
 * the chain that waits on the loads is a few comparisons deep, not one an
 * element (a scan in index order kept three of the four loads of half and
 * bfloat16 in flight), and the last block's combine needs no key.
 *   bench_compare -m one_pass_ilp --type all --op all
 */
#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "last_block_done.cuh"
#include "method.cuh"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 1024;
#ifdef REDUCE_SLOWDOWN_DEMO
/* Test build only (CMake REDUCE_SLOWDOWN_DEMO): an older, slower kernel under
 * this name, so the baseline comparison can be shown to say SLOWER. */
constexpr int LOADS = 1;
constexpr int GRID_DIVISOR = 8;
#else
constexpr int LOADS = 4;
constexpr int GRID_DIVISOR = 1;
#endif
/* Up to SMALL_BLOCK_BYTES (4 Ki floats): one block of SMALL_BLOCK threads,
 * one batch of LOADS neighbouring vectors each. A 1024-thread block costs
 * more to start and reduce: at 12 and 16 KiB of every (type, operator) the
 * 256-thread block was the faster, and neighbouring vectors faster again
 * than every 256th (bench/results/experiments/h200_small_block_pairs_ebde3ef.log,
 * h200_small_block_blocked_e334e08.log; bench/NOTES.md, session 67). */
constexpr int SMALL_BLOCK = 256;
constexpr size_t SMALL_BLOCK_BYTES = (size_t)SMALL_BLOCK * LOADS * 16;

/* NEIGHBOURS: one block whose threads cover the input in one batch each. */
template <int THREADS, class T, class Op, bool NEIGHBOURS = false>
__global__ __launch_bounds__(THREADS, 1) void one_pass_ilp_kernel(const T *__restrict__ in, size_t n,
                                                                  result_t<T, Op> *__restrict__ out,
                                                                  void *workspace)
{
    result_t<T, Op> acc = reduce_vectors<LOADS, Op, NEIGHBOURS>(
        in, n, blockIdx.x * (size_t)THREADS + threadIdx.x, (size_t)gridDim.x * THREADS);
    acc = block_reduce<THREADS, Op>(acc);
    last_block_writes_total<THREADS, Op>(acc, out, workspace);
}

template <class T, class Op> struct one_pass_ilp_launch {
    static constexpr size_t W = VECTOR_WIDTH<T>;

    static bool fits_one_small_block(size_t n) { return n * sizeof(T) <= SMALL_BLOCK_BYTES; }

    /* Up to one batch of loads per thread, one block of BLOCK threads beats
     * spreading the input: a second block brings the counter and its L2
     * round trips. Past it one SM's own bandwidth is the limit, and spreading
     * wins (bench/NOTES.md, "Small and mid sizes"). */
    static constexpr size_t ONE_BLOCK_MAX_N = BLOCK * LOADS * W;

    /* One block up to ONE_BLOCK_MAX_N; then blocks of BLOCK threads, enough for
     * one vector per thread - spreading a mid-sized input over many SMs beats
     * giving few SMs full batches - but at most one resident wave. Or the grid
     * a test forces (launch_grid), for any n. */
    static int grid_for(size_t n, int *grid)
    {
        int chosen = 1;
        if (n > ONE_BLOCK_MAX_N) {
            PROPAGATE(resident_grid_size((const void *)one_pass_ilp_kernel<BLOCK, T, Op>, BLOCK, 0,
                                         &chosen));
            chosen = chosen / GRID_DIVISOR > 0 ? chosen / GRID_DIVISOR : 1;
            const size_t wanted = ceil_div(n, BLOCK * W);
            if (wanted < (size_t)chosen)
                chosen = (int)wanted;
        }
        *grid = launch_grid(chosen);
        return 0;
    }

    static int workspace(size_t n, size_t *bytes)
    {
        int grid = 0;
        PROPAGATE(grid_for(n, &grid));
        *bytes = last_block_workspace_bytes(grid);
        return 0;
    }

    static int run(const T *d_in, size_t n, result_t<T, Op> *d_out, void *workspace,
                   cudaStream_t stream)
    {
        int grid = 0;
        PROPAGATE(grid_for(n, &grid));
        if (fits_one_small_block(n) && grid == 1)
            one_pass_ilp_kernel<SMALL_BLOCK, T, Op, true><<<1, SMALL_BLOCK, 0, stream>>>(d_in, n, d_out,
                                                                                        workspace);
        else /* or a small input on the grid a test forces */
            one_pass_ilp_kernel<BLOCK, T, Op><<<grid, BLOCK, 0, stream>>>(d_in, n, d_out, workspace);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

} // namespace

DEFINE_METHOD(one_pass_ilp, .family = FAMILY_MODERN, .source = "this suite: whole array, step 17",
              .idea = "one launch, persistent grid of 1024-thread blocks, 4 16-byte loads a thread and trip",
              .types = ALL_TYPES, .ops = ALL_OPS, .launch = launch_any_pair<one_pass_ilp_launch, ALL_OPS>,
              .workspace = workspace_any_pair<one_pass_ilp_launch, ALL_OPS>,
              .order = {.kind = ORDER_THREAD_CHAINS, .width = SMALL_BLOCK, /* its smallest block */
                        .depth = VECTOR_LOADS_DEPTH + BLOCK_REDUCE_DEPTH});
