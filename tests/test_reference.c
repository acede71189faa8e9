/* The CPU reference and the PASS/FAIL bound: the suite's notion of "right". */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "data_gen.h"
#include "reference.h"

static struct reference reference_of(const float *h, size_t n)
{
    const struct data_info inexact = {.exact_sum_known = false, .exact_sum = 0.0};
    return compute_reference(h, n, inexact);
}

static void reference_should_sum_exactly_where_double_cannot(void)
{
    /* 1e8 + many tiny values: a plain double loop of 1 + 1e-16 steps loses
     * them; compensation keeps them. */
    enum { N = 1 + 1000000 };
    float *h = malloc(N * sizeof *h);
    h[0] = 1e16f;
    for (size_t i = 1; i < N; ++i)
        h[i] = 1.0f;
    const struct reference ref = reference_of(h, N);
    CHECK(ref.sum == (double)1e16f + 1000000.0);
    free(h);
}

static void reference_should_track_sum_of_absolute_values(void)
{
    const float h[] = {1.5f, -2.5f, 3.0f, -0.0f};
    const struct reference ref = reference_of(h, 4);
    CHECK(ref.sum == 2.0);
    CHECK(ref.sum_abs == 7.0);
    CHECK(reference_target(&ref, false) == 2.0);
    CHECK(reference_target(&ref, true) == 7.0);
}

static void bound_should_grow_with_sqrt_n_and_the_data_scale(void)
{
    struct reference ref = {.sum = 0.0, .sum_abs = 1000.0, .n = 1 << 20, .exact = false};
    const double b20 = error_bound(&ref);
    CHECK(fabs(b20 - 4.0 * 1024.0 * 0x1p-24 * 1000.0) < 1e-12);
    ref.n = 1 << 22;
    CHECK(fabs(error_bound(&ref) / b20 - 2.0) < 1e-12); /* sqrt(4x) */
    ref.sum_abs = 2000.0;
    CHECK(fabs(error_bound(&ref) / b20 - 4.0) < 1e-12);
    ref.n = 1;
    CHECK(error_bound(&ref) == 4.0 * 0x1p-24 * 2000.0); /* floor: 2u at n = 1 is below 4u */
}

static void bound_should_be_zero_for_exact_data(void)
{
    const struct reference ref = {.sum = 5.0, .sum_abs = 5.0, .n = 100, .exact = true};
    CHECK(error_bound(&ref) == 0.0);
    CHECK(result_passes(5.0f, &ref, false));
    CHECK(!result_passes(nextafterf(5.0f, 6.0f), &ref, false));
}

static void result_should_fail_for_nan_infinity_and_outside_bound(void)
{
    const struct reference ref = {.sum = 100.0, .sum_abs = 100.0, .n = 1 << 16, .exact = false};
    const double bound = error_bound(&ref);
    CHECK(result_passes((float)(100.0 + bound * 0.5), &ref, false));
    CHECK(!result_passes((float)(100.0 + bound * 4.0), &ref, false));
    CHECK(!result_passes(NAN, &ref, false));
    CHECK(!result_passes(INFINITY, &ref, false));
}

static void sequential_float_sum_should_pass_at_64_mib_and_fail_when_it_stagnates(void)
{
    /* 2^24 uniform values summed in one float chain (what atomics do) stays
     * inside the bound; 2^26 ones summed that way stop growing at 2^24 and
     * must fail. */
    const size_t n = (size_t)1 << 24;
    float *h = malloc(n * sizeof *h);
    fill_data(h, n, DIST_UNIFORM, 7);
    float chain = 0.0f;
    for (size_t i = 0; i < n; ++i)
        chain += h[i];
    const struct reference ref = reference_of(h, n);
    CHECK(result_passes(chain, &ref, false));
    free(h);

    const struct reference ones = {.sum = 0x1p26, .sum_abs = 0x1p26, .n = (size_t)1 << 26, .exact = false};
    CHECK(!result_passes(0x1p24f, &ones, false));
}

static void relative_error_should_be_scaled_by_sum_abs(void)
{
    const struct reference ref = {.sum = 0.0, .sum_abs = 10.0, .n = 4, .exact = false};
    CHECK(relative_error(0.5, 0.0, &ref) == 0.05);
    const struct reference empty = {.sum = 0.0, .sum_abs = 0.0, .n = 0, .exact = true};
    CHECK(relative_error(0.0, 0.0, &empty) == 0.0);
    CHECK(result_passes(0.0f, &empty, false));
}

int main(void)
{
    RUN_TEST(reference_should_sum_exactly_where_double_cannot);
    RUN_TEST(reference_should_track_sum_of_absolute_values);
    RUN_TEST(bound_should_grow_with_sqrt_n_and_the_data_scale);
    RUN_TEST(bound_should_be_zero_for_exact_data);
    RUN_TEST(result_should_fail_for_nan_infinity_and_outside_bound);
    RUN_TEST(sequential_float_sum_should_pass_at_64_mib_and_fail_when_it_stagnates);
    RUN_TEST(relative_error_should_be_scaled_by_sum_abs);
    return test_exit_code();
}
