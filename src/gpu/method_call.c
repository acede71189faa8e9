#include "method_call.h"

#include "cuda_check.h"

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
