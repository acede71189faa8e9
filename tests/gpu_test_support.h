/* For tests that need a GPU: skip (exit 77, one line) when there is none. */
#ifndef GPU_TEST_SUPPORT_H
#define GPU_TEST_SUPPORT_H

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static inline void skip_without_gpu(const char *test)
{
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        printf("SKIP %s: no CUDA device (%s)\n", test,
               err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
        exit(EXIT_SKIP);
    }
}

#endif
