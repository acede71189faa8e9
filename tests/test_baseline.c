/* Baseline verdicts on synthetic runs: the noise threshold, FASTER / SAME /
 * SLOWER, NEW / GONE / FAILED / REFUSED, the exit code, context warnings and
 * the printed report. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "baseline.h"
#include "check.h"

/* A PASSing row whose quartiles sit iqr_fraction x median apart. */
static struct method_result timed(const char *name, double median_us, double iqr_fraction)
{
    struct method_result m = {
        .time_us = {.count = 100, .median = median_us, .min = median_us * 0.9,
                    .max = median_us * 1.5, .q1 = median_us * (1.0 - iqr_fraction / 2.0),
                    .q3 = median_us * (1.0 + iqr_fraction / 2.0)},
        .status = STATUS_PASS,
        .gbps = 67108864.0 / (median_us * 1e3), /* 64 MiB */
    };
    m.pct_peak = 100.0 * m.gbps / 3352.0;
    snprintf(m.name, sizeof m.name, "%s", name);
    return m;
}

static struct method_result untimed(const char *name, enum method_status status)
{
    struct method_result m = {.status = status};
    snprintf(m.name, sizeof m.name, "%s", name);
    return m;
}

static struct run_context h100_context(void)
{
    struct run_context c = {.sm_count = 132, .n = 16777216, .samples = 100, .seed = 1,
                            .driver_version = 13000, .runtime_version = 13000};
    snprintf(c.device_name, sizeof c.device_name, "NVIDIA H100 80GB HBM3");
    snprintf(c.flush_mode, sizeof c.flush_mode, "read-sweep");
    snprintf(c.strategy, sizeof c.strategy, "padded");
    snprintf(c.distribution, sizeof c.distribution, "uniform");
    snprintf(c.element_type, sizeof c.element_type, "float");
    snprintf(c.op, sizeof c.op, "sum");
    return c;
}

static struct run run_of(struct method_result *rows, size_t count)
{
    return (struct run){.context = h100_context(), .rows = rows, .count = count};
}

/* The verdict for one method timed at old_us and then new_us. */
static enum verdict verdict_for(double old_us, double old_iqr, double new_us, double new_iqr)
{
    struct method_result old_row = timed("m", old_us, old_iqr);
    struct method_result new_row = timed("m", new_us, new_iqr);
    const struct run old_run = run_of(&old_row, 1), new_run = run_of(&new_row, 1);
    struct comparison c;
    if (compare_runs(&old_run, &new_run, &c) != 0 || c.count != 1)
        return VERDICT_COUNT;
    const enum verdict v = c.rows[0].verdict;
    free_comparison(&c);
    return v;
}

static const struct comparison_row *row_named(const struct comparison *c, const char *name)
{
    for (size_t i = 0; i < c->count; ++i)
        if (strcmp(c->rows[i].name, name) == 0)
            return &c->rows[i];
    return NULL;
}

/* ---- the threshold */

static void threshold_should_be_the_floor_for_tight_runs(void)
{
    const struct sample_stats a = timed("a", 100.0, 0.01).time_us;
    const struct sample_stats b = timed("b", 50.0, 0.01).time_us;
    CHECK(noise_threshold_pct(&a, &b, false) == MIN_CHANGE_PCT);
    const struct sample_stats exact = timed("c", 100.0, 0.0).time_us;
    CHECK(noise_threshold_pct(&exact, &exact, false) == MIN_CHANGE_PCT);
}

static void threshold_should_combine_both_spreads_in_quadrature(void)
{
    /* IQR 20% and 10% of the median: sqrt(0.2^2 + 0.1^2) / 1.349 = 16.58% */
    const struct sample_stats a = timed("a", 100.0, 0.20).time_us;
    const struct sample_stats b = timed("b", 40.0, 0.10).time_us;
    const double expected = sqrt(0.2 * 0.2 + 0.1 * 0.1) / IQR_PER_SIGMA * 100.0;
    CHECK(fabs(noise_threshold_pct(&a, &b, false) - expected) < 1e-9);
    CHECK(fabs(noise_threshold_pct(&b, &a, false) - expected) < 1e-9); /* symmetric */
}

