/* Segments through thrust::reduce_by_key, as a Thrust user writes it: the
 * keys are each element's segment index, the values the elements (widened
 * to float for half and bfloat16), and each run of equal keys gives one
 * result. The keys are never stored: a transform iterator over a counting
 * iterator makes them as they are read - a binary search of i in the
 * shape's device offsets (how many segments end at or before i), log2(count)
 * reads per element, most of them from cache.
 * reduce_by_key gives no output for an empty segment (no element carries its
 * key), so the results go to the workspace with their keys, and the call
 * then fills d_out with the identity and scatters them to their segments.
 * Timed as users call it, like the `thrust` row: Thrust allocates its own
 * temporary storage and synchronises (reduce_by_key returns the number of
 * runs to the host), all inside the call. Segments only: rows are CUB's and
 * cuBLAS's rows here, and a second key iterator (i / cols) doubled this
 * file's compile time (138 s, the build's longest, on the GPU machine).
 *   bench_compare --segments uniform:100 -m thrust_by_key,cub_segmented */
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scatter.h>

#include "cccl_operator.cuh"
#include "cuda_check.h"
#include "identity_fill.cuh"
#include "method.cuh"
#include "thrust_call.cuh"

namespace {

using segment_key = cuda::std::int64_t;

/* The segments that end at or before element i - its segment, empty ones
 * counted: ends = offsets + 1, the count segments' ends, never decreasing. */
struct segment_of {
    const segment_offset *ends;
    segment_key count;
    __host__ __device__ segment_key operator()(segment_key i) const
    {
        /* The first end past i (an upper bound: CCCL 3.0.1 has no public
         * cuda::std::upper_bound). */
        segment_key low = 0, high = count;
        while (low < high) {
            const segment_key mid = low + (high - low) / 2;
            if (ends[mid] <= (segment_offset)i)
                low = mid + 1;
            else
                high = mid;
        }
        return low;
    }
};

template <class T, class Op> struct thrust_by_key_launch {
    using A = acc_t<T>;

    /* Segments: the runs' keys, then their results. */
    static int workspace(reduce_shape shape, size_t *bytes)
    {
        *bytes = shape.count * (sizeof(segment_key) + sizeof(A));
        return 0;
    }

    static int run(const T *in, reduce_shape shape, size_t n, A *out, void *workspace, cudaStream_t stream)
    {
        const auto policy = thrust::cuda::par.on(stream);
        const auto index = thrust::counting_iterator<segment_key>(0);
        const auto values = [&] {
            if constexpr (cuda::std::is_same_v<A, T>)
                return in;
            else
                return thrust::make_transform_iterator(in, widen_op<T>());
        }();
        const cuda::std::equal_to<segment_key> same_key;
        const typename cccl_operator<Op, A>::type op;
        if (shape.count == 0)
            return 0;
        const auto keys =
            thrust::make_transform_iterator(index, segment_of{shape.offsets + 1, (segment_key)shape.count});
        auto *run_keys = static_cast<segment_key *>(workspace);
        auto *run_results = reinterpret_cast<A *>(run_keys + shape.count);
        segment_key runs = 0;
        PROPAGATE(thrust_call([&] {
            runs = thrust::reduce_by_key(policy, keys, keys + (segment_key)n, values, run_keys, run_results,
                                         same_key, op)
                       .first -
                   run_keys;
        }));
        PROPAGATE(fill_identity<Op>(out, shape.count, stream));
        return thrust_call([&] { thrust::scatter(policy, run_results, run_results + runs, run_keys, out); });
    }
};

} // namespace

DEFINE_METHOD(thrust_by_key, .family = FAMILY_VENDOR, .source = "CCCL thrust::reduce_by_key",
              .idea = "keys made on the fly (a binary search of the offsets); results scattered over an "
                      "identity fill; allocates, syncs",
              .types = ALL_TYPES, .ops = VALUE_OPS, .launch = launch_any_pair<thrust_by_key_launch>,
              .workspace = workspace_any_pair<thrust_by_key_launch>,
              .flags = METHOD_ALLOCATES_INTERNALLY,
              .order = {.kind = ORDER_SERIAL_CHAIN}, /* the library's own: unknown */
              .shapes = SHAPE_BIT(SHAPE_SEGMENTS));
