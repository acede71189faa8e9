#include "baseline.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "row_index.h"

static const char *const VERDICT_NAMES[VERDICT_COUNT] = {
    "FASTER", "SAME", "SLOWER", "NEW", "GONE", "FAILED", "REFUSED"};

const char *verdict_name(enum verdict v)
{
    return v >= 0 && v < VERDICT_COUNT ? VERDICT_NAMES[v] : "?";
}

/* ---- verdicts */

static double relative_noise(const struct sample_stats *s)
{
    return s->median > 0.0 ? (s->q3 - s->q1) / (IQR_PER_SIGMA * s->median) : 0.0;
}

double noise_threshold_pct(const struct sample_stats *old_time, const struct sample_stats *new_time,
                           bool host_timed)
{
    const double noise = hypot(relative_noise(old_time), relative_noise(new_time)) * 100.0;
    const double floor = host_timed ? MIN_CHANGE_PCT_HOST_TIMED : MIN_CHANGE_PCT;
    const double threshold = noise > floor ? noise : floor; /* a NaN noise gives the floor */
    return threshold < MAX_CHANGE_PCT ? threshold : MAX_CHANGE_PCT;
}

static double change_pct(double old_median_us, double new_median_us)
{
    /* x 100 first: 100 -> 107 gives exactly 7, not 7.000000000000001, so a
     * change right at the threshold is SAME, as documented */
    return 100.0 * (new_median_us - old_median_us) / old_median_us;
}

enum verdict timing_verdict(double old_median_us, double new_median_us, double threshold_pct)
{
    const double change = change_pct(old_median_us, new_median_us);
    if (fabs(change) <= threshold_pct)
        return VERDICT_SAME;
    return change < 0.0 ? VERDICT_FASTER : VERDICT_SLOWER;
}

/* A time worth comparing: a PASSing row with a positive, finite median. */
static bool has_time(const struct method_result *m)
{
    return m->status == STATUS_PASS && m->time_us.count > 0 && isfinite(m->time_us.median) &&
           m->time_us.median > 0.0;
}

static const struct method_result *find_method(const struct run *run, const char *name)
{
    for (size_t i = 0; i < run->count; ++i)
        if (strcmp(run->rows[i].name, name) == 0)
            return &run->rows[i];
    return NULL;
}

static struct comparison_row compare_method(const struct method_result *old_m,
                                            const struct method_result *new_m)
{
    struct comparison_row row = {
        .old_median_us = old_m && has_time(old_m) ? old_m->time_us.median : NAN,
        .new_median_us = new_m && has_time(new_m) ? new_m->time_us.median : NAN,
        .old_gbps = old_m && has_time(old_m) ? old_m->gbps : NAN,
        .new_gbps = new_m && has_time(new_m) ? new_m->gbps : NAN,
        .new_pct_peak = new_m && has_time(new_m) ? new_m->pct_peak : NAN,
        .change_pct = NAN,
        .threshold_pct = NAN,
        .in_old = old_m != NULL,
        .in_new = new_m != NULL,
        .old_status = old_m ? old_m->status : STATUS_PASS,
        .new_status = new_m ? new_m->status : STATUS_PASS,
        .n = new_m ? new_m->n : old_m->n,
        .old_sm_mhz = old_m ? old_m->clocks.sm_mhz_min : 0,
        .new_sm_mhz = new_m ? new_m->clocks.sm_mhz_min : 0,
        .old_mem_mhz = old_m ? old_m->clocks.mem_mhz_min : 0,
        .new_mem_mhz = new_m ? new_m->clocks.mem_mhz_min : 0,
        .old_throttled = old_m && old_m->throttled,
        .new_throttled = new_m && new_m->throttled,
    };
    snprintf(row.name, sizeof row.name, "%s", new_m ? new_m->name : old_m->name);
    if (!new_m)
        row.verdict = VERDICT_GONE;
    else if (new_m->status == STATUS_REFUSED)
        row.verdict = VERDICT_REFUSED;
    else if (!has_time(new_m))
        row.verdict = VERDICT_FAILED;
    else if (!old_m || !has_time(old_m))
        row.verdict = VERDICT_NEW;
    else {
        row.change_pct = change_pct(row.old_median_us, row.new_median_us);
        row.threshold_pct = noise_threshold_pct(&old_m->time_us, &new_m->time_us,
                                                old_m->host_timed || new_m->host_timed);
        row.verdict = timing_verdict(row.old_median_us, row.new_median_us, row.threshold_pct);
    }
    return row;
}