static void host_timed_method_should_get_the_wider_floor(void)
{
    const struct sample_stats a = timed("thrust", 100.0, 0.01).time_us;
    CHECK(noise_threshold_pct(&a, &a, true) == MIN_CHANGE_PCT_HOST_TIMED);
    /* rerun drifts seen on an H100 (+8.5%, +15.4%) are SAME for it, SLOWER otherwise */
    CHECK(timing_verdict(47.66, 51.73, noise_threshold_pct(&a, &a, true)) == VERDICT_SAME);
    CHECK(timing_verdict(47.66, 51.73, noise_threshold_pct(&a, &a, false)) == VERDICT_SLOWER);
    CHECK(timing_verdict(45.89, 52.98, noise_threshold_pct(&a, &a, true)) == VERDICT_SAME);
    /* a real slowdown past the floor is still caught */
    CHECK(timing_verdict(45.89, 55.50, noise_threshold_pct(&a, &a, true)) == VERDICT_SLOWER);
}

static void timing_verdict_should_count_the_threshold_itself_as_same(void)
{
    CHECK(timing_verdict(100.0, 93.0, 7.0) == VERDICT_SAME);
    CHECK(timing_verdict(100.0, 107.0, 7.0) == VERDICT_SAME);
    CHECK(timing_verdict(100.0, 92.9, 7.0) == VERDICT_FASTER);
    CHECK(timing_verdict(100.0, 107.1, 7.0) == VERDICT_SLOWER);
}

/* ---- verdicts */

static void clearly_faster_run_should_be_faster(void)
{
    CHECK(verdict_for(100.0, 0.01, 80.0, 0.01) == VERDICT_FASTER);
}

static void clearly_slower_run_should_be_slower(void)
{
    CHECK(verdict_for(100.0, 0.01, 120.0, 0.01) == VERDICT_SLOWER);
}

static void change_within_noise_should_be_same(void)
{
    CHECK(verdict_for(100.0, 0.01, 101.5, 0.01) == VERDICT_SAME);
    CHECK(verdict_for(100.0, 0.01, 97.5, 0.01) == VERDICT_SAME);
}

static void noisy_runs_should_widen_the_threshold(void)
{
    CHECK(verdict_for(100.0, 0.01, 110.0, 0.01) == VERDICT_SLOWER);
    CHECK(verdict_for(100.0, 0.25, 110.0, 0.25) == VERDICT_SAME); /* 26%, capped at 25% */
}

/* However wide the quartiles, the threshold stops at MAX_CHANGE_PCT, above
 * both floors. */
static void threshold_should_stop_at_its_ceiling(void)
{
    const struct sample_stats tight = timed("tight", 100.0, 0.01).time_us;
    const struct sample_stats wide = timed("wide", 100.0, 1.8).time_us; /* IQR 180% */
    CHECK(noise_threshold_pct(&wide, &tight, false) == MAX_CHANGE_PCT);
    CHECK(noise_threshold_pct(&wide, &wide, true) == MAX_CHANGE_PCT);
    CHECK(noise_threshold_pct(&tight, &tight, true) == MIN_CHANGE_PCT_HOST_TIMED);
    CHECK(MIN_CHANGE_PCT_HOST_TIMED < MAX_CHANGE_PCT);
    /* just under the ceiling is still the noise itself: IQR 33% in one run */
    const struct sample_stats noisy = timed("noisy", 100.0, 0.33).time_us;
    const double expected = hypot(0.33, 0.01) / IQR_PER_SIGMA * 100.0;
    CHECK(fabs(noise_threshold_pct(&noisy, &tight, false) - expected) < 1e-9 && expected < 25.0);
}

/* A baseline whose slowest quarter of samples took 14x the median (q3 =
 * 1400 us): its noise alone, ~970%, would call a 10x slowdown SAME. */
