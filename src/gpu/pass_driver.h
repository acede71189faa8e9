/* Two ways of driving a one-pass block kernel (struct pass_kernel) to a
 * single sum, for any n:
 *  - padded passes (seed 001): each pass pads its last block with the
 *    identity and writes one partial per block; repeat until one remains;
 *  - power-of-two split (seed 000): pow2_split.h's chunks are each reduced
 *    by padded passes, the tail is copied into a block padded with the
 *    identity, and the parts are combined by one more round of passes. */
#ifndef PASS_DRIVER_H
#define PASS_DRIVER_H

#include "pow2_split.h" /* enum pass_strategy */
#include "reduce_method.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Workspace for either strategy (the larger of the two). */
size_t pass_driver_workspace_bytes(const struct pass_kernel *k, struct reduce_spec spec, size_t n);

int reduce_by_passes(const struct pass_kernel *k, enum pass_strategy strategy,
                     struct reduce_spec spec, const void *d_in, size_t n, void *d_out,
                     void *workspace, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
