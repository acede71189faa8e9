/* Element types and operators as C++ types, for kernels written once as
 * templates over (T, Op) - seed 001's generic binary operator with its
 * identity element ("zero"), made compile-time.
 *
 *   acc_t<T>           the type T is reduced in: float for half and bfloat16
 *                      (their 8 bits of precision would lose a sum), T otherwise
 *   result_t<T, Op>    what Op reduces elements of T into: acc_t<T> for sum,
 *                      max and min; arg_pair<acc_t<T>> (the value and its index)
 *                      for argmax and argmin
 *   widen(x)           an element as its accumulator type
 *   lift<Op>(x, i)     element x at index i as result_t: widen(x), or the pair
 *                      (widen(x), i); kernels pass the index whatever Op is,
 *                      and the compiler drops it where Op does not use it
 *   identity<Op, A>()  sum 0; max -inf (the lowest integer); min +inf (the
 *                      largest); argmax, argmin: max's or min's with NO_INDEX
 *   Op{}(a, b)         sum a + b; max/min fmaxf/fminf (fmax/fmin) for floating
 *                      point, so a NaN input is ignored by the value operators
 *                      (CUB's cuda::maximum is a < b ? b : a, which is not);
 *                      argmax/argmin keep the winner by element_type.h's rule:
 *                      a NaN wins, then the larger (smaller) value, then on a
 *                      tie the lower index */
#ifndef ELEMENT_TRAITS_CUH
#define ELEMENT_TRAITS_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/bit>
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

/* Arg-max's and arg-min's accumulator, laid out as element_type.h's arg
 * result: the value at byte 0, the index at byte 8, 16 bytes for any value
 * type (after a 4-byte value, 4 bytes of padding: store_result writes them).
 * Inside a span of fewer than 2^31 elements a kernel may carry the index as
 * an int counted from the span's start (arg_pair<V, int>, 8 bytes for a
 * float: one register less per pair, one shuffle less per exchange, 32-bit
 * compares) and widen it when the span's result is written (widen_index). */
template <class V, class I = long long> struct arg_pair {
    V value;
    I index;
};
static_assert(sizeof(arg_pair<float>) == ARG_RESULT_BYTES && sizeof(arg_pair<double>) == ARG_RESULT_BYTES,
              "an arg_pair is element_type.h's arg result");

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

/* Whether b wins over a for arg-max (MAX) or arg-min: a NaN over every
 * number (a NaN is both the largest and the smallest value), then the larger
 * (smaller) value, then - equal values, two NaNs - the lower index. NO_INDEX
 * (-1) compares as the largest index, so the identity loses every tie. */
template <bool MAX, class V, class I>
__host__ __device__ __forceinline__ bool arg_wins(const arg_pair<V, I> &b, const arg_pair<V, I> &a)
{
    if constexpr (!cuda::std::numeric_limits<V>::has_quiet_NaN) {
        if (b.value != a.value)
            return MAX ? a.value < b.value : b.value < a.value;
    } else {
        const bool b_nan = b.value != b.value, a_nan = a.value != a.value;
        if (b_nan != a_nan)
            return b_nan;
        if (!b_nan && b.value != a.value)
            return MAX ? a.value < b.value : b.value < a.value;
    }
    using U = cuda::std::make_unsigned_t<I>;
    return (U)b.index < (U)a.index;
}

/* arg_wins' rule written as one expression of comparisons, with no branch.
 * Where pairs go through the combine one after another (split_columns'
 * chains down a column, the segments' last kernel) it measured faster; put
 * in arg_wins' place everywhere, it made argmax rows of 33 floats slower
 * (bench/results/experiments/h200_arg_wins_without_branch_0c69549.log,
 * h200_segments_last_kernel_and_block_int_index_484ba40.log). */
template <bool MAX, class V, class I>
__host__ __device__ __forceinline__ bool arg_wins_without_branch(const arg_pair<V, I> &b,
                                                                 const arg_pair<V, I> &a)
{
    using U = cuda::std::make_unsigned_t<I>;
    const bool lower = (U)b.index < (U)a.index;
    /* false where either value is a NaN */
    const bool beyond = MAX ? a.value < b.value : b.value < a.value;
    if constexpr (!cuda::std::numeric_limits<V>::has_quiet_NaN) {
        return beyond | ((b.value == a.value) & lower);
    } else {
        const bool b_nan = b.value != b.value, a_nan = a.value != a.value;
        const bool tied = (b.value == a.value) | (b_nan & a_nan);
        return (b_nan & !a_nan) | beyond | (tied & lower);
    }
}

