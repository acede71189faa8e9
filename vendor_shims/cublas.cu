/* cuBLAS's level-1 reductions, called with the handle in device pointer
 * mode, so no result comes back through the host. The handle is created on
 * the first call (a warm-up, untimed) and kept; the 64-bit API takes
 * n > 2^31.
 *   sum:     cublasSasum_64 / cublasDasum_64, the closest thing cuBLAS has
 *            to a sum: they sum |x|, so their rows are checked against
 *            sum |x| (the default data is non-negative, where the two agree),
 *            written straight to d_out.
 *   argmax,  cublasIsamax_64 / cublasIdamax_64 and cublasIsamin_64 /
 *   argmin:  cublasIdamin_64: the first index of the largest / smallest |x|
 *            (METHOD_SUMS_ABS: checked against the extremes of |x|), 1-based,
 *            written to an int64 in the workspace; a one-thread kernel then
 *            writes our record, index - 1 and |x| there (arg_record.cuh): one
 *            more launch in the row's time. cuBLAS has no NaN rule of ours
 *            (METHOD_OWN_NAN_RULE). n = 0 gives (identity, -1) without a
 *            cuBLAS call (cuBLAS would not write its 0 in device mode).
 * Float and double only: cuBLAS has no sum of the other types, no max or min
 * of values, and documents no 16-bit type for cublasIamaxEx / IaminEx, so
 * those pairs are REFUSED.
 *   bench_compare -m cublas --type double      bench_compare -o argmax -m cublas */
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cstdio>

#include "arg_record.cuh"
#include "cublas_handle.cuh"
#include "cuda_check.h"
#include "method.cuh"

cublasHandle_t cublas_shared_handle(void)
{
    constexpr int DEVICES = 64;
    static cublasHandle_t handles[DEVICES] = {};
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= DEVICES)
        return nullptr;
    if (!handles[device] && cublasCreate(&handles[device]) != CUBLAS_STATUS_SUCCESS)
        handles[device] = nullptr;
    return handles[device];
}

namespace {

/* Every pair is instantiated by the adapters; only float and double sums,
 * argmax and argmin are declared, the others are refused before a call. */
template <class T, class Op> struct cublas_launch {
    static constexpr bool TAKEN = (cuda::std::is_same_v<T, float> || cuda::std::is_same_v<T, double>) &&
                                  (cuda::std::is_same_v<Op, op_sum> || is_arg_op_v<Op>);
    using R = result_t<T, Op>;

    /* argmax, argmin: cuBLAS's int64 index. */
    static int workspace(size_t, size_t *bytes)
    {
        *bytes = is_arg_op_v<Op> ? sizeof(cuda::std::int64_t) : 0;
        return 0;
    }

    static cublasStatus_t asum(cublasHandle_t handle, int64_t n, const T *in, T *out)
    {
        if constexpr (cuda::std::is_same_v<T, float>)
            return cublasSasum_64(handle, n, in, 1, out);
        else
            return cublasDasum_64(handle, n, in, 1, out);
    }

    /* The 1-based index of the first largest (argmax) or smallest |x|. */
    static cublasStatus_t find_index(cublasHandle_t handle, int64_t n, const T *in, int64_t *one_based)
    {
        constexpr bool MAX = cuda::std::is_same_v<Op, op_argmax>, FLOAT = cuda::std::is_same_v<T, float>;
        if constexpr (MAX && FLOAT)
            return cublasIsamax_64(handle, n, in, 1, one_based);
        else if constexpr (MAX)
            return cublasIdamax_64(handle, n, in, 1, one_based);
        else if constexpr (FLOAT)
            return cublasIsamin_64(handle, n, in, 1, one_based);
        else
            return cublasIdamin_64(handle, n, in, 1, one_based);
    }

    static int reduce(cublasHandle_t handle, const T *in, size_t n, R *out, void *workspace,
                      cudaStream_t stream)
    {
        if constexpr (is_arg_op_v<Op>) {
            if (n == 0)
                return fill_identity<Op>(out, 1, stream);
            auto *one_based = static_cast<int64_t *>(workspace);
            CUBLAS_TRY(find_index(handle, (int64_t)n, in, one_based));
            return write_arg_record<Op, true>(in, blas_index{one_based}, out, stream);
        } else {
            if (n == 0) { /* cuBLAS returns without writing the result for n <= 0 */
                CUDA_TRY(cudaMemsetAsync(out, 0, sizeof *out, stream));
                return 0;
            }
            CUBLAS_TRY(asum(handle, (int64_t)n, in, out));
            return 0;
        }
    }

    static int run(const T *in, size_t n, R *out, void *workspace, cudaStream_t stream)
    {
        if constexpr (TAKEN) {
            cublasHandle_t handle = cublas_shared_handle();
            if (!handle) {
                std::fprintf(stderr, "cuBLAS error: cublasCreate failed\n");
                return (int)cudaErrorUnknown;
            }
            CUBLAS_TRY(cublasSetStream(handle, stream));
            CUBLAS_TRY(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
            return reduce(handle, in, n, out, workspace, stream);
        }
        return (int)cudaErrorInvalidValue; /* the descriptor refuses these first */
    }
};

} // namespace

extern "C" int cublas_version(int *version)
{
    cublasHandle_t handle = cublas_shared_handle();
    if (!handle)
        return (int)cudaErrorUnknown;
    CUBLAS_TRY(cublasGetVersion(handle, version));
    return 0;
}

DEFINE_METHOD(cublas, .family = FAMILY_VENDOR,
              .source = "cuBLAS cublas[SD]asum_64, cublasI[sd]amax_64 / amin_64",
              .idea = "sums |x| (checked against sum |x|), finds the first largest / smallest |x|; "
                      "device pointer mode",
              .types = TYPE_BIT(TYPE_FLOAT) | TYPE_BIT(TYPE_DOUBLE), .ops = OP_BIT(OP_SUM) | ARG_OPS,
              .unsupported_why = "cuBLAS sums and finds I?amax/I?amin of float and double only (|x|; "
                                 "IamaxEx documents no 16-bit type), no max/min of values",
              .launch = launch_any_pair<cublas_launch, ALL_OPS>,
              .workspace = workspace_any_pair<cublas_launch, ALL_OPS>,
              .flags = METHOD_SUMS_ABS | METHOD_OWN_NAN_RULE, /* argmax, argmin: cuBLAS's own */
              .order = {.kind = ORDER_SERIAL_CHAIN}); /* the library's own: unknown */
