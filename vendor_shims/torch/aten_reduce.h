/* The calls into PyTorch that the torch rows make (vendor_shims/torch.cu),
 * built apart as a module - libreduce_torch.so, aten_reduce.cu - that
 * torch.cu opens with dlopen on the first call of a torch row. Only that
 * module links libtorch: a program that never runs the row never pays the
 * half second that loading libtorch takes (every bench_compare --help,
 * every CLI test did, when the programs linked it).
 *
 * Both functions return 0 or a cudaError_t; a PyTorch exception is printed
 * to stderr as "PyTorch error: ..." and returned as cudaErrorUnknown. */
#ifndef ATEN_REDUCE_H
#define ATEN_REDUCE_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "element_type.h"

/* What every call needs besides its buffers. */
struct aten_request {
    struct reduce_spec spec;
    enum element_type accumulator; /* the type of the result slots */
    int device;                    /* where the buffers live */
    cudaStream_t stream;           /* the suite's: the calls are enqueued on it */
};

/* Op over the n > 0 elements at d_in into one accumulator at d_out:
 * torch.sum(x), x.amax(), x.amin(). */
typedef int aten_reduce_array_fn(struct aten_request request, const void *d_in, int64_t n,
                                 void *d_out);

/* Op over each row of the rows x cols row-major elements at d_in, into rows
 * accumulators at d_out: x.sum(-1), x.amax(-1), x.amin(-1). */
typedef int aten_reduce_rows_fn(struct aten_request request, const void *d_in, int64_t rows,
                                int64_t cols, void *d_out);

/* Their names in the module, for dlsym. */
#define ATEN_REDUCE_ARRAY "aten_reduce_array"
#define ATEN_REDUCE_ROWS "aten_reduce_rows"

#endif
