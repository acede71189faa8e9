/* What the cuBLAS shims share (cublas.cu, cublas_sum_gemv.cu): one handle per
 * device, created on the first call (a warm-up, untimed) and kept, and
 * CUBLAS_TRY, cuBLAS's counterpart of CUDA_TRY (cuda_check.h): on failure it
 * prints the call, file:line and cuBLAS's status string, and returns
 * cudaErrorUnknown so the harness's one error path reports the method. */
#ifndef CUBLAS_HANDLE_CUH
#define CUBLAS_HANDLE_CUH

#include <cublas_v2.h>

#include <cstdio>

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

/* The current device's handle (defined in cublas.cu); NULL if it could not
 * be created. A handle belongs to the device current when it was made
 * (bench_compare --gpus calls on several). */
cublasHandle_t cublas_shared_handle(void);

#endif
