/* Seed 000's "divide and conquer" for any length: split n into power-of-two
 * chunks of at least one block's worth of inputs, plus a tail shorter than a
 * block that is padded with zeros to a whole block. Example from the seed
 * (block of 512 inputs): n = 1856 -> chunks 1024, 512 and a tail of 320. */
#ifndef POW2_SPLIT_H
#define POW2_SPLIT_H

#include <stddef.h>

#define POW2_SPLIT_MAX_CHUNKS 64

struct pow2_split {
    size_t chunk_len[POW2_SPLIT_MAX_CHUNKS]; /* descending powers of two */
    unsigned chunks;
    size_t tail_len; /* < block, 0 if none; starts after the last chunk */
};

/* block must be a power of two (> 0). */
struct pow2_split pow2_split_plan(size_t n, size_t block);

/* How a pass kernel is driven to one value (src/gpu/pass_driver.h): padded
 * passes, or this split. Chosen on the command line (--strategy). */
enum pass_strategy { PASS_PADDED, PASS_POW2_SPLIT };

const char *pass_strategy_name(enum pass_strategy strategy);

#endif