/* Whether value b beats value a outright for arg-max (MAX) or arg-min: a
 * NaN over a number, then the strictly larger (smaller) value. Equal values
 * do not: in a scan in ascending index order the earlier one stays, which is
 * the tie rule without comparing indices. */
template <bool MAX, class V> __host__ __device__ __forceinline__ bool arg_beats(V b, V a)
{
    if constexpr (cuda::std::numeric_limits<V>::has_quiet_NaN)
        if (b != b || a != a)
            return b != b && a == a;
    return MAX ? a < b : b < a;
}

/* The same rule written without a branch: a number a is beaten by whatever
 * is not at most (at least) a - a NaN b included, as every comparison with a
 * NaN is false - and a NaN a by nothing. In the row lanes' scan
 * (vector_loads.cuh) it saves a branch an element; put in arg_beats' place
 * everywhere, it made block_per_row's argmax slower from 4096 columns on,
 * the widths adaptive_rows gives it
 * (bench/results/experiments/h100_argmax_row_int_index_366734d.log). */
template <bool MAX, class V> __host__ __device__ __forceinline__ bool arg_beats_without_branch(V b, V a)
{
    if constexpr (cuda::std::numeric_limits<V>::has_quiet_NaN)
        return a == a && !(MAX ? b <= a : a <= b);
    else
        return MAX ? a < b : b < a;
}

/* The comparison of a scan in index order: without a branch where the
 * index is an int (a span's lanes, row_lanes.cuh), arg_beats elsewhere. */
template <bool MAX, class I, class V> __host__ __device__ __forceinline__ bool span_beats(V b, V a)
{
    if constexpr (sizeof(I) == sizeof(int))
        return arg_beats_without_branch<MAX>(b, a);
    else
        return arg_beats<MAX>(b, a);
}

template <bool MAX, reduce_op CODE> struct op_arg {
    static constexpr bool is_max = MAX;
    static constexpr reduce_op code = CODE;
    template <class V, class I>
    __host__ __device__ __forceinline__ arg_pair<V, I> operator()(arg_pair<V, I> a,
                                                                  arg_pair<V, I> b) const
    {
        return arg_wins<MAX>(b, a) ? b : a;
    }
};
using op_argmax = op_arg<true, OP_ARGMAX>;
using op_argmin = op_arg<false, OP_ARGMIN>;

template <class Op> inline constexpr bool is_arg_op_v =
    cuda::std::is_same_v<Op, op_argmax> || cuda::std::is_same_v<Op, op_argmin>;

template <class T> inline constexpr bool is_arg_pair_v = false;
template <class V, class I> inline constexpr bool is_arg_pair_v<arg_pair<V, I>> = true;

/* *dst = v, every byte of it: an arg_pair of a 4-byte value also gets its
 * padding written (as 0). Copied member by member, the padding stays
 * unwritten and no 32-byte sector of a run of such results is ever whole, so
 * the L2 fills each from DRAM before writing it back: a read of every result
 * besides its write. Narrow argmax rows and short segments spent much of
 * their time on that; double results, which have no padding, did not
 * change (bench/results/experiments/h100_arg_results_written_whole_54a6f78.log).
 * Every kernel that writes many results writes them through here, and so
 * does every partial that a later block or launch reads back: whole, the
 * combine of an argmax over one row of 2^24 floats and of 128 columns
 * measured faster, the whole-array argmax about the same
 * (bench/results/experiments/h200_partials_written_whole_e6d4e9d.log). On the
 * host, element_type.h's store_result does the same for a result buffer. */
template <class A> inline constexpr bool has_padding_v = false;
template <class V, class I> inline constexpr bool has_padding_v<arg_pair<V, I>> =
    sizeof(V) + sizeof(I) < sizeof(arg_pair<V, I>);

