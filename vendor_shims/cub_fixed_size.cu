/* cub::DeviceSegmentedReduce's fixed-size overload (CCCL >= 3.1): rows only,
 * every row `cols` long, no offsets at all:
 *   DeviceSegmentedReduce::Sum / Max / Min(temp_storage, bytes, in, out,
 *       int64 num_segments, int segment_size, stream)
 * (the same signature in CCCL 3.1.4 and 3.5). The rows are never empty
 * (cols >= 1), so ::Max and ::Min's starting values (lowest(), max()) never
 * show; half and bfloat16 go through a transform iterator that widens each
 * element to float, reducing in float. Temporary storage as the `cub` row:
 * queried per shape, allocated by the harness outside the timing.
 * argmax, argmin: DeviceSegmentedReduce::ArgMax / ArgMin(temp_storage,
 * bytes, in, out, int64 num_segments, int segment_size, stream) (CCCL 3.1
 * and 3.5 alike), on the input as it is: each row's (index, extremum) - a
 * cuda::std::pair<int, T> - stored as our record by a tabulate output
 * iterator, the value widened (cub_arg_records.cuh; rows are never empty,
 * and a row of nothing but -inf, should CUB return its start there, is
 * given element 0). In-row indices come from a 64-bit counting iterator modulo
 * segment_size, so more than 2^31 elements in all work. CUB keeps the first
 * extremum on ties (ours) and has no NaN rule (METHOD_OWN_NAN_RULE).
 * Limits: num_segments is 64-bit, segment_size an int - a row of more than
 * INT_MAX elements is an error (the descriptor has no field to refuse a
 * width), far past the 64 MiB default (2^24 floats).
 * Built against an older CCCL (the CUDA 13.0 toolkit's 3.0.1, which has no
 * such overload) it refuses every pair with CCCL_3_1_REFUSAL.text.
 * Slowest at narrow rows, near the whole-array sum of the same bytes from a
 * few thousand columns up (H100, 64 MiB float, CUB 3.5:
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json).
 *   bench_compare --cols 32 -m cub_segmented,cub_fixed_size   (configure with -DREDUCE_CCCL_ROOT=...)
 *   bench_compare --cols 32 -o argmax -m cub_fixed_size */
#include "cccl_requirement.cuh"
#include "cuda_check.h"
#include "method.cuh"

#if CCCL_VERSION >= CCCL_3_1

#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/cstdint>
#include <cuda/std/utility>
#include <thrust/iterator/transform_iterator.h>

#include <climits>
#include <cstdio>

#include "cub_arg_records.cuh"

namespace {

template <class T, class Op> struct cub_fixed_size_launch {
    using A = acc_t<T>;
    using R = result_t<T, Op>;

    /* argmax / argmin: each row's cuda::std::pair<int, T> written as our record. */
    static auto records(const T *in, R *out, int cols)
    {
        return arg_records_out<T, Op, cuda::std::pair<int, T>>(in, out, row_bounds{cols});
    }

    /* In: the input, or its widening transform for half and bf16 sums,
     * maxima and minima. */
    template <class In>
    static cudaError_t reduce(void *temp_storage, size_t &bytes, In in, R *out, cuda::std::int64_t rows,
                              int cols, cudaStream_t stream)
    {
        if constexpr (cuda::std::is_same_v<Op, op_sum>)
            return cub::DeviceSegmentedReduce::Sum(temp_storage, bytes, in, out, rows, cols, stream);
        else if constexpr (cuda::std::is_same_v<Op, op_max>)
            return cub::DeviceSegmentedReduce::Max(temp_storage, bytes, in, out, rows, cols, stream);
        else if constexpr (cuda::std::is_same_v<Op, op_min>)
            return cub::DeviceSegmentedReduce::Min(temp_storage, bytes, in, out, rows, cols, stream);
        else if constexpr (cuda::std::is_same_v<Op, op_argmax>)
            return cub::DeviceSegmentedReduce::ArgMax(temp_storage, bytes, in, records(in, out, cols), rows, cols,
                                                      stream);
        else
            return cub::DeviceSegmentedReduce::ArgMin(temp_storage, bytes, in, records(in, out, cols), rows, cols,
                                                      stream);
    }

    /* One call for both phases of CUB's idiom (temp_storage == nullptr: size
     * query). cudaErrorInvalidValue for a row past CUB's int segment_size. */
    static cudaError_t reduce(void *temp_storage, size_t &bytes, const T *in, reduce_shape shape, R *out,
                              cudaStream_t stream)
    {
        if (shape.cols > (size_t)INT_MAX) {
            std::fprintf(stderr, "cub_fixed_size: rows of %zu elements: CUB's segment_size is an int\n",
                         shape.cols);
            return cudaErrorInvalidValue;
        }
        const auto rows = (cuda::std::int64_t)shape.count;
        const int cols = (int)shape.cols;
        if constexpr (!cuda::std::is_same_v<A, T> && !is_arg_op_v<Op>)
            return reduce(temp_storage, bytes, thrust::make_transform_iterator(in, widen_op<T>()), out, rows,
                          cols, stream);
        else
            return reduce(temp_storage, bytes, in, out, rows, cols, stream);
    }

    /* At least 1 byte: a workspace of none would reach run() as nullptr,
     * which CUB takes for another size query, and nothing would be computed. */
    static int workspace(reduce_shape shape, size_t *bytes)
    {
        *bytes = 0;
        CUDA_TRY(reduce(nullptr, *bytes, nullptr, shape, nullptr, 0));
        *bytes = *bytes > 0 ? *bytes : 1;
        return 0;
    }

    static int run(const T *in, reduce_shape shape, R *out, void *workspace, cudaStream_t stream)
    {
        size_t bytes = 0; /* asked again: host work only, as in the `cub` row */
        CUDA_TRY(reduce(nullptr, bytes, nullptr, shape, nullptr, stream));
        CUDA_TRY(reduce(workspace, bytes, in, shape, out, stream));
        return 0;
    }
};

} // namespace

DEFINE_METHOD(cub_fixed_size, .family = FAMILY_VENDOR, .source = "CCCL cub::DeviceSegmentedReduce, fixed size",
              .idea = "vendor segmented reduction with one segment size for all rows (no offsets); "
                      "temp storage allocated outside the timing",
              .types = ALL_TYPES, .ops = ALL_OPS, .launch = launch_any_pair<cub_fixed_size_launch, ALL_OPS>,
              .workspace = workspace_any_pair<cub_fixed_size_launch, ALL_OPS>,
              .flags = METHOD_OWN_NAN_RULE, /* argmax, argmin: CUB's < and == */
              .order = {.kind = ORDER_SERIAL_CHAIN}, /* the library's own: unknown */
              .shapes = SHAPE_BIT(SHAPE_ROWS));

#else

namespace {

/* Built without the overload: every pair is refused before a call. */
int cub_fixed_size_unavailable(reduce_spec, reduce_shape, const void *, size_t, void *, void *, cudaStream_t)
{
    return (int)cudaErrorNotSupported;
}

} // namespace

DEFINE_METHOD(cub_fixed_size, .family = FAMILY_VENDOR, .source = "CCCL cub::DeviceSegmentedReduce, fixed size",
              .idea = "vendor segmented reduction with one segment size for all rows (no offsets); "
                      "temp storage allocated outside the timing",
              .types = 0, .ops = 0, .unsupported_why = CCCL_3_1_REFUSAL.text,
              .launch = cub_fixed_size_unavailable, .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS));

#endif
