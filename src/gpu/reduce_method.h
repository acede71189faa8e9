/* The one contract every reduction method meets, and the descriptor that
 * describes it. Each kernel file, vendor shim and CPU loop defines its own
 * descriptor next to its code (DEFINE_METHOD in kernels/blocks/method.cuh), so the
 * compiler checks it against this header; src/gpu/method_list.h only orders them.
 * bench_compare, the tests and the CLI read the registry (registry.h). */
#ifndef REDUCE_METHOD_H
#define REDUCE_METHOD_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "element_type.h"
#include "shape.h"
#include "summation_order.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reduces n elements of spec.type at d_in with spec.op into *d_out (both
 * device memory) on `stream`; *d_out has the accumulator type
 * (accumulator_type(spec.type)). Returns 0 or a cudaError_t value. Must be
 * right for any n (0 gives the operator's identity) and any d_in aligned to
 * its element size. `workspace` is device scratch the harness allocated once,
 * outside the timed region, with at least the bytes the method's workspace
 * query asked for; it is zeroed once when allocated, and a method that keeps
 * a counter there must leave it zero when its work completes. */
typedef int (*reduce_fn)(struct reduce_spec spec, const void *d_in, size_t n, void *d_out,
                         void *workspace, cudaStream_t stream);

/* Bytes of workspace reduce_fn needs for n elements (0 if none). Returns 0 or
 * a cudaError_t value. */
typedef int (*workspace_fn)(struct reduce_spec spec, size_t n, size_t *bytes);

/* Reduces each row or segment of `shape` (shape.kind is SHAPE_ROWS or
 * SHAPE_SEGMENTS; shape.offsets in device memory) of the n elements at d_in
 * into d_out[0 .. shape.count), one accumulator each, on `stream`. Must be
 * right for any shape: no results, one row, one column, empty segments (the
 * identity), rows that start misaligned, more than 2^31 elements in all.
 * Workspace as for reduce_fn. Returns 0 or a cudaError_t value. */
typedef int (*reduce_shaped_fn)(struct reduce_spec spec, struct reduce_shape shape,
                                const void *d_in, size_t n, void *d_out, void *workspace,
                                cudaStream_t stream);

/* Bytes of workspace reduce_shaped_fn needs for this shape (0 if none). */
typedef int (*workspace_shaped_fn)(struct reduce_spec spec, struct reduce_shape shape, size_t n,
                                   size_t *bytes);

/* One pass of a block-tree kernel (the Harris progression): reads n elements
 * of spec.type at d_in and writes ceil(n / items_per_block) partial results of
 * the accumulator type to d_out, padding the last block with the identity.
 * The pass drivers (pass_driver.h) repeat it - on the accumulator type - until
 * one value remains. */
typedef int (*pass_fn)(struct reduce_spec spec, const void *d_in, size_t n, void *d_out,
                       cudaStream_t stream);

struct pass_kernel {
    pass_fn launch;
    unsigned items_per_block; /* inputs one block folds into one partial */
};

/* A CPU method reduces host memory into *result (the accumulator type). */
typedef void (*host_reduce_fn)(struct reduce_spec spec, const void *h_in, size_t n,
                               void *result);
/* ... and per row or segment (shape.offsets in host memory) into
 * results[0 .. shape.count). */
typedef void (*host_reduce_shaped_fn)(struct reduce_spec spec, struct reduce_shape shape,
                                      const void *h_in, size_t n, void *results);

enum method_family {
    FAMILY_PROGRESSION, /* the classic story: atomics, Harris reduce0..7 */
    FAMILY_MODERN,      /* shuffles, cooperative groups, vector loads, one pass */
    FAMILY_ROWS,        /* many reductions at once: rows and segments, by width */
    FAMILY_VENDOR,      /* CUB, Thrust, cuBLAS */
    FAMILY_CPU,         /* host loops, for scale */
};

enum method_flags {
    METHOD_ALLOCATES_INTERNALLY = 1 << 0, /* its time includes its own allocations */
    METHOD_SUMS_ABS = 1 << 1,             /* a sum computes sum |x| (checked against it) */
    METHOD_ORDER_VARIES = 1 << 2,         /* atomics: a float sum may vary run to run */
    METHOD_RESULT_VIA_HOST = 1 << 3,      /* returns through the host (time includes the sync) */
    METHOD_SERIAL_CHAIN = 1 << 4,         /* one accumulator, one element after another:
                                             refused past chain_limit() (reference.h) */
    METHOD_GRID_INDEPENDENT = 1 << 5,     /* result bits depend on the data and n only, not
                                             on the launch grid or the GPU it runs on
                                             (test_grid_independence asserts it) */
};

/* One method. For the whole array, at most one of launch, pass, host is
 * set; for rows and segments, at most one of launch_shaped and host_shaped.
 * `shapes` says which shapes it computes (0 means the whole array alone);
 * any other shape is REFUSED. It supports every
 * pair of a type in `types` and an operator in `ops`; any other pair is
 * REFUSED with `unsupported_why`. `order` is how its floating-point sums
 * associate (summation_order.h), which sets its PASS/FAIL bound; left out,
 * it is the zero value, ORDER_SERIAL_CHAIN: the loosest bound, always safe. */
struct method {
    const char *name;   /* short, stable: the -m key, its file's name, baselines, tests */
    enum method_family family;
    const char *source; /* the source document's step, or the library it follows */
    const char *idea;   /* one line */
    unsigned types;     /* TYPE_BIT(t) for each supported element type */
    unsigned ops;       /* OP_BIT(op) for each supported operator */
    const char *unsupported_why; /* why the other pairs are refused; NULL if none are */
    reduce_fn launch;   /* whole reduction on the device */
    workspace_fn workspace; /* with launch; NULL: needs none */
    const struct pass_kernel *pass; /* driven by pass_driver.h instead */
    host_reduce_fn host;
    unsigned flags;     /* enum method_flags */
    struct summation_order order; /* for rows and segments: the order within one
                                     row, taken at that row's length */
    unsigned shapes;    /* SHAPE_BIT(k) for each shape it computes; 0: SHAPE_WHOLE */
    reduce_shaped_fn launch_shaped;     /* rows and segments on the device */
    workspace_shaped_fn workspace_shaped; /* with launch_shaped; NULL: needs none */
    host_reduce_shaped_fn host_shaped;  /* rows and segments on the CPU */
};

#ifdef __cplusplus
}
#endif

#endif
