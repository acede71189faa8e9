/* Timing statistics and the bandwidth arithmetic behind GB/s and % of peak. */
#include <math.h>

#include "check.h"
#include "stats.h"

static void median_should_be_middle_of_odd_and_mean_of_even_counts(void)
{
    const double odd[] = {5.0, 1.0, 3.0};
    const double even[] = {4.0, 1.0, 3.0, 2.0};
    CHECK(summarize_samples(odd, 3).median == 3.0);
    CHECK(summarize_samples(even, 4).median == 2.5);
}

static void summary_should_give_min_max_quartiles_and_leave_input_alone(void)
{
    double samples[] = {9.0, 1.0, 5.0, 3.0, 7.0};
    const struct sample_stats s = summarize_samples(samples, 5);
    CHECK(s.count == 5 && s.min == 1.0 && s.max == 9.0);
    CHECK(s.q1 == 3.0 && s.q3 == 7.0);
    CHECK(samples[0] == 9.0 && samples[1] == 1.0); /* not sorted in place */
}

static void empty_and_single_samples_should_not_crash(void)
{
    CHECK(summarize_samples(NULL, 0).count == 0);
    const double one[] = {2.5};
    const struct sample_stats s = summarize_samples(one, 1);
    CHECK(s.median == 2.5 && s.q1 == 2.5 && s.q3 == 2.5);
}

static void wide_spread_should_be_flagged_noisy(void)
{
    const double tight[] = {10.0, 10.1, 10.2, 10.1, 10.0, 30.0}; /* one outlier is fine */
    const double wide[] = {10.0, 14.0, 18.0, 22.0};
    const struct sample_stats t = summarize_samples(tight, 6), w = summarize_samples(wide, 4);
    CHECK(!stats_too_noisy(&t));
    CHECK(stats_too_noisy(&w));
}

/* The stopping rule's statistic: 1.2533 (IQR / 1.349) / sqrt(count) / median. */
static void median_noise_should_shrink_with_the_square_root_of_the_count(void)
{
    struct sample_stats s = {.count = 100, .median = 20.0, .q1 = 19.0, .q3 = 21.0};
    const double at_100 = median_noise_pct(&s);
    CHECK(fabs(at_100 - 100.0 * 1.2533 * (2.0 / 1.349) / 10.0 / 20.0) < 1e-12); /* ~0.93% */
    s.count = 400;
    CHECK(fabs(median_noise_pct(&s) / at_100 - 0.5) < 1e-12);
    s.q1 = s.q3 = 20.0; /* no spread: known exactly */
    CHECK(median_noise_pct(&s) == 0.0);
    s = (struct sample_stats){.count = 1, .median = 20.0, .q1 = 10.0, .q3 = 30.0};
    CHECK(median_noise_pct(&s) == 0.0); /* one sample says nothing; the minimum count decides */
    s = (struct sample_stats){.count = 50, .median = 0.0, .q1 = 0.0, .q3 = 1.0};
    CHECK(median_noise_pct(&s) == 0.0);
}

static void bandwidth_should_be_bytes_over_time_in_gb_per_s(void)
{
    /* 64 MiB of floats read in 24 us is 2796 GB/s. */
    CHECK(fabs(bandwidth_gbs(67108864.0, 24.0) - 2796.2027) < 1e-3);
    CHECK(bandwidth_gbs(1000.0, 0.0) == 0.0);
}

static void theoretical_peak_should_match_h100_datasheet(void)
{
    /* H100 SXM: HBM3 at 2619 MHz, 5120-bit bus -> 3352 GB/s. */
    CHECK(fabs(theoretical_bandwidth_gbs(2619000, 5120) - 3352.32) < 1e-6);
    /* H200: 3201 MHz x 6144 bits -> 4917 GB/s. */
    CHECK(fabs(theoretical_bandwidth_gbs(3201000, 6144) - 4916.736) < 1e-6);
}

int main(void)
{
    RUN_TEST(median_should_be_middle_of_odd_and_mean_of_even_counts);
    RUN_TEST(summary_should_give_min_max_quartiles_and_leave_input_alone);
    RUN_TEST(empty_and_single_samples_should_not_crash);
    RUN_TEST(wide_spread_should_be_flagged_noisy);
    RUN_TEST(median_noise_should_shrink_with_the_square_root_of_the_count);
    RUN_TEST(bandwidth_should_be_bytes_over_time_in_gb_per_s);
    RUN_TEST(theoretical_peak_should_match_h100_datasheet);
    return test_exit_code();
}
