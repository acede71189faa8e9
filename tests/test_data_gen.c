/* Seeded data of every element type: reproducible, in range, never all
 * zeros, exactly representable, exact sums exact, extremes beyond the data. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data_gen.h"
#include "exact_sum.h"

static const enum element_type FLOATING[] = {TYPE_FLOAT, TYPE_DOUBLE, TYPE_HALF, TYPE_BFLOAT16};
static const enum element_type INTEGERS[] = {TYPE_INT32, TYPE_INT64, TYPE_UINT32};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* n elements of type t (at least one, so n = 0 still gives a pointer). */
static void *alloc_elements(enum element_type t, size_t n)
{
    return malloc((n ? n : 1) * element_size(t));
}

/* The significant bits of a floating-point type. */
static int precision(enum element_type t)
{
    switch (t) {
    case TYPE_DOUBLE: return 53;
    case TYPE_HALF: return 11;
    case TYPE_BFLOAT16: return 8;
    default: return 24;
    }
}

/* Whether v is a value of type t, judged from the format's parameters
 * (precision, smallest step, largest finite value) and not from the
 * library's own conversions. */
static bool representable(enum element_type t, double v)
{
    if (isnan(v) || isinf(v))
        return false;
    switch (t) {
    case TYPE_INT32: return v == floor(v) && v >= -2147483648.0 && v <= 2147483647.0;
    case TYPE_UINT32: return v == floor(v) && v >= 0.0 && v <= 4294967295.0;
    case TYPE_INT64: return v == floor(v) && fabs(v) <= 0x1p53; /* exact in a double too */
    default: break;
    }
    const double largest = t == TYPE_FLOAT ? FLT_MAX : t == TYPE_DOUBLE ? DBL_MAX
                           : t == TYPE_HALF ? 65504.0 : 0x1.fep127;
    const int smallest_step = t == TYPE_FLOAT ? -149 : t == TYPE_DOUBLE ? -1074
                              : t == TYPE_HALF ? -24 : -133;
    if (v == 0.0)
        return true;
    int e = 0;
    (void)frexp(v, &e); /* |v| in [2^(e-1), 2^e) */
    const int step = e - precision(t) > smallest_step ? e - precision(t) : smallest_step;
    const double units = ldexp(fabs(v), -step);
    return fabs(v) <= largest && units == floor(units);
}

/* B: the largest magnitude of an integer type's values for n elements. */
static double integer_bound(enum element_type t, size_t n)
{
    const double largest = t == TYPE_INT32 ? 2147483647.0 : t == TYPE_UINT32 ? 4294967295.0 : 0x1p53;
    return floor(largest / (double)(n ? n : 1));
}

/* ---- reproducibility */

static void same_seed_should_give_same_bytes_and_other_seed_other_bytes(void)
{
    enum { N = 1000 };
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int d = 0; d < DIST_COUNT; ++d) {
            const enum element_type type = (enum element_type)t;
            const size_t bytes = N * element_size(type);
            unsigned char *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
            fill_data(a, N, type, (enum distribution)d, 42);
            fill_data(b, N, type, (enum distribution)d, 42);
            fill_data(c, N, type, (enum distribution)d, 43);
            const bool same = memcmp(a, b, bytes) == 0, other = memcmp(a, c, bytes) != 0;
            CHECK(same);
            CHECK(other);
            if (!same || !other)
                fprintf(stderr, "  %s %s\n", element_type_name(type), distribution_name((enum distribution)d));
            free(a);
            free(b);
            free(c);
        }
}

static void fill_should_write_exactly_n_elements(void)
{
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const enum element_type type = (enum element_type)t;
        const size_t size = element_size(type);
        unsigned char buf[40 * 8];
        memset(buf, 0xab, sizeof buf);
        fill_data(buf, 33, type, DIST_UNIFORM, 3);
        size_t untouched = 0;
        for (size_t i = 33 * size; i < sizeof buf; ++i)
            untouched += buf[i] == 0xab;
        CHECK(untouched == sizeof buf - 33 * size);
        memset(buf, 0xab, sizeof buf);
        const struct data_info info = fill_data(buf, 0, type, DIST_UNIFORM, 3);
        CHECK(buf[0] == 0xab && info.exact_sum == 0.0);
    }
}