template <class A> __device__ __forceinline__ void store_result(A *dst, const A &v)
{
    if constexpr (has_padding_v<A>) {
        static_assert(sizeof(A::value) == 4 && sizeof(A::index) == 8, "a 4-byte value, 4 of padding");
        reinterpret_cast<uint2 *>(dst)[0] = make_uint2(cuda::std::bit_cast<unsigned>(v.value), 0u);
        reinterpret_cast<long long *>(dst)[1] = v.index;
    } else {
        *dst = v;
    }
}

/* An arg_pair read as an element - a second launch over a first launch's
 * partials - is already a result: it keeps its own index. I: the index type
 * of an arg result (an int inside a span, span_result_t). */
template <class T, class Op, class I = long long>
using result_t = cuda::std::conditional_t<is_arg_op_v<Op> && !is_arg_pair_v<T>,
                                          arg_pair<acc_t<T>, I>, acc_t<T>>;

/* What a span (a row, a segment) is reduced in: arg results with an int
 * index counted from the span's start; the value operators' acc_t. */
template <class T, class Op> using span_result_t = result_t<T, Op, int>;

template <class Op, class T, class I = long long>
__host__ __device__ __forceinline__ result_t<T, Op, I> lift(T x, size_t index)
{
    if constexpr (is_arg_op_v<Op> && !is_arg_pair_v<T>)
        return {widen(x), (I)index};
    else
        return widen(x);
}

/* A span's result as the kernel writes it: an int index widened by sign
 * (NO_INDEX stays NO_INDEX) and moved by `offset` (0 for a span's own
 * result); anything else as it is. */
template <class A> __host__ __device__ __forceinline__ auto widen_index(A a, size_t offset = 0)
{
    if constexpr (is_arg_pair_v<A>) {
        using V = decltype(A::value);
        return arg_pair<V>{a.value, a.index == NO_INDEX ? (long long)NO_INDEX
                                                        : (long long)a.index + (long long)offset};
    } else {
        return a;
    }
}

/* Lane exchange (xor, up and from one lane) and a read at L2 (__ldcg: past this SM's L1, which does not
 * see other SMs' stores), for any accumulator: an arg_pair moves as its two
 * members. */
#define FULL_WARP_MASK 0xffffffffu
template <class A> __device__ __forceinline__ A shuffle_xor(A v, int offset)
{
    return __shfl_xor_sync(FULL_WARP_MASK, v, offset);
}
template <class V, class I> __device__ __forceinline__ arg_pair<V, I> shuffle_xor(arg_pair<V, I> v, int offset)
{
    return {__shfl_xor_sync(FULL_WARP_MASK, v.value, offset),
            __shfl_xor_sync(FULL_WARP_MASK, v.index, offset)};
}
template <class A> __device__ __forceinline__ A shuffle_up(A v, int delta)
{
    return __shfl_up_sync(FULL_WARP_MASK, v, delta);
}
template <class V, class I> __device__ __forceinline__ arg_pair<V, I> shuffle_up(arg_pair<V, I> v, int delta)
{
    return {__shfl_up_sync(FULL_WARP_MASK, v.value, delta),
            __shfl_up_sync(FULL_WARP_MASK, v.index, delta)};
}
template <class A> __device__ __forceinline__ A shuffle_from(A v, int lane)
{
    return __shfl_sync(FULL_WARP_MASK, v, lane);
}
template <class V, class I> __device__ __forceinline__ arg_pair<V, I> shuffle_from(arg_pair<V, I> v, int lane)
{
    return {__shfl_sync(FULL_WARP_MASK, v.value, lane), __shfl_sync(FULL_WARP_MASK, v.index, lane)};
}
template <class A> __device__ __forceinline__ A load_at_l2(const A *p) { return __ldcg(p); }
template <class V, class I> __device__ __forceinline__ arg_pair<V, I> load_at_l2(const arg_pair<V, I> *p)
{
    return {__ldcg(&p->value), __ldcg(&p->index)};
}

/* Op(a, b) with argmax and argmin compared by arg_wins_without_branch: the
 * same result as Op{}(a, b). */
template <class Op> struct combine_without_branch {
    template <class A> __host__ __device__ __forceinline__ A operator()(A a, A b) const
    {
        if constexpr (is_arg_op_v<Op> && is_arg_pair_v<A>)
            return arg_wins_without_branch<Op::is_max>(b, a) ? b : a;
        else
            return Op{}(a, b);
    }
};

