/* Step 11 (seed 004 step 3): warp shuffles inside the block, one atomic per
 * block.
 *
 * Each thread loads one input (0.0f past n); block_sum() adds within each
 * warp through registers (__shfl_xor_sync, 5 steps), parks one value per
 * warp in shared memory, and warp 0 adds those 8; thread 0 atomicAdds the
 * block total to *d_out (zeroed by a memset on the stream first). Fixes
 * step 10's tree: 256 floats of shared traffic and 8 block-wide barriers
 * become 8 floats and one barrier. Flaw (seed 004's Amdahl point): the
 * in-block sum was never the bottleneck - the 65,536 same-address atomics
 * at 64 MiB still queue at one L2 slice, and one 4-byte load per thread
 * keeps too few bytes in flight. Reads 64 MiB once; 1 memset + 1 launch of
 * ceil(n / 256) blocks. Expect little gain over step 10 (seed 004: 181 vs
 * 198 us on its GPU). Rounding varies run to run (float atomics in any
 * order). Next: drop the atomics.
 */
#include "block_reduce.cuh"
#include "cuda_check.h"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;

__global__ __launch_bounds__(BLOCK) void warp_shuffle_atomic_kernel(const float *__restrict__ in,
                                                                    size_t n,
                                                                    float *__restrict__ out)
{
    const size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x;
    const float total = block_sum<BLOCK>(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0)
        atomicAdd(out, total);
}

} // namespace

extern "C" int warp_shuffle_atomic_reduce(const float *d_in, size_t n, float *d_out,
                                          void * /*workspace*/, cudaStream_t stream)
{
    CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(float), stream));
    if (n == 0)
        return 0;
    warp_shuffle_atomic_kernel<<<(unsigned)ceil_div(n, BLOCK), BLOCK, 0, stream>>>(d_in, n, d_out);
    CUDA_TRY_LAUNCH();
    return 0;
}