/* ---- ranges: one shard's values without drawing the rest */

/* Every range [first, first + count) of n elements, filled alone, is the same
 * bytes as that slice of a full fill: every type and distribution, ranges at
 * the start, the end, empty, odd. */
static void ranges_should_match_a_full_fill_bit_for_bit(void)
{
    enum { N = 1001 };
    static const size_t RANGES[][2] = {{0, N}, {0, 1}, {1, 1}, {N - 1, 1}, {0, 0}, {N, 0},
                                       {500, 501}, {3, 997}, {17, 64}, {333, 334}};
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int d = 0; d < DIST_COUNT; ++d) {
            const enum element_type type = (enum element_type)t;
            const size_t size = element_size(type);
            unsigned char *full = malloc(N * size), *part = malloc(N * size + 1);
            const struct data_info all = fill_data(full, N, type, (enum distribution)d, 7);
            for (size_t r = 0; r < COUNT(RANGES); ++r) {
                const size_t first = RANGES[r][0], count = RANGES[r][1];
                memset(part, 0xab, N * size + 1);
                const struct data_info info =
                    fill_data_range(part, first, count, N, type, (enum distribution)d, 7);
                const bool same = memcmp(part, full + first * size, count * size) == 0;
                CHECK(same);
                CHECK(part[count * size] == 0xab); /* nothing past the range */
                CHECK(info.exact_sum_known == all.exact_sum_known);
                if (!same)
                    fprintf(stderr, "  %s %s [%zu, +%zu)\n", element_type_name(type),
                            distribution_name((enum distribution)d), first, count);
            }
            free(full);
            free(part);
        }
}

/* The ranges of a partition add up to the whole: their exact_sum values
 * (exact for integers) total the full fill's. */
static void range_sums_should_add_up_to_the_full_sum(void)
{
    enum { N = 100003 };
    for (size_t k = 0; k < COUNT(INTEGERS); ++k) {
        const enum element_type t = INTEGERS[k];
        void *h = alloc_elements(t, N);
        const double whole = fill_data(h, N, t, DIST_SIGNED, 5).exact_sum;
        double parts = 0.0;
        for (size_t first = 0; first < N; first += 30001) {
            const size_t count = N - first < 30001 ? N - first : 30001;
            parts += fill_data_range(h, first, count, N, t, DIST_SIGNED, 5).exact_sum;
        }
        CHECK(parts == whole);
        free(h);
    }
}

/* Far into a huge input (past 2^32 elements, where a 32-bit index or a
 * per-element reseed would go wrong): a range is the tail of a longer range
 * that starts earlier, and integer values respect the TOTAL n's bound. */
static void ranges_far_into_a_huge_input_should_agree_with_each_other(void)
{
    const size_t n = ((size_t)5 << 30) + 7, first = n - 64;
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int d = 0; d < DIST_COUNT; ++d) {
            const enum element_type type = (enum element_type)t;
            const size_t size = element_size(type);
            unsigned char longer[64 * 8], shorter[40 * 8];
            fill_data_range(longer, first, 64, n, type, (enum distribution)d, 11);
            fill_data_range(shorter, first + 24, 40, n, type, (enum distribution)d, 11);
            CHECK(memcmp(shorter, longer + 24 * size, 40 * size) == 0);
            /* past the type's range n the bound stays 1 (data_gen.h) */
            const double bound = fmax(1.0, integer_bound(type, n));
            bool within = true;
            for (size_t i = 0; is_integer_type(type) && i < 64; ++i)
                within &= fabs(load_as_double(type, longer, i)) <= bound;
            CHECK(within);
        }
}

/* ---- floating-point types */

