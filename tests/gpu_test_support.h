/* For tests that need a GPU: skip (exit 77, one line) when there is none. */
#ifndef GPU_TEST_SUPPORT_H
#define GPU_TEST_SUPPORT_H

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "device_info.h"

/* The same one line as bench_compare's error (device_info.h). */
static inline void skip_without_gpu(const char *test)
{
    char reason[256];
    if (!usable_gpu(reason, sizeof reason)) {
        printf("SKIP %s: %s\n", test, reason);
        exit(EXIT_SKIP);
    }
}

/* Device scratch that grows to the largest size asked for; zeroed when it
 * grows (a method's workspace must start zeroed). */
struct device_scratch {
    void *ptr;
    size_t bytes;
};

static inline bool ensure_scratch(struct device_scratch *s, size_t bytes)
{
    if (bytes <= s->bytes)
        return true;
    cudaFree(s->ptr);
    s->ptr = NULL;
    s->bytes = 0;
    if (cudaMalloc(&s->ptr, bytes) != cudaSuccess || cudaMemset(s->ptr, 0, bytes) != cudaSuccess)
        return false;
    s->bytes = bytes;
    return true;
}

#endif
