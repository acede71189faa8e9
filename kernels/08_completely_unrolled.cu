/* reduce6 (Harris kernel 6; seed 003 "完全展开"): completely unrolled.
 *
 * reduce5 with the block size a template parameter and every tree step
 * written out as `if constexpr (BLOCK >= 2s)`: for any power-of-two BLOCK
 * from 64 to 1024 the steps it needs are straight-line code and the others
 * vanish at compile time - guaranteed by the language, not left to the loop
 * unroller. The tail is reduce5's last_warp_sum. Instantiated with 256. Here
 * BLOCK was already a compile-time constant in reduce4/5 and nvcc unrolled
 * those loops, so expect reduce5's time (seed 003 measured 1.4% better).
 * Flaw: still 2 inputs per thread - 32,768 blocks each pay the tree and its
 * barriers. 64 MiB: 3 launches (32,768, 64, 1 blocks), reads 64 MiB + 128 KiB.
 */
#include "cuda_check.h"
#include "reduce_method.h"
#include "warp_tail.cuh"

namespace {

template <int BLOCK>
__global__ void completely_unrolled_kernel(const float *__restrict__ in, size_t n,
                                           float *__restrict__ out)
{
    static_assert(BLOCK >= 64 && BLOCK <= 1024 && (BLOCK & (BLOCK - 1)) == 0,
                  "a power of two with at least the 64 values last_warp_sum reads");
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (2 * (size_t)BLOCK) + tid;

    sdata[tid] = (i < n ? in[i] : 0.0f) + (i + BLOCK < n ? in[i + BLOCK] : 0.0f);
    __syncthreads();

    if constexpr (BLOCK >= 1024) {
        if (tid < 512)
            sdata[tid] += sdata[tid + 512];
        __syncthreads();
    }
    if constexpr (BLOCK >= 512) {
        if (tid < 256)
            sdata[tid] += sdata[tid + 256];
        __syncthreads();
    }
    if constexpr (BLOCK >= 256) {
        if (tid < 128)
            sdata[tid] += sdata[tid + 128];
        __syncthreads();
    }
    if constexpr (BLOCK >= 128) {
        if (tid < 64)
            sdata[tid] += sdata[tid + 64];
        __syncthreads();
    }
    if (tid < 32) {
        const float sum = last_warp_sum(sdata, tid);
        if (tid == 0)
            out[blockIdx.x] = sum;
    }
}

constexpr int BLOCK = 256;
constexpr unsigned ITEMS = 2 * BLOCK;

int completely_unrolled_launch(const float *d_in, size_t n, float *d_out, cudaStream_t stream)
{
    if (n == 0)
        return 0; /* no partials to write; a 0-block launch would be an error */
    completely_unrolled_kernel<BLOCK><<<(unsigned)ceil_div(n, ITEMS), BLOCK, 0, stream>>>(d_in, n, d_out);
    CUDA_TRY_LAUNCH();
    return 0;
}

} // namespace

extern "C" const struct pass_kernel completely_unrolled_pass = {completely_unrolled_launch, ITEMS};
