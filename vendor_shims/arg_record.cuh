/* Writing argmax's and argmin's result (element_type.h's arg result: the
 * value in the accumulator type at byte 0, the index at byte 8) for the
 * libraries that find an index and leave the record to us (Thrust, cuBLAS),
 * and the identity of any result for an empty input (PyTorch):
 *
 *   write_arg_record<Op>(in, where, out, stream)          one thread writes
 *       {widen(in[i]), i} for the index i = where() the library found;
 *       i < 0 (nothing found: no elements) writes Op's identity and NO_INDEX.
 *       where: index_on_host{i} (an index the host holds: Thrust's), or
 *       blas_index{p} (cuBLAS's 1-based result in device memory: *p - 1, so
 *       its 0 for "no elements" becomes -1).
 *   write_arg_record<Op, MAGNITUDE>(...)                  value |in[i]|, for
 *       cuBLAS's I?amax / I?amin, which find the largest / smallest |x|
 *       (float and double only).
 *   fill_result_identity(spec, out, count, stream)        count results of
 *       spec (the input type and the operator) set to the identity: an arg
 *       result's is the value operator's identity and NO_INDEX, which
 *       identity_fill.h's fill_with_identity (value operators) does not write.
 *
 * One thread, one launch: the record is 16 bytes, and the element read is
 * one the library has just touched. Its cost is a launch on the stream,
 * part of the row's time. */
#ifndef ARG_RECORD_CUH
#define ARG_RECORD_CUH

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "cuda_check.h"
#include "element_traits.cuh"
#include "identity_fill.cuh"

/* The arg result for elements of T. */
template <class T> using arg_record = arg_pair<acc_t<T>>;

/* Where the winner's index comes from, read by the record's one thread. */
struct index_on_host {
    long long index; /* -1: no elements */
    __device__ long long operator()() const { return index; }
};
struct blas_index {
    const cuda::std::int64_t *one_based; /* cuBLAS's result, 0 for no elements */
    __device__ long long operator()() const { return (long long)*one_based - 1; }
};

template <class Op, bool MAGNITUDE, class T, class Where>
__global__ void arg_record_kernel(const T *in, Where where, arg_record<T> *out)
{
    const long long i = where();
    if (i < 0) {
        *out = identity<Op, arg_record<T>>();
        return;
    }
    acc_t<T> value = widen(in[i]);
    if constexpr (MAGNITUDE && cuda::std::is_same_v<acc_t<T>, float>)
        value = fabsf(value);
    else if constexpr (MAGNITUDE)
        value = fabs(value);
    *out = {value, i};
}

template <class Op, bool MAGNITUDE = false, class T, class Where>
int write_arg_record(const T *in, Where where, arg_record<T> *out, cudaStream_t stream)
{
    static_assert(is_arg_op_v<Op>, "an arg result is argmax's or argmin's");
    static_assert(!MAGNITUDE || cuda::std::is_floating_point_v<T>, "|x| of float and double only");
    arg_record_kernel<Op, MAGNITUDE><<<1, 1, 0, stream>>>(in, where, out);
    CUDA_TRY_LAUNCH();
    return 0;
}

/* Every (type, operator) pair, arg operators included: T is spec.type, the
 * results are result_t<T, Op> (identity_fill.cuh writes any accumulator). */
inline int fill_result_identity(reduce_spec spec, void *d_out, size_t count, cudaStream_t stream)
{
    return with_pair<ALL_OPS>(spec, [&](auto type, auto op) {
        using T = typename decltype(type)::type;
        using Op = decltype(op);
        return fill_identity<Op>(static_cast<result_t<T, Op> *>(d_out), count, stream);
    });
}

#endif
