/* reduce6 (Harris kernel 6; seed 003 "完全展开"): completely unrolled.
 *
 * reduce5 with the block size a template parameter and every tree step
 * written out as `if constexpr (BLOCK >= 2s)`: for any power-of-two BLOCK
 * from 64 to 1024 the steps it needs are straight-line code and the others
 * vanish at compile time - guaranteed by the language, not left to the loop
 * unroller (unrolled_tree_sum in warp_tail.cuh, which reduce7 reuses). The
 * tail is reduce5's last_warp_sum. Instantiated with 256. Here
 * BLOCK was already a compile-time constant in reduce4/5 and nvcc unrolled
 * those loops, so expect reduce5's time, within the noise
 * (bench/results/h100_64mib.md).
 * Flaw: still 2 inputs per thread - 32,768 blocks each pay the tree and its
 * barriers. 64 MiB: 3 launches (32,768, 64, 1 blocks), reads 64 MiB + 128 KiB.
 *   bench_compare -r 6
 */
#include "method.cuh"
#include "pass_launch.cuh"
#include "warp_tail.cuh"

namespace {

template <class T, class Op, int BLOCK>
__global__ void reduce6_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const Op op;
    __shared__ A sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (2 * (size_t)BLOCK) + tid;

    sdata[tid] = op(i < n ? widen(in[i]) : identity<Op, A>(),
                    i + BLOCK < n ? widen(in[i + BLOCK]) : identity<Op, A>());
    __syncthreads();

    /* The whole tree, written out for this BLOCK (warp_tail.cuh). */
    const A total = unrolled_tree_reduce<BLOCK, Op>(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = total;
}

constexpr int BLOCK = 256;
constexpr unsigned ITEMS = 2 * BLOCK;

template <class T, class Op> using reduce6_pass = block_pass<reduce6_kernel<T, Op, BLOCK>, BLOCK, ITEMS>;

} // namespace

DEFINE_METHOD(reduce6, .family = FAMILY_PROGRESSION, .source = "Harris, Optimizing Parallel Reduction in CUDA (2007), kernel 6; seed 003",
              .idea = "completely unrolled: block size a template parameter",
              .types = ALL_TYPES, .ops = VALUE_OPS, .pass = &pass_kernel_of<reduce6_pass>,
              .flags = METHOD_GRID_INDEPENDENT, /* n alone sets the grid */
              .order = {.kind = ORDER_BLOCK_PASSES, .width = ITEMS, .depth = tree_depth(ITEMS)});
