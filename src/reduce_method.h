/* The one contract every summation method meets, and the registry row that
 * describes it. bench_compare, the tests and the CLI read the registry
 * (registry.h); nothing else lists methods. */
#ifndef REDUCE_METHOD_H
#define REDUCE_METHOD_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sums n floats at d_in into *d_out (both device memory) on `stream`.
 * Returns 0 or a cudaError_t value. Must be right for any n (0 gives 0.0f) and
 * any 4-byte-aligned d_in. `workspace` is device scratch the harness allocated
 * once, outside the timed region, with at least the bytes the method's
 * workspace query asked for; it is zeroed once when allocated, and a method
 * that keeps a counter there must leave it zero when its work completes. */
typedef int (*reduce_fn)(const float *d_in, size_t n, float *d_out,
                         void *workspace, cudaStream_t stream);

/* Bytes of workspace reduce_fn needs for n elements (0 if none). Returns 0 or
 * a cudaError_t value. */
typedef int (*workspace_fn)(size_t n, size_t *bytes);

/* One pass of a block-tree kernel (the Harris progression): reads n floats at
 * d_in and writes ceil(n / items_per_block) partial sums to d_out, padding the
 * last block with the identity 0.0f. The pass drivers (pass_driver.h) repeat
 * it until one value remains. */
typedef int (*pass_fn)(const float *d_in, size_t n, float *d_out,
                       cudaStream_t stream);

struct pass_kernel {
    pass_fn launch;
    unsigned items_per_block; /* inputs one block folds into one partial sum */
};

/* A CPU method sums host memory. */
typedef float (*host_sum_fn)(const float *h_in, size_t n);

enum method_family {
    FAMILY_PROGRESSION, /* the classic story: atomics, Harris reduce0..7 */
    FAMILY_MODERN,      /* shuffles, cooperative groups, vector loads, one pass */
    FAMILY_VENDOR,      /* CUB, Thrust, cuBLAS */
    FAMILY_CPU,         /* host loops, for scale */
};

enum method_flags {
    METHOD_ALLOCATES_INTERNALLY = 1 << 0, /* its time includes its own allocations */
    METHOD_SUMS_ABS = 1 << 1,             /* computes sum |x| (checked against it) */
    METHOD_ORDER_VARIES = 1 << 2,         /* float atomics: result may vary run to run */
    METHOD_RESULT_VIA_HOST = 1 << 3,      /* returns through the host (time includes the sync) */
};

/* One registry row. Exactly one of launch, pass, host_sum is set. */
struct method {
    const char *name;   /* short, stable: used by -m, baselines, test names */
    enum method_family family;
    const char *source; /* the seed step or library it follows */
    const char *idea;   /* one line */
    reduce_fn launch;   /* whole reduction on the device */
    workspace_fn workspace; /* with launch; NULL: needs none */
    const struct pass_kernel *pass; /* driven by pass_driver.h instead */
    host_sum_fn host_sum;
    unsigned flags;     /* enum method_flags */
    size_t max_n;       /* largest n it accepts; 0: any size_t */
};

#ifdef __cplusplus
}
#endif

#endif