static void noisy_baseline_should_not_hide_a_tenfold_slowdown(void)
{
    struct method_result old_row = timed("m", 100.0, 0.01);
    old_row.time_us.min = 80.0;
    old_row.time_us.q1 = 90.0;
    old_row.time_us.q3 = 1400.0;
    old_row.time_us.max = 2000.0;
    struct method_result new_row = timed("m", 1000.0, 0.01);
    const struct run old_run = run_of(&old_row, 1), new_run = run_of(&new_row, 1);
    struct comparison c;
    CHECK(compare_runs(&old_run, &new_run, &c) == 0 && c.count == 1);
    CHECK(c.count == 1 && c.rows[0].verdict == VERDICT_SLOWER);
    CHECK(c.count == 1 && c.rows[0].change_pct == 900.0);
    CHECK(c.count == 1 && c.rows[0].threshold_pct == MAX_CHANGE_PCT);
    free_comparison(&c);
    /* the ceiling itself is SAME, a step past it SLOWER, and faster is FASTER */
    CHECK(verdict_for(100.0, 1.8, 125.0, 0.01) == VERDICT_SAME);
    CHECK(verdict_for(100.0, 1.8, 125.5, 0.01) == VERDICT_SLOWER);
    CHECK(verdict_for(100.0, 1.8, 10.0, 0.01) == VERDICT_FASTER);
}

static void comparison_row_should_carry_medians_change_and_threshold(void)
{
    struct method_result old_row = timed("cub", 32.0, 0.01), new_row = timed("cub", 24.0, 0.01);
    const struct run old_run = run_of(&old_row, 1), new_run = run_of(&new_row, 1);
    struct comparison c;
    CHECK(compare_runs(&old_run, &new_run, &c) == 0 && c.count == 1);
    CHECK(strcmp(c.rows[0].name, "cub") == 0);
    CHECK(c.rows[0].old_median_us == 32.0 && c.rows[0].new_median_us == 24.0);
    CHECK(c.rows[0].change_pct == -25.0 && c.rows[0].threshold_pct == MIN_CHANGE_PCT);
    free_comparison(&c);
}

static void methods_in_one_run_only_should_be_new_or_gone(void)
{
    struct method_result old_rows[] = {timed("kept", 10.0, 0.01), timed("removed", 10.0, 0.01)};
    struct method_result new_rows[] = {timed("added", 10.0, 0.01), timed("kept", 10.0, 0.01)};
    const struct run old_run = run_of(old_rows, 2), new_run = run_of(new_rows, 2);
    struct comparison c;
    CHECK(compare_runs(&old_run, &new_run, &c) == 0 && c.count == 3);
    CHECK(strcmp(c.rows[0].name, "added") == 0 && c.rows[0].verdict == VERDICT_NEW);
    CHECK(isnan(c.rows[0].old_median_us) && isnan(c.rows[0].change_pct));
    CHECK(strcmp(c.rows[1].name, "kept") == 0 && c.rows[1].verdict == VERDICT_SAME);
    CHECK(strcmp(c.rows[2].name, "removed") == 0 && c.rows[2].verdict == VERDICT_GONE);
    CHECK(isnan(c.rows[2].new_median_us));
    CHECK(comparison_exit_code(&c) == 0);
    free_comparison(&c);
}

/* Rows pair by (method, n, cols) wherever they stand: a sweep's rows in
 * another order, a width only one run has. */
static struct method_result timed_at(const char *name, double median_us, size_t n, size_t cols)
{
    struct method_result m = timed(name, median_us, 0.01);
    m.n = n;
    m.cols = cols;
    return m;
}

static void rows_should_pair_by_method_n_and_cols_in_any_order(void)
{
    struct method_result old_rows[] = {timed_at("a", 10.0, 1024, 0), timed_at("a", 20.0, 2048, 0),
                                       timed_at("b", 30.0, 1024, 0), timed_at("a", 40.0, 1024, 32)};
    struct method_result new_rows[] = {timed_at("b", 31.0, 1024, 0), timed_at("a", 21.0, 2048, 0),
                                       timed_at("a", 11.0, 1024, 0), timed_at("a", 50.0, 1024, 64)};
    const struct run old_run = run_of(old_rows, 4), new_run = run_of(new_rows, 4);
    struct comparison c;
    CHECK(compare_runs(&old_run, &new_run, &c) == 0 && c.count == 5);
    if (c.count == 5) {
        CHECK(c.rows[0].old_median_us == 30.0 && c.rows[0].new_median_us == 31.0);
        CHECK(c.rows[1].old_median_us == 20.0 && c.rows[1].n == 2048);
        CHECK(c.rows[2].old_median_us == 10.0 && c.rows[2].new_median_us == 11.0);
        CHECK(c.rows[3].verdict == VERDICT_NEW && c.rows[3].new_median_us == 50.0);
        CHECK(c.rows[4].verdict == VERDICT_GONE && c.rows[4].old_median_us == 40.0);
    }
    free_comparison(&c);
}

