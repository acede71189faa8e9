#include "scaling.h"

#include <stdint.h>
#include <string.h>

static const char *const COMBINE_NAMES[COMBINE_COUNT] = {"-", "p2p", "nccl"};

const char *combine_name(enum combine c) { return c < COMBINE_COUNT ? COMBINE_NAMES[c] : "?"; }

enum combine combine_from_name(const char *name)
{
    for (int c = COMBINE_P2P; c < COMBINE_COUNT; ++c)
        if (strcmp(name, COMBINE_NAMES[c]) == 0)
            return (enum combine)c;
    return COMBINE_COUNT;
}

double scaling_gbs(const struct scaling_row *r)
{
    return r->time_us.count ? bandwidth_gbs(r->bytes, r->time_us.median) : 0.0;
}

double scaling_speedup(const struct scaling_row *r)
{
    return r->one_gpu_us > 0.0 && r->time_us.count && r->time_us.median > 0.0
               ? r->one_gpu_us / r->time_us.median
               : 0.0;
}

double scaling_efficiency(const struct scaling_row *r)
{
    return r->gpus > 0 ? scaling_speedup(r) / r->gpus : 0.0;
}

void set_one_gpu_times(struct scaling_row *rows, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        rows[i].one_gpu_us = 0.0;
        for (size_t j = 0; j < count; ++j) {
            const struct scaling_row *one = &rows[j];
            if (one->combine == COMBINE_NONE && one->gpus == 1 && one->n == rows[i].n &&
                one->status == STATUS_PASS && one->time_us.count &&
                strcmp(one->method, rows[i].method) == 0)
                rows[i].one_gpu_us = one->time_us.median;
        }
    }
}

void print_scaling_table(FILE *out, const struct scaling_row *rows, size_t count)
{
    fprintf(out, "%-14s %-7s %4s %13s %8s %10s %10s %8s %8s %6s %10s %-7s %s\n", "method",
            "combine", "gpus", "n", "GiB/GPU", "median us", "min us", "GB/s", "speedup", "eff",
            "combine us", "check", "note");
    for (size_t i = 0; i < count; ++i) {
        const struct scaling_row *r = &rows[i];
        const double gib_per_gpu = r->bytes / (r->gpus > 0 ? r->gpus : 1) / (double)(1 << 30);
        fprintf(out, "%-14s %-7s %4d %13zu %8.2f", r->method, combine_name(r->combine), r->gpus,
                r->n, gib_per_gpu);
        if (r->time_us.count == 0) {
            fprintf(out, " %10s %10s %8s %8s %6s %10s %-7s %s\n", "-", "-", "-", "-", "-", "-",
                    method_status_name(r->status), r->note);
            continue;
        }
        char speedup[16] = "-", efficiency[16] = "-", combine[16] = "-";
        if (scaling_speedup(r) > 0.0) {
            snprintf(speedup, sizeof speedup, "%.2fx", scaling_speedup(r));
            snprintf(efficiency, sizeof efficiency, "%.0f%%", 100.0 * scaling_efficiency(r));
        }
        if (r->combine_us.count)
            snprintf(combine, sizeof combine, "%.2f", r->combine_us.median);
        fprintf(out, " %10.2f %10.2f %8.1f %8s %6s %10s %-7s %s%s\n", r->time_us.median,
                r->time_us.min, scaling_gbs(r), speedup, efficiency, combine,
                method_status_name(r->status), stats_too_noisy(&r->time_us) ? "NOISY " : "",
                r->note);
    }
}

size_t ladder_sizes(enum element_type t, int gpus, size_t one_gpu_bytes, size_t *sizes,
                    size_t max)
{
    const size_t size = element_size(t);
    size_t count = 0, n = (size_t)1 << 24;
    if (size == 0)
        return 0;
    while (count < max && n <= one_gpu_bytes / size) {
        sizes[count++] = n;
        if (n > SIZE_MAX / 4)
            break;
        n *= 4;
    }
    const size_t gib = (size_t)1 << 30;
    const size_t per_gpu_bytes = one_gpu_bytes / 4 * 3 / gib * gib;
    if (gpus < 2 || count >= max || per_gpu_bytes == 0)
        return count;
    const size_t per_gpu = per_gpu_bytes / size;
    if (per_gpu > SIZE_MAX / (size_t)gpus)
        return count;
    const size_t beyond = per_gpu * (size_t)gpus;
    if (beyond > one_gpu_bytes / size && (count == 0 || beyond > sizes[count - 1]))
        sizes[count++] = beyond;
    return count;
}
