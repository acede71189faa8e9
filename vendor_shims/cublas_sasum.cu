/* cublasSasum_64: the closest thing cuBLAS has to a sum. It sums |x|, so its
 * row is checked against sum |x| (the default data is non-negative, where the
 * two agree). Pointer mode DEVICE writes the result to d_out without a host
 * round trip. The handle is created on the first call (a warm-up, untimed)
 * and kept; the 64-bit API takes n > 2^31. */
#include <cublas_v2.h>

#include <cstdio>

#include "cuda_check.h"

#define CUBLAS_TRY(call)                                                          \
    do {                                                                          \
        const cublasStatus_t cublas_try_status_ = (call);                         \
        if (cublas_try_status_ != CUBLAS_STATUS_SUCCESS) {                        \
            std::fprintf(stderr, "cuBLAS error %d (%s) at %s:%d in %s\n",         \
                         (int)cublas_try_status_,                                 \
                         cublasGetStatusString(cublas_try_status_), __FILE__,     \
                         __LINE__, #call);                                        \
            return (int)cudaErrorUnknown;                                         \
        }                                                                         \
    } while (0)

static cublasHandle_t shared_handle(void)
{
    static cublasHandle_t handle = nullptr;
    if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
        handle = nullptr;
    return handle;
}

extern "C" int cublas_sasum_reduce(const float *d_in, size_t n, float *d_out, void *workspace,
                                   cudaStream_t stream)
{
    (void)workspace;
    cublasHandle_t handle = shared_handle();
    if (!handle) {
        std::fprintf(stderr, "cuBLAS error: cublasCreate failed\n");
        return (int)cudaErrorUnknown;
    }
    CUBLAS_TRY(cublasSetStream(handle, stream));
    CUBLAS_TRY(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
    if (n == 0) { /* cuBLAS returns without writing the result for n <= 0 */
        CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(float), stream));
        return 0;
    }
    CUBLAS_TRY(cublasSasum_64(handle, (int64_t)n, d_in, 1, d_out));
    return 0;
}

extern "C" int cublas_version(int *version)
{
    cublasHandle_t handle = shared_handle();
    if (!handle)
        return (int)cudaErrorUnknown;
    CUBLAS_TRY(cublasGetVersion(handle, version));
    return 0;
}