static void failing_method_should_be_failed_whatever_its_time(void)
{
    struct method_result old_rows[] = {timed("wrong", 10.0, 0.01), timed("crashed", 10.0, 0.01)};
    struct method_result new_rows[] = {timed("wrong", 5.0, 0.01), untimed("crashed", STATUS_ERROR),
                                       untimed("fresh_and_broken", STATUS_FAIL)};
    new_rows[0].status = STATUS_FAIL; /* fast, but its sums were wrong */
    const struct run old_run = run_of(old_rows, 2), new_run = run_of(new_rows, 3);
    struct comparison c;
    CHECK(compare_runs(&old_run, &new_run, &c) == 0 && c.count == 3);
    for (size_t i = 0; i < c.count; ++i)
        CHECK(c.rows[i].verdict == VERDICT_FAILED);
    CHECK(comparison_exit_code(&c) == 1);
    free_comparison(&c);
}

static void refused_method_should_be_refused_not_failed(void)
{
    struct method_result old_rows[] = {untimed("capped", STATUS_REFUSED)};
    struct method_result new_rows[] = {untimed("capped", STATUS_REFUSED)};
    const struct run old_run = run_of(old_rows, 1), new_run = run_of(new_rows, 1);
    struct comparison c;
    CHECK(compare_runs(&old_run, &new_run, &c) == 0 && c.count == 1);
    CHECK(c.rows[0].verdict == VERDICT_REFUSED);
    CHECK(comparison_exit_code(&c) == 0);
    free_comparison(&c);
}

static void method_fixed_since_baseline_should_be_new(void)
{
    struct method_result old_rows[] = {untimed("fixed", STATUS_FAIL)};
    struct method_result new_rows[] = {timed("fixed", 10.0, 0.01)};
    const struct run old_run = run_of(old_rows, 1), new_run = run_of(new_rows, 1);
    struct comparison c;
    CHECK(compare_runs(&old_run, &new_run, &c) == 0);
    const struct comparison_row *row = row_named(&c, "fixed");
    CHECK(row && row->verdict == VERDICT_NEW && row->in_old && row->old_status == STATUS_FAIL);
    free_comparison(&c);
}

/* ---- exit code */

static void exit_code_should_be_one_only_for_slower_or_failed(void)
{
    struct comparison_row rows[3] = {{.verdict = VERDICT_FASTER}, {.verdict = VERDICT_NEW},
                                     {.verdict = VERDICT_GONE}};
    struct comparison c = {.rows = rows, .count = 3};
    CHECK(comparison_exit_code(&c) == 0);
    rows[1].verdict = VERDICT_SAME;
    CHECK(comparison_exit_code(&c) == 0);
    rows[1].verdict = VERDICT_REFUSED;
    CHECK(comparison_exit_code(&c) == 0);
    rows[1].verdict = VERDICT_SLOWER;
    CHECK(comparison_exit_code(&c) == 1);
    rows[1].verdict = VERDICT_FAILED;
    CHECK(comparison_exit_code(&c) == 1);
    const struct comparison empty = {0};
    CHECK(comparison_exit_code(&empty) == 0);
}

/* ---- contexts */

static size_t loud_count(const struct context_note *notes, size_t count)
{
    size_t loud = 0;
    for (size_t i = 0; i < count; ++i)
        loud += notes[i].loud;
    return loud;
}

static void identical_contexts_should_give_no_notes(void)
{
    const struct run_context a = h100_context(), b = h100_context();
    struct context_note notes[CONTEXT_NOTES_MAX];
    CHECK(check_contexts(&a, &b, notes) == 0);
}