/* Every row of run, indexed by its key (row_index.h). Of two rows with one
 * key - possible only in a run built in memory: the reader refuses such a
 * file - the first is the one matched. */
static int index_run(const struct run *run, struct row_index *index)
{
    if (row_index_init(index, run->count) != 0)
        return -1;
    size_t twin;
    for (size_t i = 0; i < run->count; ++i)
        if (row_index_add(index, run->rows, i, &twin) < 0) {
            row_index_free(index);
            return -1;
        }
    return 0;
}

/* The row of run keyed like key - the same method at the same n and width:
 * a sweep has one per size, a row sweep one per width (at one total, every
 * power-of-two width has the same n) - or NULL. */
static const struct method_result *matching_row(const struct run *run,
                                                const struct row_index *index,
                                                const struct method_result *key)
{
    const size_t at = row_index_find(index, run->rows, key);
    return at == ROW_NOT_FOUND ? NULL : &run->rows[at];
}

static void compare_indexed(const struct run *old_run, const struct row_index *old_index,
                            const struct run *new_run, const struct row_index *new_index,
                            struct comparison *out)
{
    for (size_t i = 0; i < new_run->count; ++i)
        out->rows[out->count++] = compare_method(
            matching_row(old_run, old_index, &new_run->rows[i]), &new_run->rows[i]);
    for (size_t i = 0; i < old_run->count; ++i)
        if (!matching_row(new_run, new_index, &old_run->rows[i]))
            out->rows[out->count++] = compare_method(&old_run->rows[i], NULL);
}

int compare_runs(const struct run *old_run, const struct run *new_run, struct comparison *out)
{
    *out = (struct comparison){0};
    const size_t most = old_run->count + new_run->count;
    struct row_index old_index, new_index;
    out->rows = malloc((most ? most : 1) * sizeof *out->rows);
    if (!out->rows || index_run(old_run, &old_index) != 0) {
        free_comparison(out);
        return -1;
    }
    if (index_run(new_run, &new_index) != 0) {
        row_index_free(&old_index);
        free_comparison(out);
        return -1;
    }
    compare_indexed(old_run, &old_index, new_run, &new_index, out);
    row_index_free(&old_index);
    row_index_free(&new_index);
    return 0;
}

void free_comparison(struct comparison *c)
{
    free(c->rows);
    *c = (struct comparison){0};
}

int comparison_exit_code(const struct comparison *c)
{
    for (size_t i = 0; i < c->count; ++i)
        if (c->rows[i].verdict == VERDICT_SLOWER || c->rows[i].verdict == VERDICT_FAILED)
            return 1;
    return 0;
}

/* ---- the table */

static int name_width(const struct comparison *c)
{
    size_t width = strlen("method");
    for (size_t i = 0; i < c->count; ++i) {
        const size_t len = strlen(c->rows[i].name);
        width = len > width ? len : width;
    }
    return (int)width;
}

/* A number in a right-aligned column, or "-" where there is none. */
static void print_cell(FILE *out, int width, const char *format, double v)
{
    char cell[32] = "-";
    if (!isnan(v))
        snprintf(cell, sizeof cell, format, v);
    fprintf(out, " %*s", width, cell);
}

