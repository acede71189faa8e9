#include "exact_sum.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>

#define DIGIT_BITS 32
#define LOWEST_EXPONENT (-1074) /* the weight of bit 0: the smallest subnormal double */

void exact_sum_init(struct exact_sum *s)
{
    memset(s, 0, sizeof *s);
}

void exact_sum_normalize(struct exact_sum *s)
{
    for (int i = 0; i + 1 < EXACT_SUM_LIMBS; ++i) {
        /* floor division by 2^32 without shifting a negative number */
        const int64_t digit = (int64_t)((uint64_t)s->limb[i] & 0xffffffffu);
        const int64_t carry = (s->limb[i] - digit) / ((int64_t)1 << DIGIT_BITS);
        s->limb[i] = digit;
        s->limb[i + 1] += carry;
    }
    s->pending = 0;
}

void exact_sum_merge(struct exact_sum *into, const struct exact_sum *from)
{
    struct exact_sum addend = *from;
    exact_sum_normalize(&addend);
    exact_sum_normalize(into); /* both under 2^32 a limb: the sums below fit */
    for (int i = 0; i < EXACT_SUM_LIMBS; ++i)
        into->limb[i] += addend.limb[i];
    exact_sum_normalize(into);
    into->nonfinite += addend.nonfinite;
    into->has_nonfinite |= addend.has_nonfinite;
}

/* Bit `position` of a normalized, non-negative count (0 past the top). */
static unsigned bit_at(const struct exact_sum *s, int position)
{
    const int limb = position / DIGIT_BITS;
    if (position < 0 || limb >= EXACT_SUM_LIMBS)
        return 0;
    return (unsigned)(((uint64_t)s->limb[limb] >> (position % DIGIT_BITS)) & 1u);
}

/* Whether any bit below `position` is set. */
static bool any_bit_below(const struct exact_sum *s, int position)
{
    if (position <= 0)
        return false;
    const int limb = position / DIGIT_BITS, within = position % DIGIT_BITS;
    for (int i = 0; i < limb; ++i)
        if (s->limb[i] != 0)
            return true;
    return within > 0 && ((uint64_t)s->limb[limb] & ((1ull << within) - 1)) != 0;
}

/* The highest set bit of a normalized, non-negative, non-zero count. */
static int top_bit(const struct exact_sum *s)
{
    int limb = EXACT_SUM_LIMBS - 1;
    while (s->limb[limb] == 0)
        --limb;
    int bit = 63;
    while ((((uint64_t)s->limb[limb] >> bit) & 1u) == 0)
        --bit;
    return limb * DIGIT_BITS + bit;
}

double exact_sum_round(const struct exact_sum *in, enum element_type format)
{
    if (in->has_nonfinite)
        return in->nonfinite;
    struct exact_sum s = *in;
    exact_sum_normalize(&s);
    const bool negative = s.limb[EXACT_SUM_LIMBS - 1] < 0;
    if (negative) {
        for (int i = 0; i < EXACT_SUM_LIMBS; ++i)
            s.limb[i] = -s.limb[i];
        exact_sum_normalize(&s);
    }
    bool zero = true;
    for (int i = 0; i < EXACT_SUM_LIMBS && zero; ++i)
        zero = s.limb[i] == 0;
    if (zero)
        return 0.0;

    const bool to_float = format == TYPE_FLOAT;
    const int precision = to_float ? FLT_MANT_DIG : DBL_MANT_DIG;
    const int lowest_kept = to_float ? -149 - LOWEST_EXPONENT : 0; /* the format's subnormal step */
    const int largest_exponent = to_float ? FLT_MAX_EXP : DBL_MAX_EXP; /* 2^this overflows */
    const int top = top_bit(&s);
    if (top + LOWEST_EXPONENT >= largest_exponent)
        return negative ? -INFINITY : INFINITY;

    /* Keep the bits from `top` down to `low` (at most `precision` of them),
     * then round to nearest, ties to even, on the bit below and the rest. */
    const int low = top - precision + 1 > lowest_kept ? top - precision + 1 : lowest_kept;
    uint64_t kept = 0;
    for (int b = top; b >= low; --b)
        kept = kept << 1 | bit_at(&s, b);
    const bool half = bit_at(&s, low - 1) != 0, beyond_half = any_bit_below(&s, low - 1);
    if (half && (beyond_half || (kept & 1u)))
        ++kept; /* may carry to 2^precision: still exact in a double */
    double magnitude = ldexp((double)kept, low + LOWEST_EXPONENT);
    if (magnitude > (to_float ? FLT_MAX : DBL_MAX))
        magnitude = INFINITY; /* rounded up past the largest finite value */
    return negative ? -magnitude : magnitude;
}
