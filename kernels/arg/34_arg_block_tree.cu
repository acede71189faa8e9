/* Step 34 - a block finds its own winner first: a tree in shared memory.
 *
 * Idea: each block of 256 threads takes 512 elements, each thread two (the
 * first combine during the load, as reduce3 does for sums: Harris, kernel
 * 4), and the block halves its (value, index) pairs in shared memory,
 * level after level with a barrier between (sequential addressing: no bank
 * conflicts); thread 0 sends the block's winner as one packed key
 * (arg_key.cuh). The arg operator's rule does not care in which order pairs
 * meet, so the tree gives the same bits as one thread walking the array.
 *
 * Fixes from arg_atomic (step 33): one atomic per 512 elements instead of
 * one per element, so the one word no longer serialises the whole input.
 * What it still costs: a pair is 16 bytes of shared memory a thread, and the
 * tree spends most of its levels with most threads idle behind a barrier
 * each; loads are one element at a time, and there are as many blocks as
 * 512-element pieces, each started and retired. Same key limits as step 33.
 * Next: warp shuffles, and a grid that walks the array.
 *   bench_compare -o argmax -m arg_block_tree
 */
#include "arg_key.cuh"
#include "method.cuh"

namespace {

constexpr int BLOCK = 256;
constexpr size_t ITEMS = 2 * BLOCK;

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void arg_block_tree_kernel(const T *__restrict__ in, size_t n,
                                                               unsigned long long *key)
{
    using R = result_t<T, Op>;
    __shared__ R pairs[BLOCK];
    const Op op;
    const size_t i = blockIdx.x * ITEMS + threadIdx.x;
    R mine = i < n ? lift<Op>(in[i], i) : identity<Op, R>();
    if (i + BLOCK < n)
        mine = op(mine, lift<Op>(in[i + BLOCK], i + BLOCK));
    pairs[threadIdx.x] = mine;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half)
            pairs[threadIdx.x] = op(pairs[threadIdx.x], pairs[threadIdx.x + half]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicMax(key, arg_key<Op>(pairs[0].value, (size_t)pairs[0].index));
}

template <class T, class Op>
using arg_block_tree_launch = arg_key_launch<T, Op, arg_block_tree_kernel<T, Op>, BLOCK, ITEMS, false>;

} // namespace

DEFINE_METHOD(arg_block_tree, .family = FAMILY_ARG, .source = "this suite: argmax, step 34",
              .idea = "a block's pairs halved in a shared-memory tree, one packed-key atomic per block",
              .types = ARG_KEY_TYPES, .ops = ARG_OPS, .unsupported_why = ARG_KEY_REFUSAL,
              .launch = launch_any_pair<arg_block_tree_launch, ARG_OPS>,
              .workspace = workspace_any_pair<arg_block_tree_launch, ARG_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* the largest key, whatever the order */
              .max_n = ARG_KEY_MAX_N);
