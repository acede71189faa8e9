/* reduce3 (Harris kernel 4; seeds 000, 001, 003): first add during load.
 *
 * A block now covers 2 * 256 = 512 inputs: thread tid loads elements tid and
 * tid + 256 of its block's segment (0.0f past n) and stores their sum, then
 * runs reduce2's tree. Fixes reduce2's idle half: every thread adds before
 * the tree, and half as many blocks run, so the per-block cost (tree,
 * barriers, block launch) is paid once per 512 inputs. Flaw: the tree is
 * instruction-bound - a loop counter and compare against the run-time
 * blockDim.x, and a full-block __syncthreads even in the last 6 steps, when
 * only warp 0 adds. 64 MiB: 3 launches (32,768, 64, 1 blocks), reads 64 MiB
 * + 128 KiB.
 */
#include "cuda_check.h"
#include "pass_launch.cuh"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;
constexpr unsigned ITEMS = 2 * BLOCK;

__global__ void first_add_during_load_kernel(const float *__restrict__ in, size_t n,
                                             float *__restrict__ out)
{
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)ITEMS + tid;

    sdata[tid] = (i < n ? in[i] : 0.0f) + (i + BLOCK < n ? in[i + BLOCK] : 0.0f);
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

extern "C" const struct pass_kernel first_add_during_load_pass = {
    launch_pass<first_add_during_load_kernel, BLOCK, ITEMS>, ITEMS};
