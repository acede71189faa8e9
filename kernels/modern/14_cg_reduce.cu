/* Step 14 (cuda-samples reduction kernel 8): step 13 in cooperative groups.
 *
 * Same plan - resident grid (resident_grid_size(), capped at ceil(n / 256)),
 * grid-stride 4-byte loads, one partial per block, a second one-block launch
 * - with the in-block sum in CG: this_thread_block(), tiled_partition<32>(),
 * cg::reduce(tile, v, cg::plus<float>()), which compiles to the same
 * butterfly shuffles as warp_sum(). It fixes no cost: it names the groups,
 * so who must take part (a whole tile; the whole block at block.sync()) is
 * in the types, not in masks. The two levels are written here, not taken
 * from block_reduce(), because showing them in CG is the step. BLOCK = 256,
 * the samples' default. Flaw: step 13's one 4-byte load in flight per
 * thread. 64 MiB: reads 64 MiB + ~4 KiB, 2 launches; expect step 13's time.
 *   bench_compare -m cg_reduce
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "method.cuh"
#include "two_launches.cuh"

namespace cg = cooperative_groups;

namespace {

constexpr int BLOCK = 256;

/* cg::reduce's function object for each operator (cg::greater is max). */
template <class Op, class A> struct cg_op;
template <class A> struct cg_op<op_sum, A> { using type = cg::plus<A>; };
template <class A> struct cg_op<op_max, A> { using type = cg::greater<A>; };
template <class A> struct cg_op<op_min, A> { using type = cg::less<A>; };

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void cg_reduce_kernel(const T *__restrict__ in, size_t n,
                                                          acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    using tile_op = typename cg_op<Op, A>::type;
    constexpr int TILES = BLOCK / 32;
    __shared__ A tile_results[TILES];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

    const size_t stride = (size_t)gridDim.x * BLOCK;
    A acc = identity<Op, A>();
    for (size_t i = blockIdx.x * (size_t)BLOCK + block.thread_rank(); i < n; i += stride)
        acc = Op{}(acc, widen(in[i]));

    acc = cg::reduce(tile, acc, tile_op());
    if (tile.thread_rank() == 0)
        tile_results[tile.meta_group_rank()] = acc;
    block.sync(); /* every tile's result is in shared memory before tile 0 reads */
    if (tile.meta_group_rank() == 0) {
        acc = tile.thread_rank() < TILES ? tile_results[tile.thread_rank()] : identity<Op, A>();
        acc = cg::reduce(tile, acc, tile_op());
        if (tile.thread_rank() == 0)
            out[blockIdx.x] = acc;
    }
}

/* One resident wave, no block without an input per thread. */
template <class T, class Op>
using cg_reduce_launch = two_launches<cg_reduce_kernel<T, Op>, cg_reduce_kernel<acc_t<T>, Op>, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(cg_reduce, .family = FAMILY_MODERN, .source = "cuda-samples reduction, kernel 8 (cooperative groups)",
              .idea = "cooperative groups: tiled_partition<32> and cg::reduce",
              .types = ALL_TYPES, .ops = VALUE_OPS, .launch = launch_any_pair<cg_reduce_launch>,
              .workspace = workspace_any_pair<cg_reduce_launch>,
              .order = {.kind = ORDER_THREAD_CHAINS, .width = BLOCK,
                        .depth = 2 * tree_depth(32) /* a tile, then the tiles' results */});
