/* Step 13 (seed 004 steps 5-6, cuda-samples reduce7 style): grid-stride loop.
 *
 * One wave of resident blocks - resident_grid_size(), 132 x 4 = 528 blocks
 * on an H100 SXM, capped at ceil(n / 512), at least 1 - walks the input in a
 * grid-stride loop (~62 floats per thread at 64 MiB); block_sum() writes one
 * partial per block to the workspace and a second one-block launch of the
 * same kernel sums them into *d_out (one launch when one block covers n;
 * n = 0 writes 0). Seed 004 step 6 hand-tuned 2048 x 512 for its GPU; the
 * occupancy calculator derives the wave for any GPU. BLOCK = 512 is the
 * seed's block: at full occupancy 256 gives the same SMs x 2,048 threads, so
 * it only halves the partials. Fixes step 12: 2 launches, not 3; one block
 * sum per ~62 inputs. Flaw: the loop is not unrolled, so each add waits for
 * its load before the next issues - one 4-byte load in flight per thread,
 * ~1 MiB GPU-wide as in step 12: latency-bound. 64 MiB: reads 64 MiB + 2 KiB;
 * expect somewhat under step 12 (seed 004: -8%). Next: 16-byte loads.
 */
#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 512;

__global__ __launch_bounds__(BLOCK) void grid_stride_kernel(const float *__restrict__ in, size_t n,
                                                            float *__restrict__ out)
{
    const size_t stride = (size_t)gridDim.x * BLOCK;
    float sum = 0.0f;
    for (size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x; i < n; i += stride)
        sum += in[i];
    sum = block_sum<BLOCK>(sum);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

/* One resident wave, but no block without at least one input per thread,
 * and at least one block. The same answer for the workspace query and the
 * launch (resident_grid_size caches it). */
int grid_for(size_t n, int *grid)
{
    PROPAGATE(resident_grid_size((const void *)grid_stride_kernel, BLOCK, 0, grid));
    const size_t wanted = ceil_div(n, BLOCK);
    if (wanted < (size_t)*grid)
        *grid = wanted > 0 ? (int)wanted : 1;
    return 0;
}

} // namespace

extern "C" int grid_stride_shuffle_workspace(size_t n, size_t *bytes)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    *bytes = (size_t)grid * sizeof(float);
    return 0;
}

extern "C" int grid_stride_shuffle_reduce(const float *d_in, size_t n, float *d_out,
                                          void *workspace, cudaStream_t stream)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    float *partials = grid > 1 ? (float *)workspace : d_out;
    grid_stride_kernel<<<grid, BLOCK, 0, stream>>>(d_in, n, partials);
    CUDA_TRY_LAUNCH();
    if (grid > 1) {
        grid_stride_kernel<<<1, BLOCK, 0, stream>>>(partials, (size_t)grid, d_out);
        CUDA_TRY_LAUNCH();
    }
    return 0;
}
