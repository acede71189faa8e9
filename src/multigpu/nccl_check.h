/* Checking every NCCL call, the CUDA_TRY way (cuda_check.h): on failure it
 * prints the call, file:line, NCCL's error string and its last message to
 * stderr and returns a nonzero int to the caller - cudaErrorUnknown, as
 * cuBLAS's CUBLAS_TRY does - so the harness's one error path reports the
 * row as ERROR. Only for code built with NCCL (REDUCE_HAVE_NCCL). */
#ifndef NCCL_CHECK_H
#define NCCL_CHECK_H

#include <cuda_runtime_api.h>
#include <nccl.h>
#include <stdio.h>

static inline void report_nccl_error(ncclResult_t result, const char *call, const char *file,
                                     int line)
{
    const char *last = ncclGetLastError(NULL);
    fprintf(stderr, "NCCL error %d (%s%s%s) at %s:%d in %s\n", (int)result,
            ncclGetErrorString(result), last && *last ? ": " : "", last ? last : "", file, line,
            call);
}

#define NCCL_TRY(call)                                                       \
    do {                                                                     \
        const ncclResult_t nccl_try_result_ = (call);                        \
        if (nccl_try_result_ != ncclSuccess) {                               \
            report_nccl_error(nccl_try_result_, #call, __FILE__, __LINE__);  \
            return (int)cudaErrorUnknown;                                    \
        }                                                                    \
    } while (0)

#endif
