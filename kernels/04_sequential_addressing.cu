/* reduce2 (Harris kernel 3; seeds 000, 001, 003): sequential addressing.
 *
 * The tree turned around: at stride s = 128, 64, ..., 1 the first s threads
 * add sdata[tid + s] into sdata[tid]. Fixes reduce1's bank conflicts: a warp
 * reads and writes 32 consecutive words, one per bank; the adders stay
 * contiguous, so warps diverge only once s < 32. Flaw: half the threads never
 * add - already in the first step only 128 of the 256 that loaded do work.
 * 64 MiB: 3 launches (65,536, 256, 1 blocks), reads 64 MiB + 256 KiB; bound
 * by the tree's instructions and its 8 __syncthreads per 256 inputs.
 */
#include "cuda_check.h"
#include "pass_launch.cuh"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;

__global__ void sequential_addressing_kernel(const float *__restrict__ in, size_t n,
                                             float *__restrict__ out)
{
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

} // namespace

extern "C" const struct pass_kernel sequential_addressing_pass = {
    launch_pass<sequential_addressing_kernel, BLOCK, BLOCK>, BLOCK};