/* FAILED (ERROR), NEW (baseline FAIL): the status behind the verdict. */
static void print_verdict(FILE *out, const struct comparison_row *row)
{
    fprintf(out, "  %s", verdict_name(row->verdict));
    if (row->verdict == VERDICT_FAILED)
        fprintf(out, " (%s)", method_status_name(row->new_status));
    else if (row->verdict == VERDICT_NEW && row->in_old)
        fprintf(out, " (baseline %s)", method_status_name(row->old_status));
    fputc('\n', out);
}

static void print_verdict_counts(FILE *out, const struct comparison *c)
{
    size_t counts[VERDICT_COUNT] = {0};
    for (size_t i = 0; i < c->count; ++i)
        ++counts[c->rows[i].verdict];
    const char *separator = "";
    for (int v = 0; v < VERDICT_COUNT; ++v)
        if (counts[v]) {
            fprintf(out, "%s%zu %s", separator, counts[v], verdict_name((enum verdict)v));
            separator = ", ";
        }
    fprintf(out, "%s\n", c->count ? "" : "no methods in either run");
}

static bool sizes_differ(const struct comparison *c)
{
    for (size_t i = 1; i < c->count; ++i)
        if (c->rows[i].n != c->rows[0].n)
            return true;
    return false;
}

void print_comparison(FILE *out, const struct comparison *c)
{
    const int width = name_width(c);
    const bool show_n = sizes_differ(c);
    fprintf(out, "%-*s", width, "method");
    if (show_n)
        fprintf(out, " %12s", "n");
    fprintf(out, " %10s %10s %9s %9s %7s %8s %8s  %s\n", "old us", "new us", "old GB/s",
            "new GB/s", "% peak", "change", "noise", "verdict");
    for (size_t i = 0; i < c->count; ++i) {
        const struct comparison_row *row = &c->rows[i];
        fprintf(out, "%-*s", width, row->name);
        if (show_n)
            fprintf(out, " %12zu", row->n);
        print_cell(out, 10, "%.2f", row->old_median_us);
        print_cell(out, 10, "%.2f", row->new_median_us);
        print_cell(out, 9, "%.1f", row->old_gbps);
        print_cell(out, 9, "%.1f", row->new_gbps);
        print_cell(out, 7, "%.1f%%", row->new_pct_peak);
        print_cell(out, 8, "%+.1f%%", row->change_pct);
        print_cell(out, 8, "%.1f%%", row->threshold_pct);
        print_verdict(out, row);
    }
    print_verdict_counts(out, c);
}

/* ---- clocks */

bool row_clocks_differ(const struct comparison_row *row)
{
    return clocks_differ(row->old_sm_mhz, row->new_sm_mhz) ||
           clocks_differ(row->old_mem_mhz, row->new_mem_mhz);
}

/* "cub" or "cub at n = 4096" when the rows' sizes differ. */
static void row_label(const struct comparison *c, const struct comparison_row *row, char *buf,
                      size_t len)
{
    if (sizes_differ(c))
        snprintf(buf, len, "%s at n = %zu", row->name, row->n);
    else
        snprintf(buf, len, "%s", row->name);
}

size_t print_clock_warnings(FILE *out, const struct comparison *c)
{
    size_t lines = 0;
    for (size_t i = 0; i < c->count; ++i) {
        const struct comparison_row *row = &c->rows[i];
        char label[NAME_LEN + 32];
        row_label(c, row, label, sizeof label);
        if (row_clocks_differ(row)) {
            fprintf(out, "WARNING: %s ran at different clocks: SM %d -> %d MHz (%.1f%%), memory "
                         "%d -> %d MHz (%.1f%%); over %.0f%% apart, its verdict compares clocks\n",
                    label, row->old_sm_mhz, row->new_sm_mhz,
                    clock_change_pct(row->old_sm_mhz, row->new_sm_mhz), row->old_mem_mhz,
                    row->new_mem_mhz, clock_change_pct(row->old_mem_mhz, row->new_mem_mhz),
                    CLOCK_CHANGE_WARN_PCT);
            ++lines;
        }
        if (row->old_throttled || row->new_throttled) {
            fprintf(out, "WARNING: %s was THROTTLED in %s: its verdict means little; rerun it\n",
                    label,
                    row->old_throttled && row->new_throttled ? "both runs"
                    : row->old_throttled                     ? "the baseline"
                                                             : "this run");
            ++lines;
        }
    }
    return lines;
}