static void different_gpu_should_warn_loudly_naming_both(void)
{
    const struct run_context a = h100_context();
    struct run_context b = h100_context();
    snprintf(b.device_name, sizeof b.device_name, "NVIDIA A100-SXM4-80GB");
    b.sm_count = 108;
    struct context_note notes[CONTEXT_NOTES_MAX];
    const size_t count = check_contexts(&a, &b, notes);
    CHECK(count == 2 && loud_count(notes, count) == 2);
    CHECK(strstr(notes[0].text, "NVIDIA H100 80GB HBM3") && strstr(notes[0].text, "A100"));
    CHECK(strstr(notes[1].text, "SM count") && strstr(notes[1].text, "132"));
}

static void different_n_should_warn_loudly(void)
{
    const struct run_context a = h100_context();
    struct run_context b = h100_context();
    b.n = 1000000;
    struct context_note notes[CONTEXT_NOTES_MAX];
    const size_t count = check_contexts(&a, &b, notes);
    CHECK(count == 1 && notes[0].loud);
    CHECK(strstr(notes[0].text, "16777216") && strstr(notes[0].text, "1000000"));
}

static void other_conditions_should_warn_loudly(void)
{
    const struct run_context a = h100_context();
    struct run_context b = h100_context();
    snprintf(b.flush_mode, sizeof b.flush_mode, "none");
    snprintf(b.distribution, sizeof b.distribution, "signed");
    snprintf(b.strategy, sizeof b.strategy, "pow2-split");
    b.offset = 1;
    struct context_note notes[CONTEXT_NOTES_MAX];
    const size_t count = check_contexts(&a, &b, notes);
    CHECK(count == 4 && loud_count(notes, count) == 4);
}

static void different_sample_count_and_versions_should_be_soft_notes(void)
{
    const struct run_context a = h100_context();
    struct run_context b = h100_context();
    b.samples = 50;
    b.driver_version = 13010;
    b.seed = 7;
    struct context_note notes[CONTEXT_NOTES_MAX];
    const size_t count = check_contexts(&a, &b, notes);
    CHECK(count == 3 && loud_count(notes, count) == 0);
    CHECK(strstr(notes[0].text, "sample count") && strstr(notes[0].text, "50"));
}

/* ---- the same reduction */

static void same_reduction_should_accept_the_same_type_and_op(void)
{
    const struct run_context baseline = h100_context();
    char err[256] = "";
    CHECK(same_reduction(&baseline, "float", "sum", err, sizeof err));
    CHECK(err[0] == '\0');
    struct run_context half_max = h100_context();
    snprintf(half_max.element_type, sizeof half_max.element_type, "half");
    snprintf(half_max.op, sizeof half_max.op, "max");
    CHECK(same_reduction(&half_max, "half", "max", err, sizeof err));
    /* other conditions are check_contexts' business, not a refusal */
    struct run_context other_gpu = h100_context();
    snprintf(other_gpu.device_name, sizeof other_gpu.device_name, "NVIDIA A100-SXM4-80GB");
    other_gpu.n = 5;
    CHECK(same_reduction(&other_gpu, "float", "sum", err, sizeof err));
}

static void same_device_should_refuse_another_model_naming_both(void)
{
    const struct run_context h100 = h100_context();
    char err[256] = "";
    CHECK(same_device(&h100, "NVIDIA H100 80GB HBM3", err, sizeof err));
    CHECK(!same_device(&h100, "NVIDIA H200", err, sizeof err));
    CHECK(strstr(err, "'NVIDIA H100 80GB HBM3'") && strstr(err, "'NVIDIA H200'") &&
          strstr(err, "--ignore-device") && !strchr(err, '\n'));
}

