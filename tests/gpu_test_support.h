/* For tests that need a GPU: skip (exit 77, one line) when there is none. */
#ifndef GPU_TEST_SUPPORT_H
#define GPU_TEST_SUPPORT_H

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "check.h"
#include "device_info.h"
#include "measure.h"
#include "registry.h"

/* The same one line as bench_compare's error (device_info.h). */
static inline void skip_without_gpu(const char *test)
{
    char reason[256];
    if (!usable_gpu(reason, sizeof reason)) {
        printf("SKIP %s: %s\n", test, reason);
        exit(EXIT_SKIP);
    }
}

/* --quick, the sanitizer runs' pair set (test_methods_gpu, test_shapes_gpu):
 * each type at least once, each value operator at least twice, argmax and
 * argmin once each. */
static const struct reduce_spec QUICK_PAIRS[] = {
    {TYPE_FLOAT, OP_SUM},  {TYPE_DOUBLE, OP_MAX},   {TYPE_INT32, OP_MIN},
    {TYPE_INT64, OP_SUM},  {TYPE_UINT32, OP_MAX},   {TYPE_HALF, OP_SUM},
    {TYPE_BFLOAT16, OP_MIN}, {TYPE_FLOAT, OP_ARGMAX}, {TYPE_HALF, OP_ARGMIN}};

static inline bool is_quick_pair(struct reduce_spec spec)
{
    for (size_t i = 0; i < sizeof QUICK_PAIRS / sizeof QUICK_PAIRS[0]; ++i)
        if (QUICK_PAIRS[i].type == spec.type && QUICK_PAIRS[i].op == spec.op)
            return true;
    return false;
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

/* One call of m, the result slot poisoned with `poison` bytes first (a
 * method that writes nothing cannot pass); the workspace, sized to what m
 * asks for now, zeroed first when zero_workspace (the contract: it starts
 * zeroed, and a method leaves it zero for its next call). The result's
 * value, and its index (argmax, argmin; NO_INDEX otherwise) where index is
 * not NULL. False, after CHECK-reporting it, when a call failed. */
static inline bool call_method_once(const struct method *m, enum pass_strategy strategy,
                                    struct reduce_spec spec, const void *d_in, const void *h_in,
                                    size_t n, struct device_scratch *workspace, void *d_out,
                                    bool zero_workspace, int poison, double *result,
                                    long long *index)
{
    unsigned char bytes[MAX_RESULT_BYTES];
    memset(bytes, poison, sizeof bytes);
    if (m->host) {
        m->host(spec, whole_shape(), h_in, n, bytes);
    } else {
        size_t ws = 0;
        const bool ok = method_workspace_bytes(m, spec, whole_shape(), n, &ws) == 0 &&
                        ensure_scratch(workspace, ws) &&
                        (!zero_workspace || cudaMemset(workspace->ptr, 0, ws) == cudaSuccess) &&
                        cudaMemset(d_out, poison, MAX_RESULT_BYTES) == cudaSuccess &&
                        run_method_once(m, strategy, spec, whole_shape(), d_in, n, d_out,
                                        workspace->ptr, 0) == 0 &&
                        cudaMemcpy(bytes, d_out, sizeof bytes, cudaMemcpyDeviceToHost) ==
                            cudaSuccess;
        CHECK(ok);
        if (!ok)
            return false;
    }
    *result = load_result_value(spec, bytes, 0);
    if (index)
        *index = load_result_index(spec, bytes, 0);
    return true;
}

/* Where method `name`'s own kernel starts for spec (its descriptor's
 * own_kernel_from; 0: it never runs on this GPU), asked through the registry
 * so tests need no kernel header. */
static inline size_t own_kernel_from(const char *name, struct reduce_spec spec)
{
    const struct method *m = find_method(name);
    size_t n = 0;
    CHECK(m && m->own_kernel_from && m->own_kernel_from(spec, &n) == 0);
    return n;
}

#endif