/* ---- contexts */

struct note_list {
    struct context_note *notes;
    size_t count;
};

static void add_note(struct note_list *list, bool loud, const char *fmt, ...)
{
    if (list->count == CONTEXT_NOTES_MAX)
        return;
    struct context_note *note = &list->notes[list->count++];
    note->loud = loud;
    va_list args;
    va_start(args, fmt);
    vsnprintf(note->text, sizeof note->text, fmt, args);
    va_end(args);
}

static void check_text(struct note_list *list, bool loud, const char *what, const char *old_v,
                       const char *new_v, const char *consequence)
{
    if (strcmp(old_v, new_v) != 0)
        add_note(list, loud, "different %s: baseline '%s', this run '%s'%s", what, old_v, new_v,
                 consequence);
}

static void check_number(struct note_list *list, bool loud, const char *what, uintmax_t old_v,
                         uintmax_t new_v, const char *consequence)
{
    if (old_v != new_v)
        add_note(list, loud, "different %s: baseline %ju, this run %ju%s", what, old_v, new_v,
                 consequence);
}

size_t check_contexts(const struct run_context *o, const struct run_context *n,
                      struct context_note notes[CONTEXT_NOTES_MAX])
{
    static const char *const HARDWARE = " - the verdicts compare different hardware";
    static const char *const WORK = " - the verdicts compare different work";
    struct note_list list = {.notes = notes, .count = 0};
    check_text(&list, true, "GPU", o->device_name, n->device_name, HARDWARE);
    check_number(&list, true, "SM count", (uintmax_t)o->sm_count, (uintmax_t)n->sm_count, HARDWARE);
    check_number(&list, true, "n", o->n, n->n, WORK);
    check_text(&list, true, "distribution", o->distribution, n->distribution, WORK);
    check_text(&list, true, "L2 flush mode", o->flush_mode, n->flush_mode, WORK);
    check_text(&list, true, "pass strategy", o->strategy, n->strategy, WORK);
    check_number(&list, true, "input offset", o->offset, n->offset, WORK);
    check_number(&list, false, "sample count", (uintmax_t)o->samples, (uintmax_t)n->samples, "");
    check_number(&list, false, "seed", o->seed, n->seed, "");
    check_number(&list, false, "driver version", (uintmax_t)o->driver_version,
                 (uintmax_t)n->driver_version, "");
    check_number(&list, false, "runtime version", (uintmax_t)o->runtime_version,
                 (uintmax_t)n->runtime_version, "");
    check_number(&list, false, "CCCL version", (uintmax_t)o->cccl_version,
                 (uintmax_t)n->cccl_version, "");
    check_number(&list, false, "cuBLAS version", (uintmax_t)o->cublas_version,
                 (uintmax_t)n->cublas_version, "");
    if (clocks_differ(o->sm_clock_mhz, n->sm_clock_mhz) ||
        clocks_differ(o->mem_clock_mhz, n->mem_clock_mhz))
        add_note(&list, false,
                 "different clocks at start: baseline SM %d / memory %d MHz, this run %d / %d MHz "
                 "(per-row clocks, below, are what the verdicts depend on)",
                 o->sm_clock_mhz, o->mem_clock_mhz, n->sm_clock_mhz, n->mem_clock_mhz);
    return list.count;
}

bool same_reduction(const struct run_context *baseline, const char *element_type, const char *op,
                    char *err, size_t err_len)
{
    if (strcmp(baseline->element_type, element_type) == 0 && strcmp(baseline->op, op) == 0)
        return true;
    snprintf(err, err_len,
             "cannot compare: the baseline reduces %s %s, this run %s %s (times of different "
             "reductions give no verdict)",
             baseline->element_type, baseline->op, element_type, op);
    return false;
}

