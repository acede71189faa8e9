/* CUB's determinism modes, called through its environment API (CCCL >= 3.1):
 *
 *   cub::DeviceReduce::Sum(in, out, n, env)   env = {stream,
 *       cuda::execution::require(determinism::not_guaranteed | gpu_to_gpu),
 *       prop{cuda::mr::get_memory_resource, workspace_resource}}
 *
 * Those calls have no temp_storage argument: CUB asks the environment's
 * memory resource for its temporary storage inside the call and gives it back
 * before returning. workspace_resource hands out the harness's workspace
 * (allocated once, outside the timing, like the `cub` row's) and throws
 * std::bad_alloc - which CUB returns as cudaErrorMemoryAllocation - when asked
 * for more than it holds, so nothing is ever allocated inside the timed call.
 *
 * The workspace query: a resource that only records the bytes CUB asks for
 * and refuses them, so CUB stops before launching anything. Which pairs each
 * mode really runs comes from cub/device/device_reduce.cuh (CCCL 3.5,
 * __transform_reduce): not_guaranteed (one kernel, atomics into *out) needs
 * cuda::std::plus, an accumulator of >= 4 bytes equal to the output type;
 * gpu_to_gpu (the reproducible floating-point accumulator, RFA) needs a float
 * or double accumulator and plus. Every other pair silently falls back to
 * run_to_run - the `cub` row - so those rows refuse such pairs instead.
 *
 * Built against an older CCCL (the CUDA 13.0 toolkit's is 3.0.1), CUB_ENV_API
 * is 0 and both rows refuse every pair with CCCL_3_1_REFUSAL.text
 * (cccl_requirement.cuh). */
#ifndef CUB_ENV_CUH
#define CUB_ENV_CUH

#include "cccl_requirement.cuh"
#include "cuda_check.h"
#include "method.cuh"

#if CCCL_VERSION >= CCCL_3_1
#define CUB_ENV_API 1
#else
#define CUB_ENV_API 0
#endif

#if CUB_ENV_API

#include <cub/device/device_reduce.cuh>
#include <cuda/execution>
#include <cuda/memory_resource>
#include <cuda/std/cstdint>
#include <cuda/std/execution>
#include <cuda/stream_ref>

#include <cstdint>
#include <new>

/* The harness's workspace as a cuda::mr resource (see the file comment). */
struct workspace_resource {
    void *base = nullptr;
    size_t capacity = 0;
    size_t *asked = nullptr; /* set: record each request (the workspace query) */

    void *allocate_sync(size_t bytes, size_t alignment)
    {
        if (asked)
            *asked = bytes;
        if (!base || bytes > capacity || (uintptr_t)base % alignment != 0)
            throw std::bad_alloc();
        return base;
    }
    void deallocate_sync(void *, size_t, size_t) noexcept {}
    void *allocate(cuda::stream_ref, size_t bytes, size_t alignment)
    {
        return allocate_sync(bytes, alignment);
    }
    void deallocate(cuda::stream_ref, void *, size_t, size_t) noexcept {}

    bool operator==(const workspace_resource &other) const
    {
        return base == other.base && capacity == other.capacity && asked == other.asked;
    }
    bool operator!=(const workspace_resource &other) const { return !(*this == other); }
    friend constexpr void get_property(const workspace_resource &, cuda::mr::device_accessible) noexcept {}
};

static_assert(cuda::mr::resource<workspace_resource>);

/* One determinism mode's launcher for every pair: sums of 4- and 8-byte
 * types with DeviceReduce::Sum, half and bfloat16 widened to float with
 * TransformReduce (as the `cub` row does). The descriptors say which pairs
 * each mode really runs (the file comment). */
template <class Determinism> struct cub_env_mode {
    template <class T, class Op> struct launch {
        using A = acc_t<T>;

        static cudaError_t reduce(const T *in, size_t n, A *out, workspace_resource mr,
                                  cudaStream_t stream)
        {
            const auto items = (cuda::std::int64_t)n;
            const auto env = cuda::std::execution::env{
                cuda::stream_ref{stream}, cuda::execution::require(Determinism{}),
                cuda::std::execution::prop{cuda::mr::get_memory_resource, mr}};
            if constexpr (!cuda::std::is_same_v<Op, op_sum>)
                return cudaErrorNotSupported; /* refused by the descriptors */
            else if constexpr (!cuda::std::is_same_v<A, T>)
                return cub::DeviceReduce::TransformReduce(in, out, items, cuda::std::plus<A>{},
                                                          widen_op<T>(), A(0), env);
            else
                return cub::DeviceReduce::Sum(in, out, items, env);
        }

        /* The bytes CUB asks the resource for at n: it is refused, so CUB
         * stops before its first launch. Host work only. */
        static int ask_bytes(size_t n, size_t *bytes)
        {
            size_t asked = 0;
            const cudaError_t err = reduce(nullptr, n, nullptr, workspace_resource{nullptr, 0, &asked}, 0);
            if (err != cudaErrorMemoryAllocation)
                CUDA_TRY(err == cudaSuccess ? cudaErrorUnknown : err); /* it must ask */
            *bytes = asked > 0 ? asked : 1;
            return 0;
        }

        /* The last answer, so a call at the n just queried knows its
         * workspace's size without asking CUB again (an exception per call). */
        struct last_query {
            int device = -1;
            size_t n = 0, bytes = 0;
        };
        static inline last_query last;

        static int workspace(size_t n, size_t *bytes)
        {
            int device = 0;
            CUDA_TRY(cudaGetDevice(&device));
            PROPAGATE(ask_bytes(n, bytes));
            last = {device, n, *bytes};
            return 0;
        }

        static int run(const T *d_in, size_t n, A *d_out, void *workspace, cudaStream_t stream)
        {
            int device = 0;
            CUDA_TRY(cudaGetDevice(&device));
            size_t capacity = last.bytes;
            if (last.device != device || last.n != n)
                PROPAGATE(launch::workspace(n, &capacity));
            CUDA_TRY(reduce(d_in, n, d_out, workspace_resource{workspace, capacity, nullptr}, stream));
            return 0;
        }
    };
};

#else

/* Built without the environment API: every pair is refused before a call. */
inline int cub_env_unavailable(reduce_spec, reduce_shape, const void *, size_t, void *, void *,
                               cudaStream_t)
{
    return (int)cudaErrorNotSupported;
}

#endif

#endif
