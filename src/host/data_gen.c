#include "data_gen.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define INT64_EXACT_IN_DOUBLE 0x1p53

static const char *const DIST_NAMES[DIST_COUNT] = {"uniform", "small-ints", "wide-range", "signed",
                                                   "ill-conditioned"};

#define SPLITMIX64_GAMMA 0x9E3779B97F4A7C15ull

uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += SPLITMIX64_GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* p random bits as a value in [0, 1): exact in a type of p significant bits. */
static double unit_value(uint64_t *state, int bits)
{
    return ldexp((double)(splitmix64(state) >> (64 - bits)), -bits);
}

/* An integer uniform in [0, bound]. */
static double uniform_integer(uint64_t *state, double bound)
{
    return (double)(splitmix64(state) % ((uint64_t)bound + 1));
}

static int significant_bits(enum element_type t)
{
    switch (t) {
    case TYPE_DOUBLE: return 53;
    case TYPE_HALF: return 11;
    case TYPE_BFLOAT16: return 8;
    default: return 24;
    }
}

/* The largest magnitude B of an integer type's values for n elements. */
static double integer_bound(enum element_type t, size_t n)
{
    const double largest = t == TYPE_INT32 ? 2147483647.0 : t == TYPE_UINT32 ? 4294967295.0
                                                                             : INT64_EXACT_IN_DOUBLE;
    const double bound = floor(largest / (double)(n > 0 ? n : 1));
    return bound >= 1.0 ? bound : 1.0; /* past the type's range n: 0s and 1s (a sum may wrap) */
}

/* Integers up to this are exact in every partial sum of the accumulator. */
static double exact_accumulator_range(enum element_type t)
{
    return accumulator_type(t) == TYPE_DOUBLE ? 0x1p53 : 0x1p24;
}

struct draw_plan {
    enum distribution dist;
    bool integer, is_unsigned;
    int bits;          /* floating point: significant bits */
    int min_exponent, max_exponent; /* wide-range, ill-conditioned's large terms: floating point */
    int small_exponent; /* ill-conditioned's small terms, floating point */
    double bound;      /* integers: largest magnitude; small-ints: largest value */
};

static struct draw_plan plan_for(enum element_type t, enum distribution dist, size_t n)
{
    struct draw_plan p = {.dist = dist, .integer = is_integer_type(t),
                          .is_unsigned = t == TYPE_UINT32, .bits = significant_bits(t),
                          .min_exponent = -20, .max_exponent = 20, .small_exponent = -30};
    if (t == TYPE_HALF) { /* normal halves, short of 65504 (extreme_value) */
        p.min_exponent = -14;
        p.max_exponent = 14;
        p.small_exponent = -14;
    }
    if (dist == DIST_ILL_CONDITIONED) /* large terms: the top of that range */
        p.min_exponent = t == TYPE_HALF ? 7 : 0;
    if (dist == DIST_ILL_CONDITIONED && p.is_unsigned)
        p.dist = DIST_SIGNED; /* nothing cancels in uint32 */
    if (p.integer)
        p.bound = integer_bound(t, n);
    if (dist == DIST_SMALL_INTS) {
        const double range = p.integer ? p.bound : floor(exact_accumulator_range(t) / (double)(n > 0 ? n : 1));
        p.bound = range > 15.0 ? 15.0 : range < 1.0 ? 1.0 : range;
    }
    return p;
}

static double draw(const struct draw_plan *p, uint64_t *state)
{
    switch (p->dist) {
    case DIST_SMALL_INTS:
        return uniform_integer(state, p->bound);
    case DIST_UNIFORM:
        return p->integer ? uniform_integer(state, p->bound) : unit_value(state, p->bits);
    case DIST_SIGNED:
        if (p->is_unsigned)
            return uniform_integer(state, p->bound);
        if (p->integer)
            return uniform_integer(state, 2.0 * p->bound) - p->bound;
        return 2.0 * unit_value(state, p->bits) - 1.0; /* exact: one more bit of scale */
    case DIST_WIDE_RANGE:
        if (p->integer) { /* a power of two up to B, times 1 + random fraction, within B */
            const int top = p->bound >= 1.0 ? (int)floor(log2(p->bound)) : 0;
            const int e = (int)(splitmix64(state) % (uint64_t)(top + 1));
            const double v = floor(ldexp(1.0 + unit_value(state, 52), e));
            return v > p->bound ? p->bound : v;
        } else {
            const int span = p->max_exponent - p->min_exponent + 1;
            const int e = (int)(splitmix64(state) % (uint64_t)span) + p->min_exponent;
            return ldexp(1.0 + unit_value(state, p->bits - 1), e);
        }
    case DIST_ILL_CONDITIONED: /* drawn by ill_conditioned_value */
    case DIST_COUNT:
        break;
    }
    return 0.0;
}

/* ill-conditioned's large term: a random sign and a magnitude in [B/2, B]
 * (integers) or [2^min_exponent, 2^(max_exponent + 1)). */
