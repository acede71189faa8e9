/* The launcher of the atomic steps (00, 01, 10, 11): *out starts at the
 * identity (a memset for sums: part of the cost), then one launch of
 * ceil(n / ITEMS) blocks, each folding its result into *out with atomics
 * (atomic_combine). No workspace.
 *   template <class T, class Op> using tree_atomic_launch =
 *       atomic_launch<tree_atomic_kernel<T, Op>, Op, 256, 256>; */
#ifndef ATOMIC_LAUNCH_CUH
#define ATOMIC_LAUNCH_CUH

#include <cuda/atomic>
#include <cuda/std/bit>

#include "cuda_check.h"
#include "identity_fill.cuh"

/* *out = Op(*out, v) atomically, always with one native atomic. Sums are a
 * hardware add for every accumulator type; integer max and min are native
 * too. Floating-point max has no atomic of its own, but IEEE order is integer
 * order on the bits in two halves: a non-negative value is the larger the
 * larger its bits read as a signed integer, a negative one the smaller its
 * bits read as unsigned. So a non-negative v goes in with a signed integer
 * max, a negative v with an unsigned integer min (min: the mirror image). That
 * is right whatever sign *out has, and avoids libcu++'s compare-and-swap loop,
 * which retries without end when millions of threads hit one address.
 * Relaxed order: only the final value matters, and the launch's end
 * publishes it. */
template <class Op, class A> __device__ __forceinline__ void atomic_combine(A *out, A v)
{
    using signed_bits = cuda::std::conditional_t<sizeof(A) == 8, long long, int>;
    using unsigned_bits = cuda::std::make_unsigned_t<signed_bits>;
    if constexpr (cuda::std::is_same_v<Op, op_sum>) {
        cuda::atomic_ref<A, cuda::thread_scope_device>(*out).fetch_add(v, cuda::memory_order_relaxed);
    } else if constexpr (!cuda::std::is_floating_point_v<A>) {
        cuda::atomic_ref<A, cuda::thread_scope_device> total(*out);
        if constexpr (cuda::std::is_same_v<Op, op_max>)
            total.fetch_max(v, cuda::memory_order_relaxed);
        else
            total.fetch_min(v, cuda::memory_order_relaxed);
    } else {
        const signed_bits bits = cuda::std::bit_cast<signed_bits>(v);
        const bool non_negative = bits >= 0;
        if constexpr (cuda::std::is_same_v<Op, op_max>) {
            if (non_negative)
                atomicMax((signed_bits *)out, bits);
            else
                atomicMin((unsigned_bits *)out, (unsigned_bits)bits);
        } else {
            if (non_negative)
                atomicMin((signed_bits *)out, bits);
            else
                atomicMax((unsigned_bits *)out, (unsigned_bits)bits);
        }
    }
}

template <auto KERNEL, class Op, int THREADS, unsigned ITEMS> struct atomic_launch {
    static int workspace(size_t, size_t *bytes)
    {
        *bytes = 0;
        return 0;
    }

    template <class T, class A>
    static int run(const T *d_in, size_t n, A *d_out, void *, cudaStream_t stream)
    {
        PROPAGATE(fill_identity<Op>(d_out, 1, stream));
        if (n == 0)
            return 0;
        KERNEL<<<(unsigned)ceil_div(n, ITEMS), THREADS, 0, stream>>>(d_in, n, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

#endif
