/* reduce2 (Harris kernel 3; seeds 000, 001, 003): sequential addressing.
 *
 * The tree turned around: at stride s = 128, 64, ..., 1 the first s threads
 * add sdata[tid + s] into sdata[tid]. Fixes reduce1's bank conflicts: a warp
 * reads and writes 32 consecutive words, one per bank; the adders stay
 * contiguous, so warps diverge only once s < 32. Flaw: half the threads never
 * add - already in the first step only 128 of the 256 that loaded do work.
 * 64 MiB: 3 launches (65,536, 256, 1 blocks), reads 64 MiB + 256 KiB; bound
 * by the tree's instructions and its 8 __syncthreads per 256 inputs.
 *   bench_compare -r 2
 */
#include "method.cuh"
#include "pass_launch.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ void reduce2_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const Op op;
    __shared__ A sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? widen(in[i]) : identity<Op, A>();
    __syncthreads();

    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

template <class T, class Op> using reduce2_pass = block_pass<reduce2_kernel<T, Op>, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(reduce2, .family = FAMILY_PROGRESSION, .source = "Harris, Optimizing Parallel Reduction in CUDA (2007), kernel 3; seeds 000, 001, 003",
              .idea = "sequential addressing: conflict-free, half the threads idle at once",
              .types = ALL_TYPES, .ops = VALUE_OPS, .pass = &pass_kernel_of<reduce2_pass>,
              .flags = METHOD_GRID_INDEPENDENT, /* n alone sets the grid */
              .order = {.kind = ORDER_BLOCK_PASSES, .width = BLOCK, .depth = tree_depth(BLOCK)});
