/* What step 18 (18_tma_ring.cu) tells its tests: from which n its launcher
 * uses the bulk-copy ring rather than handing the input to step 17. */
#ifndef TMA_RING_H
#define TMA_RING_H

#include <stddef.h>

#include "element_type.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *n = the smallest n (elements of spec.type) the ring handles on the current
 * device, or 0 if it never runs there (older GPU, or code not built for
 * sm_90). Returns 0 or a cudaError_t value. */
int tma_ring_min_elements(struct reduce_spec spec, size_t *n);

#ifdef __cplusplus
}
#endif

#endif
