/* cub::DeviceReduce, called the way a careful user calls it: the temporary
 * storage size is queried once per n (the workspace query) and the harness
 * allocates it outside the timed region, so the timed call is the reduction
 * alone. 64-bit num_items, so n > 2^31 works.
 *   sums:        DeviceReduce::Sum (accumulates in the input type, as the
 *                suite's integer rows do)
 *   max, min:    DeviceReduce::Reduce with cuda::maximum / cuda::minimum and
 *                our identity as the initial value, so an empty input gives
 *                -inf / +inf like every other row (DeviceReduce::Max would
 *                give the lowest finite value)
 *   half, bf16:  DeviceReduce::TransformReduce, widening each element to
 *                float on load, reducing in float
 *   argmax,      DeviceReduce::ArgMax / ArgMin, the overload with two outputs
 *   argmin:      (the extremum, an int64 index) and int64 num_items (the
 *                KeyValuePair one is deprecated), writing straight into our
 *                result's value and index fields: no copy after. The value
 *                field is float for half and bf16, and CUB takes the
 *                extremum's type from that output, so it widens each element
 *                on load (exact) and compares in float. CUB keeps the first
 *                extremum on ties (ours) but compares with < and ==, with no
 *                NaN rule (METHOD_OWN_NAN_RULE: checked on NaN-free data). An
 *                empty input would give CUB's (max() or lowest(), index 1):
 *                n = 0 writes (identity, -1) with one small kernel instead.
 *                Above 2^31 elements CUB cuts the input into partitions and
 *                combines their results in its output step.
 *   bench_compare -m cub            bench_compare -o argmax -m cub */
#include <cub/device/device_reduce.cuh>
#include <cuda/std/cstdint>

#include "cccl_operator.cuh"
#include "cuda_check.h"
#include "identity_fill.cuh"
#include "method.cuh"

namespace {

template <class T, class Op> struct cub_launch {
    using A = acc_t<T>;
    using R = result_t<T, Op>;

    /* argmax and argmin into our record's two fields (temp_storage == nullptr:
     * size query, out unused). */
    static cudaError_t arg_reduce(void *temp_storage, size_t &bytes, const T *in, size_t n, R *out,
                                  cudaStream_t stream)
    {
        const auto items = (cuda::std::int64_t)n;
        A *value = out ? &out->value : nullptr;
        long long *index = out ? &out->index : nullptr;
        if constexpr (cuda::std::is_same_v<Op, op_argmax>)
            return cub::DeviceReduce::ArgMax(temp_storage, bytes, in, value, index, items, stream);
        else
            return cub::DeviceReduce::ArgMin(temp_storage, bytes, in, value, index, items, stream);
    }

    /* One call for both phases of CUB's idiom (temp_storage == nullptr: size query). */
    static cudaError_t reduce(void *temp_storage, size_t &bytes, const T *in, size_t n, R *out,
                              cudaStream_t stream)
    {
        const auto items = (cuda::std::int64_t)n;
        if constexpr (is_arg_op_v<Op>)
            return arg_reduce(temp_storage, bytes, in, n, out, stream);
        else if constexpr (!cuda::std::is_same_v<A, T>)
            return cub::DeviceReduce::TransformReduce(temp_storage, bytes, in, out, items,
                                                      typename cccl_operator<Op, A>::type{},
                                                      widen_op<T>(), identity<Op, A>(), stream);
        else if constexpr (cuda::std::is_same_v<Op, op_sum>)
            return cub::DeviceReduce::Sum(temp_storage, bytes, in, out, items, stream);
        else
            return cub::DeviceReduce::Reduce(temp_storage, bytes, in, out, items,
                                             typename cccl_operator<Op, A>::type{},
                                             identity<Op, A>(), stream);
    }

    static int workspace(size_t n, size_t *bytes)
    {
        *bytes = 0;
        CUDA_TRY(reduce(nullptr, *bytes, nullptr, n, nullptr, 0));
        return 0;
    }

    static int run(const T *d_in, size_t n, R *d_out, void *workspace, cudaStream_t stream)
    {
        if constexpr (is_arg_op_v<Op>) {
            if (n == 0) /* CUB would write (max() or lowest(), 1) */
                return fill_identity<Op>(d_out, 1, stream);
        }
        /* CUB's two-phase idiom asks for the size again: host work only, which
         * the cold protocol's flush kernel hides (the GPU is busy meanwhile). */
        size_t bytes = 0;
        CUDA_TRY(reduce(nullptr, bytes, nullptr, n, nullptr, stream));
        CUDA_TRY(reduce(workspace, bytes, d_in, n, d_out, stream));
        return 0;
    }
};

} // namespace

extern "C" int cccl_version(void) { return CCCL_VERSION; }

DEFINE_METHOD(cub, .family = FAMILY_VENDOR, .source = "CCCL cub::DeviceReduce",
              .idea = "vendor reduction; temp storage queried and allocated outside the timing",
              .types = ALL_TYPES, .ops = ALL_OPS, .launch = launch_any_pair<cub_launch, ALL_OPS>,
              .workspace = workspace_any_pair<cub_launch, ALL_OPS>,
              .flags = METHOD_OWN_NAN_RULE, /* argmax, argmin: CUB's < and == */
              .order = {.kind = ORDER_SERIAL_CHAIN}); /* the library's own: unknown */
