#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Linear interpolation between closest ranks (the common "type 7" quantile). */
static double quantile_sorted(const double *sorted, size_t count, double q)
{
    const double position = q * (double)(count - 1);
    const size_t below = (size_t)position;
    const double fraction = position - (double)below;
    if (below + 1 >= count)
        return sorted[count - 1];
    return sorted[below] + fraction * (sorted[below + 1] - sorted[below]);
}

struct sample_stats summarize_samples(const double *samples, size_t count)
{
    struct sample_stats s = {0};
    if (count == 0)
        return s;
    double *sorted = malloc(count * sizeof *sorted);
    if (!sorted)
        return s;
    memcpy(sorted, samples, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, compare_doubles);
    s.count = count;
    s.min = sorted[0];
    s.max = sorted[count - 1];
    s.median = quantile_sorted(sorted, count, 0.5);
    s.q1 = quantile_sorted(sorted, count, 0.25);
    s.q3 = quantile_sorted(sorted, count, 0.75);
    free(sorted);
    return s;
}

bool stats_too_noisy(const struct sample_stats *s)
{
    return s->count > 0 && (s->q3 - s->q1) > NOISY_IQR_FRACTION * s->median;
}

double median_noise_pct(const struct sample_stats *s)
{
    if (s->count < 2 || s->median <= 0.0)
        return 0.0;
    const double sigma = (s->q3 - s->q1) / 1.349;
    return 100.0 * 1.2533 * sigma / sqrt((double)s->count) / s->median;
}

double bandwidth_gbs(double bytes, double microseconds)
{
    return microseconds > 0.0 ? bytes / (microseconds * 1e3) : 0.0;
}

double theoretical_bandwidth_gbs(int memory_clock_khz, int bus_width_bits)
{
    return (double)memory_clock_khz * 1e3 * 2.0 * (bus_width_bits / 8.0) / 1e9;
}
