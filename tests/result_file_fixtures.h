/* What the result file tests share: temporary files under the directory
 * ctest passes (temp_dir), a sample run with the awkward cases and its CSV
 * text, exact comparisons of runs, and a check that a file is rejected with
 * a message naming it. Static functions, like check.h: include it once per
 * test program, after check.h. */
#ifndef RESULT_FILE_FIXTURES_H
#define RESULT_FILE_FIXTURES_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "result_files.h"

static const char *temp_dir = ".";

/* temp_dir/name in buf. */
static inline const char *temp_path(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", temp_dir, name);
    return buf;
}

static inline bool file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* The whole file as a malloc'd string ("" if unreadable). */
static inline char *slurp(const char *path)
{
    char *text = calloc(1, 1 << 16);
    FILE *f = fopen(path, "rb");
    if (f) {
        const size_t got = fread(text, 1, (1 << 16) - 1, f);
        text[got] = '\0';
        fclose(f);
    }
    return text;
}

static inline void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Writes text to the build directory as `name`, reads it back into *read
 * and removes the file; false (with the reader's message on stderr) if it
 * is refused. */
static inline bool read_fixture(const char *name, const char *text, struct run *read)
{
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, name), text);
    const bool ok = read_run_csv(path, read, err, sizeof err) == 0;
    if (err[0])
        fprintf(stderr, "  %s\n", err);
    remove(path);
    return ok;
}

/* text with the first `from` replaced by `to`, malloc'd. */
static inline char *replace_first(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    char *out = calloc(1, strlen(text) + strlen(to) + 1);
    if (!at) {
        strcpy(out, text);
        return out;
    }
    memcpy(out, text, (size_t)(at - text));
    strcat(out, to);
    strcat(out, at + strlen(from));
    return out;
}

/* The 1-based line of text on which fragment starts. */
static inline size_t line_of(const char *text, const char *fragment)
{
    const char *at = strstr(text, fragment);
    size_t line = 1;
    for (const char *p = text; at && p < at; ++p)
        line += *p == '\n';
    return line;
}

static inline struct method_result method(const char *name, const char *family, double median_us)
{
    struct method_result m = {
        .time_us = {.count = 100, .median = median_us, .min = median_us * 0.97,
                    .max = median_us * 1.21, .q1 = median_us * 0.99, .q3 = median_us * 1.01},
        .gbps = 67108864.0 / (median_us * 1e3),
        .pct_peak = 100.0 / 3.0,
        .ratio_to_cub = 1.0 / 7.0,
        .result = 8388608.25,
        .result_index = NO_INDEX, /* a max run's rows: no index */
        .error_ulps = 0.5,
        .rel_error = DBL_MIN / 4.0, /* subnormal: must survive the trip too */
        .status = STATUS_PASS,
        .determinism = DETERMINISM_BITWISE,
        .grid = GRID_SAME,
        .noisy = false,
        .n = 16777216,
        .clocks = {.readings = 100, .sm_mhz_min = 1755, .mem_mhz_min = 2619,
                   .temperature_c_max = 44, .power_w_max = 312.25,
                   .event_reasons = CLOCK_EVENT_SW_POWER_CAP | CLOCK_EVENT_GPU_IDLE},
        .throttled = true,
    };
    snprintf(m.name, sizeof m.name, "%s", name);
    snprintf(m.family, sizeof m.family, "%s", family);
    return m;
}

/* Three rows with the awkward cases: text needing quotes, a leading '#',
 * non-finite numbers, a row with no timings. */
static inline struct run sample_run(struct method_result rows[3])
{
    rows[0] = method("reduce0", "progression", 812.5);
    rows[1] = method("#cub", "vendor", 32.2);
    rows[1].determinism = DETERMINISM_VARIES;
    rows[1].noisy = true;
    rows[1].result = NAN;
    rows[1].error_ulps = NAN;
    rows[1].rel_error = INFINITY;
    rows[1].grid = GRID_DIFFERS;
    snprintf(rows[1].note, sizeof rows[1].note, "flags: \"odd\", spread | wide");
    rows[2] = (struct method_result){.status = STATUS_REFUSED, .determinism = DETERMINISM_UNKNOWN,
                                     .grid = GRID_UNFORCED, .result_index = NO_INDEX};
    snprintf(rows[2].name, sizeof rows[2].name, "atomic_naive");
    snprintf(rows[2].family, sizeof rows[2].family, "progression");
    snprintf(rows[2].note, sizeof rows[2].note, "accepts at most 1048576 elements");
    struct run run = {
        .context = {.sm_count = 132, .l2_bytes = 52428800, .peak_gbs = 3352.32,
                    .driver_version = 13000, .runtime_version = 13000,
                    .cccl_version = 3000000, .cublas_version = 130000,
                    .n = 16777216, .offset = 1, .samples = 100, .seed = UINT64_MAX,
                    .device_index = 1, .max_noise_pct = 0.5, .sm_clock_mhz = 1980,
                    .sm_clock_max_mhz = 1980, .mem_clock_mhz = 2619, .temperature_c = 39,
                    .power_w = 95.5},
        .rows = rows,
        .count = 3,
    };
    snprintf(run.context.device_name, sizeof run.context.device_name,
             "NVIDIA \"H100\", 80GB \\ HBM3=fast");
    snprintf(run.context.flush_mode, sizeof run.context.flush_mode, "read-sweep");
    snprintf(run.context.strategy, sizeof run.context.strategy, "padded");
    snprintf(run.context.element_type, sizeof run.context.element_type, "bfloat16");
    snprintf(run.context.op, sizeof run.context.op, "max");
    snprintf(run.context.distribution, sizeof run.context.distribution, "uniform");
    snprintf(run.context.date, sizeof run.context.date, "2026-11-22T09:00:00Z");
    snprintf(run.context.git_commit, sizeof run.context.git_commit, "abc1234");
    snprintf(run.context.clocks, sizeof run.context.clocks, "nvml");
    return run;
}

