/* Writing an operator's identity into device memory: the starting value of
 * an atomic total, the result of an empty input, the padding of seed 000's
 * split. A sum's identity is all zero bits (a memset); max and min need a
 * kernel, as their identities (-inf, the lowest integer, ...) are not one
 * repeated byte. */
#ifndef IDENTITY_FILL_CUH
#define IDENTITY_FILL_CUH

#include <cuda/std/type_traits>

#include "cuda_check.h"
#include "element_traits.cuh"

/* The identity as an element of type X: for half and bfloat16, float's
 * identity converted (0, -inf and +inf are exact in both). */
template <class Op, class X> __global__ void identity_fill_kernel(X *out, size_t count)
{
    const X value = static_cast<X>(identity<Op, acc_t<X>>());
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        store_result(&out[i], value);
}

/* count copies of the identity as elements of type X: an accumulator (an
 * atomic total, an empty input's result) or an input element (padding). */
template <class Op, class X> int fill_identity(X *out, size_t count, cudaStream_t stream)
{
    if (count == 0)
        return 0;
    if constexpr (cuda::std::is_same_v<Op, op_sum>) {
        CUDA_TRY(cudaMemsetAsync(out, 0, count * sizeof(X), stream)); /* 0 bits: zero in every type */
    } else {
        const unsigned blocks = (unsigned)(ceil_div(count, 256) < 1024 ? ceil_div(count, 256) : 1024);
        identity_fill_kernel<Op><<<blocks, 256, 0, stream>>>(out, count);
        CUDA_TRY_LAUNCH();
    }
    return 0;
}

#endif
