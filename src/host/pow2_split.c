#include "pow2_split.h"

struct pow2_split pow2_split_plan(size_t n, size_t block)
{
    struct pow2_split plan = {.chunks = 0, .tail_len = n % block};
    size_t whole = n - plan.tail_len; /* a multiple of block: its set bits are the chunks */
    for (int bit = (int)(sizeof(size_t) * 8) - 1; bit >= 0; --bit) {
        const size_t len = (size_t)1 << bit;
        if (whole & len)
            plan.chunk_len[plan.chunks++] = len;
    }
    return plan;
}

const char *pass_strategy_name(enum pass_strategy strategy)
{
    return strategy == PASS_POW2_SPLIT ? "pow2-split" : "padded";
}