/* Exact equality, with NaN equal to NaN (it is what was written). */
static inline bool same_double(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static inline bool same_context(const struct run_context *a, const struct run_context *b)
{
    return strcmp(a->device_name, b->device_name) == 0 && a->sm_count == b->sm_count &&
           a->l2_bytes == b->l2_bytes && a->peak_gbs == b->peak_gbs &&
           a->driver_version == b->driver_version && a->runtime_version == b->runtime_version &&
           a->cccl_version == b->cccl_version && a->cublas_version == b->cublas_version &&
           strcmp(a->flush_mode, b->flush_mode) == 0 && strcmp(a->strategy, b->strategy) == 0 &&
           strcmp(a->element_type, b->element_type) == 0 && strcmp(a->op, b->op) == 0 &&
           a->n == b->n && a->offset == b->offset && a->samples == b->samples &&
           a->device_index == b->device_index && a->max_noise_pct == b->max_noise_pct &&
           strcmp(a->distribution, b->distribution) == 0 && a->seed == b->seed &&
           strcmp(a->date, b->date) == 0 && strcmp(a->git_commit, b->git_commit) == 0 &&
           strcmp(a->clocks, b->clocks) == 0 && a->sm_clock_mhz == b->sm_clock_mhz &&
           a->sm_clock_max_mhz == b->sm_clock_max_mhz && a->mem_clock_mhz == b->mem_clock_mhz &&
           a->temperature_c == b->temperature_c && a->power_w == b->power_w;
}

static inline bool same_method(const struct method_result *a, const struct method_result *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->family, b->family) == 0 &&
           a->time_us.count == b->time_us.count && a->time_us.median == b->time_us.median &&
           a->time_us.min == b->time_us.min && a->time_us.max == b->time_us.max &&
           a->time_us.q1 == b->time_us.q1 && a->time_us.q3 == b->time_us.q3 &&
           same_double(a->gbps, b->gbps) && same_double(a->pct_peak, b->pct_peak) &&
           same_double(a->ratio_to_cub, b->ratio_to_cub) && same_double(a->result, b->result) &&
           a->result_index == b->result_index &&
           same_double(a->error_ulps, b->error_ulps) && same_double(a->rel_error, b->rel_error) &&
           a->status == b->status && a->determinism == b->determinism && a->grid == b->grid &&
           a->noisy == b->noisy &&
           strcmp(a->note, b->note) == 0 && a->n == b->n &&
           memcmp(&a->clocks, &b->clocks, sizeof a->clocks) == 0 && a->throttled == b->throttled;
}

/* run as CSV text (written to `name`, read, removed). */
static inline char *run_csv_text(const char *name, const struct run *run)
{
    char path[512], err[512];
    CHECK(write_run_csv(temp_path(path, sizeof path, name), run, err, sizeof err) == 0);
    char *text = slurp(path);
    remove(path);
    return text;
}

/* The sample run as CSV text. */
static inline char *sample_csv_text(const char *name)
{
    struct method_result rows[3];
    const struct run run = sample_run(rows);
    return run_csv_text(name, &run);
}

/* The sample run as an argmax run: its first row's index past 2^31 (an
 * int32 would wrap), the rows without a result NO_INDEX. */
static inline struct run argmax_run(struct method_result rows[3])
{
    struct run run = sample_run(rows);
    snprintf(run.context.op, sizeof run.context.op, "argmax");
    rows[0].result_index = 12345678901LL;
    return run;
}

/* Writes text to `name`, reads it, and checks that it is rejected with a
 * message naming the file and containing each fragment (NULL: unused). */
static inline void check_rejected(const char *name, const char *text, const char *fragment1,
                           const char *fragment2)
{
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, name), text);
    struct run run = {.count = 99};
    CHECK(read_run_csv(path, &run, err, sizeof err) == -1);
    CHECK(run.rows == NULL && run.count == 0);
    free_run(&run); /* in case it was wrongly accepted */
    const bool names_file = strstr(err, path) != NULL;
    const bool has1 = fragment1 == NULL || strstr(err, fragment1) != NULL;
    const bool has2 = fragment2 == NULL || strstr(err, fragment2) != NULL;
    CHECK(names_file);
    CHECK(has1);
    CHECK(has2);
    if (!(names_file && has1 && has2))
        fprintf(stderr, "  message was: %s\n", err);
    remove(path);
}

/* "line N" for the line of text where fragment starts. */
static inline const char *line_label(char *buf, size_t len, const char *text, const char *fragment)
{
    snprintf(buf, len, "line %zu:", line_of(text, fragment));
    return buf;
}

#endif