static double large_term(const struct draw_plan *p, uint64_t *state)
{
    const double sign = splitmix64(state) & 1 ? -1.0 : 1.0;
    if (p->integer) {
        const double half = floor(p->bound / 2.0);
        return sign * (half + uniform_integer(state, p->bound - half));
    }
    const int span = p->max_exponent - p->min_exponent + 1;
    const int e = (int)(splitmix64(state) % (uint64_t)span) + p->min_exponent;
    return sign * ldexp(1.0 + unit_value(state, p->bits - 1), e);
}

/* ill-conditioned's small term: positive, in [1, min(15, B)] or
 * [2^small_exponent, 2^(small_exponent + 1)). */
static double small_term(const struct draw_plan *p, uint64_t *state)
{
    if (p->integer)
        return 1.0 + uniform_integer(state, fmin(15.0, p->bound) - 1.0);
    return ldexp(1.0 + unit_value(state, p->bits - 1), p->small_exponent);
}

/* How many splitmix64 draws one element takes: element i draws from the
 * state seed + i x this x gamma (the state after that many draws), so any
 * range of the input can be drawn on its own (fill_data_range). Keep in step
 * with draw() and large_term(); the CPU test compares every range with a full
 * fill, so a mismatch cannot pass. */
static uint64_t draws_per_element(enum distribution dist)
{
    return dist == DIST_ILL_CONDITIONED ? 3 : dist == DIST_WIDE_RANGE ? 2 : 1;
}

static uint64_t element_state(const struct draw_plan *p, uint64_t seed, size_t i)
{
    return seed + (uint64_t)i * draws_per_element(p->dist) * SPLITMIX64_GAMMA;
}

/* Element i of n of ill-conditioned data: mirrored pairs of large terms
 * (x[n-1-i] = -x[i], drawn at the lower index) around one or two small ones
 * (data_gen.h). */
static double ill_conditioned_value(const struct draw_plan *p, uint64_t seed, size_t n, size_t i)
{
    uint64_t state = element_state(p, seed, 0);
    if (n == 2) { /* v = +-2^e and the value just below it: as ill-conditioned as two can be */
        const double large = large_term(p, &state);
        int e = 0;
        (void)frexp(large, &e); /* |large| in [2^(e-1), 2^e) */
        const double v = p->integer ? fabs(large) : copysign(ldexp(1.0, e - 1), large);
        const double below = p->integer ? v - 1.0 : v - copysign(ldexp(1.0, e - 1 - p->bits), v);
        return i == 0 ? v : -below;
    }
    const size_t pairs = n > 0 ? (n - 1) / 2 : 0; /* one small term if n is odd, two if even */
    if (i >= n - pairs) {
        state = element_state(p, seed, n - 1 - i);
        return -large_term(p, &state);
    }
    state = element_state(p, seed, i);
    return i < pairs ? large_term(p, &state) : small_term(p, &state);
}

struct data_info fill_data(void *h, size_t n, enum element_type t, enum distribution dist,
                           uint64_t seed)
{
    return fill_data_range(h, 0, n, n, t, dist, seed);
}

struct data_info fill_data_range(void *h, size_t first, size_t count, size_t n,
                                 enum element_type t, enum distribution dist, uint64_t seed)
{
    const struct draw_plan plan = plan_for(t, dist, n);
    double total = 0.0; /* exact when it matters: integers within 2^53 */
    for (size_t i = 0; i < count; ++i) {
        uint64_t state = element_state(&plan, seed, first + i);
        const double v = plan.dist == DIST_ILL_CONDITIONED
                             ? ill_conditioned_value(&plan, seed, n, first + i)
                             : draw(&plan, &state);
        store_from_double(t, h, i, v);
        total += v;
    }
    struct data_info info = {.exact_sum_known = false, .exact_sum = total};
    if (plan.integer)
        info.exact_sum_known = true;
    else if (dist == DIST_SMALL_INTS)
        info.exact_sum_known = (double)n * plan.bound <= exact_accumulator_range(t);
    return info;
}

double extreme_value(enum element_type t, enum reduce_op any_op)
{
    const enum reduce_op op = value_op(any_op); /* argmax plants max's, argmin min's */
    const double sign = op == OP_MIN ? -1.0 : 1.0;
    switch (t) {
    case TYPE_FLOAT: return sign * FLT_MAX;
    case TYPE_DOUBLE: return sign * DBL_MAX;
    case TYPE_INT32: return op == OP_MIN ? -2147483648.0 : 2147483647.0;
    case TYPE_INT64: return sign * INT64_EXACT_IN_DOUBLE;
    case TYPE_UINT32: return op == OP_MIN ? 0.0 : 4294967295.0;
    case TYPE_HALF: return sign * 65504.0;
    case TYPE_BFLOAT16: return sign * 0x1.fep127;
    case TYPE_COUNT: break;
    }
    return 0.0;
}

const char *distribution_name(enum distribution dist)
{
    return dist < DIST_COUNT ? DIST_NAMES[dist] : "?";
}

enum distribution distribution_from_name(const char *name)
{
    for (int d = 0; d < DIST_COUNT; ++d)
        if (strcmp(name, DIST_NAMES[d]) == 0)
            return (enum distribution)d;
    return DIST_COUNT;
}
