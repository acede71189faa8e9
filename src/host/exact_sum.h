/* The exact sum of any number of doubles, rounded once at the end: a
 * fixed-point superaccumulator (Kulisch) that spans the whole double range.
 *
 * Every finite double is an integer multiple of 2^-1074 below 2^1024, so a
 * sum of them is an integer count of 2^-1074 units. The count is kept in
 * EXACT_SUM_LIMBS digits of 32 bits (digit i weighs 2^(32 i - 1074)), each
 * held in a signed 64-bit limb: one addition scatters a 53-bit significand
 * over three neighbouring limbs, adding or subtracting less than 2^33 to each,
 * so a limb absorbs 2^29 additions before the carries have to be propagated
 * (exact_sum_add does that itself). Nothing is ever rounded until
 * exact_sum_round, which rounds the exact value once, to nearest even, to
 * float or double - never to double and then to float, which could round
 * twice. About 1-2 ns per addition: 2^28 elements in well under a second.
 *
 * Infinities and NaN have no exact sum: they are summed apart in IEEE
 * arithmetic, and their result (inf, -inf or NaN) is the rounded sum. */
#ifndef EXACT_SUM_H
#define EXACT_SUM_H

#include <stdint.h>
#include <string.h>

#include "element_type.h"

#define EXACT_SUM_LIMBS 70           /* 2240 bits from 2^-1074: 2^31 x DBL_MAX fits */
#define EXACT_SUM_FLUSH_AFTER (1u << 29) /* additions between carry propagations */

struct exact_sum {
    int64_t limb[EXACT_SUM_LIMBS];
    uint32_t pending;  /* additions since the carries were last propagated */
    double nonfinite;  /* IEEE sum of the infinite and NaN terms */
    int has_nonfinite;
};

void exact_sum_init(struct exact_sum *s);

/* Propagates the carries: every limb but the top one back in [0, 2^32). */
void exact_sum_normalize(struct exact_sum *s);

/* Adds `from`'s exact sum into `into`: the sum of both sets of terms, still
 * exact (a multi-threaded reference merges its threads' sums this way). */
void exact_sum_merge(struct exact_sum *into, const struct exact_sum *from);

/* The exact sum rounded once, to nearest even, to `format` (TYPE_FLOAT or
 * TYPE_DOUBLE; any other type rounds as double), returned as a double: +0
 * for an exact zero, +-inf past the format's largest finite value, the
 * format's subnormals below its smallest normal. */
double exact_sum_round(const struct exact_sum *s, enum element_type format);

static inline void exact_sum_add(struct exact_sum *s, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    const unsigned biased_exponent = (unsigned)(bits >> 52) & 0x7ffu;
    if (biased_exponent == 0x7ffu) {
        s->nonfinite += x;
        s->has_nonfinite = 1;
        return;
    }
    uint64_t significand = bits & 0xfffffffffffffull;
    if (biased_exponent != 0)
        significand |= 1ull << 52;
    /* x = significand x 2^(max(e, 1) - 1075): its lowest bit is bit
     * max(e, 1) - 1 of the count of 2^-1074 units. */
    const unsigned position = biased_exponent ? biased_exponent - 1 : 0;
    const unsigned first = position / 32, shift = position % 32;
    const uint64_t low = (significand & 0xffffffffu) << shift; /* < 2^64 */
    const uint64_t high = (significand >> 32) << shift;        /* < 2^52 */
    const int64_t digit0 = (int64_t)(low & 0xffffffffu);
    const int64_t digit1 = (int64_t)(low >> 32) + (int64_t)(high & 0xffffffffu);
    const int64_t digit2 = (int64_t)(high >> 32);
    if (bits >> 63) {
        s->limb[first] -= digit0;
        s->limb[first + 1] -= digit1;
        s->limb[first + 2] -= digit2;
    } else {
        s->limb[first] += digit0;
        s->limb[first + 1] += digit1;
        s->limb[first + 2] += digit2;
    }
    if (++s->pending == EXACT_SUM_FLUSH_AFTER)
        exact_sum_normalize(s);
}

#endif