static void uniform_floats_should_be_in_unit_interval_and_not_all_zero(void)
{
    enum { N = 4096 };
    for (size_t k = 0; k < COUNT(FLOATING); ++k) {
        const enum element_type t = FLOATING[k];
        void *h = alloc_elements(t, N);
        fill_data(h, N, t, DIST_UNIFORM, 1);
        double sum = 0.0, lo = 1.0, hi = 0.0;
        int in_range = 1, on_grid = 1;
        for (size_t i = 0; i < N; ++i) {
            const double v = load_as_double(t, h, i);
            in_range &= v >= 0.0 && v < 1.0;
            const double units = ldexp(v, precision(t)); /* k 2^-p */
            on_grid &= units == floor(units);
            sum += v;
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
        CHECK(in_range);
        CHECK(on_grid);
        CHECK(fabs(sum / N - 0.5) < 0.05);
        CHECK(lo < 0.01 && hi > 0.99); /* spread over the interval */
        free(h);
    }
}

static void signed_floats_should_lie_in_minus_one_to_one_and_cancel(void)
{
    enum { N = 100000 };
    for (size_t k = 0; k < COUNT(FLOATING); ++k) {
        const enum element_type t = FLOATING[k];
        void *h = alloc_elements(t, N);
        fill_data(h, N, t, DIST_SIGNED, 9);
        double sum = 0.0, sum_abs = 0.0;
        size_t negatives = 0;
        int in_range = 1;
        for (size_t i = 0; i < N; ++i) {
            const double v = load_as_double(t, h, i);
            in_range &= v >= -1.0 && v < 1.0;
            negatives += v < 0.0;
            sum += v;
            sum_abs += fabs(v);
        }
        CHECK(in_range);
        CHECK(negatives > N / 3 && negatives < 2 * N / 3);
        CHECK(fabs(sum) < 0.02 * sum_abs);
        CHECK(sum_abs > 0.4 * N);
        free(h);
    }
}

static void wide_range_should_span_many_magnitudes_and_be_positive(void)
{
    enum { N = 10000 };
    for (size_t k = 0; k < COUNT(FLOATING); ++k) {
        const enum element_type t = FLOATING[k];
        const int lowest = t == TYPE_HALF ? -14 : -20, highest = t == TYPE_HALF ? 14 : 20;
        void *h = alloc_elements(t, N);
        fill_data(h, N, t, DIST_WIDE_RANGE, 3);
        bool seen[64] = {false};
        int positive = 1, in_span = 1;
        for (size_t i = 0; i < N; ++i) {
            const double v = load_as_double(t, h, i);
            positive &= v > 0.0;
            const int e = ilogb(v); /* v in [2^e, 2^(e+1)) */
            in_span &= e >= lowest && e <= highest;
            if (e >= lowest && e <= highest)
                seen[e - lowest] = true;
        }
        int exponents = 0;
        for (int e = 0; e <= highest - lowest; ++e)
            exponents += seen[e];
        CHECK(positive);
        CHECK(in_span);
        CHECK(exponents == highest - lowest + 1); /* 10000 draws hit every one of 29-41 */
        if (exponents != highest - lowest + 1)
            fprintf(stderr, "  %s: %d exponents\n", element_type_name(t), exponents);
        free(h);
    }
}

/* Each value is exact in its type, and the values stored are the values
 * drawn: fill_data's running total of what it drew equals the same running
 * total over what it stored, bit for bit (a value rounded when stored would
 * almost surely change it). */
static void every_generated_value_should_be_exactly_representable(void)
{
    const size_t sizes[] = {1, 33, 20000};
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int d = 0; d < DIST_COUNT; ++d)
            for (size_t s = 0; s < COUNT(sizes); ++s) {
                const enum element_type type = (enum element_type)t;
                const size_t n = sizes[s];
                void *h = alloc_elements(type, n), *copy = alloc_elements(type, 1);
                const struct data_info info = fill_data(h, n, type, (enum distribution)d, 11 + s);
                double total = 0.0;
                size_t bad = 0;
                for (size_t i = 0; i < n; ++i) {
                    const double v = load_as_double(type, h, i);
                    store_from_double(type, copy, 0, v);
                    bad += !representable(type, v) || load_as_double(type, copy, 0) != v;
                    total += v;
                }
                CHECK(bad == 0);
                CHECK(total == info.exact_sum);
                if (bad || total != info.exact_sum)
                    fprintf(stderr, "  %s %s n=%zu: %zu bad, total %.17g vs %.17g\n",
                            element_type_name(type), distribution_name((enum distribution)d), n,
                            bad, total, info.exact_sum);
                free(copy);
                free(h);
            }
}

