/* Row sums as cuBLAS computes them: a matrix-vector product with a vector of
 * ones, y = M^T ones(C) for the row-major R x C input read as the
 * column-major C x R matrix M (cublas_sum_gemv.cuh: the call, and the ones
 * kept per device like the handle). Float and double sums only; segments
 * have no one lda, so they are refused too. Its time: not measured yet.
 *   bench_compare --cols 32 -m cublas_rows,cub_segmented */
#include <cuda/std/type_traits>

#include "cublas_sum_gemv.cuh"
#include "method.cuh"

namespace {

/* Every pair is instantiated by the adapters; only float and double sums
 * are declared, the others are refused before a call. */
template <class T, class Op> struct cublas_rows_launch {
    static constexpr bool GEMV = cuda::std::is_same_v<Op, op_sum> &&
                                 (cuda::std::is_same_v<T, float> || cuda::std::is_same_v<T, double>);

    static int run(const T *in, reduce_shape shape, acc_t<T> *out, void *, cudaStream_t stream)
    {
        if constexpr (GEMV) {
            if (shape.kind != SHAPE_ROWS)
                return (int)cudaErrorNotSupported; /* refused first by the descriptor */
            return cublas_sum_gemv<T>(CUBLAS_OP_T, shape.cols, shape.count, in, out, stream);
        }
        return (int)cudaErrorNotSupported;
    }
};

} // namespace

DEFINE_METHOD(cublas_rows, .family = FAMILY_VENDOR, .source = "cuBLAS cublas[SD]gemv_64",
              .idea = "row sums as gemv (A^T x ones); the ones kept per device like the handle, "
                      "made on the first wider call",
              .types = TYPE_BIT(TYPE_FLOAT) | TYPE_BIT(TYPE_DOUBLE), .ops = OP_BIT(OP_SUM),
              .unsupported_why = "cuBLAS gemv sums float and double rows only (no integer types, "
                                 "no max/min)",
              .launch = launch_any_pair<cublas_rows_launch>,
              .order = {.kind = ORDER_SERIAL_CHAIN}, /* the library's own: unknown */
              .shapes = SHAPE_BIT(SHAPE_ROWS));
