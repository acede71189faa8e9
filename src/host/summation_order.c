#include "summation_order.h"

static size_t ceil_quotient(size_t a, size_t b) { return a / b + (a % b != 0); }

/* Launches of a pass kernel of `width` inputs per block until one value is
 * left: 1 for n <= width, one more for every further factor of width. */
static size_t passes(size_t n, size_t width)
{
    size_t count = 1;
    for (; n > width; n = ceil_quotient(n, width))
        ++count;
    return count;
}

size_t longest_chain(struct summation_order order, size_t n)
{
    if (n <= 1)
        return 0;
    const size_t width = order.width > 0 ? order.width : 1;
    switch (order.kind) {
    case ORDER_BLOCK_PASSES:
        return order.depth * (passes(n, width) + 1);
    case ORDER_ATOMIC_BLOCKS:
        return order.depth + ceil_quotient(n, width);
    case ORDER_THREAD_CHAINS:
        return ceil_quotient(n, width) + ceil_quotient(MAX_GRID_BLOCKS, width) + 2 * (size_t)order.depth;
    case ORDER_FIXED_DEPTH:
        return order.depth;
    case ORDER_SERIAL_CHAIN:
        break;
    }
    return n - 1;
}

const char *summation_kind_name(enum summation_kind kind)
{
    switch (kind) {
    case ORDER_SERIAL_CHAIN: return "serial chain";
    case ORDER_BLOCK_PASSES: return "block passes";
    case ORDER_ATOMIC_BLOCKS: return "atomic blocks";
    case ORDER_THREAD_CHAINS: return "thread chains";
    case ORDER_FIXED_DEPTH: return "fixed depth";
    }
    return "?";
}
