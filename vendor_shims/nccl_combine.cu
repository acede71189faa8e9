/* NCCL's combine for bench_compare --gpus N --combine nccl: the partials of
 * the G GPUs (one accumulator-type value each) summed, maxed or minned by
 * ncclAllReduce, the way a data-parallel job combines a global norm. One
 * process, one communicator per GPU (ncclCommInitAll), created once outside
 * the timing and connected by one untimed all-reduce; each sample's G calls
 * are grouped (ncclGroupStart/End) and queued on the GPUs' own streams, so
 * the harness's events time them like any kernel. Types: float, double,
 * int32, int64, uint32 as themselves; half and bfloat16 partials are floats
 * (their accumulator). NVLink multicast (NVLS) stays off: NCCL_NVLS_ENABLE=0
 * is set (not overwritten) before NCCL reads its environment - the lent
 * machines require it - and nothing here calls cuMulticastCreate.
 * Expected: a latency-bound cost per all-reduce of one float, which the
 * hand p2p combine should beat (docs/multi-gpu.md;
 * bench/results/h200x2_multigpu_ladder.txt).
 * Built only where CMake found NCCL (REDUCE_HAVE_NCCL); elsewhere the same
 * functions say "built without NCCL" and the nccl rows are refused.
 *   bench_compare --gpus 2 --combine nccl -n 268435456 */
#include <stdio.h>
#include <stdlib.h>

#include "combine.h"
#include "cuda_check.h"

#ifdef REDUCE_HAVE_NCCL

#include <nccl.h>

#include "nccl_check.h"

struct nccl_combine {
    int count;
    ncclComm_t comms[MAX_GPUS];
};

namespace {

ncclDataType_t nccl_type(enum element_type accumulator)
{
    switch (accumulator) {
    case TYPE_DOUBLE: return ncclFloat64;
    case TYPE_INT32: return ncclInt32;
    case TYPE_INT64: return ncclInt64;
    case TYPE_UINT32: return ncclUint32;
    default: return ncclFloat32; /* float, and the float partials of half and bfloat16 */
    }
}

ncclRedOp_t nccl_op(enum reduce_op op)
{
    return op == OP_MAX ? ncclMax : op == OP_MIN ? ncclMin : ncclSum;
}

void version_text(int code, char *buf, size_t len)
{
    /* NCCL_VERSION(X, Y, Z) = X * 10000 + Y * 100 + Z since 2.9 */
    snprintf(buf, len, "%d.%d.%d", code / 10000, code / 100 % 100, code % 100);
}

/* Before any NCCL call that may read the environment; 0: keep a value
 * already set (the lent machines set it themselves). */
void keep_nvls_off(void) { setenv("NCCL_NVLS_ENABLE", "0", 0); }

int init_all(struct nccl_combine *c, const int *devices, int count)
{
    NCCL_TRY(ncclCommInitAll(c->comms, count, devices));
    c->count = count;
    return 0;
}

} // namespace

extern "C" bool nccl_built(void) { return true; }

extern "C" void nccl_describe(char *buf, size_t len)
{
    keep_nvls_off();
    int code = 0;
    char runtime[32] = "?", built[32];
    if (ncclGetVersion(&code) == ncclSuccess)
        version_text(code, runtime, sizeof runtime);
    version_text(NCCL_VERSION_CODE, built, sizeof built);
    const char *nvls = getenv("NCCL_NVLS_ENABLE");
    snprintf(buf, len, "NCCL %s (built with %s), NCCL_NVLS_ENABLE=%s", runtime, built,
             nvls ? nvls : "unset");
}

extern "C" int nccl_combine_create(struct nccl_combine **out, const int *devices, int count,
                                   char *err, size_t err_len)
{
    *out = NULL;
    if (count < 1 || count > MAX_GPUS) {
        snprintf(err, err_len, "nccl: %d GPUs (1 to %d)", count, MAX_GPUS);
        return -1;
    }
    keep_nvls_off();
    struct nccl_combine *c = (struct nccl_combine *)calloc(1, sizeof *c);
    int current = 0;
    if (!c || cudaGetDevice(&current) != cudaSuccess) {
        free(c);
        snprintf(err, err_len, "nccl: out of host memory or no current device");
        return -1;
    }
    const int failed = init_all(c, devices, count);
    cudaSetDevice(current); /* ncclCommInitAll moves it */
    if (failed) {
        free(c);
        snprintf(err, err_len, "nccl: ncclCommInitAll over %d GPUs failed (see above)", count);
        return -1;
    }
    *out = c;
    return 0;
}

extern "C" void nccl_combine_destroy(struct nccl_combine *c)
{
    if (!c)
        return;
    for (int r = 0; r < c->count; ++r)
        ncclCommDestroy(c->comms[r]);
    free(c);
}

extern "C" int nccl_combine_run(struct nccl_combine *c, struct reduce_spec spec,
                                void *const *d_partials, void *const *d_results,
                                const cudaStream_t *streams)
{
    const ncclDataType_t type = nccl_type(accumulator_type(spec.type));
    const ncclRedOp_t op = nccl_op(spec.op);
    NCCL_TRY(ncclGroupStart());
    ncclResult_t first_error = ncclSuccess;
    for (int r = 0; r < c->count && first_error == ncclSuccess; ++r)
        first_error = ncclAllReduce(d_partials[r], d_results[r], 1, type, op, c->comms[r],
                                    streams[r]);
    /* A group once started must be ended, also after a failed call in it. */
    const ncclResult_t ended = ncclGroupEnd();
    NCCL_TRY(first_error);
    NCCL_TRY(ended);
    return 0;
}

#else /* built without NCCL */

#define WITHOUT_NCCL                                                                          \
    "built without NCCL: CMake found no nccl.h and libnccl (set -DNCCL_ROOT=DIR, or install " \
    "NCCL); --combine p2p needs none"

struct nccl_combine {
    int count;
};

extern "C" bool nccl_built(void) { return false; }

extern "C" void nccl_describe(char *buf, size_t len) { snprintf(buf, len, "%s", WITHOUT_NCCL); }

extern "C" int nccl_combine_create(struct nccl_combine **out, const int *, int, char *err,
                                   size_t err_len)
{
    *out = NULL;
    snprintf(err, err_len, "%s", WITHOUT_NCCL);
    return -1;
}

extern "C" void nccl_combine_destroy(struct nccl_combine *) {}

extern "C" int nccl_combine_run(struct nccl_combine *, struct reduce_spec, void *const *,
                                void *const *, const cudaStream_t *)
{
    return (int)cudaErrorNotSupported;
}

#endif