/* ---- integer types */

static void integer_values_should_stay_within_the_bound_for_n(void)
{
    const size_t sizes[] = {1, 2, 33, 1000, 1000003};
    for (size_t k = 0; k < COUNT(INTEGERS); ++k)
        for (int d = 0; d < DIST_COUNT; ++d)
            for (size_t s = 0; s < COUNT(sizes); ++s) {
                const enum element_type t = INTEGERS[k];
                const enum distribution dist = (enum distribution)d;
                const size_t n = sizes[s];
                const double bound = integer_bound(t, n);
                /* what each distribution draws from */
                const bool signed_values = (dist == DIST_SIGNED || dist == DIST_ILL_CONDITIONED) &&
                                           t != TYPE_UINT32;
                const double lo = signed_values ? -bound : dist == DIST_WIDE_RANGE ? 1.0 : 0.0;
                const double hi = dist == DIST_SMALL_INTS ? fmin(15.0, bound) : bound;
                void *h = alloc_elements(t, n);
                fill_data(h, n, t, dist, 5);
                double sum_abs = 0.0;
                size_t outside = 0;
                for (size_t i = 0; i < n; ++i) {
                    const double v = load_as_double(t, h, i);
                    outside += !(v >= lo && v <= hi && v == floor(v));
                    sum_abs += fabs(v);
                }
                CHECK(outside == 0);
                /* every partial sum, in any order, fits the type (and a double) */
                CHECK(sum_abs <= (t == TYPE_INT32 ? 2147483647.0 : t == TYPE_UINT32 ? 4294967295.0 : 0x1p53));
                if (outside)
                    fprintf(stderr, "  %s %s n=%zu: %zu outside [%.17g, %.17g]\n",
                            element_type_name(t), distribution_name(dist), n, outside, lo, hi);
                free(h);
            }
}

static void integer_data_should_use_its_range_and_not_be_all_zero(void)
{
    enum { N = 1000 };
    for (size_t k = 0; k < COUNT(INTEGERS); ++k) {
        const enum element_type t = INTEGERS[k];
        const double bound = integer_bound(t, N);
        void *h = alloc_elements(t, N);
        fill_data(h, N, t, DIST_UNIFORM, 8);
        double hi = 0.0;
        size_t zeros = 0;
        for (size_t i = 0; i < N; ++i) {
            hi = fmax(hi, load_as_double(t, h, i));
            zeros += load_as_double(t, h, i) == 0.0;
        }
        CHECK(hi > 0.9 * bound);
        CHECK(zeros < 5);
        free(h);
    }
}

