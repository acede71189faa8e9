#include "method_call.h"

#include <stdio.h>

#include "cuda_check.h"
#include "reference.h"
#include "registry.h"

int run_method_once(const struct method *m, enum pass_strategy strategy, struct reduce_spec spec,
                    struct reduce_shape shape, const void *d_in, size_t n, void *d_out,
                    void *workspace, cudaStream_t stream)
{
    if (m->pass)
        return reduce_by_passes(m->pass, strategy, spec, d_in, n, d_out, workspace, stream);
    return m->launch(spec, shape, d_in, n, d_out, workspace, stream);
}

int method_workspace_bytes(const struct method *m, struct reduce_spec spec,
                           struct reduce_shape shape, size_t n, size_t *bytes)
{
    *bytes = 0;
    if (m->pass)
        *bytes = pass_driver_workspace_bytes(m->pass, spec, n);
    else if (m->workspace)
        PROPAGATE(m->workspace(spec, shape, n, bytes));
    return 0;
}

bool method_refuses(const struct method *m, struct reduce_spec spec, size_t longest, char *reason,
                    size_t reason_len)
{
    if (!method_supports(m, spec)) {
        snprintf(reason, reason_len, "refused: %s %s: %s", element_type_name(spec.type),
                 reduce_op_name(spec.op), m->unsupported_why ? m->unsupported_why : "unsupported");
        return true;
    }
    if ((m->flags & METHOD_SERIAL_CHAIN) && longest > chain_limit(spec)) {
        snprintf(reason, reason_len,
                 "refused: one running %s sum stops growing past %zu elements",
                 element_type_name(accumulator_type(spec.type)), chain_limit(spec));
        return true;
    }
    return false;
}

bool method_refuses_shape(const struct method *m, enum shape_kind kind, char *reason,
                          size_t reason_len)
{
    if (method_takes_shape(m, kind))
        return false;
    if (!method_takes_shape(m, SHAPE_ROWS) && !method_takes_shape(m, SHAPE_SEGMENTS)) {
        snprintf(reason, reason_len, "refused: whole array only");
        return true;
    }
    size_t used = (size_t)snprintf(reason, reason_len, "refused: takes");
    for (int k = 0; k < SHAPE_KIND_COUNT; ++k)
        if (method_takes_shape(m, (enum shape_kind)k) && used < reason_len)
            used += (size_t)snprintf(reason + used, reason_len - used, " %s",
                                     shape_kind_name((enum shape_kind)k));
    return true;
}
