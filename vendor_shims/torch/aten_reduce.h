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

/* Op over the n > 0 elements at d_in into one result at d_out (an
 * accumulator, or an arg result: element_type.h): torch.sum(x), x.amax(),
 * x.amin(), x.argmax() and x.argmin() with the value at that index. */
typedef int aten_reduce_array_fn(struct aten_request request, const void *d_in, int64_t n,
                                 void *d_out);

/* Op over the rows x cols row-major elements at d_in, rows, cols >= 1,
 * along `dim` of the {rows, cols} matrix: ATEN_ALONG_ROWS (1) gives rows
 * results at d_out - x.sum(-1), x.amax(-1), ..., x.argmax(-1) -,
 * ATEN_DOWN_COLUMNS (0) cols results - x.sum(0), ..., x.argmax(0). */
typedef int aten_reduce_matrix_fn(struct aten_request request, const void *d_in, int64_t rows,
                                  int64_t cols, int64_t dim, void *d_out);
#define ATEN_ALONG_ROWS 1
#define ATEN_DOWN_COLUMNS 0

/* Their names in the module, for dlsym. */
#define ATEN_REDUCE_ARRAY "aten_reduce_array"
#define ATEN_REDUCE_MATRIX "aten_reduce_matrix"

#endif
