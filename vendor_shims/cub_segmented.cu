/* cub::DeviceSegmentedReduce with begin and end offsets: one result per row
 * or segment, called the way a careful user calls it - the temporary storage
 * size is queried per shape (the workspace query) and the harness allocates
 * it outside the timed region, so the timed call is the reduction alone.
 *   rows:        no offsets array: begin = i x cols through a transform of a
 *                counting iterator, end = begin + 1 (64-bit)
 *   segments:    the shape's device offsets, begin = offsets, end =
 *                offsets + 1 (CUB's idiom for contiguous segments)
 *   sums:        DeviceSegmentedReduce::Sum (in the input type, as the
 *                suite's integer rows do)
 *   max, min:    DeviceSegmentedReduce::Reduce with cuda::maximum / minimum
 *                and our identity: ::Max and ::Min start from lowest() and
 *                max(), so an empty float segment would read -FLT_MAX where
 *                every other row gives -inf (the `cub` row does the same)
 *   half, bf16:  ::Reduce over a transform iterator that widens each element
 *                to float, reducing in float
 *   argmax,      ::ArgMax / ::ArgMin on the input as it is, each segment's
 *   argmin:      (index, extremum) pair stored as our record by a tabulate
 *                output iterator (cub_arg_records.cuh): the value widened,
 *                an empty segment - where CUB writes its own start - given
 *                (identity, -1) after reading its two offsets, and a
 *                segment of nothing but -inf (argmax of floats), where
 *                CCCL 3.0.1 returns that start too, element 0; inside CUB's
 *                kernel: no second kernel, two more loads a segment in the
 *                row's time. CUB keeps the first extremum on ties (ours)
 *                but has no NaN rule (METHOD_OWN_NAN_RULE). These overloads
 *                take int offsets (3.0.1 and 3.5): more than INT_MAX
 *                elements are reduced in batches of whole rows, one call
 *                each; segments past INT_MAX elements in all are REFUSED
 *                (METHOD_INT_ARG_OFFSETS: their offsets are on the device),
 *                as is a row that long.
 * num_segments is 64-bit (CCCL 3.0.1 and 3.5), so are the offsets: more than
 * 2^31 elements in all work. CUB 3.0.1 gives each segment one block.
 * A block a segment: narrow rows leave most of each block idle and rows of
 * 2^20 give too few blocks to fill the GPU, so it is near the whole-array
 * sum of the same bytes only around a few thousand columns (H100, 64 MiB
 * float, CUB 3.0.1: bench/results/h100_rows_sweep_1827c9f.json).
 *   bench_compare --cols 32 -m cub_segmented
 *   bench_compare --cols 32 -o argmax -m cub_segmented */
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/cstdint>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <climits>
#include <cstdio>

#include "cccl_operator.cuh"
#include "cub_arg_records.cuh"
#include "cuda_check.h"
#include "method.cuh"

