/* Seeded input data of any element type. The same (type, distribution, n,
 * seed) gives the same values on every machine: the generator is splitmix64,
 * not the C library's rand(). Every value is drawn exactly representable in
 * its type (no rounding when stored), so the reference sees what the GPU sees.
 *
 * Floating-point types (float, double, half, bfloat16; p = their significant
 * bits, 24, 53, 11, 8):
 *   uniform     k 2^-p, k uniform in [0, 2^p): [0, 1)
 *   signed      2 uniform - 1: [-1, 1), cancellation; sum |x| >> |sum x|
 *   wide-range  positive, exponents spread over 2^-20..2^20 (half: 2^-14..2^14)
 *   small-ints  integers 0..m with n m within the accumulator's exact range
 *               (2^24 for float accumulators, 2^53 for double): an exact sum
 *   ill-conditioned  large terms that cancel exactly, in mirrored pairs
 *               (x[n-1-i] = -x[i], random signs, magnitudes 2^0..2^21), and
 *               in the middle one small term (n odd) or two (n even), about
 *               2^-30, which are the whole exact sum. Condition number
 *               sum|x| / |sum x| >= 2^29 for every n >= 3 (float, double,
 *               bfloat16); half, whose range is narrower (big 2^7..2^15,
 *               small 2^-14..2^-13), >= 2^20. n = 2 is the pair
 *               (2^e, -(2^e - 2^(e-p))), whose sum 2^(e-p) gives the largest
 *               condition two values of p bits can have: 2^(p+1) - 1 (float
 *               3.4e7, double 3.6e16). n = 1 is one small term.
 * Integer types: every value lies in [-B, B] with B = (the type's largest
 * value, or 2^53 for int64) / n, so every partial sum in any order fits the
 * type - an integer sum is exact, and exact in a double too:
 *   uniform [0, B]; signed [-B, B] (uint32: [0, B]); small-ints [0, min(15, B)];
 *   wide-range: magnitudes spread over the powers of two up to B;
 *   ill-conditioned: pairs +-v with v in [B/2, B] and small terms in
 *   [1, min(15, B)] (the pair of n = 2: v and 1 - v); uint32 as signed.
 * (Past n = the type's largest value, B would be 0: it stays 1, and an
 * integer sum may then wrap - 2^31 int32 elements, 8 GiB.) */
#ifndef DATA_GEN_H
#define DATA_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "element_type.h"

enum distribution {
    DIST_UNIFORM,     /* the default */
    DIST_SMALL_INTS,  /* an exactly known sum */
    DIST_WIDE_RANGE,  /* mixes magnitudes */
    DIST_SIGNED,      /* cancellation */
    DIST_ILL_CONDITIONED, /* large cancelling terms: condition number >= 2^29 */
    DIST_COUNT
};

struct data_info {
    bool exact_sum_known; /* every partial sum in any order is exact in the accumulator */
    double exact_sum;     /* valid when exact_sum_known */
};

/* Fills n elements of type t at h and says whether their sum is known
 * exactly (always, for integer types). */
struct data_info fill_data(void *h, size_t n, enum element_type t, enum distribution dist,
                           uint64_t seed);

/* Elements [first, first + count) of the n elements fill_data(.., n, ..)
 * would draw, written to h[0 .. count): the same bits, without drawing the
 * rest. The generator is a counter (splitmix64 adds a constant per draw, and
 * each element takes a fixed number of draws), so any range starts in O(1):
 * one shard of a multi-GPU input, or one thread's part of a parallel fill.
 * The distribution's bounds come from the TOTAL n (an integer's bound is
 * the type's range / n). exact_sum_known is the whole input's; exact_sum is
 * the sum of this range alone. first + count must not exceed n. */
struct data_info fill_data_range(void *h, size_t first, size_t count, size_t n,
                                 enum element_type t, enum distribution dist, uint64_t seed);

/* A value beyond every value fill_data draws for op (max and argmax:
 * larger, min and argmin: smaller), exact in t: the type's largest (lowest)
 * finite value, +-2^53 for int64. Tests plant it at chosen indices to check
 * max and min exactly. The one exception: uint32's minimum, 0, is also
 * drawn. */
double extreme_value(enum element_type t, enum reduce_op op);

/* The suite's one generator: the next 64 random bits of the stream at
 * *state (splitmix64). Data, and the segment lengths of shape.h, draw from it. */
uint64_t splitmix64(uint64_t *state);

const char *distribution_name(enum distribution dist);
/* Returns DIST_COUNT if the name is unknown. */
enum distribution distribution_from_name(const char *name);

#endif
