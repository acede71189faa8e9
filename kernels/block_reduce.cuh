/* Shared building blocks for the modern kernels (shuffle onward). The classic
 * progression kernels spell out their own shared-memory trees on purpose:
 * each of them *is* a way of reducing inside a block. */
#ifndef BLOCK_REDUCE_CUH
#define BLOCK_REDUCE_CUH

#define FULL_WARP_MASK 0xffffffffu

/* Sum over the 32 lanes of a full warp; every lane gets the total. */
__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(FULL_WARP_MASK, v, offset);
    return v;
}

/* Sum over a block of BLOCK threads (a multiple of 32, at most 1024): warps
 * reduce with shuffles, shared memory holds only one value per warp.
 * The total is valid in thread 0. */
template <int BLOCK>
__device__ __forceinline__ float block_sum(float v)
{
    static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps, at most 1024");
    constexpr int WARPS = BLOCK / 32;
    __shared__ float warp_totals[WARPS];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;

    v = warp_sum(v);
    if (WARPS == 1)
        return v;
    if (lane == 0)
        warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < WARPS ? warp_totals[lane] : 0.0f;
        v = warp_sum(v);
    }
    return v;
}

#endif
