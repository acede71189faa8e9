/* reduce7 (Harris kernel 7; seed 004 step 5): many elements per thread.
 *
 * A fixed grid of one resident wave - resident_grid_size() blocks (132 SMs x
 * 8 = 1,056 on an H100 SXM), no more than ceil(n / 512) - walks the input
 * with a grid-stride loop, each thread adding ~62 inputs into a register at
 * 64 MiB; then reduce6's unrolled tree writes one partial per block to the
 * workspace, and a second launch of the same kernel with one block sums the
 * partials into *d_out (a single launch when one block covers n). Each
 * iteration adds two inputs BLOCK apart, as Harris does: two independent
 * loads in flight per thread instead of one, which the small grid needs to
 * keep DRAM busy. Fixes reduce6: the tree and its barriers run once per ~62
 * inputs, not per 2, and 2 launches, not 3. Flaw: 4-byte loads, two at a time
 * (vec4 follows). 64 MiB: reads 64 MiB + ~4 KiB; should be DRAM-bound.
 *   bench_compare -r 7
 */
#include "method.cuh"
#include "two_launches.cuh"
#include "warp_tail.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ void reduce7_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const Op op;
    __shared__ A sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t stride = 2 * (size_t)BLOCK * gridDim.x;

    A acc = identity<Op, A>();
    for (size_t i = blockIdx.x * (2 * (size_t)BLOCK) + tid; i < n; i += stride) {
        /* Both loads before any use: neither waits for the other. */
        const A a = widen(in[i]);
        const A b = i + BLOCK < n ? widen(in[i + BLOCK]) : identity<Op, A>();
        acc = op(acc, op(a, b));
    }
    sdata[tid] = acc;
    __syncthreads();

    const A total = unrolled_tree_reduce<BLOCK, Op>(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = total;
}

/* One wave of resident blocks, no block without a whole 2 x BLOCK segment. */
template <class T, class Op>
using reduce7_launch = two_launches<reduce7_kernel<T, Op>, reduce7_kernel<acc_t<T>, Op>, BLOCK, 2 * BLOCK>;

} // namespace

DEFINE_METHOD(reduce7, .family = FAMILY_PROGRESSION, .source = "Harris, Optimizing Parallel Reduction in CUDA (2007), kernel 7; seed 004 step 5",
              .idea = "many elements per thread: grid-stride loop over a fixed grid, 2 launches",
              .types = ALL_TYPES, .ops = VALUE_OPS, .launch = launch_any_pair<reduce7_launch>,
              .workspace = workspace_any_pair<reduce7_launch>,
              .order = {.kind = ORDER_THREAD_CHAINS, .width = BLOCK, .depth = 1 + tree_depth(BLOCK)});
