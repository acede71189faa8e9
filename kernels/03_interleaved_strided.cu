/* reduce1 (Harris kernel 2; seeds 000, 001, 003): interleaved addressing with
 * a strided index - no divergence, but bank conflicts.
 *
 * The same additions as reduce0, reassigned: thread tid does the one at
 * index = 2*s*tid, so the adders are the first 128/s threads - whole warps,
 * and idle warps skip the step together; the modulo is gone. New flaw: a
 * warp's lanes touch words 2s apart, and shared memory has 32 banks of 4
 * bytes (bank = word % 32), so lanes 16/s apart hit the same bank and are
 * served one after another: 2-way at s = 1, 4-way at s = 2, 8-way for
 * s = 4..16, on both reads and the write. 64 MiB: 3 launches (65,536, 256,
 * 1 blocks), reads 64 MiB + 256 KiB; still bound by the tree, not by DRAM.
 */
#include "cuda_check.h"
#include "pass_launch.cuh"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;

__global__ void interleaved_strided_kernel(const float *__restrict__ in, size_t n,
                                           float *__restrict__ out)
{
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        const unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

} // namespace

extern "C" const struct pass_kernel interleaved_strided_pass = {
    launch_pass<interleaved_strided_kernel, BLOCK, BLOCK>, BLOCK};
