/* The exactly rounded sum (exact_sum.h): cases whose correctly rounded
 * answer is known - ties, cancellation to tiny values, the whole exponent
 * range, overflow, the empty and one-element sums - and random data whose
 * exact sum a double holds. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "data_gen.h"
#include "exact_sum.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static double rounded_sum(const double *x, size_t n, enum element_type format)
{
    struct exact_sum s;
    exact_sum_init(&s);
    for (size_t i = 0; i < n; ++i)
        exact_sum_add(&s, x[i]);
    return exact_sum_round(&s, format);
}

static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static void empty_sum_should_be_positive_zero(void)
{
    CHECK(same_bits(rounded_sum(NULL, 0, TYPE_FLOAT), 0.0));
    CHECK(same_bits(rounded_sum(NULL, 0, TYPE_DOUBLE), 0.0));
    const double cancel[] = {1.5, -1.5, 0x1p-1074, -0x1p-1074};
    CHECK(same_bits(rounded_sum(cancel, COUNT(cancel), TYPE_DOUBLE), 0.0));
}

static void one_value_should_come_back_unchanged(void)
{
    const double doubles[] = {0.1, -0x1p-1074, DBL_MAX, -DBL_MIN, 3.0, -0x1.fffffffffffffp-1};
    for (size_t i = 0; i < COUNT(doubles); ++i)
        CHECK(rounded_sum(&doubles[i], 1, TYPE_DOUBLE) == doubles[i]);
    const double floats[] = {0x1p-149, -FLT_MAX, (double)0.1f, -0x1.fffffep-1};
    for (size_t i = 0; i < COUNT(floats); ++i)
        CHECK(rounded_sum(&floats[i], 1, TYPE_FLOAT) == floats[i]);
}

static void ties_should_round_to_even(void)
{
    const double float_tie_down[] = {1.0, 0x1p-24};    /* half an ulp above 1: stays 1 */
    const double float_tie_up[] = {1.0, 0x3p-24};      /* 1.5 ulps: to 1 + 2 ulps */
    const double float_past_tie[] = {1.0, 0x1p-24, 0x1p-80};
    CHECK(rounded_sum(float_tie_down, 2, TYPE_FLOAT) == 1.0);
    CHECK(rounded_sum(float_tie_up, 2, TYPE_FLOAT) == 1.0 + 0x1p-22);
    CHECK(rounded_sum(float_past_tie, 3, TYPE_FLOAT) == 1.0 + 0x1p-23);
    const double negative_tie[] = {-1.0, -0x3p-24};
    CHECK(rounded_sum(negative_tie, 2, TYPE_FLOAT) == -1.0 - 0x1p-22);
    const double double_tie[] = {1.0, 0x1p-53};
    const double double_past_tie[] = {1.0, 0x1p-53, 0x1p-1074};
    CHECK(rounded_sum(double_tie, 2, TYPE_DOUBLE) == 1.0);
    CHECK(rounded_sum(double_past_tie, 3, TYPE_DOUBLE) == nextafter(1.0, 2.0));
}

static void float_result_should_be_rounded_once_not_through_double(void)
{
    /* 1 + 2^-24 + 2^-60 is 1 + 2^-24 in double (a float tie, which would go
     * to 1), but past the tie exactly: the float nearest is 1 + 2^-23. */
    const double x[] = {1.0, 0x1p-24, 0x1p-60};
    CHECK((float)rounded_sum(x, 3, TYPE_DOUBLE) == 1.0f);
    CHECK(rounded_sum(x, 3, TYPE_FLOAT) == 1.0 + 0x1p-23);
}

static void cancellation_should_leave_the_tiny_rest_exactly(void)
{
    const double doubles[] = {1e308, 1e-300, -1e308};
    CHECK(rounded_sum(doubles, 3, TYPE_DOUBLE) == 1e-300);
    const double floats[] = {0x1p100, 0x1p-140, -0x1p100}; /* a float subnormal */
    CHECK(rounded_sum(floats, 3, TYPE_FLOAT) == 0x1p-140);
    const double below_float[] = {0x1p100, -0x1p100, 0x1p-150}; /* half the smallest step */
    CHECK(same_bits(rounded_sum(below_float, 3, TYPE_FLOAT), 0.0));
    const double past_half[] = {0x1p-150, 0x1p-200};
    CHECK(rounded_sum(past_half, 2, TYPE_FLOAT) == 0x1p-149);
    const double subnormal_tie[] = {0x3p-150}; /* 1.5 steps: to 2 */
    CHECK(rounded_sum(subnormal_tie, 1, TYPE_FLOAT) == 0x1p-148);
    /* Python's math.fsum examples */
    const double fsum[] = {1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50};
    CHECK(rounded_sum(fsum, COUNT(fsum), TYPE_DOUBLE) == 1e-100);
    const double tenths[] = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1};
    CHECK(rounded_sum(tenths, 10, TYPE_DOUBLE) == 1.0);
    const double past_2_53[] = {0x1p53, 1.0, 1.0}; /* a double loop gets 2^53 */
    CHECK(rounded_sum(past_2_53, 3, TYPE_DOUBLE) == 0x1p53 + 2.0);
}

