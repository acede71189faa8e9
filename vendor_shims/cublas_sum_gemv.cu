/* The gemv against ones shared by cublas_rows and cublas_columns
 * (cublas_sum_gemv.cuh says why the ones are kept, and how). */
#include "cublas_sum_gemv.cuh"

#include <cstdint>

#include "cuda_check.h"

namespace {

template <class T> __global__ void ones_fill_kernel(T *out, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        out[i] = T(1);
}

/* At least `count` ones of type T on the current device, kept between calls;
 * grown on `stream` and synchronised, so a later call on any stream finds
 * them written. */
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

cublasStatus_t gemv_64(cublasHandle_t handle, cublasOperation_t op, int64_t m, int64_t n,
                       const float *matrix, const float *ones, float *out)
{
    const float one = 1, zero = 0;
    return cublasSgemv_64(handle, op, m, n, &one, matrix, m, ones, 1, &zero, out, 1);
}

cublasStatus_t gemv_64(cublasHandle_t handle, cublasOperation_t op, int64_t m, int64_t n,
                       const double *matrix, const double *ones, double *out)
{
    const double one = 1, zero = 0;
    return cublasDgemv_64(handle, op, m, n, &one, matrix, m, ones, 1, &zero, out, 1);
}

} // namespace

template <class T>
int cublas_sum_gemv(cublasOperation_t op, size_t m, size_t n, const T *matrix, T *out,
                    cudaStream_t stream)
{
    const size_t results = op == CUBLAS_OP_T ? n : m, summed = op == CUBLAS_OP_T ? m : n;
    if (results == 0)
        return 0;
    if (summed == 0) { /* gemv returns at once, leaving out unwritten: empty sums are 0 */
        CUDA_TRY(cudaMemsetAsync(out, 0, results * sizeof(T), stream));
        return 0;
    }
    cublasHandle_t handle = cublas_shared_handle();
    if (!handle) {
        std::fprintf(stderr, "cuBLAS error: cublasCreate failed\n");
        return (int)cudaErrorUnknown;
    }
    const T *ones = nullptr;
    PROPAGATE(ones_vector<T>(summed, stream, &ones));
    CUBLAS_TRY(cublasSetStream(handle, stream));
    CUBLAS_TRY(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST)); /* alpha, beta: ours */
    CUBLAS_TRY(gemv_64(handle, op, (int64_t)m, (int64_t)n, matrix, ones, out));
    return 0;
}

template int cublas_sum_gemv<float>(cublasOperation_t, size_t, size_t, const float *, float *,
                                    cudaStream_t);
template int cublas_sum_gemv<double>(cublasOperation_t, size_t, size_t, const double *, double *,
                                     cudaStream_t);
