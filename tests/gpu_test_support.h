/* For tests that need a GPU: skip (exit 77, one line) when there is none. */
#ifndef GPU_TEST_SUPPORT_H
#define GPU_TEST_SUPPORT_H

#include <cuda_runtime_api.h>
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

#endif
