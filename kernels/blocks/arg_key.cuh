/* The packed key of the first arg-max steps (33-35): an element and its
 * index in one 64-bit word whose unsigned order is the arg operator's order,
 * so that a single atomicMax on one word keeps the winner - the value in the
 * top 32 bits, ranked (element_type.h's rule: a NaN first, then the larger
 * value for argmax, the smaller for argmin), and 2^32 - 1 - index in the low
 * 32 bits, so that of equal values the lower index wins.
 *
 * What it costs: the value must fit 32 bits (float, int32, uint32, and half
 * and bfloat16 widened to float); double and int64 would need a 128-bit
 * atomic, and are refused. The index must fit 32 bits. Key 0 is "no element
 * yet": no element's key is 0, as its low half is at least 1.
 *
 * The launcher (arg_key_launch): the steps' kernel folds keys into one word
 * of the workspace with atomicMax, then a one-thread kernel turns the winning
 * key into the result - reading the winner's own element, so its exact bits
 * (a NaN's payload, a zero's sign) come back - and puts the word back to 0
 * for the next call (the workspace contract: zeroed once, left zero). */
#ifndef ARG_KEY_CUH
#define ARG_KEY_CUH

#include <cuda/std/bit>

#include "cuda_check.h"
#include "element_traits.cuh"
#include "grid_size.cuh"

/* The most elements a key takes: indices up to 2^32 - 2 keep the low half >= 1. */
constexpr size_t ARG_KEY_MAX_N = 0xFFFFFFFFull;
#define ARG_KEY_TYPES                                                                           \
    (TYPE_BIT(TYPE_FLOAT) | TYPE_BIT(TYPE_INT32) | TYPE_BIT(TYPE_UINT32) | TYPE_BIT(TYPE_HALF) | \
     TYPE_BIT(TYPE_BFLOAT16))
#define ARG_KEY_REFUSAL "a 64-bit value and its index do not fit one 64-bit atomic"

/* 32 bits whose unsigned order is the value's: for a float, the sign bit
 * flipped on a non-negative value and every bit on a negative one (-0 ranks
 * as +0: they are equal, and the index decides); an int32 with its sign bit
 * flipped; a uint32 as it is. */
template <class V> __device__ __forceinline__ unsigned value_rank(V v)
{
    if constexpr (cuda::std::is_same_v<V, float>) {
        const unsigned bits = cuda::std::bit_cast<unsigned>(v == 0.0f ? 0.0f : v);
        return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
    } else if constexpr (cuda::std::is_signed_v<V>) {
        return (unsigned)v ^ 0x80000000u;
    } else {
        return (unsigned)v;
    }
}

/* An element's key for argmax or argmin: a NaN ranks above every number in
 * both, as the rule has it. */
template <class Op, class V> __device__ __forceinline__ unsigned long long arg_key(V value, size_t index)
{
    unsigned rank = value_rank(value);
    if constexpr (cuda::std::is_same_v<Op, op_argmin>)
        rank = ~rank;
    if (value != value)
        rank = 0xFFFFFFFFu;
    return (unsigned long long)rank << 32 | (0xFFFFFFFFu - (unsigned)index);
}

/* The winning key into the result, the word back to 0. */
template <class T, class Op>
__global__ void arg_key_result_kernel(const T *__restrict__ in, unsigned long long *key,
                                      result_t<T, Op> *out)
{
    const unsigned long long k = *key;
    if (k == 0) {
        *out = identity<Op, result_t<T, Op>>();
    } else {
        const size_t index = 0xFFFFFFFFu - (unsigned)(k & 0xFFFFFFFFu);
        *out = lift<Op>(in[index], index);
    }
    *key = 0;
}

/* The steps' launcher: KERNEL(in, n, key) over ceil(n / ITEMS_PER_BLOCK)
 * blocks of THREADS, or - RESIDENT - one resident wave of them, capped the
 * same way (grid_size.cuh), then the result kernel. An empty input launches
 * no block and leaves the key 0. Types whose value is not 32 bits are
 * refused by the descriptors (ARG_KEY_TYPES) and never reach a kernel. */
template <class T, class Op, auto KERNEL, int THREADS, size_t ITEMS_PER_BLOCK, bool RESIDENT>
struct arg_key_launch {
    static int workspace(size_t, size_t *bytes)
    {
        *bytes = sizeof(unsigned long long);
        return 0;
    }

    static int run(const T *d_in, size_t n, result_t<T, Op> *d_out, void *workspace,
                   cudaStream_t stream)
    {
        if constexpr (sizeof(acc_t<T>) != sizeof(unsigned)) {
            return (int)cudaErrorNotSupported;
        } else {
            auto *key = static_cast<unsigned long long *>(workspace);
            int grid = (int)ceil_div(n, ITEMS_PER_BLOCK);
            if (RESIDENT && n > 0)
                PROPAGATE(capped_resident_grid((const void *)KERNEL, THREADS, n, ITEMS_PER_BLOCK,
                                               &grid));
            if (n > 0) {
                KERNEL<<<grid, THREADS, 0, stream>>>(d_in, n, key);
                CUDA_TRY_LAUNCH();
            }
            arg_key_result_kernel<T, Op><<<1, 1, 0, stream>>>(d_in, key, d_out);
            CUDA_TRY_LAUNCH();
            return 0;
        }
    }
};

#endif
