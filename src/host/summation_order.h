/* How a method associates the terms of a floating-point sum - declared in
 * its descriptor (struct method's `order`, reduce_method.h) - and the
 * longest chain of additions any one term goes through, k. Higham's worst
 * case for any summation tree: the computed sum differs from the exact one
 * by at most  ((1 + u)^k - 1) sum |x|  (gamma_k sum |x| while k u < 1),
 * where k is the largest number of roundings between a term and the result.
 * That is the PASS/FAIL bound (reference.h): a correct serial chain may lose
 * far more than a correct tree, and neither FAILs for it.
 *
 * k is a function of n alone: the worst case over every grid a launcher
 * may choose or a test may force (grid_override.h), so it holds on any GPU.
 * Counted conservatively: an addition with the identity (padding, a fresh
 * accumulator) rounds nothing but is counted anyway. For n <= 1 every order
 * has k = 0: the only addition is with the identity. */
#ifndef SUMMATION_ORDER_H
#define SUMMATION_ORDER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* No launcher runs a grid-stride kernel on more blocks than this (the grid
 * hook caps it too): ORDER_THREAD_CHAINS counts the final combine's chain
 * over at most this many partials. A resident wave is SMs x blocks per SM:
 * 1,056 blocks at most on an H100. */
#define MAX_GRID_BLOCKS 8192

enum summation_kind {
    /* One running total, k = n - 1 - and, being the loosest, the order of any
     * method that declares none (zero-initialised descriptors) or whose order
     * is not ours to know (vendor libraries). */
    ORDER_SERIAL_CHAIN = 0,
    /* Passes of a block kernel (pass_driver.h): each block folds `width`
     * inputs into one partial through at most `depth` additions per input;
     * passes repeat on the partials until one is left. The power-of-two
     * split adds at most one pass (its tail and its parts' combine).
     *   k = depth x (passes(n) + 1),  passes(n) = ceil(log_width(n)), at least 1 */
    ORDER_BLOCK_PASSES,
    /* Blocks of `width` inputs folded through at most `depth` additions
     * each; every block total then added atomically to one running total.
     *   k = depth + ceil(n / width) */
    ORDER_ATOMIC_BLOCKS,
    /* A grid-stride loop: each thread chains its share of the input - at most
     * ceil(n / width) terms, the share of one block of `width` threads -
     * then the block folds its threads' totals; the blocks' partials are
     * combined the same way (a second launch or the last block done) by one
     * block. `depth`: the additions a term goes through besides the chains
     * (a 16-byte vector's tree, head and tail, the block's tree).
     *   k = ceil(n / width) + ceil(MAX_GRID_BLOCKS / width) + 2 depth */
    ORDER_THREAD_CHAINS,
    /* Fixed tiles, each summed in a tree at most `depth` - 1 deep (in double,
     * or exactly), the tile sums added exactly, the total rounded once:
     * whatever n, no term goes through more than `depth` roundings.
     *   k = depth  (width unused) */
    ORDER_FIXED_DEPTH,
};

struct summation_order {
    enum summation_kind kind;
    unsigned width; /* inputs per block (passes, atomics) or threads per block (chains) */
    unsigned depth; /* additions per term inside a block; see each kind */
};

/* k: the most additions any term of an n-term sum goes through. */
size_t longest_chain(struct summation_order order, size_t n);

/* "serial chain", "block passes", "atomic blocks", "thread chains". */
const char *summation_kind_name(enum summation_kind kind);

#ifdef __cplusplus
}
#endif

#endif
