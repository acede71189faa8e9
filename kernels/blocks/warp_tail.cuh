/* The last warp of the classic shared-memory tree (Harris's warpReduce),
 * written to be correct under independent thread scheduling (Volta+). Used by
 * the progression kernels from reduce5 on (and reduce6's whole unrolled tree,
 * which reduce7 reuses); the modern kernels use shuffles
 * (block_reduce.cuh) instead. */
#ifndef WARP_TAIL_CUH
#define WARP_TAIL_CUH

#include "element_traits.cuh"

/* Op over sdata[0..63], returned in lane 0 (other lanes: partial garbage).
 * Call from all 32 lanes of warp 0 only, after the __syncthreads that
 * published those 64 values.
 * Each lane keeps its running value in a register; __syncwarp() is a barrier
 * and a memory fence for the warp, so every step's stores are visible before
 * any lane reads them (read-after-write), and every lane has read before the
 * next step overwrites (write-after-read). Lanes t >= s compute values that no
 * meaningful lane reads; letting them run keeps the warp converged. */
template <class Op, class A> __device__ __forceinline__ A last_warp_reduce(A *sdata, unsigned tid)
{
    A v = Op{}(sdata[tid], sdata[tid + 32]);
#pragma unroll
    for (unsigned s = 16; s > 0; s >>= 1) {
        sdata[tid] = v;
        __syncwarp();
        v = Op{}(v, sdata[tid + s]);
        __syncwarp();
    }
    return v;
}

/* reduce6's completely unrolled tree: Op over sdata[0..BLOCK) - published by
 * a __syncthreads - returned in thread 0 (other threads: partial garbage or
 * the identity). Every `if constexpr` step this BLOCK does not need vanishes
 * at compile time; the last 64 values go to last_warp_reduce. */
template <int BLOCK, class Op, class A>
__device__ __forceinline__ A unrolled_tree_reduce(A *sdata, unsigned tid)
{
    static_assert(BLOCK >= 64 && BLOCK <= 1024 && (BLOCK & (BLOCK - 1)) == 0,
                  "a power of two with at least the 64 values last_warp_reduce reads");
    const Op op;
    if constexpr (BLOCK >= 1024) {
        if (tid < 512)
            sdata[tid] = op(sdata[tid], sdata[tid + 512]);
        __syncthreads();
    }
    if constexpr (BLOCK >= 512) {
        if (tid < 256)
            sdata[tid] = op(sdata[tid], sdata[tid + 256]);
        __syncthreads();
    }
    if constexpr (BLOCK >= 256) {
        if (tid < 128)
            sdata[tid] = op(sdata[tid], sdata[tid + 128]);
        __syncthreads();
    }
    if constexpr (BLOCK >= 128) {
        if (tid < 64)
            sdata[tid] = op(sdata[tid], sdata[tid + 64]);
        __syncthreads();
    }
    return tid < 32 ? last_warp_reduce<Op>(sdata, tid) : identity<Op, A>();
}

#endif
