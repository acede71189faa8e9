/* Row sums as cuBLAS computes them: a matrix-vector product with a vector of
 * ones. A row-major R x C matrix is, to cuBLAS, the column-major C x R matrix
 * M with lda = C, so the row sums are y = M^T x with x = ones(C):
 *   cublas[SD]gemv_64(handle, CUBLAS_OP_T, m = C, n = R, 1, in, lda = C,
 *                     ones, 1, 0, out, 1)
 * The _64 API (cuBLAS 12+, in CUDA 13.0's cublas_api.h) takes m, n and lda
 * past INT_MAX. Float and double sums only: gemv has no integer types, no
 * max or min, and half would need a different routine (cublasGemmEx);
 * segments have no one lda, so they are refused too.
 *
 * The ones: the harness's workspace cannot keep them between calls - it is
 * zeroed once when allocated, and a call that trusted what an earlier call
 * left there would read zeros after a reallocation at the same address. So
 * the shim keeps its own vector of ones per device and type, as it keeps the
 * cuBLAS handle (cublas_handle.cuh): made on the first call whose rows are
 * wider than any before (cudaMalloc, a fill kernel and a stream sync: a
 * warm-up call, untimed) and reused by every later call. A timed call is the
 * gemv alone, plus setting the handle's stream and pointer mode (host work).
 * Its time: not measured yet.
 *   bench_compare --cols 32 -m cublas_rows,cub_segmented */
#include <cuda/std/cstdint>

#include "cublas_handle.cuh"
#include "cuda_check.h"
#include "method.cuh"

namespace {

template <class T> __global__ void ones_fill_kernel(T *out, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        out[i] = T(1);
}

/* At least `count` ones of type T on the current device, kept between calls
 * (see the file comment); grown on `stream` and synchronised, so a later
 * call on any stream finds them written. */
template <class T> int ones_vector(size_t count, cudaStream_t stream, const T **ones)
{
    constexpr int DEVICES = 64;
    static T *vectors[DEVICES] = {};
    static size_t lengths[DEVICES] = {};
    int device = 0;
    CUDA_TRY(cudaGetDevice(&device));
    if (device < 0 || device >= DEVICES)
        return (int)cudaErrorInvalidDevice;
    if (lengths[device] < count) {
        CUDA_TRY(cudaFree(vectors[device])); /* waits for the calls still reading it */
        vectors[device] = nullptr;
        lengths[device] = 0;
        CUDA_TRY(cudaMalloc(&vectors[device], count * sizeof(T)));
        const size_t blocks = ceil_div(count, 256) < 1024 ? ceil_div(count, 256) : 1024;
        ones_fill_kernel<<<(unsigned)blocks, 256, 0, stream>>>(vectors[device], count);
        CUDA_TRY_LAUNCH();
        CUDA_TRY(cudaStreamSynchronize(stream));
        lengths[device] = count;
    }
    *ones = vectors[device];
    return 0;
}

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
            if (shape.count == 0)
                return 0;
            cublasHandle_t handle = cublas_shared_handle();
            if (!handle) {
                std::fprintf(stderr, "cuBLAS error: cublasCreate failed\n");
                return (int)cudaErrorUnknown;
            }
            const T *ones = nullptr;
            PROPAGATE(ones_vector<T>(shape.cols, stream, &ones));
            const auto cols = (int64_t)shape.cols, rows = (int64_t)shape.count;
            const T one = 1, zero = 0;
            CUBLAS_TRY(cublasSetStream(handle, stream));
            CUBLAS_TRY(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST)); /* alpha, beta: ours */
            if constexpr (cuda::std::is_same_v<T, float>)
                CUBLAS_TRY(cublasSgemv_64(handle, CUBLAS_OP_T, cols, rows, &one, in, cols, ones, 1, &zero, out, 1));
            else
                CUBLAS_TRY(cublasDgemv_64(handle, CUBLAS_OP_T, cols, rows, &one, in, cols, ones, 1, &zero, out, 1));
            return 0;
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
