#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "report.h"

#define MAX_SWEEP_SIZES 96

size_t sweep_sizes(size_t largest, size_t *sizes, size_t max)
{
    size_t count = 0;
    for (int exponent = 10; count < max; ++exponent) {
        const size_t p = (size_t)1 << exponent;
        if (p > largest)
            break;
        sizes[count++] = p;
        /* Every other step, an odd size halfway to the next power of two: not a
         * multiple of 4, of a block or of any tile. */
        const size_t odd = p + p / 2 + 1;
        if (exponent % 2 == 0 && odd <= largest && count < max)
            sizes[count++] = odd;
        if (p > largest / 2)
            break;
    }
    return count;
}

/* Appends a size's rows to the sweep's run. */
static int append_rows(struct run *all, const struct run *size_run)
{
    struct method_result *rows =
        realloc(all->rows, (all->count + size_run->count + 1) * sizeof *rows);
    if (!rows)
        return -1;
    memcpy(rows + all->count, size_run->rows, size_run->count * sizeof *rows);
    all->rows = rows;
    all->count += size_run->count;
    return 0;
}

/* A size sweep's rows are keyed by n, a width sweep's by the width. */
static void print_sweep_row(FILE *out, const struct run *run, bool header, bool by_width)
{
    if (header) {
        fprintf(out, "%12s", by_width ? "cols" : "n");
        for (size_t i = 0; i < run->count; ++i)
            fprintf(out, " %14s", run->rows[i].name);
        fprintf(out, "   (GB/s; * = not PASS)\n");
    }
    fprintf(out, "%12zu", by_width ? run->context.cols : run->context.n);
    for (size_t i = 0; i < run->count; ++i) {
        const struct method_result *r = &run->rows[i];
        if (r->status == STATUS_PASS)
            fprintf(out, " %14.1f", r->gbps);
        else
            fprintf(out, " %14s", "*");
    }
    fprintf(out, "\n");
    fflush(out);
}

/* A width sweep is read against the whole-array sum of the same total in the
 * same run: the suite's fastest whole-array kernel and CUB, written with
 * cols 0 (plot_results.py draws the best as the whole-array line). */
static int measure_whole_array(const struct bench_options *o, struct bench_session *session,
                               size_t total, FILE *table, struct run *run)
{
    struct selection whole = {.count = 0};
    const char *const names[] = {"one_pass_ilp", "cub"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (find_method(names[i]))
            whole.methods[whole.count++] = find_method(names[i]);
    struct bench_options at = *o;
    at.width_sweep = false;
    at.cols = 0;
    at.rows = 0;
    fprintf(stderr, "sweep: the whole array of n = %zu first\n", total);
    struct run whole_run = {0};
    const int status = measure_selection(&at, &whole, session, (struct reduce_spec){o->type, o->op},
                                         total, &whole_run);
    for (size_t i = 0; i < whole_run.count; ++i)
        fprintf(table, "whole array  %-14s %10.1f GB/s  %s\n", whole_run.rows[i].name,
                whole_run.rows[i].gbps, method_status_name(whole_run.rows[i].status));
    if (status != EXIT_BAD_INPUT && append_rows(run, &whole_run) != 0) {
        free(whole_run.rows);
        return EXIT_BAD_INPUT;
    }
    free(whole_run.rows);
    return status;
}

int run_sweep(const struct bench_options *o, const struct selection *s,
              struct bench_session *session, FILE *table, struct run *run)
{
    size_t sizes[MAX_SWEEP_SIZES > WIDTH_SWEEP_MAX_WIDTHS ? MAX_SWEEP_SIZES : WIDTH_SWEEP_MAX_WIDTHS];
    const size_t total = default_n(o, o->type);
    const size_t count = o->width_sweep ? width_sweep_widths(total, sizes)
                                      : sweep_sizes(o->sweep_max, sizes, MAX_SWEEP_SIZES);
    *run = (struct run){.context = session->context};
    run->context.n = 0; /* n per row */
    if (o->width_sweep)
        snprintf(run->context.shape, sizeof run->context.shape, "%s",
                 shape_kind_name(options_shape_kind(o)));
    print_run_header(table, &run->context);
    fprintf(table, "\n");
    int status = o->width_sweep ? measure_whole_array(o, session, total, table, run) : 0;
    if (status == EXIT_BAD_INPUT)
        return status;
    for (size_t i = 0; i < count; ++i) {
        /* A width sweep keeps the total: total / width whole rows of each width. */
        struct bench_options at = *o;
        if (o->width_sweep) {
            at.cols = sizes[i];
            at.rows = 0;
        }
        const size_t n = o->width_sweep ? total / sizes[i] * sizes[i] : sizes[i];
        fprintf(stderr, "sweep %zu/%zu: n = %zu%s", i + 1, count, n, o->width_sweep ? "" : "\n");
        if (o->width_sweep)
            fprintf(stderr, ", cols = %zu\n", sizes[i]);
        struct run size_run = {0};
        const struct reduce_spec spec = {o->type, o->op};
        const int size_status = measure_selection(&at, s, session, spec, n, &size_run);
        if (size_status != EXIT_BAD_INPUT) {
            print_sweep_row(table, &size_run, i == 0, o->width_sweep);
            if (append_rows(run, &size_run) != 0) {
                fprintf(stderr, "bench_compare: out of host memory gathering the sweep\n");
                free(size_run.rows);
                return EXIT_BAD_INPUT;
            }
        }
        free(size_run.rows);
        if (size_status > status)
            status = size_status;
        if (size_status == EXIT_BAD_INPUT)
            break;
    }
    return status;
}
