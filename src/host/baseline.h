/* Comparing a run with a saved baseline: one verdict per method, warnings
 * where the two runs were not taken under the same conditions.
 *
 * Verdicts (per method and n - a sweep has a row per size; rows in the new
 * run's order, then GONE ones):
 *   FASTER / SAME / SLOWER  both runs timed it; SAME when the change in median
 *                           is within the noise threshold (below), inclusive
 *   NEW      the new run timed it and the baseline has no time for it (absent,
 *            or its baseline row did not PASS)
 *   GONE     in the baseline only
 *   FAILED   the new run's row is FAIL or ERROR (or PASS without a time)
 *   REFUSED  the new run's row is REFUSED: the method does not take this n.
 *            Not a failure, as in bench_compare's own exit status.
 * The exit code is 1 when any row is SLOWER or FAILED, else 0.
 *
 * Noise threshold. Each run's relative noise is estimated from its own
 * samples robustly: r = IQR / (1.349 x median), the standard deviation a
 * normal distribution with that interquartile range would have, relative to
 * the median (the IQR ignores the odd outlier sample that a standard deviation
 * would chase). The difference of two independent noisy figures has noise
 * sqrt(r_old^2 + r_new^2), and that is the threshold - floored at
 * MIN_CHANGE_PCT, because a rerun on the same GPU moves the median by a
 * percent or two (boost clock, temperature, where the buffers land) in ways
 * the spread within one run does not show. So two tight runs (IQR ~1%) are
 * held to 3%, and a noisy run (IQR 10% of its median, stats_too_noisy) widens
 * the threshold to about 7.5%, so noise alone cannot make a verdict.
 * A method whose time includes host work (host_timed: Thrust's allocation
 * and synchronisation) drifts more between runs than within one: on an H100
 * Thrust's median sits near 46-48 us in some processes and near 53 in
 * others, each with a tight spread (45.9 then 53.0 us in two back-to-back
 * runs, +15.4%) - so its floor is MIN_CHANGE_PCT_HOST_TIMED, above that.
 * The threshold is capped at MAX_CHANGE_PCT, 25%, so that no baseline, however
 * noisy, can make a slowdown SAME: an IQR of a quarter of the median in both
 * runs (2.5x the spread at which a run is flagged noisy, stats_too_noisy)
 * would already reach it, and a change larger than every rerun drift seen
 * (the 15.4% above, which the 20% host floor covers, under the cap) is a
 * change to rerun and look at, not noise. A 10x slowdown is SLOWER whatever
 * the quartiles say. */
#ifndef BASELINE_H
#define BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "result_files.h"

#define MIN_CHANGE_PCT 3.0
#define MIN_CHANGE_PCT_HOST_TIMED 20.0
#define MAX_CHANGE_PCT 25.0 /* the ceiling: above both floors */
#define IQR_PER_SIGMA 1.349 /* IQR of a normal distribution, in standard deviations */

enum verdict {
    VERDICT_FASTER,
    VERDICT_SAME,
    VERDICT_SLOWER,
    VERDICT_NEW,
    VERDICT_GONE,
    VERDICT_FAILED,
    VERDICT_REFUSED,
    VERDICT_COUNT
};

const char *verdict_name(enum verdict v);

/* The threshold in percent of the old median (see above): the combined
 * noise, floored and capped. Pure. */
double noise_threshold_pct(const struct sample_stats *old_time,
                           const struct sample_stats *new_time, bool host_timed);

/* FASTER, SAME or SLOWER for two medians; change within threshold_pct of the
 * old median (inclusive) is SAME. Pure. */
enum verdict timing_verdict(double old_median_us, double new_median_us, double threshold_pct);

struct comparison_row {
    char name[NAME_LEN];
    double old_median_us, new_median_us; /* NAN where that run has no time */
    double old_gbps, new_gbps;           /* NAN likewise */
    double new_pct_peak;                 /* of the new run's theoretical peak; NAN likewise */
    double change_pct;                   /* (new - old) / old x 100; NAN unless both */
    double threshold_pct;                /* NAN unless both */
    size_t n;
    bool in_old, in_new;
    enum method_status old_status, new_status; /* where in_old / in_new */
    enum verdict verdict;
    /* The clocks each run measured the row at (0: not recorded) and whether
     * it was throttled: a verdict across different clocks compares clocks. */
    int old_sm_mhz, new_sm_mhz, old_mem_mhz, new_mem_mhz;
    bool old_throttled, new_throttled;
};

/* Whether a row's SM or memory clock differs between the runs by more than
 * CLOCK_CHANGE_WARN_PCT (clock_conditions.h), both being known. */
bool row_clocks_differ(const struct comparison_row *row);

struct comparison {
    struct comparison_row *rows;
    size_t count;
};

/* Returns 0 and malloc'd rows (free_comparison), or -1 when out of memory. */
int compare_runs(const struct run *old_run, const struct run *new_run, struct comparison *out);
void free_comparison(struct comparison *c);

/* 0, or 1 when any row is SLOWER or FAILED. */
int comparison_exit_code(const struct comparison *c);

/* Aligned table: method (and n, when the rows' sizes differ), old and new
 * median, old and new GB/s, the new % of peak, change, threshold, verdict;
 * then one line counting each verdict. */
void print_comparison(FILE *out, const struct comparison *c);

/* WARNING lines naming the rows measured at clocks more than 2% apart (with
 * both clocks) and the rows either run measured while throttled; returns how
 * many lines it printed. */
size_t print_clock_warnings(FILE *out, const struct comparison *c);

/* Where the runs' conditions differ. Loud (the verdicts compare unlike
 * things): device name, SM count, n, distribution, flush mode, pass strategy,
 * offset. Soft (worth knowing, not disqualifying): sample count, seed,
 * driver, runtime, CCCL and cuBLAS versions. Fills up to CONTEXT_NOTES_MAX
 * notes and returns how many. */
#define CONTEXT_NOTES_MAX 16
#define CONTEXT_NOTE_LEN 400

struct context_note {
    bool loud;
    char text[CONTEXT_NOTE_LEN];
};

size_t check_contexts(const struct run_context *old_ctx, const struct run_context *new_ctx,
                      struct context_note notes[CONTEXT_NOTES_MAX]);

/* Verdicts compare times of the same reduction only: false, with a one-line
 * reason in err, when the baseline's element type or operator is not
 * element_type / op (bench_compare then exits 2 and gives no verdict). */
bool same_reduction(const struct run_context *baseline, const char *element_type, const char *op,
                    char *err, size_t err_len);

/* Verdicts compare one shape with itself: false, with a one-line reason
 * naming both, when the shape kind, the row width or the segments spec
 * differ (a file from before shapes is the whole array). */
bool same_shape(const struct run_context *baseline, const struct run_context *run, char *err,
                size_t err_len);

/* Verdicts compare one GPU model with itself: false, with a one-line reason
 * naming both models and --ignore-device, when the device names differ. */
bool same_device(const struct run_context *baseline, const char *device_name, char *err,
                 size_t err_len);

/* Keeps only the rows named in names[0..count) (in the run's order); false,
 * with the name in err, when a name is in neither run (-m with --compare). */
bool keep_methods(struct run *old_run, struct run *new_run, const char (*names)[NAME_LEN],
                  size_t count, char *err, size_t err_len);

/* Everything bench_compare prints for --baseline / --compare: the context
 * notes (loud ones as WARNING lines, repeated after the table), the table and
 * the counts. Returns the exit code; 1 also when out of memory, so a
 * comparison that could not be made never passes. */
int report_baseline_comparison(FILE *out, const struct run *old_run, const struct run *new_run);

#endif
