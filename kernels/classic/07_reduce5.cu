/* reduce5 (Harris kernel 5; seeds 000, 001, 003): the last warp unrolled.
 *
 * reduce4's tree stops at 64 values (s = 128, 64, each with __syncthreads);
 * then warp 0 alone finishes with last_warp_sum (warp_tail.cuh), whose steps
 * are ordered by __syncwarp, and the other 7 warps are done. Fixes reduce4's
 * 6 block-wide barriers for one warp's work. Why not the seeds' volatile
 * warpReduce: it assumes the 32 lanes run each `sdata[tid] += sdata[tid + s]`
 * in lockstep. Since Volta, independent thread scheduling lets a warp's lanes
 * progress separately, so lane t may read sdata[t + s] before lane t + s has
 * stored the previous step's sum, or after it stored this step's: a data race.
 * volatile only keeps the values out of registers; it orders nothing between
 * lanes. Flaw: still only 2 inputs per thread, so 32,768 blocks each pay the
 * tree. 64 MiB: 3 launches (32,768, 64, 1 blocks), reads 64 MiB + 128 KiB.
 *   bench_compare -r 5
 */
#include "method.cuh"
#include "pass_launch.cuh"
#include "warp_tail.cuh"

namespace {

constexpr int BLOCK = 256;
constexpr unsigned ITEMS = 2 * BLOCK;

template <class T, class Op>
__global__ void reduce5_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const Op op;
    __shared__ A sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)ITEMS + tid;

    sdata[tid] = op(i < n ? widen(in[i]) : identity<Op, A>(),
                    i + BLOCK < n ? widen(in[i + BLOCK]) : identity<Op, A>());
    __syncthreads();

#pragma unroll
    for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid < 32) {
        const A total = last_warp_reduce<Op>(sdata, tid);
        if (tid == 0)
            out[blockIdx.x] = total;
    }
}

template <class T, class Op> using reduce5_pass = block_pass<reduce5_kernel<T, Op>, BLOCK, ITEMS>;

} // namespace

DEFINE_METHOD(reduce5, .family = FAMILY_PROGRESSION, .source = "Harris, Optimizing Parallel Reduction in CUDA (2007), kernel 5; seeds 000, 001, 003",
              .idea = "last warp unrolled, warp-synchronous with __syncwarp (safe on Volta+)",
              .types = ALL_TYPES, .ops = VALUE_OPS, .pass = &pass_kernel_of<reduce5_pass>,
              .flags = METHOD_GRID_INDEPENDENT, /* n alone sets the grid */
              .order = {.kind = ORDER_BLOCK_PASSES, .width = ITEMS, .depth = tree_depth(ITEMS)});