static void keep_methods_should_filter_both_runs_and_reject_unknown_names(void)
{
    struct method_result old_rows[] = {timed("cub", 30.0, 0.01), timed("tma_ring", 27.0, 0.01),
                                       timed("thrust", 50.0, 0.01)};
    struct method_result new_rows[] = {timed("tma_ring", 26.0, 0.01), timed("cub", 31.0, 0.01),
                                       timed("vector_loads", 29.0, 0.01)};
    struct run old_run = run_of(old_rows, 3), new_run = run_of(new_rows, 3);
    const char names[2][NAME_LEN] = {"cub", "vector_loads"};
    char err[256] = "";
    CHECK(keep_methods(&old_run, &new_run, names, 2, err, sizeof err));
    CHECK(old_run.count == 1 && strcmp(old_run.rows[0].name, "cub") == 0);
    CHECK(new_run.count == 2 && strcmp(new_run.rows[0].name, "cub") == 0 &&
          strcmp(new_run.rows[1].name, "vector_loads") == 0);
    const char unknown[1][NAME_LEN] = {"nosuch"};
    CHECK(!keep_methods(&old_run, &new_run, unknown, 1, err, sizeof err));
    CHECK(strstr(err, "'nosuch' is in neither file") != NULL);
}

/* Refused with one line that says so and names both reductions. */
static void check_refused(const struct run_context *baseline, const char *type, const char *op,
                          const char *old_reduction, const char *new_reduction)
{
    char err[256] = "";
    CHECK(!same_reduction(baseline, type, op, err, sizeof err));
    const bool says = strstr(err, "cannot compare") != NULL;
    const bool names_old = strstr(err, old_reduction) != NULL;
    const bool names_new = strstr(err, new_reduction) != NULL;
    CHECK(says && names_old && names_new);
    CHECK(strchr(err, '\n') == NULL);
    if (!(says && names_old && names_new))
        fprintf(stderr, "  message was: %s\n", err);
}

static void different_type_should_not_be_compared(void)
{
    const struct run_context baseline = h100_context();
    check_refused(&baseline, "int32", "sum", "baseline reduces float sum", "this run int32 sum");
    check_refused(&baseline, "double", "sum", "float sum", "double sum");
    check_refused(&baseline, "half", "sum", "float sum", "half sum");
}

static void different_op_should_not_be_compared(void)
{
    const struct run_context baseline = h100_context();
    check_refused(&baseline, "float", "max", "baseline reduces float sum", "this run float max");
    struct run_context min = h100_context();
    snprintf(min.element_type, sizeof min.element_type, "bfloat16");
    snprintf(min.op, sizeof min.op, "min");
    check_refused(&min, "bfloat16", "max", "bfloat16 min", "bfloat16 max");
    check_refused(&min, "uint32", "sum", "bfloat16 min", "uint32 sum");
}

static void same_reduction_should_fit_a_short_buffer(void)
{
    const struct run_context baseline = h100_context();
    char err[16];
    memset(err, 'x', sizeof err);
    CHECK(!same_reduction(&baseline, "int64", "min", err, sizeof err));
    CHECK(memchr(err, '\0', sizeof err) != NULL); /* truncated, still a string */
    CHECK(strncmp(err, "cannot compare", 14) == 0);
}

/* ---- the printed report */

static void report_should_print_a_row_per_method_and_return_exit_code(void)
{
    struct method_result old_rows[] = {timed("reduce0", 800.0, 0.01), timed("cub", 32.0, 0.01)};
    struct method_result new_rows[] = {timed("reduce0", 1000.0, 0.01), timed("cub", 32.1, 0.01),
                                       timed("vec4_long_name", 30.0, 0.01)};
    struct run old_run = run_of(old_rows, 2), new_run = run_of(new_rows, 3);
    new_run.context.n = 1024;
    FILE *out = tmpfile();
    CHECK(out != NULL);
    if (!out)
        return;
    CHECK(report_baseline_comparison(out, &old_run, &new_run) == 1);
    char text[4096] = "";
    rewind(out);
    text[fread(text, 1, sizeof text - 1, out)] = '\0';
    fclose(out);
    CHECK(strstr(text, "WARNING: different n: baseline 16777216, this run 1024") == text);
    CHECK(strstr(text, "\nmethod         ") != NULL); /* padded to the longest name */
    CHECK(strstr(text, "\nreduce0            800.00    1000.00      83.9      67.1    2.0%   +25.0%     3.0%  SLOWER\n"));
    CHECK(strstr(text, "\ncub                 32.00      32.10    2097.2    2090.6   62.4%    +0.3%     3.0%  SAME\n"));
    CHECK(strstr(text, "\nvec4_long_name          -      30.00         -    2237.0   66.7%        -        -  NEW\n"));
    CHECK(strstr(text, "\n1 SAME, 1 SLOWER, 1 NEW\n"));
    CHECK(strstr(text, "\nWARNING: 1 difference(s) in conditions"));
    if (!strstr(text, "1 SAME, 1 SLOWER, 1 NEW"))
        fprintf(stderr, "%s", text);
}

