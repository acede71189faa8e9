/* reduce4 (seed 000's reduce4): the tree loop unrolled on a compile-time size.
 *
 * reduce3 with the loop bound a compile-time constant: BLOCK, not blockDim.x
 * (which the compiler cannot know), under #pragma unroll. The 8 steps become
 * straight-line code with constant strides: no loop counter, compare or
 * branch, and `tid < s` compares against an immediate. Flaw left: the last 6
 * steps (s = 32..1) still stop all 8 warps at __syncthreads although only
 * warp 0 adds. 64 MiB: 3 launches (32,768, 64, 1 blocks), reads 64 MiB +
 * 128 KiB; expect a small gain over reduce3 (seed 000 measured 7%).
 */
#include "cuda_check.h"
#include "pass_launch.cuh"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;
constexpr unsigned ITEMS = 2 * BLOCK;

__global__ void unrolled_loop_kernel(const float *__restrict__ in, size_t n,
                                     float *__restrict__ out)
{
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)ITEMS + tid;

    sdata[tid] = (i < n ? in[i] : 0.0f) + (i + BLOCK < n ? in[i + BLOCK] : 0.0f);
    __syncthreads();

#pragma unroll
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

} // namespace

extern "C" const struct pass_kernel unrolled_loop_pass = {
    launch_pass<unrolled_loop_kernel, BLOCK, ITEMS>, ITEMS};
