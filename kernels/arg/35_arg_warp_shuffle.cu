/* Step 35 - warp shuffles and a grid that walks the array.
 *
 * Idea: a resident wave of 512-thread blocks (one per SM's worth of
 * occupancy, grid_size.cuh) walks the array in a grid-stride loop, each
 * thread keeping its best (value, index) pair in registers; the block then
 * combines its pairs with shuffles - five levels inside each warp, one slot
 * of shared memory per warp, five more levels in warp 0 (block_reduce.cuh,
 * the same code the sums use: a pair moves as its value and its index) -
 * and thread 0 sends one packed key (arg_key.cuh).
 *
 * Fixes from arg_block_tree (step 34): no barrier per level, a few hundred
 * blocks in all instead of one per 512 elements, so a few hundred atomics.
 * What it still costs: one element per load, so few bytes in flight per
 * thread - the loop is bound by load latency, not bandwidth; and the key
 * still limits values and indices to 32 bits. The next steps read 16-byte
 * vectors (step 15, vector_loads) and finish in one launch without a key
 * (steps 16-17, single_pass and one_pass_ilp): their building blocks carry
 * the index for every type.
 *   bench_compare -o argmax -m arg_warp_shuffle
 */
#include "arg_key.cuh"
#include "block_reduce.cuh"
#include "method.cuh"

namespace {

constexpr int BLOCK = 512;

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void arg_warp_shuffle_kernel(const T *__restrict__ in, size_t n,
                                                                 unsigned long long *key)
{
    using R = result_t<T, Op>;
    const Op op;
    R best = identity<Op, R>();
    for (size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x; i < n; i += (size_t)gridDim.x * BLOCK)
        best = op(best, lift<Op>(in[i], i));
    best = block_reduce<BLOCK, Op>(best);
    if (threadIdx.x == 0 && best.index != NO_INDEX)
        atomicMax(key, arg_key<Op>(best.value, (size_t)best.index));
}

template <class T, class Op>
using arg_warp_shuffle_launch =
    arg_key_launch<T, Op, arg_warp_shuffle_kernel<T, Op>, BLOCK, BLOCK, true>;

} // namespace

DEFINE_METHOD(arg_warp_shuffle, .family = FAMILY_ARG, .source = "this suite: argmax, step 35",
              .idea = "grid-stride pairs in registers, warp shuffles, one packed-key atomic per block",
              .types = ARG_KEY_TYPES, .ops = ARG_OPS, .unsupported_why = ARG_KEY_REFUSAL,
              .launch = launch_any_pair<arg_warp_shuffle_launch, ARG_OPS>,
              .workspace = workspace_any_pair<arg_warp_shuffle_launch, ARG_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* the largest key, whatever the order */
              .max_n = ARG_KEY_MAX_N);
