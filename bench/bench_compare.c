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

#include "baseline.h"
#include "bench_setup.h"
#include "cli.h"
#include "combine.h"
#include "device_info.h"
#include "matrix.h"
#include "registry.h"
#include "report.h"
#include "result_files.h"
#include "scaling_run.h"
#include "sweep.h"

static int list_methods(void)
{
    printf("%-20s %-11s %-27s %s\n", "method", "family", "shapes", "idea; source; refusals");
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const struct method *m = METHODS[i];
        char shapes[64];
        format_method_shapes(m, ",", shapes, sizeof shapes);
        printf("%-20s %-11s %-27s %s\n", m->name, family_name(m->family), shapes, m->idea);
        printf("%60s source: %s\n", "", m->source);
        if (m->unsupported_why)
            printf("%60s refuses %s pairs: %s\n", "", m->types ? "some" : "all",
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
    snprintf(c.shape, sizeof c.shape, "%s", shape_kind_name(options_shape_kind(o)));
    snprintf(c.segments, sizeof c.segments, "%s", o->segmented ? o->segments.text : "");
    return c;
}

static int compare_files(const struct bench_options *o)
{
    char err[512];
    struct run old_run = {0}, new_run = {0};
    int status = EXIT_BAD_INPUT;
    if (read_run_csv(o->compare_old, &old_run, err, sizeof err) != 0 ||
        read_run_csv(o->compare_new, &new_run, err, sizeof err) != 0 ||
        !same_reduction(&old_run.context, new_run.context.element_type, new_run.context.op, err,
                        sizeof err) ||
        !same_shape(&old_run.context, &new_run.context, err, sizeof err) ||
        (!o->ignore_device &&
         !same_device(&old_run.context, new_run.context.device_name, err, sizeof err)) ||
        (o->method_count &&
         !keep_methods(&old_run, &new_run, o->methods, o->method_count, err, sizeof err)))
        fprintf(stderr, "bench_compare: %s\n", err);
    else
        status = report_baseline_comparison(stdout, &old_run, &new_run);
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

/* The modes that measure nothing: --list, --list-devices, --compare.
 * Returns their exit status, or -1 when none was asked for. */
static int run_listing_mode(const struct bench_options *o)
{
    char err[CLI_ERROR_LEN];
    if (o->list)
        return list_methods();
    if (o->list_devices) {
        if (!usable_gpu(err, sizeof err)) {
            fprintf(stderr, "bench_compare: %s\n", err);
            return EXIT_BAD_INPUT;
        }
        return list_devices(stdout) == 0 ? 0 : EXIT_BAD_INPUT;
    }
    if (o->compare_old)
        return compare_files(o);
    return -1;
}

/* The methods, the output paths and the baseline (-b), checked before any
 * GPU work; one line on stderr when one is wrong. */
static int check_before_measuring(const struct bench_options *o, struct selection *s,
                                  struct run *baseline)
{
    char err[CLI_ERROR_LEN];
    const struct run_context asked = options_shape_context(o);
    if (select_methods(o, s, err, sizeof err) != 0 ||
        check_output_paths(o, err, sizeof err) != 0 ||
        (o->baseline_path &&
         (read_run_csv(o->baseline_path, baseline, err, sizeof err) != 0 ||
          !same_reduction(&baseline->context, element_type_name(o->type), reduce_op_name(o->op),
                          err, sizeof err) ||
          !same_shape(&baseline->context, &asked, err, sizeof err)))) {
        fprintf(stderr, "bench_compare: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

/* The session, and the baseline's device against it (unless ignored). */
static int open_checked_session(const struct bench_options *o, const struct run *baseline,
                                struct bench_session *session)
{
    char err[CLI_ERROR_LEN];
    if (open_session(o, session, err, sizeof err) != 0 ||
        (o->baseline_path && !o->ignore_device &&
         !same_device(&baseline->context, session->context.device_name, err, sizeof err))) {
        fprintf(stderr, "bench_compare: %s\n", err);
        if (session->stream)
            close_session(session);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

static void print_tables(FILE *tables, const struct bench_options *o, const struct run *run)
{
    print_run_header(tables, &run->context);
    fprintf(tables, "\n");
    if (o->progression)
        print_progression(tables, run);
    else
        print_results_table(tables, run);
    if (o->batch) {
        fprintf(tables, "\n");
        print_batch_table(tables, run, o->batch);
    }
}

/* One size's table or a sweep's, the outputs saved, the baseline's verdict. */
static int measure_and_report(const struct bench_options *o, const struct selection *s,
                              struct bench_session *session, const struct run *baseline)
{
    /* A result file on standard output ('-') keeps it clean for a pipe: the
     * tables go to standard error then. */
    FILE *tables = writes_to_stdout(o) ? stderr : stdout;
    const struct reduce_spec spec = {o->type, o->op};
    struct run run = {.context = session->context};
    const bool sweeps = o->sweep || o->width_sweep;
    int status = sweeps ? run_sweep(o, s, session, tables, &run)
                        : measure_selection(o, s, session, spec, default_n(o, o->type), &run);
    if (status != EXIT_BAD_INPUT) {
        if (!sweeps)
            print_tables(tables, o, &run);
        const int saved = save_outputs(o, &run);
        if (o->baseline_path) {
            fprintf(tables, "\nagainst baseline %s:\n", o->baseline_path);
            const int verdict = report_baseline_comparison(tables, baseline, &run);
            if (verdict > status)
                status = verdict;
        }
        if (saved)
            status = saved;
    }
    free(run.rows);
    return status;
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
    const int listed = run_listing_mode(&opts);
    if (listed >= 0)
        return listed;
    struct selection selection;
    struct run baseline = {0};
    struct bench_session session;
    int status = check_before_measuring(&opts, &selection, &baseline);
    if (status == 0 && opts.multi_gpu)
        status = run_scaling(&opts, &selection);
    else if (status == 0 && (status = open_checked_session(&opts, &baseline, &session)) == 0) {
        status = runs_matrix(&opts) ? run_matrix(&opts, &selection, &session)
                                    : measure_and_report(&opts, &selection, &session, &baseline);
        close_session(&session);
    }
    free_run(&baseline);
    return status;
}
