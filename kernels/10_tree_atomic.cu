/* Step 10 (seed 004 step 2): a tree inside the block, one atomic per block.
 *
 * Each thread loads one input (0.0f past n) into shared memory; the block
 * halves the live range 8 times with sequential addressing (thread t adds
 * sdata[t + s], a barrier after every level) and thread 0 atomicAdds the
 * block total to *d_out (zeroed by a memset on the stream first). Fixes
 * step 1's serial loop: 8 levels of parallel adds instead of 255 dependent
 * ones in thread 0. Flaws: still 65,536 same-address atomics at 64 MiB,
 * applied one by one at the L2 slice that owns *d_out; one 4-byte load in
 * flight per thread; 8 __syncthreads per 256 inputs with ever fewer adders.
 * Reads 64 MiB once; 1 memset + 1 launch of ceil(n / 256) blocks. Expect
 * about what step 1 costs (seed 004: 198 us vs 180 us on its GPU): the
 * atomics, not the ~21 us read, set the time. Float atomics land in any
 * order, so the rounding varies run to run. Next: shuffles instead of shared.
 */
#include "cuda_check.h"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;

__global__ void tree_atomic_kernel(const float *__restrict__ in, size_t n, float *__restrict__ out)
{
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();

    /* Every level waits for the whole block: the warps adding at level s read
     * values other warps wrote at level 2s. */
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        atomicAdd(out, sdata[0]);
}

} // namespace

extern "C" int tree_atomic_reduce(const float *d_in, size_t n, float *d_out,
                                  void * /*workspace*/, cudaStream_t stream)
{
    CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(float), stream));
    if (n == 0)
        return 0;
    tree_atomic_kernel<<<(unsigned)ceil_div(n, BLOCK), BLOCK, 0, stream>>>(d_in, n, d_out);
    CUDA_TRY_LAUNCH();
    return 0;
}
