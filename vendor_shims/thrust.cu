/* thrust::reduce, timed as users call it: it allocates its own temporary
 * storage, synchronises, and returns the result to the host. The operator is
 * cuda::std::plus / cuda::maximum / cuda::minimum, starting from our
 * identity; half and bfloat16 go through thrust::transform_reduce, which
 * widens each element to float. To hand the result to the harness like
 * every other method, the shim copies it back into d_out: one host-to-device
 * copy that is part of this row's time.
 *   argmax, argmin: thrust::max_element / min_element, which return the first
 *   extremum (ours on ties) as an iterator on the host - the same allocation
 *   and synchronisation as reduce - whose position is the index; a one-thread
 *   kernel on the stream then writes our record from it, reading the element
 *   there and widening half and bf16 to float (arg_record.cuh), where reduce's
 *   rows copy a value. They compare with <, no NaN rule
 *   (METHOD_OWN_NAN_RULE). n = 0 gives (identity, -1) through the same kernel,
 *   without a Thrust call.
 *   bench_compare -m thrust            bench_compare -o argmax -m thrust */
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>

#include "arg_record.cuh"
#include "cccl_operator.cuh"
#include "cuda_check.h"
#include "method.cuh"
#include "thrust_call.cuh"

namespace {

template <class T, class Op> struct thrust_launch {
    using A = acc_t<T>;
    using R = result_t<T, Op>;

    static int workspace(size_t, size_t *bytes)
    {
        *bytes = 0;
        return 0;
    }

    /* The first extremum's index, through the host; -1 for no elements. */
    static int arg_run(const T *d_in, size_t n, R *d_out, cudaStream_t stream)
    {
        long long index = -1;
        if (n > 0) {
            const auto policy = thrust::cuda::par.on(stream);
            PROPAGATE(thrust_call([&] {
                if constexpr (cuda::std::is_same_v<Op, op_argmax>)
                    index = thrust::max_element(policy, d_in, d_in + n) - d_in;
                else
                    index = thrust::min_element(policy, d_in, d_in + n) - d_in;
            }));
        }
        return write_arg_record<Op>(d_in, index_on_host{index}, d_out, stream);
    }

    /* The value, through the host, copied into d_out. */
    static int value_run(const T *d_in, size_t n, R *d_out, cudaStream_t stream)
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

    static int run(const T *d_in, size_t n, R *d_out, void *, cudaStream_t stream)
    {
        if constexpr (is_arg_op_v<Op>)
            return arg_run(d_in, n, d_out, stream);
        else
            return value_run(d_in, n, d_out, stream);
    }
};

} // namespace

DEFINE_METHOD(thrust, .family = FAMILY_VENDOR,
              .source = "CCCL thrust::reduce, thrust::max_element / min_element",
              .idea = "as users call it: allocates, syncs, returns the result to the host",
              .types = ALL_TYPES, .ops = ALL_OPS, .launch = launch_any_pair<thrust_launch, ALL_OPS>,
              .workspace = workspace_any_pair<thrust_launch, ALL_OPS>,
              .flags = METHOD_ALLOCATES_INTERNALLY | METHOD_RESULT_VIA_HOST |
                       METHOD_OWN_NAN_RULE, /* argmax, argmin: Thrust's < */
              .order = {.kind = ORDER_SERIAL_CHAIN}); /* the library's own: unknown */
