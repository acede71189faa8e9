/* Calling a method through its descriptor, whatever kind it is: the device
 * launch or the pass driver, the workspace it asks for, and why a shape or
 * a (type, operator, length) is refused. The harness, the multi-GPU run and
 * the tests all call methods through these, so a method is called one way. */
#ifndef METHOD_CALL_H
#define METHOD_CALL_H

#include <stdbool.h>
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

/* Why m does not take this shape ("whole array only", or the shapes it
 * takes) written to reason; false if it does. */
bool method_refuses_shape(const struct method *m, enum shape_kind kind, char *reason,
                          size_t reason_len);

/* Why m does not run (spec, longest) - the pair is unsupported, or the
 * longest reduction (n, or the longest row) is past its chain limit -
 * written to reason; false if it runs. */
bool method_refuses(const struct method *m, struct reduce_spec spec, size_t longest, char *reason,
                    size_t reason_len);

#endif
