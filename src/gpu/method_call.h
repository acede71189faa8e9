/* Calling a method through its descriptor, whatever kind it is: the device
 * launch or the pass driver, and the workspace it asks for. The harness, the
 * multi-GPU run and the tests all call methods through these, so a method is
 * called one way. (Why a method refuses a shape or a pair: registry.h.) */
#ifndef METHOD_CALL_H
#define METHOD_CALL_H

#include <stddef.h>

#include "pass_driver.h"
#include "reduce_method.h"

/* Runs a device method once on `shape` (offsets in device memory): its
 * launch, or the pass driver for a pass kernel (the whole array alone). */
int run_method_once(const struct method *m, enum pass_strategy strategy, struct reduce_spec spec,
                    struct reduce_shape shape, const void *d_in, size_t n, void *d_out,
                    void *workspace, cudaStream_t stream);

/* Workspace bytes a device method needs for this shape of n elements. */
int method_workspace_bytes(const struct method *m, struct reduce_spec spec,
                           struct reduce_shape shape, size_t n, size_t *bytes);

#endif
