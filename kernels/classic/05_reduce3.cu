/* reduce3 (Harris kernel 4; seeds 000, 001, 003): first add during load.
 *
 * A block now covers 2 * 256 = 512 inputs: thread tid loads elements tid and
 * tid + 256 of its block's segment (the identity past n) and stores their sum, then
 * runs reduce2's tree. Fixes reduce2's idle half: every thread adds before
 * the tree, and half as many blocks run, so the per-block cost (tree,
 * barriers, block launch) is paid once per 512 inputs. Flaw: the tree is
 * instruction-bound - a loop counter and compare against the run-time
 * blockDim.x, and a full-block __syncthreads even in the last 6 steps, when
 * only warp 0 adds. 64 MiB: 3 launches (32,768, 64, 1 blocks), reads 64 MiB
 * + 128 KiB.
 *   bench_compare -r 3
 */
#include "method.cuh"
#include "pass_launch.cuh"

namespace {

constexpr int BLOCK = 256;
constexpr unsigned ITEMS = 2 * BLOCK;

template <class T, class Op>
__global__ void reduce3_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const Op op;
    __shared__ A sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)ITEMS + tid;

    sdata[tid] = op(i < n ? widen(in[i]) : identity<Op, A>(),
                    i + BLOCK < n ? widen(in[i + BLOCK]) : identity<Op, A>());
    __syncthreads();

    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

template <class T, class Op> using reduce3_pass = block_pass<reduce3_kernel<T, Op>, BLOCK, ITEMS>;

} // namespace

DEFINE_METHOD(reduce3, .family = FAMILY_PROGRESSION, .source = "Harris, Optimizing Parallel Reduction in CUDA (2007), kernel 4; seeds 000, 001, 003",
              .idea = "first add during load: every thread combines two inputs, half the blocks",
              .types = ALL_TYPES, .ops = VALUE_OPS, .pass = &pass_kernel_of<reduce3_pass>,
              .flags = METHOD_GRID_INDEPENDENT, /* n alone sets the grid */
              .order = {.kind = ORDER_BLOCK_PASSES, .width = ITEMS, .depth = tree_depth(ITEMS)});
