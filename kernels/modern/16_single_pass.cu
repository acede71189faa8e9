/* Step 16 (cuda-samples threadFenceReduction): one launch; the last block to
 * finish adds the partials.
 *
 * Step 15's kernel (16-byte grid-stride loads, resident grid of 512-thread
 * blocks capped at one vector per thread, block_reduce()) with the second
 * launch folded in (one_pass_launch.cuh): each block stores its partial and draws a ticket from a counter
 * in the workspace; the block that draws the last ticket adds every partial
 * in a fixed order and writes *d_out (last_block_done.cuh explains the memory
 * ordering). Bitwise the same result run to run on one GPU. n = 0: one block
 * writes the identity. Fixes step 15: no second launch, no gap. Flaw: one 16-byte load
 * in flight per thread (step 17 issues several a trip). 64 MiB: reads 64 MiB + 2 KiB
 * in 1 launch; expect near the DRAM limit plus the last block's L2 round
 * trips (bench/NOTES.md, session 2, "The combine").
 * argmax and argmin: the same launch on (value, index) pairs - after step
 * 35's packed key, a combine with no 32-bit limit on the value or index.
 *   bench_compare -m single_pass
 */
#include "block_reduce.cuh"
#include "last_block_done.cuh"
#include "method.cuh"
#include "one_pass_launch.cuh"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 512;

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void single_pass_kernel(const T *__restrict__ in, size_t n,
                                                            result_t<T, Op> *__restrict__ out,
                                                            void *workspace)
{
    result_t<T, Op> acc = reduce_vectors<1, Op>(in, n, blockIdx.x * (size_t)BLOCK + threadIdx.x,
                                         (size_t)gridDim.x * BLOCK);
    acc = block_reduce<BLOCK, Op>(acc);
    last_block_writes_total<BLOCK, Op>(acc, out, workspace);
}

/* One resident wave, no block without a 16-byte vector per thread. */
template <class T, class Op>
using single_pass_launch = one_pass_launch<single_pass_kernel<T, Op>, BLOCK, BLOCK * VECTOR_WIDTH<T>>;

} // namespace

DEFINE_METHOD(single_pass, .family = FAMILY_MODERN, .source = "cuda-samples threadFenceReduction",
              .idea = "16-byte loads, last block done (fence + counter) combines partials: 1 launch",
              .types = ALL_TYPES, .ops = ALL_OPS, .launch = launch_any_pair<single_pass_launch, ALL_OPS>,
              .workspace = workspace_any_pair<single_pass_launch, ALL_OPS>,
              .order = {.kind = ORDER_THREAD_CHAINS, .width = BLOCK,
                        .depth = VECTOR_LOADS_DEPTH + BLOCK_REDUCE_DEPTH});
