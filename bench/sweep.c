#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>

#include "atomic_file.h"
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

/* Format of --sweep-csv, one row per (size, method):
 *   n,method,family,status,median_us,min_us,max_us,q1_us,q3_us,gbps,pct_peak,ratio_to_cub
 * preceded by '# key=value' lines for the device, flush mode and samples. */
static void write_sweep_header(FILE *f, const struct run_context *c)
{
    fprintf(f, "# reduction-suite sweep v1\n# device=%s\n# peak_gbs=%.1f\n# flush_mode=%s\n"
               "# samples=%d\n# element_type=%s\n# op=%s\n# distribution=%s\n# git_commit=%s\n"
               "# date=%s\n",
            c->device_name, c->peak_gbs, c->flush_mode, c->samples, c->element_type, c->op,
            c->distribution, c->git_commit, c->date);
    fprintf(f, "n,method,family,status,median_us,min_us,max_us,q1_us,q3_us,gbps,pct_peak,"
               "ratio_to_cub\n");
}

static void write_sweep_rows(FILE *f, const struct run *run)
{
    for (size_t i = 0; i < run->count; ++i) {
        const struct method_result *r = &run->rows[i];
        fprintf(f, "%zu,%s,%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%.4f\n", run->context.n,
                r->name, r->family, method_status_name(r->status), r->time_us.median,
                r->time_us.min, r->time_us.max, r->time_us.q1, r->time_us.q3, r->gbps,
                r->pct_peak, r->ratio_to_cub);
    }
}

static void print_sweep_row(FILE *out, const struct run *run, bool header)
{
    if (header) {
        fprintf(out, "%12s", "n");
        for (size_t i = 0; i < run->count; ++i)
            fprintf(out, " %14s", run->rows[i].name);
        fprintf(out, "   (GB/s; * = not PASS)\n");
    }
    fprintf(out, "%12zu", run->context.n);
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

int run_sweep(const struct bench_options *o, const struct selection *s,
              struct bench_session *session)
{
    size_t sizes[MAX_SWEEP_SIZES];
    const size_t count = sweep_sizes(o->sweep_max, sizes, MAX_SWEEP_SIZES);
    struct atomic_file csv = {0};
    char err[512];
    if (o->sweep_csv_path && atomic_file_open(&csv, o->sweep_csv_path, err, sizeof err) != 0) {
        fprintf(stderr, "bench_compare: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (csv.file)
        write_sweep_header(csv.file, &session->context);
    FILE *table = writes_to_stdout(o) ? stderr : stdout; /* --sweep-csv -: the CSV owns stdout */
    print_run_header(table, &session->context);
    fprintf(table, "\n");
    int status = 0;
    for (size_t i = 0; i < count; ++i) {
        fprintf(stderr, "sweep %zu/%zu: n = %zu\n", i + 1, count, sizes[i]);
        struct run run = {0};
        const struct reduce_spec spec = {o->type, o->op};
        const int size_status = measure_selection(o, s, session, spec, sizes[i], &run);
        if (size_status != EXIT_BAD_INPUT) {
            print_sweep_row(table, &run, i == 0);
            if (csv.file)
                write_sweep_rows(csv.file, &run);
        }
        free(run.rows);
        if (size_status > status)
            status = size_status;
        if (size_status == EXIT_BAD_INPUT)
            break;
    }
    if (csv.file && atomic_file_commit(&csv, err, sizeof err) != 0) {
        fprintf(stderr, "bench_compare: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    return status;
}
