/* Step 16 (cuda-samples threadFenceReduction): one launch; the last block to
 * finish adds the partials.
 *
 * Step 15's kernel (float4 grid-stride loads, resident grid of 512-thread
 * blocks capped at one float4 per thread, block_sum()) with the second launch
 * folded in: thread 0 of each block stores its partial in the workspace,
 * fences, and takes a ticket from a counter there; the block that draws the
 * last ticket adds every partial in a fixed order and writes *d_out. Partials
 * depend only on n and the grid, and the final order is fixed: bitwise the
 * same result run to run on one GPU. n = 0: one block writes 0. Fixes step
 * 15: no second launch, no gap. Flaw: one 16-byte load in flight per thread
 * (step 17 issues several). 64 MiB: reads 64 MiB + 2 KiB in 1 launch; expect
 * near the DRAM limit (~21 us at ~3.2 TB/s) plus < 1 us for the last block.
 */
#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "reduce_method.h"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 512;

/* Workspace: the blocks-done counter at byte 0, then one float per block.
 * The counter sits at a fixed place, not after a grid-sized array, so a
 * workspace reused for another n still has its (zero) counter where this
 * call looks. Both are 4-byte types and the allocation is at least 256-byte
 * aligned, so the partials start naturally aligned right after it. */
static_assert(sizeof(unsigned) % alignof(float) == 0, "partials after the counter stay aligned");

__device__ __forceinline__ unsigned *blocks_done(void *workspace) { return (unsigned *)workspace; }
__device__ __forceinline__ float *partials(void *workspace)
{
    return (float *)((char *)workspace + sizeof(unsigned));
}

__global__ __launch_bounds__(BLOCK) void single_pass_kernel(const float *__restrict__ in, size_t n,
                                                            float *__restrict__ out,
                                                            void *workspace)
{
    __shared__ bool is_last_block;
    float sum = sum_aligned_float4<1>(in, n, blockIdx.x * (size_t)BLOCK + threadIdx.x,
                                      (size_t)gridDim.x * BLOCK);
    sum = block_sum<BLOCK>(sum);

    if (threadIdx.x == 0) {
        partials(workspace)[blockIdx.x] = sum;
        /* Release: the partial must be visible GPU-wide (at L2) before the
         * counter move that announces it. Without the fence the two writes
         * may become visible in either order: the last block could count
         * this block and still read the slot's old value. */
        __threadfence();
        /* atomicInc stores (old >= limit ? 0 : old + 1): with the limit
         * gridDim.x - 1 the last arrival both learns it is last and puts the
         * counter back to 0, atomically, for the next call (the harness
         * zeroes the workspace only once). Nothing touches the counter
         * again in this launch, and the next launch on the stream starts
         * after this one ends. */
        const unsigned ticket = atomicInc(blocks_done(workspace), gridDim.x - 1);
        is_last_block = ticket == gridDim.x - 1;
        /* Acquire: the reads of the partials below must not be performed
         * before the ticket that says they are all written. */
        if (is_last_block)
            __threadfence();
    }
    /* Broadcasts is_last_block, and orders thread 0's acquire before every
     * thread's reads below. */
    __syncthreads();
    if (!is_last_block)
        return;

    /* __ldcg reads at L2, the point where all SMs' stores meet; a plain load
     * could be served from this SM's L1, which is not kept coherent with the
     * other SMs' writes. Thread t adds partials t, t + BLOCK, ... in order,
     * then block_sum's fixed tree: the same order every run. */
    float total = 0.0f;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += BLOCK)
        total += __ldcg(&partials(workspace)[i]);
    total = block_sum<BLOCK>(total);
    if (threadIdx.x == 0)
        *out = total;
}

/* One resident wave, no block without a float4 per thread, at least one. */
int grid_for(size_t n, int *grid)
{
    PROPAGATE(resident_grid_size((const void *)single_pass_kernel, BLOCK, 0, grid));
    const size_t wanted = ceil_div(n, 4 * (size_t)BLOCK);
    if (wanted < (size_t)*grid)
        *grid = wanted > 0 ? (int)wanted : 1;
    return 0;
}

} // namespace

extern "C" int single_pass_workspace(size_t n, size_t *bytes)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    *bytes = sizeof(unsigned) + (size_t)grid * sizeof(float);
    return 0;
}

extern "C" int single_pass_reduce(const float *d_in, size_t n, float *d_out, void *workspace,
                                  cudaStream_t stream)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    single_pass_kernel<<<grid, BLOCK, 0, stream>>>(d_in, n, d_out, workspace);
    CUDA_TRY_LAUNCH();
    return 0;
}
