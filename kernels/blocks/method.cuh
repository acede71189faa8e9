/* Declaring a method next to its code.
 *
 *   DEFINE_METHOD(reduce0, .family = ..., .source = ..., .idea = ..., .types = ALL_TYPES,
 *                 .ops = VALUE_OPS, .pass = &pass_kernel_of<reduce0_pass>);
 *
 * defines the descriptor `method_reduce0` (struct method, reduce_method.h),
 * named "reduce0", with the fields in the struct's order (C++20 designated
 * initializers). The key must be the file's name without its step number;
 * src/gpu/method_list.h lists it once. The descriptor is an ordinary external
 * symbol and the kernels are linked as objects, not from an archive, so a
 * copied file that still defines the same method fails the link with
 * "multiple definition of `method_...`", naming both objects.
 *
 * The adapters below turn a launcher written once as a class template over
 * (T, Op) into the contract's C entry points, for every pair of a type and
 * an operator in OPS (VALUE_OPS unless given: a launcher whose kernels keep
 * the index names ALL_OPS, as its descriptor's .ops does). A launcher
 * takes the shape; one written for the whole array alone takes n instead
 * (the harness gives it no other shape: its descriptor declares none):
 *   Launcher<T, Op>::run(const T *in, reduce_shape shape, result_t<T, Op> *out,
 *                        void *workspace, cudaStream_t)
 *   Launcher<T, Op>::run(const T *in, size_t n, result_t<T, Op> *out, void *workspace,
 *                        cudaStream_t)
 *   Launcher<T, Op>::workspace(reduce_shape shape, size_t *bytes)  or  (size_t n, size_t *bytes)
 * A launcher that drives a library from the host and needs a segmented
 * shape's n there (offsets[count] sits in device memory) takes both:
 *   run(const T *in, reduce_shape shape, size_t n, result_t<T, Op> *out, ...),
 *   workspace(reduce_shape shape, size_t n, size_t *bytes).
 * Pass kernels and CPU loops:
 *   Pass<T, Op>::launch(const T *in, size_t n, acc_t<T> *out, cudaStream_t), Pass<..>::items
 *   Host<T, Op>::reduce(const T *in, reduce_shape shape, size_t n, result_t<T, Op> *results)
 *   Host<T, Op>::reduce(const T *in, size_t n) -> acc_t<T>            (whole array alone) */
#ifndef METHOD_CUH
#define METHOD_CUH

#include "element_traits.cuh"
#include "reduce_method.h"

#define DEFINE_METHOD(key, ...) \
    extern "C" const struct method method_##key = {.name = #key, __VA_ARGS__}

/* The levels of a binary tree over n values (ceil(log2 n)): the additions a
 * term goes through in a block's tree, for the descriptors' summation orders
 * (summation_order.h). */
constexpr unsigned tree_depth(unsigned n) { return n <= 1 ? 0 : 1 + tree_depth((n + 1) / 2); }

template <template <class, class> class Launcher, unsigned OPS = VALUE_OPS>
int launch_any_pair(reduce_spec spec, reduce_shape shape, const void *in, size_t n, void *out,
                    void *workspace, cudaStream_t stream)
{
    return with_pair<OPS>(spec, [&](auto type, auto op) {
        using T = typename decltype(type)::type;
        using L = Launcher<T, decltype(op)>;
        const auto *typed_in = static_cast<const T *>(in);
        auto *typed_out = static_cast<result_t<T, decltype(op)> *>(out);
        if constexpr (requires { L::run(typed_in, shape, n, typed_out, workspace, stream); })
            return L::run(typed_in, shape, n, typed_out, workspace, stream);
        else if constexpr (requires { L::run(typed_in, shape, typed_out, workspace, stream); })
            return L::run(typed_in, shape, typed_out, workspace, stream);
        else
            return L::run(typed_in, n, typed_out, workspace, stream);
    });
}

template <template <class, class> class Launcher, unsigned OPS = VALUE_OPS>
int workspace_any_pair(reduce_spec spec, reduce_shape shape, size_t n, size_t *bytes)
{
    return with_pair<OPS>(spec, [&](auto type, auto op) {
        using L = Launcher<typename decltype(type)::type, decltype(op)>;
        if constexpr (requires { L::workspace(shape, n, bytes); })
            return L::workspace(shape, n, bytes);
        else if constexpr (requires { L::workspace(shape, bytes); })
            return L::workspace(shape, bytes);
        else
            return L::workspace(n, bytes);
    });
}

template <template <class, class> class Pass>
int pass_any_pair(reduce_spec spec, const void *in, size_t n, void *out, cudaStream_t stream)
{
    return with_pair(spec, [&](auto type, auto op) {
        using T = typename decltype(type)::type;
        return Pass<T, decltype(op)>::launch(static_cast<const T *>(in), n,
                                             static_cast<acc_t<T> *>(out), stream);
    });
}

/* A pass kernel's descriptor entry: .pass = &pass_kernel_of<my_pass>. */
template <template <class, class> class Pass>
inline constexpr pass_kernel pass_kernel_of = {pass_any_pair<Pass>, Pass<float, op_sum>::items};

template <template <class, class> class Host, unsigned OPS = VALUE_OPS>
void host_any_pair(reduce_spec spec, reduce_shape shape, const void *in, size_t n, void *results)
{
    with_pair<OPS>(spec, [&](auto type, auto op) {
        using T = typename decltype(type)::type;
        using H = Host<T, decltype(op)>;
        const auto *typed_in = static_cast<const T *>(in);
        auto *typed_results = static_cast<result_t<T, decltype(op)> *>(results);
        if constexpr (requires { H::reduce(typed_in, shape, n, typed_results); })
            H::reduce(typed_in, shape, n, typed_results);
        else
            *typed_results = H::reduce(typed_in, n);
        return 0;
    });
}

#endif