static void signed_integers_should_have_negatives_and_positives(void)
{
    enum { N = 1000 };
    const enum element_type types[] = {TYPE_INT32, TYPE_INT64};
    for (size_t k = 0; k < COUNT(types); ++k) {
        const enum element_type t = types[k];
        const double bound = integer_bound(t, N);
        void *h = alloc_elements(t, N);
        fill_data(h, N, t, DIST_SIGNED, 4);
        size_t negatives = 0, positives = 0;
        double lo = 0.0, hi = 0.0;
        for (size_t i = 0; i < N; ++i) {
            const double v = load_as_double(t, h, i);
            negatives += v < 0.0;
            positives += v > 0.0;
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
        CHECK(negatives > N / 3 && positives > N / 3);
        CHECK(lo < -0.9 * bound && hi > 0.9 * bound);
        free(h);
    }
    /* uint32 has no negatives to draw: signed is [0, B] */
    uint32_t u[N];
    fill_data(u, N, TYPE_UINT32, DIST_SIGNED, 4);
    uint32_t largest = 0;
    for (size_t i = 0; i < N; ++i)
        largest = u[i] > largest ? u[i] : largest;
    CHECK(largest <= 4294967u && largest > 4000000u);
}

static void integer_wide_range_should_span_many_powers_of_two(void)
{
    enum { N = 1000 };
    for (size_t k = 0; k < COUNT(INTEGERS); ++k) {
        const enum element_type t = INTEGERS[k];
        const int top = ilogb(integer_bound(t, N));
        void *h = alloc_elements(t, N);
        fill_data(h, N, t, DIST_WIDE_RANGE, 6);
        bool seen[64] = {false};
        for (size_t i = 0; i < N; ++i) {
            const double v = load_as_double(t, h, i);
            if (v >= 1.0)
                seen[ilogb(v)] = true;
        }
        int powers = 0;
        for (int e = 0; e <= top; ++e)
            powers += seen[e];
        CHECK(powers == top + 1); /* 1000 draws hit each of the 13-44 powers */
        free(h);
    }
}

/* ---- exact sums */

/* The sum of n integer-valued elements, exactly (int64: every value and the
 * sum are within 2^53 for the data checked here). */
static int64_t integer_sum(enum element_type t, const void *h, size_t n)
{
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        const double v = load_as_double(t, h, i);
        total += (int64_t)v;
    }
    return total;
}

static void integer_types_should_always_know_their_exact_sum(void)
{
    const size_t sizes[] = {0, 1, 33, 1000003};
    for (size_t k = 0; k < COUNT(INTEGERS); ++k)
        for (int d = 0; d < DIST_COUNT; ++d)
            for (size_t s = 0; s < COUNT(sizes); ++s) {
                const enum element_type t = INTEGERS[k];
                const size_t n = sizes[s];
                void *h = alloc_elements(t, n);
                const struct data_info info = fill_data(h, n, t, (enum distribution)d, 21);
                const int64_t exact = integer_sum(t, h, n);
                CHECK(info.exact_sum_known);
                CHECK(info.exact_sum == (double)exact);
                CHECK((int64_t)info.exact_sum == exact); /* exact: no rounding either way */
                if (n > 100 && d != DIST_SIGNED)
                    CHECK(exact > 0);
                free(h);
            }
}

static void small_ints_should_have_exact_known_sum_within_the_accumulator_range(void)
{
    const size_t sizes[] = {0, 1, 33, 1000003};
    for (size_t k = 0; k < COUNT(FLOATING); ++k)
        for (size_t s = 0; s < COUNT(sizes); ++s) {
            const enum element_type t = FLOATING[k];
            const size_t n = sizes[s];
            const double range = t == TYPE_DOUBLE ? 0x1p53 : 0x1p24;
            void *h = alloc_elements(t, n);
            const struct data_info info = fill_data(h, n, t, DIST_SMALL_INTS, 5);
            CHECK(info.exact_sum_known);
            double largest = 0.0;
            int integers = 1;
            for (size_t i = 0; i < n; ++i) {
                const double v = load_as_double(t, h, i);
                integers &= v == floor(v) && v >= 0.0 && v <= 15.0;
                largest = fmax(largest, v);
            }
            CHECK(integers);
            CHECK(info.exact_sum == (double)integer_sum(t, h, n));
            CHECK(largest * (double)n <= range); /* every partial sum exact in the accumulator */
            if (n > 100)
                CHECK(info.exact_sum > 0.0 && largest == 15.0);
            free(h);
        }
}

static void small_ints_should_fill_the_float_range_up_to_2_pow_24(void)
{
    /* n = 2^24: values 0..1, sum up to 2^24 - still exact in float */
    const size_t n = (size_t)1 << 24;
    float *h = malloc(n * sizeof *h);
    const struct data_info info = fill_data(h, n, TYPE_FLOAT, DIST_SMALL_INTS, 5);
    CHECK(info.exact_sum_known);
    CHECK(info.exact_sum == (double)integer_sum(TYPE_FLOAT, h, n));
    CHECK(info.exact_sum > 0.4 * (double)n && info.exact_sum <= 0x1p24);
    free(h);
}