namespace {

/* Row i's first element, i x cols: CUB's begin offsets for rows. */
struct row_start {
    cuda::std::int64_t cols;
    __host__ __device__ cuda::std::int64_t operator()(cuda::std::int64_t row) const { return row * cols; }
};

auto row_starts(cuda::std::int64_t cols)
{
    return thrust::make_transform_iterator(thrust::counting_iterator<cuda::std::int64_t>(0), row_start{cols});
}

template <class T, class Op> struct cub_segmented_launch {
    using A = acc_t<T>;
    using R = result_t<T, Op>;

    template <class Offsets>
    static cudaError_t reduce(void *temp_storage, size_t &bytes, const T *in, R *out,
                              cuda::std::int64_t count, Offsets begin, Offsets end, cudaStream_t stream)
    {
        const typename cccl_operator<Op, A>::type op;
        if constexpr (!cuda::std::is_same_v<A, T>)
            return cub::DeviceSegmentedReduce::Reduce(temp_storage, bytes,
                                                      thrust::make_transform_iterator(in, widen_op<T>()),
                                                      out, count, begin, end, op, identity<Op, A>(), stream);
        else if constexpr (cuda::std::is_same_v<Op, op_sum>)
            return cub::DeviceSegmentedReduce::Sum(temp_storage, bytes, in, out, count, begin, end, stream);
        else
            return cub::DeviceSegmentedReduce::Reduce(temp_storage, bytes, in, out, count, begin, end, op,
                                                      identity<Op, A>(), stream);
    }

    /* argmax / argmin of `count` segments from `begin` (bounds: each
     * segment's first element and length, cub_arg_records.cuh). */
    template <class Offsets, class Bounds>
    static cudaError_t arg_reduce(void *temp_storage, size_t &bytes, const T *in, R *out,
                                  cuda::std::int64_t count, Offsets begin, Bounds bounds, cudaStream_t stream)
    {
        const auto records = arg_records_out<T, Op, cub::KeyValuePair<int, T>>(in, out, bounds);
        if constexpr (cuda::std::is_same_v<Op, op_argmax>)
            return cub::DeviceSegmentedReduce::ArgMax(temp_storage, bytes, in, records, count, begin,
                                                      begin + 1, stream);
        else
            return cub::DeviceSegmentedReduce::ArgMin(temp_storage, bytes, in, records, count, begin,
                                                      begin + 1, stream);
    }

    /* Rows for the arg overloads' int offsets: batches of whole rows of at
     * most INT_MAX elements, each call's input starting at its first row
     * (in-row indices need no shift). The first batch is the largest: a size
     * query asks for it alone. */
    static cudaError_t arg_reduce_rows(void *temp_storage, size_t &bytes, const T *in, reduce_shape shape,
                                       R *out, cudaStream_t stream)
    {
        const auto cols = (cuda::std::int64_t)shape.cols, count = (cuda::std::int64_t)shape.count;
        const cuda::std::int64_t rows_per_call = INT_MAX / cols;
        for (cuda::std::int64_t first = 0; first < count; first += rows_per_call) {
            const cuda::std::int64_t rows = count - first < rows_per_call ? count - first : rows_per_call;
            const cudaError_t err =
                arg_reduce(temp_storage, bytes, in ? in + first * cols : nullptr, out ? out + first : nullptr,
                           rows, row_starts(cols), row_bounds{cols}, stream);
            if (err != cudaSuccess || temp_storage == nullptr)
                return err;
        }
        return cudaSuccess;
    }

    /* One call for both phases of CUB's idiom (temp_storage == nullptr: size
     * query), with the shape's begin and end offsets. */
    static cudaError_t reduce(void *temp_storage, size_t &bytes, const T *in, reduce_shape shape, size_t n,
                              R *out, cudaStream_t stream)
    {
        const auto count = (cuda::std::int64_t)shape.count;
        if constexpr (is_arg_op_v<Op>) {
            /* the registry refuses these first (METHOD_INT_ARG_OFFSETS); a direct call errs */
            if (shape.kind == SHAPE_ROWS ? shape.cols > (size_t)INT_MAX : n > (size_t)INT_MAX) {
                std::fprintf(stderr, "cub_segmented: %s past INT_MAX elements: CUB's arg offsets are int\n",
                             shape.kind == SHAPE_ROWS ? "a row" : "segments");
                return cudaErrorInvalidValue;
            }
            if (shape.kind == SHAPE_ROWS)
                return arg_reduce_rows(temp_storage, bytes, in, shape, out, stream);
            const offset_bounds<const segment_offset *> bounds{shape.offsets};
            return arg_reduce(temp_storage, bytes, in, out, count, shape.offsets, bounds, stream);
        } else {
            if (shape.kind == SHAPE_ROWS) {
                const auto begin = row_starts((cuda::std::int64_t)shape.cols);
                return reduce(temp_storage, bytes, in, out, count, begin, begin + 1, stream);
            }
            return reduce(temp_storage, bytes, in, out, count, shape.offsets, shape.offsets + 1, stream);
        }
    }

    /* At least 1 byte: a workspace of none would reach run() as nullptr,
     * which CUB takes for another size query, and nothing would be computed. */
    static int workspace(reduce_shape shape, size_t n, size_t *bytes)
    {
        *bytes = 0;
        CUDA_TRY(reduce(nullptr, *bytes, nullptr, shape, n, nullptr, 0));
        *bytes = *bytes > 0 ? *bytes : 1;
        return 0;
    }

    static int run(const T *in, reduce_shape shape, size_t n, R *out, void *workspace, cudaStream_t stream)
    {
        /* CUB's two-phase idiom asks for the size again: host work only, which
         * the cold protocol's flush kernel hides (the GPU is busy meanwhile). */
        size_t bytes = 0;
        CUDA_TRY(reduce(nullptr, bytes, nullptr, shape, n, nullptr, stream));
        CUDA_TRY(reduce(workspace, bytes, in, shape, n, out, stream));
        return 0;
    }
};

} // namespace

DEFINE_METHOD(cub_segmented, .family = FAMILY_VENDOR, .source = "CCCL cub::DeviceSegmentedReduce",
              .idea = "vendor segmented reduction from begin/end offsets (rows: i x cols, no array); "
                      "temp storage allocated outside the timing",
              .types = ALL_TYPES, .ops = ALL_OPS, .launch = launch_any_pair<cub_segmented_launch, ALL_OPS>,
              .workspace = workspace_any_pair<cub_segmented_launch, ALL_OPS>,
              /* argmax, argmin: CUB's < and ==, and int offsets */
              .flags = METHOD_OWN_NAN_RULE | METHOD_INT_ARG_OFFSETS,
              .order = {.kind = ORDER_SERIAL_CHAIN}, /* the library's own: unknown */
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