/* Times of different shapes give no verdict: rows against the whole array,
 * one width against another, two segment specs; a file from before shapes
 * (no shape key) is the whole array. */
static void same_shape_should_refuse_verdicts_across_shapes(void)
{
    char err[512];
    struct run_context old_whole = {0}, whole = {.shape = "whole"};
    struct run_context rows32 = {.shape = "rows", .cols = 32}, rows33 = {.shape = "rows", .cols = 33};
    struct run_context uniform8 = {.shape = "segments", .segments = "uniform:8"};
    struct run_context powerlaw = {.shape = "segments", .segments = "powerlaw:8"};
    CHECK(same_shape(&old_whole, &whole, err, sizeof err));
    CHECK(same_shape(&rows32, &rows32, err, sizeof err));
    CHECK(!same_shape(&whole, &rows32, err, sizeof err));
    CHECK(strstr(err, "cannot compare") != NULL && strstr(err, "rows of 32") != NULL);
    CHECK(!same_shape(&rows32, &rows33, err, sizeof err) && strstr(err, "rows of 33") != NULL);
    CHECK(!same_shape(&uniform8, &powerlaw, err, sizeof err));
    CHECK(strstr(err, "uniform:8") != NULL && strstr(err, "powerlaw:8") != NULL);
    CHECK(strchr(err, '\n') == NULL);
}

int main(void)
{
    RUN_TEST(threshold_should_be_the_floor_for_tight_runs);
    RUN_TEST(same_shape_should_refuse_verdicts_across_shapes);
    RUN_TEST(threshold_should_combine_both_spreads_in_quadrature);
    RUN_TEST(host_timed_method_should_get_the_wider_floor);
    RUN_TEST(timing_verdict_should_count_the_threshold_itself_as_same);
    RUN_TEST(clearly_faster_run_should_be_faster);
    RUN_TEST(clearly_slower_run_should_be_slower);
    RUN_TEST(change_within_noise_should_be_same);
    RUN_TEST(noisy_runs_should_widen_the_threshold);
    RUN_TEST(threshold_should_stop_at_its_ceiling);
    RUN_TEST(noisy_baseline_should_not_hide_a_tenfold_slowdown);
    RUN_TEST(rows_should_pair_by_method_n_and_cols_in_any_order);
    RUN_TEST(comparison_row_should_carry_medians_change_and_threshold);
    RUN_TEST(methods_in_one_run_only_should_be_new_or_gone);
    RUN_TEST(failing_method_should_be_failed_whatever_its_time);
    RUN_TEST(refused_method_should_be_refused_not_failed);
    RUN_TEST(method_fixed_since_baseline_should_be_new);
    RUN_TEST(exit_code_should_be_one_only_for_slower_or_failed);
    RUN_TEST(identical_contexts_should_give_no_notes);
    RUN_TEST(different_gpu_should_warn_loudly_naming_both);
    RUN_TEST(different_n_should_warn_loudly);
    RUN_TEST(other_conditions_should_warn_loudly);
    RUN_TEST(different_sample_count_and_versions_should_be_soft_notes);
    RUN_TEST(same_reduction_should_accept_the_same_type_and_op);
    RUN_TEST(different_type_should_not_be_compared);
    RUN_TEST(different_op_should_not_be_compared);
    RUN_TEST(same_reduction_should_fit_a_short_buffer);
    RUN_TEST(same_device_should_refuse_another_model_naming_both);
    RUN_TEST(keep_methods_should_filter_both_runs_and_reject_unknown_names);
    RUN_TEST(report_should_print_a_row_per_method_and_return_exit_code);
    return test_exit_code();
}
