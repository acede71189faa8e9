/* reduce6 (Harris kernel 6; seed 003 "完全展开"): completely unrolled.
 *
 * reduce5 with the block size a template parameter and every tree step
 * written out as `if constexpr (BLOCK >= 2s)`: for any power-of-two BLOCK
 * from 64 to 1024 the steps it needs are straight-line code and the others
 * vanish at compile time - guaranteed by the language, not left to the loop
 * unroller (unrolled_tree_sum in warp_tail.cuh, which reduce7 reuses). The
 * tail is reduce5's last_warp_sum. Instantiated with 256. Here
 * BLOCK was already a compile-time constant in reduce4/5 and nvcc unrolled
 * those loops, so expect reduce5's time (seed 003 measured 1.4% better).
 * Flaw: still 2 inputs per thread - 32,768 blocks each pay the tree and its
 * barriers. 64 MiB: 3 launches (32,768, 64, 1 blocks), reads 64 MiB + 128 KiB.
 */
#include "cuda_check.h"
#include "pass_launch.cuh"
#include "reduce_method.h"
#include "warp_tail.cuh"

namespace {

template <int BLOCK>
__global__ void completely_unrolled_kernel(const float *__restrict__ in, size_t n,
                                           float *__restrict__ out)
{
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (2 * (size_t)BLOCK) + tid;

    sdata[tid] = (i < n ? in[i] : 0.0f) + (i + BLOCK < n ? in[i + BLOCK] : 0.0f);
    __syncthreads();

    /* The whole tree, written out for this BLOCK (warp_tail.cuh). */
    const float sum = unrolled_tree_sum<BLOCK>(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = sum;
}

constexpr int BLOCK = 256;
constexpr unsigned ITEMS = 2 * BLOCK;

} // namespace

extern "C" const struct pass_kernel completely_unrolled_pass = {
    launch_pass<completely_unrolled_kernel<BLOCK>, BLOCK, ITEMS>, ITEMS};
