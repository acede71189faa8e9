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

/* Reduces the n elements of spec.type at d_in with spec.op, cut by `shape`
 * (shape.h: the whole array is one result of n elements; rows and segments
 * give shape.count results, columns shape.cols of n / shape.cols elements
 * each, a row apart; segment offsets are in device memory), into
 * d_out[0 .. shape.count), one result_size(spec) each (an accumulator, or an
 * arg result: element_type.h), on `stream`. Both pointers are device memory. Must be right for any
 * n (no elements gives the operator's identity), any d_in aligned to its
 * element size, any shape it declares: no results, one row, one column, empty
 * segments, rows that start misaligned, more than 2^31 elements in all.
 * `workspace` is device scratch the harness allocated once, outside the timed
 * region, with at least the bytes the workspace query asked for; it is
 * zeroed once when allocated, and a method that keeps a counter there must
 * leave it zero when its work completes. Returns 0 or a cudaError_t value. */
typedef int (*reduce_fn)(struct reduce_spec spec, struct reduce_shape shape, const void *d_in,
                         size_t n, void *d_out, void *workspace, cudaStream_t stream);

/* Bytes of workspace reduce_fn needs for this shape of n elements (0 if
 * none). Returns 0 or a cudaError_t value. */
typedef int (*workspace_fn)(struct reduce_spec spec, struct reduce_shape shape, size_t n,
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

/* A CPU method: the same on host memory (shape.offsets in host memory too),
 * into results[0 .. shape.count). */
typedef void (*host_reduce_fn)(struct reduce_spec spec, struct reduce_shape shape,
                               const void *h_in, size_t n, void *results);

/* For a method that hands small inputs to another step: *n = the smallest n
 * (elements of spec.type) its own kernel takes on the current device, or 0
 * if it never runs there (an older GPU, code not built for it). Tests use it
 * to aim at the method's own path. Returns 0 or a cudaError_t value. */
typedef int (*own_kernel_fn)(struct reduce_spec spec, size_t *n);

/* For a method that runs one of the other methods' kernels (adaptive_rows):
 * the method it runs for this spec, shape and n (the shape's offsets are not
 * read). bench_compare names it in the row's note; the CPU tests check the
 * choices. */
typedef const struct method *(*chosen_step_fn)(struct reduce_spec spec, struct reduce_shape shape,
                                               size_t n);

enum method_family {
    FAMILY_PROGRESSION, /* the classic story: atomics, Harris reduce0..7 */
    FAMILY_MODERN,      /* shuffles, cooperative groups, vector loads, one pass */
    FAMILY_ROWS,        /* many reductions at once: rows and segments, by width */
    FAMILY_COLUMNS,     /* the columns of a row-major matrix */
    FAMILY_ARG,         /* where the maximum is: argmax and argmin's first steps */
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
    METHOD_OWN_NAN_RULE = 1 << 6,         /* argmax, argmin: a NaN input gets the library's
                                             answer, not element_type.h's rule (a NaN wins);
                                             checked on NaN-free data only */
    METHOD_INT_ARG_OFFSETS = 1 << 7,      /* argmax, argmin: the library counts elements in
                                             an int - REFUSED for segments past INT_MAX
                                             elements in all, rows longer than INT_MAX
                                             (method_refuses_extent) */
};

/* One method: at most one of launch, pass and host is set. `shapes` says
 * which shapes it computes (0 means the whole array alone); any other shape
 * is REFUSED. A pass kernel computes the whole array alone. It supports every
 * pair of a type in `types` and an operator in `ops`; any other pair is
 * REFUSED with `unsupported_why` (argmax and argmin, for a method that takes
 * neither, with the registry's own reason: it keeps no index). `order` is how its floating-point sums
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
    reduce_fn launch;   /* on the device */
    workspace_fn workspace; /* with launch; NULL: needs none */
    const struct pass_kernel *pass; /* driven by pass_driver.h instead */
    host_reduce_fn host; /* on the CPU */
    unsigned flags;     /* enum method_flags */
    struct summation_order order; /* for rows and segments: the order within one
                                     row, taken at that row's length */
    unsigned shapes;    /* SHAPE_BIT(k) for each shape it computes; 0: SHAPE_WHOLE */
    own_kernel_fn own_kernel_from; /* NULL: its own kernel runs at every n */
    chosen_step_fn chosen_step; /* NULL: it runs its own kernel */
    size_t max_n;       /* the most elements it takes (an index field's width);
                           0: any. REFUSED past it */
};

#ifdef __cplusplus
}
#endif

#endif
