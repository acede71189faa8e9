/* reduce0 (Harris kernel 1; seeds 000-003): interleaved addressing, divergent.
 *
 * Each thread loads one element into shared memory (0.0f past n); then, at
 * stride s = 1, 2, ..., 128, the threads with tid % (2s) == 0 add
 * sdata[tid + s]; thread 0 writes the block's partial sum. Fixes step 1: 8
 * parallel steps instead of 255 serial adds, and no atomics - the pass driver
 * relaunches on the partials. Flaws: % by a run-time 2s is an integer-division
 * sequence, and the adders are spread over every warp, so all 8 warps issue
 * each step while most of their lanes idle. Like the seeds, 02-05 loop to the
 * run-time blockDim.x (06 makes the bound compile-time). 64 MiB: 3 launches
 * (65,536, 256, 1 blocks), reads 64 MiB + 256 KiB; bound by the tree's
 * instructions and barriers, far from the ~21 us the read needs.
 */
#include "cuda_check.h"
#include "pass_launch.cuh"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;

__global__ void interleaved_divergent_kernel(const float *__restrict__ in, size_t n,
                                             float *__restrict__ out)
{
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

} // namespace

extern "C" const struct pass_kernel interleaved_divergent_pass = {
    launch_pass<interleaved_divergent_kernel, BLOCK, BLOCK>, BLOCK};
