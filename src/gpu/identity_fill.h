/* Writes `count` copies of spec.op's identity as elements of spec.type to
 * device memory at d_out (kernels/blocks/identity_fill.cu): pass the accumulator
 * type for a result, the input type for padding. Returns 0 or a cudaError_t
 * value. */
#ifndef IDENTITY_FILL_H
#define IDENTITY_FILL_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "element_type.h"

#ifdef __cplusplus
extern "C" {
#endif

int fill_with_identity(struct reduce_spec spec, void *d_out, size_t count, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
