/* thrust::reduce, timed as users call it: it allocates its own temporary
 * storage, synchronises, and returns the result to the host. The operator is
 * cuda::std::plus / cuda::maximum / cuda::minimum, starting from our
 * identity; half and bfloat16 go through thrust::transform_reduce, which
 * widens each element to float. To hand the result to the harness like
 * every other method, the shim copies it back into d_out: one host-to-device
 * copy that is part of this row's time.
 *   bench_compare -m thrust */
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>

#include "cccl_operator.cuh"
#include "cuda_check.h"
#include "method.cuh"
#include "thrust_call.cuh"

namespace {

template <class T, class Op> struct thrust_launch {
    using A = acc_t<T>;

    static int workspace(size_t, size_t *bytes)
    {
        *bytes = 0;
        return 0;
    }

    static int run(const T *d_in, size_t n, A *d_out, void *, cudaStream_t stream)
    {
        A result = identity<Op, A>();
        const auto policy = thrust::cuda::par.on(stream);
        const typename cccl_operator<Op, A>::type op;
        PROPAGATE(thrust_call([&] {
            if constexpr (cuda::std::is_same_v<A, T>)
                result = thrust::reduce(policy, d_in, d_in + n, identity<Op, A>(), op);
            else
                result = thrust::transform_reduce(policy, d_in, d_in + n, widen_op<T>(),
                                                  identity<Op, A>(), op);
        }));
        /* From pageable memory the call returns once `result` is staged, so the
         * stack variable may go out of scope right after. */
        CUDA_TRY(cudaMemcpyAsync(d_out, &result, sizeof result, cudaMemcpyHostToDevice, stream));
        return 0;
    }
};

} // namespace

DEFINE_METHOD(thrust, .family = FAMILY_VENDOR, .source = "CCCL thrust::reduce",
              .idea = "as users call it: allocates, syncs, returns the result to the host",
              .types = ALL_TYPES, .ops = VALUE_OPS, .launch = launch_any_pair<thrust_launch>,
              .workspace = workspace_any_pair<thrust_launch>,
              .flags = METHOD_ALLOCATES_INTERNALLY | METHOD_RESULT_VIA_HOST,
              .order = {.kind = ORDER_SERIAL_CHAIN}); /* the library's own: unknown */
