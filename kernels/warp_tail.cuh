/* The last warp of the classic shared-memory tree (Harris's warpReduce),
 * written to be correct under independent thread scheduling (Volta+). Used by
 * the progression kernels from reduce5 on; the modern kernels use shuffles
 * (block_reduce.cuh) instead. */
#ifndef WARP_TAIL_CUH
#define WARP_TAIL_CUH

/* Sums sdata[0..63] and returns the total in lane 0 (other lanes: partial
 * garbage). Call from all 32 lanes of warp 0 only, after the __syncthreads
 * that published those 64 values.
 * Each lane keeps its running sum in a register; __syncwarp() is a barrier
 * and a memory fence for the warp, so every step's stores are visible before
 * any lane reads them (read-after-write), and every lane has read before the
 * next step overwrites (write-after-read). Lanes t >= s compute values that no
 * meaningful lane reads; letting them run keeps the warp converged. */
__device__ __forceinline__ float last_warp_sum(float *sdata, unsigned tid)
{
    float v = sdata[tid] + sdata[tid + 32];
#pragma unroll
    for (unsigned s = 16; s > 0; s >>= 1) {
        sdata[tid] = v;
        __syncwarp();
        v += sdata[tid + s];
        __syncwarp();
    }
    return v;
}

#endif
