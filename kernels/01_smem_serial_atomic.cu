/* Step 1 (seed 004 step 1): sum inside the block, then one atomic per block.
 *
 * The block copies its 256 inputs to shared memory (0.0f past n); thread 0
 * adds them one after another and makes the block's single atomicAdd. Fixes
 * step 0's contention: 256x fewer atomics (65,536 at 64 MiB). Flaws: 255 of
 * 256 threads only load; thread 0's 256 dependent adds serialise each block;
 * and the 65,536 same-address atomics still queue at one L2 slice. Reads
 * 64 MiB once; 1 memset + 1 launch of ceil(n / 256) blocks. Expect on the
 * order of 100 us on an H100 (seed 004: 180 us), set by the atomics and the
 * serial loop, not by the ~21 us read. Next: add in a tree, not serially.
 */
#include "cuda_check.h"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;

__global__ void smem_serial_atomic_kernel(const float *__restrict__ in, size_t n,
                                          float *__restrict__ out)
{
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();

    if (tid == 0) {
        float sum = 0.0f;
        for (int k = 0; k < BLOCK; ++k)
            sum += sdata[k];
        atomicAdd(out, sum);
    }
}

} // namespace

extern "C" int smem_serial_atomic_reduce(const float *d_in, size_t n, float *d_out,
                                         void * /*workspace*/, cudaStream_t stream)
{
    CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(float), stream));
    if (n == 0)
        return 0;
    smem_serial_atomic_kernel<<<(unsigned)ceil_div(n, BLOCK), BLOCK, 0, stream>>>(d_in, n, d_out);
    CUDA_TRY_LAUNCH();
    return 0;
}
