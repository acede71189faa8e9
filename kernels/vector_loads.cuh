/* Reading any float array with 16-byte loads. cudaMalloc'd memory is
 * 256-byte aligned, but a caller's pointer may be offset by any multiple of
 * 4 bytes (an element). Split the array into
 *   head: 0..3 floats before the first 16-byte boundary,
 *   body: whole float4s, read with 16-byte loads,
 *   tail: 0..3 floats after the last whole float4,
 * and let the first threads of the grid pick up head and tail. */
#ifndef VECTOR_LOADS_CUH
#define VECTOR_LOADS_CUH

#include <cstdint>

/* This thread's share of in[0..n): thread `thread` of `threads` sums every
 * threads-th float4 of the body, LOADS of them issued before the first add
 * (independent loads in flight hide DRAM latency), plus at most one head and
 * one tail element. LOADS = 1 is the plain grid-stride loop. */
template <int LOADS>
__device__ __forceinline__ float sum_aligned_float4(const float *__restrict__ in, size_t n,
                                                    size_t thread, size_t threads)
{
    const size_t misaligned = (16 - ((uintptr_t)in & 15)) % 16 / sizeof(float);
    const size_t head = misaligned < n ? misaligned : n;
    const float4 *__restrict__ body = reinterpret_cast<const float4 *>(in + head);
    const size_t body_len = (n - head) / 4;
    const size_t tail_start = head + body_len * 4;

    float sum = 0.0f;
    if (thread < head)
        sum += in[thread];
    if (thread < n - tail_start)
        sum += in[tail_start + thread];

    /* Whole batches of LOADS loads, then at most one partial batch with
     * predicated loads: a thread with 3 float4s left still has all 3 in
     * flight together, and the full batches pay no bounds checks. */
    size_t i = thread;
    for (; i + (LOADS - 1) * threads < body_len; i += LOADS * threads) {
        float4 v[LOADS];
#pragma unroll
        for (int k = 0; k < LOADS; ++k)
            v[k] = __ldg(&body[i + k * threads]);
#pragma unroll
        for (int k = 0; k < LOADS; ++k)
            sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    if (i < body_len) {
        float4 v[LOADS];
#pragma unroll
        for (int k = 0; k < LOADS; ++k)
            v[k] = i + k * threads < body_len ? __ldg(&body[i + k * threads])
                                              : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
        for (int k = 0; k < LOADS; ++k)
            sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    return sum;
}

#endif
