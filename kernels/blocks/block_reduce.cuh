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

/* Op over the 32 lanes of a full warp; every lane gets the result. */
template <class Op, class A> __device__ __forceinline__ A warp_reduce(A v)
{
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
