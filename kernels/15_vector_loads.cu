/* Step 15 (seed 004 step 7): 16-byte float4 loads.
 *
 * Step 13 with the loop reading float4s through sum_aligned_float4()
 * (vector_loads.cuh), which peels the 0-3 floats before d_in's first 16-byte
 * boundary and the 0-3 after the last whole float4: any 4-byte-aligned
 * pointer, any n. Grid: resident_grid_size() (528 blocks of 512 on an H100
 * SXM), capped at one float4 per thread, at least 1; partials, then a second
 * one-block launch (one launch when one block covers n; n = 0 writes 0).
 * Fixes step 13: each load moves 16 bytes, so one load per thread is ~4 MiB
 * in flight GPU-wide - about DRAM latency x bandwidth - with a quarter of
 * the loop instructions. Flaw: two launches and the gap between them.
 * 64 MiB: reads 64 MiB + 2 KiB; expect near the DRAM limit plus a launch
 * (seed 004: 72% of its GPU's peak, level with CUB). Next: one launch.
 */
#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "reduce_method.h"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 512;

__global__ __launch_bounds__(BLOCK) void vec4_kernel(const float *__restrict__ in, size_t n,
                                                     float *__restrict__ out)
{
    float sum = sum_aligned_float4<1>(in, n, blockIdx.x * (size_t)BLOCK + threadIdx.x,
                                      (size_t)gridDim.x * BLOCK);
    sum = block_sum<BLOCK>(sum);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

/* One resident wave, no block without a float4 per thread, at least one. */
int grid_for(size_t n, int *grid)
{
    PROPAGATE(resident_grid_size((const void *)vec4_kernel, BLOCK, 0, grid));
    const size_t wanted = ceil_div(n, 4 * (size_t)BLOCK);
    if (wanted < (size_t)*grid)
        *grid = wanted > 0 ? (int)wanted : 1;
    return 0;
}

} // namespace

extern "C" int vec4_workspace(size_t n, size_t *bytes)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    *bytes = (size_t)grid * sizeof(float);
    return 0;
}

extern "C" int vec4_reduce(const float *d_in, size_t n, float *d_out, void *workspace,
                           cudaStream_t stream)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    float *partials = grid > 1 ? (float *)workspace : d_out;
    vec4_kernel<<<grid, BLOCK, 0, stream>>>(d_in, n, partials);
    CUDA_TRY_LAUNCH();
    if (grid > 1) {
        vec4_kernel<<<1, BLOCK, 0, stream>>>(partials, (size_t)grid, d_out);
        CUDA_TRY_LAUNCH();
    }
    return 0;
}