static void huge_range_should_overflow_only_past_the_largest_value(void)
{
    const double back[] = {DBL_MAX, DBL_MAX, -DBL_MAX, 0x1p-1074};
    CHECK(rounded_sum(back, 4, TYPE_DOUBLE) == DBL_MAX);
    const double up[] = {DBL_MAX, DBL_MAX};
    const double down[] = {-DBL_MAX, -DBL_MAX};
    CHECK(rounded_sum(up, 2, TYPE_DOUBLE) == INFINITY);
    CHECK(rounded_sum(down, 2, TYPE_DOUBLE) == -INFINITY);
    /* FLT_MAX + half its ulp (2^103) is a tie; FLT_MAX's last bit is odd. */
    const double float_tie[] = {FLT_MAX, 0x1p103};
    const double float_below_tie[] = {FLT_MAX, 0x1p102};
    CHECK(rounded_sum(float_tie, 2, TYPE_FLOAT) == INFINITY);
    CHECK(rounded_sum(float_below_tie, 2, TYPE_FLOAT) == FLT_MAX);
    const double extremes[] = {0x1p-1074, DBL_MAX, -0x1p-1074, -DBL_MAX, 0x1p-1074};
    CHECK(rounded_sum(extremes, COUNT(extremes), TYPE_DOUBLE) == 0x1p-1074);
}

static void nonfinite_terms_should_give_the_ieee_answer(void)
{
    const double inf[] = {1.0, INFINITY, -5.0};
    CHECK(rounded_sum(inf, 3, TYPE_DOUBLE) == INFINITY);
    const double both[] = {INFINITY, 1.0, -INFINITY};
    CHECK(isnan(rounded_sum(both, 3, TYPE_FLOAT)));
}

static void many_terms_should_carry_exactly(void)
{
    /* 2^20 copies of the largest double and of minus it, interleaved with
     * ones: every limb carries and borrows; the ones are all that remain. */
    enum { N = 1 << 20 };
    struct exact_sum s;
    exact_sum_init(&s);
    for (size_t i = 0; i < N; ++i) {
        exact_sum_add(&s, DBL_MAX);
        exact_sum_add(&s, 1.0);
        if (i == N / 2)
            exact_sum_normalize(&s); /* in the middle: changes nothing */
    }
    for (size_t i = 0; i < N; ++i)
        exact_sum_add(&s, -DBL_MAX);
    CHECK(exact_sum_round(&s, TYPE_DOUBLE) == (double)N);
    CHECK(exact_sum_round(&s, TYPE_FLOAT) == (double)N);
}

static void random_floats_should_round_their_exact_double_sum(void)
{
    /* signed floats are k 2^-23 in [-1, 1): a million of them sum exactly in
     * a double, and rounding that one exact double to float is the answer. */
    enum { N = 1000003 };
    float *h = malloc(N * sizeof *h);
    fill_data(h, N, TYPE_FLOAT, DIST_SIGNED, 77);
    struct exact_sum s;
    exact_sum_init(&s);
    double exact = 0.0;
    for (size_t i = 0; i < N; ++i) {
        exact_sum_add(&s, h[i]);
        exact += h[i];
    }
    CHECK(exact_sum_round(&s, TYPE_DOUBLE) == exact);
    CHECK(exact_sum_round(&s, TYPE_FLOAT) == (double)(float)exact);
    free(h);
}

int main(void)
{
    RUN_TEST(empty_sum_should_be_positive_zero);
    RUN_TEST(one_value_should_come_back_unchanged);
    RUN_TEST(ties_should_round_to_even);
    RUN_TEST(float_result_should_be_rounded_once_not_through_double);
    RUN_TEST(cancellation_should_leave_the_tiny_rest_exactly);
    RUN_TEST(huge_range_should_overflow_only_past_the_largest_value);
    RUN_TEST(nonfinite_terms_should_give_the_ieee_answer);
    RUN_TEST(many_terms_should_carry_exactly);
    RUN_TEST(random_floats_should_round_their_exact_double_sum);
    return test_exit_code();
}
