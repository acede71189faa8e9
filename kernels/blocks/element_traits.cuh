/* Element types and operators as C++ types, for kernels written once as
 * templates over (T, Op) - seed 001's generic binary operator with its
 * identity element ("zero"), made compile-time.
 *
 *   acc_t<T>           the type T is reduced in: float for half and bfloat16
 *                      (their 8 bits of precision would lose a sum), T otherwise
 *   widen(x)           an element as its accumulator type
 *   identity<Op, A>()  sum 0; max -inf (the lowest integer); min +inf (the largest)
 *   Op{}(a, b)         sum a + b; max/min fmaxf/fminf (fmax/fmin) for floating
 *                      point, so a NaN input is ignored by our kernels (CUB's
 *                      cuda::maximum is a < b ? b : a, which is not); the suite's
 *                      data holds no NaN */
#ifndef ELEMENT_TRAITS_CUH
#define ELEMENT_TRAITS_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "element_type.h"

template <class T> struct accumulator { using type = T; };
template <> struct accumulator<__half> { using type = float; };
template <> struct accumulator<__nv_bfloat16> { using type = float; };
template <class T> using acc_t = typename accumulator<T>::type;

template <class T> __host__ __device__ __forceinline__ acc_t<T> widen(T x) { return x; }
template <> __host__ __device__ __forceinline__ float widen<__half>(__half x) { return __half2float(x); }
template <> __host__ __device__ __forceinline__ float widen<__nv_bfloat16>(__nv_bfloat16 x)
{
    return __bfloat162float(x);
}

/* widen as a function object, for library calls that take one (CUB's and
 * Thrust's transform-reduce). */
template <class T> struct widen_op {
    __host__ __device__ acc_t<T> operator()(T x) const { return widen(x); }
};

struct op_sum {
    static constexpr reduce_op code = OP_SUM;
    template <class A> __host__ __device__ __forceinline__ A operator()(A a, A b) const { return a + b; }
};

struct op_max {
    static constexpr reduce_op code = OP_MAX;
    template <class A> __host__ __device__ __forceinline__ A operator()(A a, A b) const
    {
        if constexpr (cuda::std::is_same_v<A, float>)
            return fmaxf(a, b);
        else if constexpr (cuda::std::is_same_v<A, double>)
            return fmax(a, b);
        else
            return a < b ? b : a;
    }
};

struct op_min {
    static constexpr reduce_op code = OP_MIN;
    template <class A> __host__ __device__ __forceinline__ A operator()(A a, A b) const
    {
        if constexpr (cuda::std::is_same_v<A, float>)
            return fminf(a, b);
        else if constexpr (cuda::std::is_same_v<A, double>)
            return fmin(a, b);
        else
            return b < a ? b : a;
    }
};

template <class Op, class A> __host__ __device__ __forceinline__ constexpr A identity()
{
    using limits = cuda::std::numeric_limits<A>;
    if constexpr (cuda::std::is_same_v<Op, op_sum>)
        return A(0);
    else if constexpr (cuda::std::is_same_v<Op, op_max>)
        return limits::has_infinity ? -limits::infinity() : limits::lowest();
    else
        return limits::has_infinity ? limits::infinity() : limits::max();
}

/* The C enum's code for a C++ element type (the reverse of with_pair). */
template <class T> inline constexpr element_type type_code =
    cuda::std::is_same_v<T, float>                  ? TYPE_FLOAT
    : cuda::std::is_same_v<T, double>               ? TYPE_DOUBLE
    : cuda::std::is_same_v<T, cuda::std::int32_t>   ? TYPE_INT32
    : cuda::std::is_same_v<T, cuda::std::int64_t>   ? TYPE_INT64
    : cuda::std::is_same_v<T, cuda::std::uint32_t>  ? TYPE_UINT32
    : cuda::std::is_same_v<T, __half>               ? TYPE_HALF
    : cuda::std::is_same_v<T, __nv_bfloat16>        ? TYPE_BFLOAT16
                                                    : TYPE_COUNT;

template <class T> struct type_tag { using type = T; };

/* Calls f(type_tag<T>{}, Op{}) with the C++ types of spec: the one place a
 * run-time (type, operator) becomes a template instantiation. Every pair is
 * instantiated; returns cudaErrorInvalidValue for a spec outside the enums. */
template <class T, class F> int with_operator(reduce_op op, F &&f)
{
    switch (op) {
    case OP_SUM: return f(type_tag<T>{}, op_sum{});
    case OP_MAX: return f(type_tag<T>{}, op_max{});
    case OP_MIN: return f(type_tag<T>{}, op_min{});
    case OP_COUNT: break;
    }
    return (int)cudaErrorInvalidValue;
}

template <class F> int with_pair(reduce_spec spec, F &&f)
{
    switch (spec.type) {
    case TYPE_FLOAT: return with_operator<float>(spec.op, f);
    case TYPE_DOUBLE: return with_operator<double>(spec.op, f);
    case TYPE_INT32: return with_operator<cuda::std::int32_t>(spec.op, f);
    case TYPE_INT64: return with_operator<cuda::std::int64_t>(spec.op, f);
    case TYPE_UINT32: return with_operator<cuda::std::uint32_t>(spec.op, f);
    case TYPE_HALF: return with_operator<__half>(spec.op, f);
    case TYPE_BFLOAT16: return with_operator<__nv_bfloat16>(spec.op, f);
    case TYPE_COUNT: break;
    }
    return (int)cudaErrorInvalidValue;
}

#endif
