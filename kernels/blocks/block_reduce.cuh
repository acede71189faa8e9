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

/* sm_80 and later reduce a 32-bit integer over a warp in one instruction
 * (REDUX: __reduce_max_sync, __reduce_min_sync). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
constexpr bool HAS_WARP_REDUX = false;
#else
constexpr bool HAS_WARP_REDUX = true;
#endif

/* A 4-byte arg value as a 32-bit integer that REDUX orders the way arg_wins
 * orders values: for a float, its bits with the sign bit flipped (negative
 * values: every bit), -0 as +0 (they tie) and every NaN as the extreme that
 * wins; an int or unsigned as it is. */
template <bool MAX, class V> __device__ __forceinline__ auto arg_order_key(V v)
{
    if constexpr (cuda::std::is_same_v<V, float>) {
        const unsigned bits = v == 0.0f ? 0u : __float_as_uint(v);
        const unsigned key = bits & 0x80000000u ? ~bits : bits | 0x80000000u;
        return v != v ? (MAX ? ~0u : 0u) : key;
    } else {
        return v;
    }
}

template <bool MAX, class K> __device__ __forceinline__ K warp_extreme_key(K key)
{
    return MAX ? __reduce_max_sync(FULL_WARP_MASK, key) : __reduce_min_sync(FULL_WARP_MASK, key);
}

/* The lowest index of the lanes that hold the winning value (NO_INDEX, all
 * ones unsigned, is the largest): by REDUX, a 64-bit index in two halves,
 * or by a tree of shuffles before sm_80. */
template <class I>
__device__ __forceinline__ cuda::std::make_unsigned_t<I> warp_lowest_index(bool holds, I index)
{
    using U = cuda::std::make_unsigned_t<I>;
    const U lowest = holds ? (U)index : ~U(0);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    return group_reduce<32, op_min>(lowest);
#else
    if constexpr (sizeof(U) == 4) {
        return __reduce_min_sync(FULL_WARP_MASK, lowest);
    } else {
        const unsigned high_half = (unsigned)(lowest >> 32);
        const unsigned high = __reduce_min_sync(FULL_WARP_MASK, high_half);
        const unsigned low = __reduce_min_sync(FULL_WARP_MASK, high_half == high ? (unsigned)lowest : ~0u);
        return (U)high << 32 | low;
    }
#endif
}

/* Argmax or argmin over a full warp, the value first: the winning value,
 * a ballot of the lanes that hold it, and the pair from the first of them
 * in one exchange; where two or more hold it (equal values) the lowest index
 * among them first. A 4-byte value is found by one REDUX of its
 * arg_order_key, an 8-byte one by five levels of one shuffle. A tree of
 * pairs exchanges the value and the index at every level (three shuffles a
 * level for a float and a 64-bit index). The result is the pair tree's, by
 * arg_wins' rule. Timed against shuffles of the value first (floating
 * types) and the pair tree (integers), which integers' ties made slower:
 * bench/results/experiments/h200_redux_and_flat_columns_7f2f64c.log. */
template <class Op, class V, class I>
__device__ __forceinline__ arg_pair<V, I> warp_reduce_arg(arg_pair<V, I> v)
{
    using U = cuda::std::make_unsigned_t<I>;
    bool holds;
    if constexpr (sizeof(V) == 4 && HAS_WARP_REDUX) {
        const auto key = arg_order_key<Op::is_max>(v.value);
        holds = key == warp_extreme_key<Op::is_max>(key);
    } else {
        V best = v.value;
#pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1) {
            const V other = __shfl_xor_sync(FULL_WARP_MASK, best, offset);
            best = arg_beats_without_branch<Op::is_max>(other, best) ? other : best;
        }
        holds = v.value == best;
        if constexpr (cuda::std::numeric_limits<V>::has_quiet_NaN)
            holds = holds || (v.value != v.value && best != best);
    }
    unsigned lanes = __ballot_sync(FULL_WARP_MASK, holds);
    if (__popc(lanes) > 1) {
        const U index = warp_lowest_index(holds, v.index);
        lanes = __ballot_sync(FULL_WARP_MASK, holds && (U)v.index == index);
    }
    return shuffle_from(v, __ffs(lanes) - 1);
}

/* Op over the 32 lanes of a full warp; every lane gets the result. */
template <class Op, class A> __device__ __forceinline__ A warp_reduce(A v)
{
    if constexpr (is_arg_op_v<Op> && is_arg_pair_v<A>)
        return warp_reduce_arg<Op>(v);
    else
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
