#include "pass_driver.h"

#include "cuda_check.h"
#include "pow2_split.h"

/* Workspace layout, in floats: two ping-pong buffers of ceil(n / B) partials,
 * one zero-padded block for the power-of-two split's tail, and one slot per
 * part (chunks + tail) of that split. */
struct pass_buffers {
    float *ping, *pong, *padded_tail, *parts;
};

static size_t partials_len(const struct pass_kernel *k, size_t n)
{
    const size_t len = ceil_div(n, k->items_per_block);
    return len > 0 ? len : 1;
}

static struct pass_buffers carve(const struct pass_kernel *k, size_t n, void *workspace)
{
    const size_t partials = partials_len(k, n);
    struct pass_buffers b;
    b.ping = (float *)workspace;
    b.pong = b.ping + partials;
    b.padded_tail = b.pong + partials;
    b.parts = b.padded_tail + k->items_per_block;
    return b;
}

size_t pass_driver_workspace_bytes(const struct pass_kernel *k, size_t n)
{
    const size_t floats = 2 * partials_len(k, n) + k->items_per_block + POW2_SPLIT_MAX_CHUNKS + 1;
    return floats * sizeof(float);
}

/* Seed 001's host loop: pass after pass, each one block-count shorter,
 * the last one writing straight into d_out. */
static int padded_passes(const struct pass_kernel *k, const float *d_in, size_t n,
                         float *d_out, const struct pass_buffers *b, cudaStream_t stream)
{
    if (n == 0) {
        CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(float), stream));
        return 0;
    }
    const float *src = d_in;
    float *dst = b->ping;
    while (n > k->items_per_block) {
        PROPAGATE(k->launch(src, n, dst, stream));
        n = ceil_div(n, k->items_per_block);
        src = dst;
        dst = dst == b->ping ? b->pong : b->ping;
    }
    return k->launch(src, n, d_out, stream);
}

static int pow2_split_passes(const struct pass_kernel *k, const float *d_in, size_t n,
                             float *d_out, const struct pass_buffers *b, cudaStream_t stream)
{
    const struct pow2_split plan = pow2_split_plan(n, k->items_per_block);
    size_t offset = 0;
    unsigned parts = 0;
    for (unsigned c = 0; c < plan.chunks; ++c) {
        PROPAGATE(padded_passes(k, d_in + offset, plan.chunk_len[c], b->parts + parts++, b, stream));
        offset += plan.chunk_len[c];
    }
    if (plan.tail_len > 0) {
        CUDA_TRY(cudaMemsetAsync(b->padded_tail, 0, k->items_per_block * sizeof(float), stream));
        CUDA_TRY(cudaMemcpyAsync(b->padded_tail, d_in + offset, plan.tail_len * sizeof(float),
                                 cudaMemcpyDeviceToDevice, stream));
        PROPAGATE(padded_passes(k, b->padded_tail, k->items_per_block, b->parts + parts++, b, stream));
    }
    /* parts <= 65 < any block's inputs: one pass sums them (n = 0 gives 0). */
    return padded_passes(k, b->parts, parts, d_out, b, stream);
}

int reduce_by_passes(const struct pass_kernel *k, enum pass_strategy strategy,
                     const float *d_in, size_t n, float *d_out, void *workspace,
                     cudaStream_t stream)
{
    const struct pass_buffers b = carve(k, n, workspace);
    return strategy == PASS_POW2_SPLIT ? pow2_split_passes(k, d_in, n, d_out, &b, stream)
                                       : padded_passes(k, d_in, n, d_out, &b, stream);
}

const char *pass_strategy_name(enum pass_strategy strategy)
{
    return strategy == PASS_POW2_SPLIT ? "pow2-split" : "padded";
}
