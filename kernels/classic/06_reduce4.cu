/* reduce4 (seed 000's reduce4): the tree loop unrolled on a compile-time size.
 *
 * reduce3 with the loop bound a compile-time constant: BLOCK, not blockDim.x
 * (which the compiler cannot know), under #pragma unroll. The 8 steps become
 * straight-line code with constant strides: no loop counter, compare or
 * branch, and `tid < s` compares against an immediate. Flaw left: the last 6
 * steps (s = 32..1) still stop all 8 warps at __syncthreads although only
 * warp 0 adds. 64 MiB: 3 launches (32,768, 64, 1 blocks), reads 64 MiB +
 * 128 KiB; expect a small gain over reduce3: the loop overhead is a small
 * part of a tree bound by its barriers (bench/results/h100_64mib.md).
 *   bench_compare -r 4
 */
#include "method.cuh"
#include "pass_launch.cuh"

namespace {

constexpr int BLOCK = 256;
constexpr unsigned ITEMS = 2 * BLOCK;

template <class T, class Op>
__global__ void reduce4_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
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
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

template <class T, class Op> using reduce4_pass = block_pass<reduce4_kernel<T, Op>, BLOCK, ITEMS>;

} // namespace

DEFINE_METHOD(reduce4, .family = FAMILY_PROGRESSION, .source = "seed 000 (reductionadd), its reduce4",
              .idea = "tree loop unrolled on a compile-time block size",
              .types = ALL_TYPES, .ops = VALUE_OPS, .pass = &pass_kernel_of<reduce4_pass>,
              .flags = METHOD_GRID_INDEPENDENT, /* n alone sets the grid */
              .order = {.kind = ORDER_BLOCK_PASSES, .width = ITEMS, .depth = tree_depth(ITEMS)});
