/* Shared building blocks for the modern kernels (shuffle onward). The classic
 * progression kernels spell out their own shared-memory trees on purpose:
 * each of them *is* a way of reducing inside a block. */
#ifndef BLOCK_REDUCE_CUH
#define BLOCK_REDUCE_CUH

#include "element_traits.cuh"

/* The additions a value goes through in block_reduce (for summation orders,
 * summation_order.h): 5 shuffle levels in its warp, 5 over the warps' results. */
constexpr unsigned BLOCK_REDUCE_DEPTH = 10;

/* Op over each aligned group of LANES lanes (a power of two up to 32) of a
 * full warp; every lane gets its group's result. Exchanging with lane ^ offset
 * for offsets below LANES never leaves the group, so the groups reduce side by
 * side (the row kernels' groups per row); all 32 lanes must call it. */
template <int LANES, class Op, class A> __device__ __forceinline__ A group_reduce(A v)
{
    static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "a power of two lanes");
#pragma unroll
    for (int offset = LANES / 2; offset > 0; offset >>= 1)
        v = Op{}(v, shuffle_xor(v, offset));
    return v;
}

/* Argmax or argmin over a full warp, the value first: five levels of one
 * exchange of the value find the winning value, a ballot the lanes that
 * hold it, and the pair comes from the first of them in one exchange; where
 * two or more hold it (equal values) a second tree finds the lowest index
 * among them first. A tree of pairs exchanges the value and the index at
 * every level (three shuffles a level for a float and a 64-bit index). The
 * result is the pair tree's, by arg_wins' rule. Timed against the pair tree:
 * bench/results/experiments/h200_warp_reduce_arg_value_first_817d783.log. */
template <class Op, class V, class I>
__device__ __forceinline__ arg_pair<V, I> warp_reduce_arg(arg_pair<V, I> v)
{
    using U = cuda::std::make_unsigned_t<I>;
    V best = v.value;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        const V other = __shfl_xor_sync(FULL_WARP_MASK, best, offset);
        best = arg_beats_without_branch<Op::is_max>(other, best) ? other : best;
    }
    bool holds = v.value == best;
    if constexpr (cuda::std::numeric_limits<V>::has_quiet_NaN)
        holds = holds || (v.value != v.value && best != best);
    unsigned lanes = __ballot_sync(FULL_WARP_MASK, holds);
    if (__popc(lanes) > 1) { /* equal values: the lowest index wins (NO_INDEX is the largest) */
        const U index = group_reduce<32, op_min>(holds ? (U)v.index : ~U(0));
        lanes = __ballot_sync(FULL_WARP_MASK, holds && (U)v.index == index);
    }
    return shuffle_from(v, __ffs(lanes) - 1);
}

/* Op over the 32 lanes of a full warp; every lane gets the result. */
template <class Op, class A> __device__ __forceinline__ A warp_reduce(A v)
{
    /* Integers of a small range tie in every warp, and a warp whose lanes
     * tie pays both trees (warp_reduce_arg's log: the int32 argmax slower):
     * integers keep the pair tree. */
    if constexpr (is_arg_op_v<Op> && is_arg_pair_v<A>) {
        if constexpr (!cuda::std::numeric_limits<decltype(v.value)>::is_integer)
            return warp_reduce_arg<Op>(v);
    }
    return group_reduce<32, Op>(v);
}

/* Op over a block of BLOCK threads (a multiple of 32, at most 1024): warps
 * reduce with shuffles, shared memory holds only one value per warp.
 * The result is valid in thread 0. */
template <int BLOCK, class Op, class A> __device__ __forceinline__ A block_reduce(A v)
{
    static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps, at most 1024");
    constexpr int WARPS = BLOCK / 32;
    __shared__ A warp_results[WARPS];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;

    v = warp_reduce<Op>(v);
    if (WARPS == 1)
        return v;
    if (lane == 0)
        warp_results[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < WARPS ? warp_results[lane] : identity<Op, A>();
        v = warp_reduce<Op>(v);
    }
    return v;
}

#endif