static void small_ints_should_say_inexact_past_the_accumulator_range(void)
{
    const size_t n = ((size_t)1 << 24) + 1;
    const enum element_type float_accumulated[] = {TYPE_FLOAT, TYPE_HALF, TYPE_BFLOAT16};
    for (size_t k = 0; k < COUNT(float_accumulated); ++k) {
        void *h = alloc_elements(float_accumulated[k], n);
        CHECK(!fill_data(h, n, float_accumulated[k], DIST_SMALL_INTS, 5).exact_sum_known);
        free(h);
    }
    /* the same n in double is far inside 2^53 */
    double *d = malloc(1000 * sizeof *d);
    CHECK(fill_data(d, 1000, TYPE_DOUBLE, DIST_SMALL_INTS, 5).exact_sum_known);
    free(d);
}

static void other_float_distributions_should_not_claim_an_exact_sum(void)
{
    enum { N = 1000 };
    const enum distribution inexact[] = {DIST_UNIFORM, DIST_WIDE_RANGE, DIST_SIGNED,
                                         DIST_ILL_CONDITIONED};
    for (size_t k = 0; k < COUNT(FLOATING); ++k)
        for (size_t d = 0; d < COUNT(inexact); ++d) {
            void *h = alloc_elements(FLOATING[k], N);
            CHECK(!fill_data(h, N, FLOATING[k], inexact[d], 2).exact_sum_known);
            free(h);
        }
}

/* ---- ill-conditioned */

/* sum |x| / |sum x| of n values at h, both sums exact. */
static double condition_number(enum element_type t, const void *h, size_t n, double *exact_sum)
{
    struct exact_sum sum, sum_abs;
    exact_sum_init(&sum);
    exact_sum_init(&sum_abs);
    for (size_t i = 0; i < n; ++i) {
        exact_sum_add(&sum, load_as_double(t, h, i));
        exact_sum_add(&sum_abs, fabs(load_as_double(t, h, i)));
    }
    *exact_sum = exact_sum_round(&sum, TYPE_DOUBLE);
    return exact_sum_round(&sum_abs, TYPE_DOUBLE) / fabs(*exact_sum);
}

static void ill_conditioned_should_cancel_to_its_small_terms(void)
{
    const size_t sizes[] = {3, 4, 5, 32, 33, 1000, 100001};
    for (size_t k = 0; k < COUNT(FLOATING); ++k)
        for (size_t s = 0; s < COUNT(sizes); ++s) {
            const enum element_type t = FLOATING[k];
            const size_t n = sizes[s];
            void *h = alloc_elements(t, n);
            fill_data(h, n, t, DIST_ILL_CONDITIONED, 40 + s);
            double sum = 0.0;
            const double cond = condition_number(t, h, n, &sum);
            /* the large terms cancel in pairs: the middle terms are the sum */
            const size_t pairs = (n - 1) / 2;
            double middle = 0.0, negatives = 0.0;
            for (size_t i = 0; i < n; ++i) {
                const double v = load_as_double(t, h, i);
                middle += i >= pairs && i < n - pairs ? v : 0.0;
                negatives += v < 0.0;
                if (i < pairs)
                    CHECK(load_as_double(t, h, n - 1 - i) == -v);
            }
            CHECK(sum == middle && sum > 0.0);
            CHECK(n < 30 || (negatives > n / 4 && negatives < 3 * n / 4)); /* random signs */
            CHECK(cond >= (t == TYPE_HALF ? 0x1p20 : 0x1p29));
            if (cond < 0x1p20)
                fprintf(stderr, "  %s n=%zu: condition %.3g\n", element_type_name(t), n, cond);
            free(h);
        }
}

static void ill_conditioned_pair_should_be_as_ill_conditioned_as_two_values_can_be(void)
{
    for (size_t k = 0; k < COUNT(FLOATING); ++k) {
        const enum element_type t = FLOATING[k];
        unsigned char h[16];
        fill_data(h, 2, t, DIST_ILL_CONDITIONED, 3);
        double sum = 0.0;
        const double cond = condition_number(t, h, 2, &sum);
        CHECK(cond == ldexp(1.0, precision(t) + 1) - 1.0); /* float 3.4e7, double 3.6e16 */
        CHECK(sum != 0.0);
    }
    /* integers: v and 1 - v */
    int32_t pair[2];
    const struct data_info info = fill_data(pair, 2, TYPE_INT32, DIST_ILL_CONDITIONED, 3);
    CHECK(pair[0] + pair[1] == 1 && info.exact_sum == 1.0 && pair[0] >= 2147483647 / 4);
}

