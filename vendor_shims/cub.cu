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
 *   bench_compare -m cub */
#include <cub/device/device_reduce.cuh>
#include <cuda/std/cstdint>

#include "cccl_operator.cuh"
#include "cuda_check.h"
#include "method.cuh"

namespace {

template <class T, class Op> struct cub_launch {
    using A = acc_t<T>;

    /* One call for both phases of CUB's idiom (temp_storage == nullptr: size query). */
    static cudaError_t reduce(void *temp_storage, size_t &bytes, const T *in, size_t n, A *out,
                              cudaStream_t stream)
    {
        const auto items = (cuda::std::int64_t)n;
        const typename cccl_operator<Op, A>::type op;
        if constexpr (!cuda::std::is_same_v<A, T>)
            return cub::DeviceReduce::TransformReduce(temp_storage, bytes, in, out, items, op,
                                                      widen_op<T>(), identity<Op, A>(), stream);
        else if constexpr (cuda::std::is_same_v<Op, op_sum>)
            return cub::DeviceReduce::Sum(temp_storage, bytes, in, out, items, stream);
        else
            return cub::DeviceReduce::Reduce(temp_storage, bytes, in, out, items, op,
                                             identity<Op, A>(), stream);
    }

    static int workspace(size_t n, size_t *bytes)
    {
        *bytes = 0;
        CUDA_TRY(reduce(nullptr, *bytes, nullptr, n, nullptr, 0));
        return 0;
    }

    static int run(const T *d_in, size_t n, A *d_out, void *workspace, cudaStream_t stream)
    {
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
              .types = ALL_TYPES, .ops = VALUE_OPS, .launch = launch_any_pair<cub_launch>,
              .workspace = workspace_any_pair<cub_launch>,
              .order = {.kind = ORDER_SERIAL_CHAIN}); /* the library's own: unknown */
