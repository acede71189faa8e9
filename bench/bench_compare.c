/* bench_compare: every registered method on the same buffer, one table.
 *
 * The flow reads top to bottom: options -> device -> one buffer of n
 * elements of the chosen type, filled once -> CPU reference -> each method:
 * check, warm up, time (every timed result validated) -> table -> saved files
 * -> baseline verdicts. With --type all or --op all, that once per (type,
 * operator) pair and one summary table (matrix.c); with --gpus, the same
 * methods over several GPUs and one scaling table (scaling_run.c).
 * Bytes counted for GB/s: n x element size, read once; nothing else (a
 * method's extra traffic - partials, atomics, passes - is its own cost, so it
 * shows as lower bandwidth, which is the point). */
#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "baseline.h"
#include "bench_setup.h"
#include "cli.h"
#include "cuda_check.h"
#include "device_info.h"
#include "matrix.h"
#include "measure.h"
#include "registry.h"
#include "report.h"
#include "combine.h"
#include "result_files.h"
#include "scaling_run.h"
#include "sweep.h"

/* The shapes m takes, "whole,rows,segments" style. */
static void format_shapes(char *buf, size_t len, const struct method *m)
{
    const unsigned shapes = m->shapes ? m->shapes : SHAPE_BIT(SHAPE_WHOLE);
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < SHAPE_KIND_COUNT; ++k)
        if ((shapes & SHAPE_BIT(k)) && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
                                     shape_kind_name((enum shape_kind)k));
}

static int list_methods(void)
{
    printf("%-20s %-11s %-20s %-34s %s\n", "method", "family", "shapes", "source", "idea");
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const struct method *m = METHODS[i];
        char shapes[64];
        format_shapes(shapes, sizeof shapes, m);
        printf("%-20s %-11s %-20s %-34s %s\n", m->name, family_name(m->family), shapes, m->source,
               m->idea);
        if (m->unsupported_why)
            printf("%-20s %-11s %-20s %-34s refuses %s pairs: %s\n", "", "", "", "",
                   m->types ? "some" : "all",
                   m->unsupported_why);
    }
    return 0;
}

/* What this build is: the suite's commit and the libraries it was built
 * with (no GPU needed; the run header adds the driver's versions). */
static void print_version(void)
{
    printf("bench_compare (GPU reduction comparison suite) %s\n", SUITE_GIT_COMMIT);
    printf("built with CUDA runtime %d.%d, CCCL %d.%d.%d, cuBLAS %d.%d.%d\n",
           CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10, cccl_version() / 1000000,
           cccl_version() / 1000 % 1000, cccl_version() % 1000, CUBLAS_VERSION / 10000,
           CUBLAS_VERSION / 100 % 100, CUBLAS_VERSION % 100);
    char nccl[256];
    nccl_describe(nccl, sizeof nccl);
    printf("multi-GPU combines: p2p; nccl: %s\n", nccl);
    printf("torch rows: %s\n", torch_description());
}

/* The shape fields of the context a run with these options records
 * (bench_setup.c), known before anything runs: for --baseline's check. */
static struct run_context options_shape_context(const struct bench_options *o)
{
    struct run_context c = {.cols = o->cols};
    const enum shape_kind kind = o->cols || o->row_sweep ? SHAPE_ROWS
                                 : o->segmented          ? SHAPE_SEGMENTS
                                                         : SHAPE_WHOLE;
    snprintf(c.shape, sizeof c.shape, "%s", shape_kind_name(kind));
    snprintf(c.segments, sizeof c.segments, "%s", o->segmented ? o->segments.text : "");
    return c;
}

static int compare_files(const struct bench_options *o)
{
    char err[512];
    struct run old_run = {0}, new_run = {0};
    if (read_run_csv(o->compare_old, &old_run, err, sizeof err) != 0 ||
        read_run_csv(o->compare_new, &new_run, err, sizeof err) != 0 ||
        !same_reduction(&old_run.context, new_run.context.element_type, new_run.context.op, err,
                        sizeof err) ||
        !same_shape(&old_run.context, &new_run.context, err, sizeof err) ||
        (!o->ignore_device &&
         !same_device(&old_run.context, new_run.context.device_name, err, sizeof err)) ||
        (o->method_count &&
         !keep_methods(&old_run, &new_run, o->methods, o->method_count, err, sizeof err))) {
        fprintf(stderr, "bench_compare: %s\n", err);
        free_run(&old_run);
        free_run(&new_run);
        return EXIT_BAD_INPUT;
    }
    const int status = report_baseline_comparison(stdout, &old_run, &new_run);
    free_run(&old_run);
    free_run(&new_run);
    return status;
}

