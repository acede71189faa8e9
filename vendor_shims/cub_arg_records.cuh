/* CUB's segmented argmax / argmin output, written as our arg results
 * (element_type.h), for cub_segmented.cu and cub_fixed_size.cu.
 *
 * CUB writes one (in-segment index, extremum) pair per segment to an output
 * iterator: a cub::KeyValuePair<int, T> (key, value) from the offsets
 * overloads, a cuda::std::pair<int, T> (first, second) from the fixed-size
 * ones (CCCL >= 3.1). arg_records_out<T, Op, Found>(in, out, bounds) is a
 * tabulate output iterator: each pair reaches store_arg_records with its
 * segment number i, which writes our record out[i] = {widen(value), index}
 * in its place - no pair array, no second pass over the results.
 *
 * CUB's own start, the pair (1, lowest()) for ArgMax and (1, max()) for
 * ArgMin (-FLT_MAX for a float argmax), shows in two places, which
 * store_arg_records puts right inside CUB's kernel:
 *   an empty segment: ours is (identity, NO_INDEX). The start cannot be
 *     told from a result by its value (a float segment {-inf, -FLT_MAX} has
 *     the argmax (-FLT_MAX, 1)), so the segment's bounds are read: two
 *     offset loads a segment; rows (cols >= 1) are never empty.
 *   a segment whose every element loses to the start (all -inf for a float
 *     argmax): CCCL 3.0.1's segmented ArgMax returns the start, index 1,
 *     even for a segment of one element, where the answer is element 0 (the
 *     fault NVIDIA/cub#642 fixed in DeviceReduce). A result of index 1
 *     with the start's value is the start where the segment has no element
 *     1 or element 1 holds other bits; only then is element 1 read, and
 *     element 0 stored. (A first version read element 1 for every result
 *     of index 1 and tested its bits a byte at a time: cub_segmented's
 *     arg rows and segments ran slower,
 *     bench/results/experiments/h200_cub_segmented_start_and_1000_d047b28.log;
 *     this one costs less, but still a little, against none at all:
 *     h200_cub_segmented_start_and_1000_4faacd3.log beside it.)
 * CCCL 3.0.1 hands an empty segment's start over as its initial-value
 * wrapper, which converts to the pair type; 3.5 hands the pair itself. */
#ifndef CUB_ARG_RECORDS_CUH
#define CUB_ARG_RECORDS_CUH

#include <cub/util_type.cuh> /* cub::KeyValuePair */
#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "arg_record.cuh"
#include "cccl_requirement.cuh"

#if CCCL_VERSION >= CCCL_3_1
#include <cuda/iterator> /* cuda::make_tabulate_output_iterator */
#else
#include <thrust/iterator/tabulate_output_iterator.h> /* deprecated from CCCL 3.2 */
#endif

/* Segment i's first element and length: rows of `cols` (never empty), or
 * [begin[i], begin[i + 1]) from device offsets. */
struct row_bounds {
    long long cols;
    __host__ __device__ long long first(long long i) const { return i * cols; }
    __host__ __device__ long long length(long long) const { return cols; }
    __host__ __device__ bool empty(long long) const { return false; }
};
template <class Offsets> struct offset_bounds {
    Offsets begin;
    __host__ __device__ long long first(long long i) const { return begin[i]; }
    __host__ __device__ long long length(long long i) const { return begin[i + 1] - begin[i]; }
    __host__ __device__ bool empty(long long i) const { return begin[i] == begin[i + 1]; }
};

/* Whether a and b hold the same bits (-0.0 and 0.0 differ; a NaN matches
 * its own pattern), compared as unsigned integers of their size. */
template <class T> __host__ __device__ bool same_bits(const T &a, const T &b)
{
    using U = cuda::std::conditional_t<sizeof(T) == 2, cuda::std::uint16_t,
                                       cuda::std::conditional_t<sizeof(T) == 4, cuda::std::uint32_t,
                                                                cuda::std::uint64_t>>;
    static_assert(sizeof(U) == sizeof(T), "an element of 2, 4 or 8 bytes");
    return cuda::std::bit_cast<U>(a) == cuda::std::bit_cast<U>(b);
}

/* CUB's start value for Op: lowest() for ArgMax, max() for ArgMin. */
template <class Op, class T> __host__ __device__ T cub_start_value()
{
    if constexpr (Op::is_max)
        return cuda::std::numeric_limits<T>::lowest();
    else
        return cuda::std::numeric_limits<T>::max();
}

/* The extremum and its in-segment index, from either pair type. */
template <class K, class V> __host__ __device__ V found_value(const cub::KeyValuePair<K, V> &f)
{
    return f.value;
}
template <class K, class V> __host__ __device__ long long found_index(const cub::KeyValuePair<K, V> &f)
{
    return f.key;
}
template <class K, class V> __host__ __device__ V found_value(const cuda::std::pair<K, V> &f)
{
    return f.second;
}
template <class K, class V> __host__ __device__ long long found_index(const cuda::std::pair<K, V> &f)
{
    return f.first;
}

/* Found: the pair type CUB writes. Bounds: row_bounds or offset_bounds. */
template <class T, class Op, class Found, class Bounds> struct store_arg_records {
    const T *in;
    arg_record<T> *out;
    Bounds bounds;

    template <class Index, class Result>
    __host__ __device__ void operator()(Index i, const Result &result) const
    {
        if (bounds.empty(i)) {
            out[i] = identity<Op, arg_record<T>>();
            return;
        }
        const Found found = result;
        const T value = found_value(found);
        const long long index = found_index(found);
        /* CUB's start, not element 1: nothing loaded unless it has the
         * start's value, in registers */
        const T start = cub_start_value<Op, T>();
        if (index == 1 && same_bits(value, start) &&
            (bounds.length(i) == 1 || !same_bits(in[bounds.first(i) + 1], start)))
            out[i] = {widen(in[bounds.first(i)]), 0};
        else
            out[i] = {widen(value), index};
    }
};

template <class T, class Op, class Found, class Bounds>
auto arg_records_out(const T *in, arg_record<T> *out, Bounds bounds)
{
    const store_arg_records<T, Op, Found, Bounds> store{in, out, bounds};
#if CCCL_VERSION >= CCCL_3_1
    return cuda::make_tabulate_output_iterator(store);
#else
    return thrust::make_tabulate_output_iterator(store);
#endif
}

#endif