/* A file from before shapes (no shape key) reduced the whole array. */
static const char *shape_of(const struct run_context *c)
{
    return c->shape[0] ? c->shape : shape_kind_name(SHAPE_WHOLE);
}

bool same_shape(const struct run_context *baseline, const struct run_context *run, char *err,
                size_t err_len)
{
    if (strcmp(shape_of(baseline), shape_of(run)) == 0 && baseline->cols == run->cols &&
        strcmp(baseline->segments, run->segments) == 0)
        return true;
    char old_text[SEGMENT_SPEC_LEN + 48], new_text[SEGMENT_SPEC_LEN + 48];
    const struct run_context *both[] = {baseline, run};
    char *texts[] = {old_text, new_text};
    for (int i = 0; i < 2; ++i) {
        const struct run_context *c = both[i];
        if (c->cols)
            snprintf(texts[i], sizeof old_text, "rows of %zu", c->cols);
        else if (c->segments[0])
            snprintf(texts[i], sizeof old_text, "segments %s", c->segments);
        else
            snprintf(texts[i], sizeof old_text, "%s%s", shape_of(c),
                     strcmp(shape_of(c), "rows") == 0 ? " (a row sweep)" : " array");
    }
    snprintf(err, err_len,
             "cannot compare: the baseline reduces %s, this run %s (times of different shapes "
             "give no verdict)",
             old_text, new_text);
    return false;
}

bool same_device(const struct run_context *baseline, const char *device_name, char *err,
                 size_t err_len)
{
    if (strcmp(baseline->device_name, device_name) == 0)
        return true;
    snprintf(err, err_len,
             "cannot compare: the baseline ran on '%s', this run on '%s' (--ignore-device to "
             "compare anyway)",
             baseline->device_name, device_name);
    return false;
}

static bool is_named(const char *name, const char (*names)[NAME_LEN], size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static void keep_named_rows(struct run *run, const char (*names)[NAME_LEN], size_t count)
{
    size_t kept = 0;
    for (size_t i = 0; i < run->count; ++i)
        if (is_named(run->rows[i].name, names, count))
            run->rows[kept++] = run->rows[i];
    run->count = kept;
}

bool keep_methods(struct run *old_run, struct run *new_run, const char (*names)[NAME_LEN],
                  size_t count, char *err, size_t err_len)
{
    for (size_t i = 0; i < count; ++i)
        if (!find_method(old_run, names[i]) && !find_method(new_run, names[i])) {
            snprintf(err, err_len, "-m: method '%s' is in neither file", names[i]);
            return false;
        }
    keep_named_rows(old_run, names, count);
    keep_named_rows(new_run, names, count);
    return true;
}

/* ---- the whole report */

static size_t print_notes(FILE *out, const struct context_note *notes, size_t count)
{
    size_t loud = 0;
    for (size_t i = 0; i < count; ++i) {
        fprintf(out, "%s: %s\n", notes[i].loud ? "WARNING" : "note", notes[i].text);
        loud += notes[i].loud;
    }
    return loud;
}

int report_baseline_comparison(FILE *out, const struct run *old_run, const struct run *new_run)
{
    struct context_note notes[CONTEXT_NOTES_MAX];
    const size_t note_count = check_contexts(&old_run->context, &new_run->context, notes);
    const size_t loud = print_notes(out, notes, note_count);
    struct comparison c;
    if (compare_runs(old_run, new_run, &c) != 0) {
        fprintf(out, "cannot compare with the baseline: out of memory\n");
        return 1;
    }
    print_comparison(out, &c);
    print_clock_warnings(out, &c);
    if (loud)
        fprintf(out, "WARNING: %zu difference(s) in conditions (above): read these verdicts "
                     "with care\n",
                loud);
    const int code = comparison_exit_code(&c);
    free_comparison(&c);
    return code;
}