static int save_outputs(const struct bench_options *o, const struct run *run)
{
    char err[512];
    int failed = 0;
    if (o->csv_path && write_run_csv(o->csv_path, run, err, sizeof err) != 0)
        failed = fprintf(stderr, "bench_compare: %s\n", err);
    if (o->json_path && write_run_json(o->json_path, run, err, sizeof err) != 0)
        failed = fprintf(stderr, "bench_compare: %s\n", err);
    if (o->markdown_path && write_run_markdown(o->markdown_path, run, err, sizeof err) != 0)
        failed = fprintf(stderr, "bench_compare: %s\n", err);
    return failed ? EXIT_BAD_INPUT : 0;
}

int main(int argc, char **argv)
{
    char err[CLI_ERROR_LEN];
    struct bench_options opts;
    switch (parse_bench_options(argc, argv, &opts, err, sizeof err)) {
    case CLI_HELP:
        print_usage(argv[0]);
        return 0;
    case CLI_VERSION:
        print_version();
        return 0;
    case CLI_ERROR:
        fprintf(stderr, "bench_compare: %s\n", err);
        return EXIT_BAD_INPUT;
    case CLI_OK:
        break;
    }
    if (opts.list)
        return list_methods();
    if (opts.list_devices) {
        if (!usable_gpu(err, sizeof err)) {
            fprintf(stderr, "bench_compare: %s\n", err);
            return EXIT_BAD_INPUT;
        }
        return list_devices(stdout) == 0 ? 0 : EXIT_BAD_INPUT;
    }
    if (opts.compare_old)
        return compare_files(&opts);

    struct selection selection;
    struct run baseline = {0};
    const struct run_context asked = options_shape_context(&opts);
    if (select_methods(&opts, &selection, err, sizeof err) != 0 ||
        check_output_paths(&opts, err, sizeof err) != 0 ||
        (opts.baseline_path &&
         (read_run_csv(opts.baseline_path, &baseline, err, sizeof err) != 0 ||
          !same_reduction(&baseline.context, element_type_name(opts.type),
                          reduce_op_name(opts.op), err, sizeof err) ||
          !same_shape(&baseline.context, &asked, err, sizeof err)))) {
        fprintf(stderr, "bench_compare: %s\n", err);
        free_run(&baseline);
        return EXIT_BAD_INPUT;
    }
    if (opts.multi_gpu)
        return run_scaling(&opts, &selection);

    struct bench_session session;
    if (open_session(&opts, &session, err, sizeof err) != 0 ||
        (opts.baseline_path && !opts.ignore_device &&
         !same_device(&baseline.context, session.context.device_name, err, sizeof err))) {
        fprintf(stderr, "bench_compare: %s\n", err);
        if (session.stream)
            close_session(&session);
        free_run(&baseline);
        return EXIT_BAD_INPUT;
    }
    if (runs_matrix(&opts)) {
        const int status = run_matrix(&opts, &selection, &session);
        close_session(&session);
        return status;
    }

    /* A result file on standard output ('-') keeps it clean for a pipe: the
     * tables go to standard error then. */
    FILE *tables = writes_to_stdout(&opts) ? stderr : stdout;
    const struct reduce_spec spec = {opts.type, opts.op};
    struct run run = {.context = session.context};
    const bool sweeps = opts.sweep || opts.row_sweep;
    int status = sweeps ? run_sweep(&opts, &selection, &session, tables, &run)
                            : measure_selection(&opts, &selection, &session, spec,
                                                default_n(&opts, opts.type), &run);
    if (status != EXIT_BAD_INPUT) {
        if (!sweeps) {
            print_run_header(tables, &run.context);
            fprintf(tables, "\n");
            if (opts.progression)
                print_progression(tables, &run);
            else
                print_results_table(tables, &run);
            if (opts.batch) {
                fprintf(tables, "\n");
                print_batch_table(tables, &run, opts.batch);
            }
        }
        const int saved = save_outputs(&opts, &run);
        if (opts.baseline_path) {
            fprintf(tables, "\nagainst baseline %s:\n", opts.baseline_path);
            const int verdict = report_baseline_comparison(tables, &baseline, &run);
            if (verdict > status)
                status = verdict;
        }
        if (saved)
            status = saved;
    }
    free(run.rows);
    free_run(&baseline);
    close_session(&session);
    return status;
}
