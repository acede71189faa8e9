/* Column sums as cuBLAS computes them: a matrix-vector product with a
 * vector of ones, y = M ones(R) for the row-major R x C input read as the
 * column-major C x R matrix M (cublas_sum_gemv.cuh: the call, and the ones
 * kept per device like the handle). Float and double sums only (gemv has no
 * integer types, no max or min). Its time: not measured yet.
 *   bench_compare --cols 128 --axis 0 -m cublas_columns,block_columns */
#include <cuda/std/type_traits>

#include "cublas_sum_gemv.cuh"
#include "method.cuh"

namespace {

/* Every pair is instantiated by the adapters; only float and double sums
 * are declared, the others are refused before a call. */
template <class T, class Op> struct cublas_columns_launch {
    static constexpr bool GEMV = cuda::std::is_same_v<Op, op_sum> &&
                                 (cuda::std::is_same_v<T, float> || cuda::std::is_same_v<T, double>);

    static int run(const T *in, reduce_shape shape, size_t n, acc_t<T> *out, void *,
                   cudaStream_t stream)
    {
        if constexpr (GEMV) {
            if (shape.kind != SHAPE_COLUMNS)
                return (int)cudaErrorNotSupported; /* refused first by the descriptor */
            return cublas_sum_gemv<T>(CUBLAS_OP_N, shape.cols, n / shape.cols, in, out, stream);
        }
        return (int)cudaErrorNotSupported;
    }
};

} // namespace

DEFINE_METHOD(cublas_columns, .family = FAMILY_VENDOR, .source = "cuBLAS cublas[SD]gemv_64",
              .idea = "column sums as gemv (A x ones); the ones kept per device like the handle, "
                      "made on the first taller call",
              .types = TYPE_BIT(TYPE_FLOAT) | TYPE_BIT(TYPE_DOUBLE), .ops = OP_BIT(OP_SUM),
              .unsupported_why = "cuBLAS gemv sums float and double columns only (no integer "
                                 "types, no max/min)",
              .launch = launch_any_pair<cublas_columns_launch>,
              .order = {.kind = ORDER_SERIAL_CHAIN}, /* the library's own: unknown */
              .shapes = SHAPE_BIT(SHAPE_COLUMNS));