static void ill_conditioned_integers_should_cancel_exactly(void)
{
    const size_t sizes[] = {1, 3, 4, 1000, 1000003};
    for (size_t k = 0; k < COUNT(INTEGERS); ++k)
        for (size_t s = 0; s < COUNT(sizes); ++s) {
            const enum element_type t = INTEGERS[k];
            const size_t n = sizes[s];
            void *h = alloc_elements(t, n);
            const struct data_info info = fill_data(h, n, t, DIST_ILL_CONDITIONED, 8);
            double sum_abs = 0.0;
            for (size_t i = 0; i < n; ++i)
                sum_abs += fabs(load_as_double(t, h, i));
            CHECK(info.exact_sum_known && info.exact_sum >= 1.0);
            /* uint32 cannot cancel: drawn as signed */
            if (t != TYPE_UINT32)
                CHECK(info.exact_sum <= 30.0 && (n < 1000 || sum_abs / info.exact_sum > 1e6));
            free(h);
        }
}

/* ---- extremes */

static void extreme_value_should_be_the_types_largest_or_lowest(void)
{
    CHECK(extreme_value(TYPE_FLOAT, OP_MAX) == FLT_MAX && extreme_value(TYPE_FLOAT, OP_MIN) == -FLT_MAX);
    CHECK(extreme_value(TYPE_DOUBLE, OP_MAX) == DBL_MAX && extreme_value(TYPE_DOUBLE, OP_MIN) == -DBL_MAX);
    CHECK(extreme_value(TYPE_INT32, OP_MAX) == 2147483647.0);
    CHECK(extreme_value(TYPE_INT32, OP_MIN) == -2147483648.0);
    CHECK(extreme_value(TYPE_INT64, OP_MAX) == 0x1p53 && extreme_value(TYPE_INT64, OP_MIN) == -0x1p53);
    CHECK(extreme_value(TYPE_UINT32, OP_MAX) == 4294967295.0 && extreme_value(TYPE_UINT32, OP_MIN) == 0.0);
    CHECK(extreme_value(TYPE_HALF, OP_MAX) == 65504.0 && extreme_value(TYPE_HALF, OP_MIN) == -65504.0);
    CHECK(extreme_value(TYPE_BFLOAT16, OP_MAX) == 0x1.fep127);
    CHECK(extreme_value(TYPE_BFLOAT16, OP_MIN) == -0x1.fep127);
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = OP_MAX; op <= OP_MIN; ++op) {
            const enum element_type type = (enum element_type)t;
            const double v = extreme_value(type, (enum reduce_op)op);
            unsigned char buf[8];
            store_from_double(type, buf, 0, v);
            CHECK(load_as_double(type, buf, 0) == v);
            CHECK(representable(type, v));
        }
    /* argmax plants max's extreme, argmin min's */
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const enum element_type type = (enum element_type)t;
        CHECK(extreme_value(type, OP_ARGMAX) == extreme_value(type, OP_MAX));
        CHECK(extreme_value(type, OP_ARGMIN) == extreme_value(type, OP_MIN));
    }
}

/* Where fill_data can draw the extreme itself, so planting it proves less:
 * uint32's min extreme is 0, the type's lowest value, which uniform,
 * small-ints and signed draw; half's wide-range reaches 2^15 x (2 - 2^-10)
 * = 65504, its max extreme (a data_gen.c issue: drawing exponents up to 14
 * for half would keep the data strictly below). There the data may touch
 * the extreme but never pass it. */
static bool extreme_may_be_drawn(enum element_type t, enum distribution dist, enum reduce_op op)
{
    return t == TYPE_UINT32 && op == OP_MIN && dist != DIST_WIDE_RANGE;
}

