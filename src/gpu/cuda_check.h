/* Checking every CUDA call. CUDA_TRY is for functions that return an int
 * error code (0 = success): on failure it prints the call, file:line and the
 * CUDA error string to stderr and returns the code to the caller, so a failing
 * method is reported FAILED with its reason instead of killing the run. */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

void report_cuda_error(int code, const char *call, const char *file, int line);

#ifdef __cplusplus
}
#endif

#define CUDA_TRY(call)                                                     \
    do {                                                                   \
        const cudaError_t cuda_try_err_ = (call);                          \
        if (cuda_try_err_ != cudaSuccess) {                                \
            report_cuda_error((int)cuda_try_err_, #call, __FILE__, __LINE__); \
            return (int)cuda_try_err_;                                     \
        }                                                                  \
    } while (0)

/* For our own int-returning calls, already reported where they failed. */
#define PROPAGATE(call)                       \
    do {                                      \
        const int propagate_err_ = (call);    \
        if (propagate_err_)                   \
            return propagate_err_;            \
    } while (0)

/* After a kernel launch: a bad configuration shows up here, not at <<<>>>. */
#define CUDA_TRY_LAUNCH() CUDA_TRY(cudaGetLastError())

static inline size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

#endif
