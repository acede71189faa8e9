/* Seeded data: reproducible, in range, never all zeros, exact sums exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data_gen.h"

static void same_seed_should_give_same_data_and_other_seed_other_data(void)
{
    float a[1000], b[1000], c[1000];
    fill_data(a, 1000, DIST_UNIFORM, 42);
    fill_data(b, 1000, DIST_UNIFORM, 42);
    fill_data(c, 1000, DIST_UNIFORM, 43);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0);
}

static void uniform_should_be_in_unit_interval_and_not_all_zero(void)
{
    float h[4096];
    fill_data(h, 4096, DIST_UNIFORM, 1);
    double sum = 0.0;
    int in_range = 1;
    for (int i = 0; i < 4096; ++i) {
        in_range &= h[i] >= 0.0f && h[i] < 1.0f;
        sum += h[i];
    }
    CHECK(in_range);
    CHECK(fabs(sum / 4096 - 0.5) < 0.05);
}

static void small_ints_should_have_exact_known_sum_up_to_2_pow_24(void)
{
    const size_t sizes[] = {0, 1, 33, 1000003, (size_t)1 << 24};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        const size_t n = sizes[s];
        float *h = malloc((n ? n : 1) * sizeof *h);
        const struct data_info info = fill_data(h, n, DIST_SMALL_INTS, 5);
        CHECK(info.exact_sum_known);
        double total = 0.0, largest = 0.0;
        for (size_t i = 0; i < n; ++i) {
            CHECK(h[i] == floorf(h[i]) && h[i] >= 0.0f);
            total += h[i];
            largest = h[i] > largest ? h[i] : largest;
        }
        CHECK(total == info.exact_sum);
        CHECK(largest * (double)n <= 0x1p24); /* every partial sum exact in float */
        if (n > 100)
            CHECK(info.exact_sum > 0.0);
        free(h);
    }
}

static void small_ints_should_say_inexact_past_2_pow_24(void)
{
    const size_t n = ((size_t)1 << 24) + 1;
    float *h = malloc(n * sizeof *h);
    CHECK(!fill_data(h, n, DIST_SMALL_INTS, 5).exact_sum_known);
    free(h);
}

static void wide_range_should_span_many_magnitudes_and_be_positive(void)
{
    float h[10000];
    fill_data(h, 10000, DIST_WIDE_RANGE, 3);
    float lo = h[0], hi = h[0];
    for (int i = 0; i < 10000; ++i) {
        lo = fminf(lo, h[i]);
        hi = fmaxf(hi, h[i]);
    }
    CHECK(lo > 0.0f && lo < 0x1p-18f);
    CHECK(hi > 0x1p18f && hi < 0x1p21f);
}

static void signed_should_cancel(void)
{
    float h[100000];
    fill_data(h, 100000, DIST_SIGNED, 9);
    double sum = 0.0, sum_abs = 0.0;
    for (int i = 0; i < 100000; ++i) {
        sum += h[i];
        sum_abs += fabs(h[i]);
    }
    CHECK(fabs(sum) < 0.02 * sum_abs);
}

static void distribution_names_should_round_trip(void)
{
    for (int d = 0; d < DIST_COUNT; ++d)
        CHECK((int)distribution_from_name(distribution_name((enum distribution)d)) == d);
    CHECK(distribution_from_name("gaussian") == DIST_COUNT);
}

int main(void)
{
    RUN_TEST(same_seed_should_give_same_data_and_other_seed_other_data);
    RUN_TEST(uniform_should_be_in_unit_interval_and_not_all_zero);
    RUN_TEST(small_ints_should_have_exact_known_sum_up_to_2_pow_24);
    RUN_TEST(small_ints_should_say_inexact_past_2_pow_24);
    RUN_TEST(wide_range_should_span_many_magnitudes_and_be_positive);
    RUN_TEST(signed_should_cancel);
    RUN_TEST(distribution_names_should_round_trip);
    return test_exit_code();
}
