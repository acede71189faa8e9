/* Summary statistics of timing samples. */
#ifndef STATS_H
#define STATS_H

#include <stdbool.h>
#include <stddef.h>

struct sample_stats {
    size_t count;
    double median, min, max;
    double q1, q3; /* quartiles: the spread that decides "noisy" and SAME */
};

/* A run whose interquartile range exceeds this fraction of its median is
 * flagged: its median is not a figure to compare against. */
#define NOISY_IQR_FRACTION 0.10

/* Sorts a copy; samples itself is left as it is. count 0 gives all zeros. */
struct sample_stats summarize_samples(const double *samples, size_t count);

bool stats_too_noisy(const struct sample_stats *s);

/* How well the median is known, in percent of it: the standard error of a
 * sample median, 1.2533 sigma / sqrt(count), with sigma estimated robustly as
 * IQR / 1.349 (as the baseline's noise). nvbench's stopping idea, for the
 * median. 0 for fewer than two samples or a median of 0. */
double median_noise_pct(const struct sample_stats *s);

/* Bytes per microsecond to GB/s (1e9 bytes per second). */
double bandwidth_gbs(double bytes, double microseconds);

/* Theoretical DRAM bandwidth in GB/s: memory clock (kHz) x 2 (double data
 * rate) x bus width (bits) / 8. H100 SXM: 2619 MHz x 2 x 5120 bits = 3352 GB/s. */
double theoretical_bandwidth_gbs(int memory_clock_khz, int bus_width_bits);

#endif