/* Op(a, b) where every element behind b comes after every element behind a
 * (a thread's scan in index order): argmax and argmin need only ask whether
 * b's value beats a's - or a is still the identity - not compare indices. */
template <class Op, class A> __device__ __forceinline__ A combine_later(A a, A b)
{
    if constexpr (is_arg_op_v<Op> && is_arg_pair_v<A>)
        return a.index == NO_INDEX || span_beats<Op::is_max, decltype(A::index)>(b.value, a.value) ? b : a;
    else
        return Op{}(a, b);
}

/* combine_later with the value test without a branch whatever the index's
 * type (combine_later's arg_beats, for a 64-bit index, compiles to
 * branches). */
template <class Op, class A> __device__ __forceinline__ A combine_later_without_branch(A a, A b)
{
    if constexpr (is_arg_op_v<Op> && is_arg_pair_v<A>)
        return (a.index == NO_INDEX) | arg_beats_without_branch<Op::is_max>(b.value, a.value) ? b : a;
    else
        return Op{}(a, b);
}

template <class Op, class A> __host__ __device__ __forceinline__ constexpr A identity()
{
    if constexpr (is_arg_op_v<Op>) {
        using V = decltype(A::value);
        using value_op = cuda::std::conditional_t<cuda::std::is_same_v<Op, op_argmax>, op_max, op_min>;
        return A{identity<value_op, V>(), NO_INDEX};
    } else {
        using limits = cuda::std::numeric_limits<A>;
        if constexpr (cuda::std::is_same_v<Op, op_sum>)
            return A(0);
        else if constexpr (cuda::std::is_same_v<Op, op_max>)
            return limits::has_infinity ? -limits::infinity() : limits::lowest();
        else
            return limits::has_infinity ? limits::infinity() : limits::max();
    }
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
 * run-time (type, operator) becomes a template instantiation. Every type is
 * instantiated with the operators in OPS (OP_BIT mask: VALUE_OPS unless a
 * method's kernels take argmax and argmin too); returns
 * cudaErrorInvalidValue for any other spec - the registry refuses those
 * pairs before a call. */
template <unsigned OPS, class T, class F> int with_operator(reduce_op op, F &&f)
{
    switch (op) {
    case OP_SUM: if constexpr ((OPS & OP_BIT(OP_SUM)) != 0) return f(type_tag<T>{}, op_sum{}); break;
    case OP_MAX: if constexpr ((OPS & OP_BIT(OP_MAX)) != 0) return f(type_tag<T>{}, op_max{}); break;
    case OP_MIN: if constexpr ((OPS & OP_BIT(OP_MIN)) != 0) return f(type_tag<T>{}, op_min{}); break;
    case OP_ARGMAX:
        if constexpr ((OPS & OP_BIT(OP_ARGMAX)) != 0) return f(type_tag<T>{}, op_argmax{});
        break;
    case OP_ARGMIN:
        if constexpr ((OPS & OP_BIT(OP_ARGMIN)) != 0) return f(type_tag<T>{}, op_argmin{});
        break;
    case OP_COUNT: break;
    }
    return (int)cudaErrorInvalidValue;
}

template <unsigned OPS = VALUE_OPS, class F> int with_pair(reduce_spec spec, F &&f)
{
    switch (spec.type) {
    case TYPE_FLOAT: return with_operator<OPS, float>(spec.op, f);
    case TYPE_DOUBLE: return with_operator<OPS, double>(spec.op, f);
    case TYPE_INT32: return with_operator<OPS, cuda::std::int32_t>(spec.op, f);
    case TYPE_INT64: return with_operator<OPS, cuda::std::int64_t>(spec.op, f);
    case TYPE_UINT32: return with_operator<OPS, cuda::std::uint32_t>(spec.op, f);
    case TYPE_HALF: return with_operator<OPS, __half>(spec.op, f);
    case TYPE_BFLOAT16: return with_operator<OPS, __nv_bfloat16>(spec.op, f);
    case TYPE_COUNT: break;
    }
    return (int)cudaErrorInvalidValue;
}

#endif
