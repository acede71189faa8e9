#include "pass_driver.h"

#include "cuda_check.h"
#include "identity_fill.h"
#include "pow2_split.h"

/* Workspace layout: two ping-pong buffers of ceil(n / B) partials (the
 * accumulator type), one block of input elements for the power-of-two
 * split's padded tail, and one partial per part (chunks + tail) of that
 * split; each region starts on a 16-byte boundary. */
struct pass_buffers {
    char *ping, *pong, *padded_tail, *parts;
};

static size_t round_up_16(size_t bytes) { return ceil_div(bytes, 16) * 16; }

static size_t partials_bytes(const struct pass_kernel *k, struct reduce_spec spec, size_t n)
{
    const size_t len = ceil_div(n, k->items_per_block);
    return round_up_16((len > 0 ? len : 1) * element_size(accumulator_type(spec.type)));
}

static size_t padded_tail_bytes(const struct pass_kernel *k, struct reduce_spec spec)
{
    return round_up_16(k->items_per_block * element_size(spec.type));
}

static struct pass_buffers carve(const struct pass_kernel *k, struct reduce_spec spec, size_t n,
                                 void *workspace)
{
    struct pass_buffers b;
    b.ping = workspace;
    b.pong = b.ping + partials_bytes(k, spec, n);
    b.padded_tail = b.pong + partials_bytes(k, spec, n);
    b.parts = b.padded_tail + padded_tail_bytes(k, spec);
    return b;
}

size_t pass_driver_workspace_bytes(const struct pass_kernel *k, struct reduce_spec spec, size_t n)
{
    const size_t parts = (POW2_SPLIT_MAX_CHUNKS + 1) * element_size(accumulator_type(spec.type));
    return 2 * partials_bytes(k, spec, n) + padded_tail_bytes(k, spec) + parts;
}

/* Seed 001's host loop: pass after pass, each one block-count shorter, the
 * last one writing straight into d_out. Passes after the first read
 * partials, so they run on the accumulator type. */
static int padded_passes(const struct pass_kernel *k, struct reduce_spec spec, const void *d_in,
                         size_t n, void *d_out, const struct pass_buffers *b, cudaStream_t stream)
{
    const struct reduce_spec partial_spec = {accumulator_type(spec.type), spec.op};
    if (n == 0)
        return fill_with_identity(partial_spec, d_out, 1, stream);
    const void *src = d_in;
    char *dst = b->ping;
    while (n > k->items_per_block) {
        PROPAGATE(k->launch(spec, src, n, dst, stream));
        n = ceil_div(n, k->items_per_block);
        spec = partial_spec;
        src = dst;
        dst = dst == b->ping ? b->pong : b->ping;
    }
    return k->launch(spec, src, n, d_out, stream);
}

static int pow2_split_passes(const struct pass_kernel *k, struct reduce_spec spec,
                             const void *d_in, size_t n, void *d_out,
                             const struct pass_buffers *b, cudaStream_t stream)
{
    const struct reduce_spec partial_spec = {accumulator_type(spec.type), spec.op};
    const size_t in_size = element_size(spec.type);
    const size_t partial_size = element_size(partial_spec.type);
    const struct pow2_split plan = pow2_split_plan(n, k->items_per_block);
    const char *in = d_in;
    size_t offset = 0;
    unsigned parts = 0;
    for (unsigned c = 0; c < plan.chunks; ++c) {
        PROPAGATE(padded_passes(k, spec, in + offset * in_size, plan.chunk_len[c],
                                b->parts + parts++ * partial_size, b, stream));
        offset += plan.chunk_len[c];
    }
    if (plan.tail_len > 0) {
        /* The seed pads with zeros; the identity is the padding for any operator. */
        PROPAGATE(fill_with_identity(spec, b->padded_tail, k->items_per_block, stream));
        CUDA_TRY(cudaMemcpyAsync(b->padded_tail, in + offset * in_size, plan.tail_len * in_size,
                                 cudaMemcpyDeviceToDevice, stream));
        PROPAGATE(padded_passes(k, spec, b->padded_tail, k->items_per_block,
                                b->parts + parts++ * partial_size, b, stream));
    }
    /* parts <= 65 < any block's inputs: one pass combines them (none: the identity). */
    return padded_passes(k, partial_spec, b->parts, parts, d_out, b, stream);
}

int reduce_by_passes(const struct pass_kernel *k, enum pass_strategy strategy,
                     struct reduce_spec spec, const void *d_in, size_t n, void *d_out,
                     void *workspace, cudaStream_t stream)
{
    const struct pass_buffers b = carve(k, spec, n, workspace);
    return strategy == PASS_POW2_SPLIT ? pow2_split_passes(k, spec, d_in, n, d_out, &b, stream)
                                       : padded_passes(k, spec, d_in, n, d_out, &b, stream);
}
