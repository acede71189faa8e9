/* Step 0 (seed 004 step 0): the baseline - no reduction at all.
 *
 * Every thread adds its one element straight into *d_out with atomicAdd
 * (*d_out zeroed by a memset on the stream first: part of the cost). It is
 * right for any n, but at 64 MiB all 16,777,216 atomics hit one address, and
 * the L2 slice that owns it applies them one after another: the time is set
 * by that atomic rate, not by the 64 MiB read (~21 us at ~3.2 TB/s). Expect
 * milliseconds on an H100 (seed 004 measured 37 ms). 1 memset + 1 launch of
 * ceil(n / 256) blocks. Float atomics land in any order: the sum's rounding
 * varies run to run. Next: add inside each block first.
 */
#include "cuda_check.h"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;

__global__ void atomic_naive_kernel(const float *__restrict__ in, size_t n,
                                    float *__restrict__ out)
{
    const size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}

} // namespace

extern "C" int atomic_naive_reduce(const float *d_in, size_t n, float *d_out,
                                   void * /*workspace*/, cudaStream_t stream)
{
    CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(float), stream));
    if (n == 0)
        return 0;
    atomic_naive_kernel<<<(unsigned)ceil_div(n, BLOCK), BLOCK, 0, stream>>>(d_in, n, d_out);
    CUDA_TRY_LAUNCH();
    return 0;
}