static void extreme_value_should_lie_beyond_every_generated_value(void)
{
    const size_t sizes[] = {1, 33, 100003};
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int d = 0; d < DIST_COUNT; ++d)
            for (size_t s = 0; s < COUNT(sizes); ++s) {
                const enum element_type type = (enum element_type)t;
                const enum distribution dist = (enum distribution)d;
                const size_t n = sizes[s];
                const double top = extreme_value(type, OP_MAX), bottom = extreme_value(type, OP_MIN);
                const bool top_shared = extreme_may_be_drawn(type, dist, OP_MAX);
                const bool bottom_shared = extreme_may_be_drawn(type, dist, OP_MIN);
                void *h = alloc_elements(type, n);
                fill_data(h, n, type, dist, 17 + s);
                size_t not_below = 0, not_above = 0;
                for (size_t i = 0; i < n; ++i) {
                    const double v = load_as_double(type, h, i);
                    not_below += top_shared ? v > top : !(v < top);
                    not_above += bottom_shared ? v < bottom : !(v > bottom);
                }
                CHECK(not_below == 0);
                CHECK(not_above == 0);
                if (not_below || not_above)
                    fprintf(stderr, "  %s %s n=%zu: %zu values past the max extreme, %zu the min\n",
                            element_type_name(type), distribution_name(dist), n, not_below, not_above);
                free(h);
            }
}

static void distribution_names_should_round_trip(void)
{
    static const char *const NAMES[DIST_COUNT] = {"uniform", "small-ints", "wide-range", "signed",
                                                  "ill-conditioned"};
    for (int d = 0; d < DIST_COUNT; ++d) {
        CHECK((int)distribution_from_name(distribution_name((enum distribution)d)) == d);
        CHECK(strcmp(distribution_name((enum distribution)d), NAMES[d]) == 0);
    }
    CHECK(distribution_from_name("gaussian") == DIST_COUNT);
    CHECK(distribution_from_name("") == DIST_COUNT);
}

int main(void)
{
    RUN_TEST(same_seed_should_give_same_bytes_and_other_seed_other_bytes);
    RUN_TEST(fill_should_write_exactly_n_elements);
    RUN_TEST(ranges_should_match_a_full_fill_bit_for_bit);
    RUN_TEST(range_sums_should_add_up_to_the_full_sum);
    RUN_TEST(ranges_far_into_a_huge_input_should_agree_with_each_other);
    RUN_TEST(uniform_floats_should_be_in_unit_interval_and_not_all_zero);
    RUN_TEST(signed_floats_should_lie_in_minus_one_to_one_and_cancel);
    RUN_TEST(wide_range_should_span_many_magnitudes_and_be_positive);
    RUN_TEST(every_generated_value_should_be_exactly_representable);
    RUN_TEST(integer_values_should_stay_within_the_bound_for_n);
    RUN_TEST(integer_data_should_use_its_range_and_not_be_all_zero);
    RUN_TEST(signed_integers_should_have_negatives_and_positives);
    RUN_TEST(integer_wide_range_should_span_many_powers_of_two);
    RUN_TEST(integer_types_should_always_know_their_exact_sum);
    RUN_TEST(small_ints_should_have_exact_known_sum_within_the_accumulator_range);
    RUN_TEST(small_ints_should_fill_the_float_range_up_to_2_pow_24);
    RUN_TEST(small_ints_should_say_inexact_past_the_accumulator_range);
    RUN_TEST(other_float_distributions_should_not_claim_an_exact_sum);
    RUN_TEST(ill_conditioned_should_cancel_to_its_small_terms);
    RUN_TEST(ill_conditioned_pair_should_be_as_ill_conditioned_as_two_values_can_be);
    RUN_TEST(ill_conditioned_integers_should_cancel_exactly);
    RUN_TEST(extreme_value_should_be_the_types_largest_or_lowest);
    RUN_TEST(extreme_value_should_lie_beyond_every_generated_value);
    RUN_TEST(distribution_names_should_round_trip);
    return test_exit_code();
}
