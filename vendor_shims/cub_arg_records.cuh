/* CUB's segmented argmax / argmin output, written as our arg results
 * (element_type.h), for cub_segmented.cu and cub_fixed_size.cu.
 *
 * CUB writes one (in-segment index, extremum) pair per segment to an output
 * iterator: a cub::KeyValuePair<int, T> (key, value) from the offsets
 * overloads, a cuda::std::pair<int, T> (first, second) from the fixed-size
 * ones (CCCL >= 3.1). arg_records_out<T, Op, Found>(out, begin) is a
 * tabulate output iterator: each pair reaches store_arg_records with its
 * segment number i, which writes our record out[i] = {widen(value), index}
 * in its place - no pair array, no second pass over the results.
 *
 * Empty segments: CUB writes its own sentinel there (index 1 and max() or
 * lowest(), -FLT_MAX for a float argmax); ours is (identity, NO_INDEX). The
 * sentinel cannot be told from a result by its value (a float segment
 * {-inf, -FLT_MAX} has the argmax (-FLT_MAX, 1)), so store_arg_records reads
 * the segment's bounds, begin[i] == begin[i + 1]: two offset loads per
 * segment by the thread that stores, inside CUB's own kernel. Rows are never
 * empty (cols >= 1): with the never_empty tag nothing is read.
 * CCCL 3.0.1 hands an empty segment's sentinel over as its initial-value
 * wrapper, which converts to the pair type; 3.5 hands the pair itself. */
#ifndef CUB_ARG_RECORDS_CUH
#define CUB_ARG_RECORDS_CUH

#include <cub/util_type.cuh> /* cub::KeyValuePair */
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "arg_record.cuh"
#include "cccl_requirement.cuh"

#if CCCL_VERSION >= CCCL_3_1
#include <cuda/iterator> /* cuda::make_tabulate_output_iterator */
#else
#include <thrust/iterator/tabulate_output_iterator.h> /* deprecated from CCCL 3.2 */
#endif

/* Rows of cols >= 1 elements: no segment is empty. */
struct never_empty {};

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

/* Found: the pair type CUB writes. Bounds: segment i is [begin[i],
 * begin[i + 1]) (device offsets, or an iterator), or never_empty. */
template <class T, class Op, class Found, class Bounds> struct store_arg_records {
    arg_record<T> *out;
    Bounds begin;

    template <class Index, class Result>
    __host__ __device__ void operator()(Index i, const Result &result) const
    {
        if constexpr (!cuda::std::is_same_v<Bounds, never_empty>) {
            if (begin[i] == begin[i + 1]) {
                out[i] = identity<Op, arg_record<T>>();
                return;
            }
        }
        const Found found = result;
        out[i] = {widen(found_value(found)), found_index(found)};
    }
};

template <class T, class Op, class Found, class Bounds = never_empty>
auto arg_records_out(arg_record<T> *out, Bounds begin = {})
{
    const store_arg_records<T, Op, Found, Bounds> store{out, begin};
#if CCCL_VERSION >= CCCL_3_1
    return cuda::make_tabulate_output_iterator(store);
#else
    return thrust::make_tabulate_output_iterator(store);
#endif
}

#endif
