/* Step 17 - one pass, many loads in flight: the suite's answer to CUB.
 *
 * Idea: a single launch of a persistent grid (SMs x resident blocks, from the
 * occupancy calculator). Each thread keeps UNROLL independent 16-byte loads
 * in flight per iteration of its grid-stride loop, so every SM has tens of KB
 * of reads outstanding - what HBM needs to reach its bandwidth. Blocks reduce
 * with shuffles and write one partial each; the last block to finish (fence +
 * counter, as in single_pass) adds the partials in a fixed order, so the
 * result is bitwise reproducible. A grid of one block skips the counter.
 *
 * Fixes from single_pass (step 16): that kernel has one load in flight per
 * thread at a time; here the loop issues UNROLL loads before the first add,
 * and small inputs get only as many blocks as they have work for (a 4 KB
 * input is one block and one launch, no memset, no host sync).
 *
 * Expected cost at 64 MiB on an H100: 67.1 MB / ~3.2 TB/s = 21 us of reading,
 * plus ~2-3 us of launch and ramp, plus < 1 us for the last block: ~24 us,
 * against ~28 us for CUB's two launches (DESIGN.md figures).
 */
#include <cuda_runtime.h>

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 256;
constexpr int UNROLL = 4;

struct one_pass_workspace {
    unsigned *blocks_done;
    float *partials;
};

__host__ __device__ inline one_pass_workspace carve(void *workspace)
{
    /* counter first, partials 16 bytes in */
    return {(unsigned *)workspace, (float *)((char *)workspace + 16)};
}

template <int THREADS, int LOADS>
__global__ __launch_bounds__(THREADS) void one_pass_kernel(const float *__restrict__ in, size_t n,
                                                           float *__restrict__ out, void *workspace)
{
    float sum = sum_aligned_float4<LOADS>(in, n, blockIdx.x * (size_t)THREADS + threadIdx.x,
                                          (size_t)gridDim.x * THREADS);
    sum = block_sum<THREADS>(sum);
    if (gridDim.x == 1) {
        if (threadIdx.x == 0)
            *out = sum;
        return;
    }

    const one_pass_workspace ws = carve(workspace);
    __shared__ bool is_last_block;
    if (threadIdx.x == 0) {
        ws.partials[blockIdx.x] = sum;
        /* Make this block's partial visible GPU-wide before the counter says
         * it is there: without the fence the last block could read a stale one. */
        __threadfence();
        is_last_block = atomicAdd(ws.blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block)
        return;

    /* Every partial is written and fenced. Read them through L2 (__ldcg):
     * this SM's L1 may hold nothing of them, but a plain load may not be
     * assumed coherent with other SMs' writes. Fixed order: deterministic. */
    float total = 0.0f;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += THREADS)
        total += __ldcg(&ws.partials[i]);
    total = block_sum<THREADS>(total);
    if (threadIdx.x == 0) {
        *out = total;
        *ws.blocks_done = 0; /* ready for the next call: the harness zeroes it only once */
    }
}

/* Blocks with work: at least one float4 batch per thread, at most a wave. */
int grid_for(size_t n, int *grid)
{
    PROPAGATE(resident_grid_size((const void *)one_pass_kernel<BLOCK, UNROLL>, BLOCK, 0, grid));
    const size_t wanted = ceil_div(n, (size_t)BLOCK * 4 * UNROLL);
    if (wanted < (size_t)*grid)
        *grid = wanted > 0 ? (int)wanted : 1;
    return 0;
}

} // namespace

extern "C" int one_pass_ilp_workspace(size_t n, size_t *bytes)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    *bytes = 16 + (size_t)grid * sizeof(float);
    return 0;
}

extern "C" int one_pass_ilp_reduce(const float *d_in, size_t n, float *d_out, void *workspace,
                                   cudaStream_t stream)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    one_pass_kernel<BLOCK, UNROLL><<<grid, BLOCK, 0, stream>>>(d_in, n, d_out, workspace);
    CUDA_TRY_LAUNCH();
    return 0;
}
