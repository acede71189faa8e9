/* Step 16 (cuda-samples threadFenceReduction): one launch; the last block to
 * finish adds the partials.
 *
 * Step 15's kernel (float4 grid-stride loads, resident grid of 512-thread
 * blocks capped at one float4 per thread, block_sum()) with the second launch
 * folded in: each block stores its partial and draws a ticket from a counter
 * in the workspace; the block that draws the last ticket adds every partial
 * in a fixed order and writes *d_out (last_block_done.cuh explains the memory
 * ordering). Bitwise the same result run to run on one GPU. n = 0: one block
 * writes 0. Fixes step 15: no second launch, no gap. Flaw: one 16-byte load
 * in flight per thread (step 17 issues several). 64 MiB: reads 64 MiB + 2 KiB
 * in 1 launch; expect near the DRAM limit (~21 us at ~3.2 TB/s) plus the
 * last block's ~1.2 us of L2 round trips.
 */
#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "last_block_done.cuh"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 512;

__global__ __launch_bounds__(BLOCK) void single_pass_kernel(const float *__restrict__ in, size_t n,
                                                            float *__restrict__ out,
                                                            void *workspace)
{
    float sum = sum_aligned_float4<1>(in, n, blockIdx.x * (size_t)BLOCK + threadIdx.x,
                                      (size_t)gridDim.x * BLOCK);
    sum = block_sum<BLOCK>(sum);
    last_block_writes_total<BLOCK>(sum, out, workspace);
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
    *bytes = last_block_workspace_bytes(grid);
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
