/* reduce0 (Harris kernel 1; seeds 000-003): interleaved addressing, divergent.
 *
 * Each thread loads one element into shared memory (the identity past n); then, at
 * stride s = 1, 2, ..., 128, the threads with tid % (2s) == 0 add
 * sdata[tid + s]; thread 0 writes the block's partial sum. Fixes step 1: 8
 * parallel steps instead of 255 serial adds, and no atomics - the pass driver
 * relaunches on the partials. Flaws: % by a run-time 2s is an integer-division
 * sequence, and the adders are spread over every warp, so all 8 warps issue
 * each step while most of their lanes idle. Like the seeds, 02-05 loop to the
 * run-time blockDim.x (06 makes the bound compile-time). 64 MiB: 3 launches
 * (65,536, 256, 1 blocks), reads 64 MiB + 256 KiB; bound by the tree's
 * instructions and barriers, far from what the read needs
 * (bench/results/h100_64mib.md).
 * Every step is a template over (element type, operator), instantiated for
 * all 21 pairs (method.cuh); the story is told for float sums.
 *   bench_compare -r 0
 */
#include "method.cuh"
#include "pass_launch.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ void reduce0_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const Op op;
    __shared__ A sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? widen(in[i]) : identity<Op, A>();
    __syncthreads();

    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

template <class T, class Op> using reduce0_pass = block_pass<reduce0_kernel<T, Op>, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(reduce0, .family = FAMILY_PROGRESSION, .source = "Harris, Optimizing Parallel Reduction in CUDA (2007), kernel 1; seeds 000-003",
              .idea = "interleaved tree, tid % (2s) picks the combiners: divergent warps",
              .types = ALL_TYPES, .ops = VALUE_OPS, .pass = &pass_kernel_of<reduce0_pass>,
              .flags = METHOD_GRID_INDEPENDENT, /* n alone sets the grid */
              .order = {.kind = ORDER_BLOCK_PASSES, .width = BLOCK, .depth = tree_depth(BLOCK)});
