/* fill_identity for the C pass driver (src/gpu/pass_driver.c): one entry point
 * for every accumulator type and operator. */
#include "identity_fill.cuh"
#include "identity_fill.h"

extern "C" int fill_with_identity(struct reduce_spec spec, void *d_out, size_t count,
                                  cudaStream_t stream)
{
    return with_pair(spec, [&](auto type, auto op) {
        using X = typename decltype(type)::type;
        return fill_identity<decltype(op)>(static_cast<X *>(d_out), count, stream);
    });
}
