/* The compact --type all --op all table (report.h) on hand-made runs: our
 * best kernel, the row and column steps included, beside CUB (its segmented
 * reduce for shapes), Thrust, cuBLAS's gemv and PyTorch, "-" for what a run
 * did not measure; the
 * run header's line for a shape; and the results table's result cell, an
 * argmax's or argmin's value@index. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "report.h"

static struct method_result row(const char *name, const char *family, double median_us)
{
    struct method_result r = {.status = STATUS_PASS, .time_us = {.count = 30, .median = median_us}};
    snprintf(r.name, sizeof r.name, "%s", name);
    snprintf(r.family, sizeof r.family, "%s", family);
    return r;
}

/* The table printed for `runs`, into buf. */
static void matrix_text(const struct run *runs, size_t count, char *buf, size_t len)
{
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    print_matrix_table(f, runs, count);
    rewind(f);
    const size_t got = fread(buf, 1, len - 1, f);
    buf[got] = '\0';
    fclose(f);
}

/* A run of one (type, operator) pair, as the matrix prints one line of. */
static struct run pair_run(struct method_result *rows, size_t count, const char *type,
                           const char *op, size_t n)
{
    struct run run = {.rows = rows, .count = count};
    snprintf(run.context.element_type, sizeof run.context.element_type, "%s", type);
    snprintf(run.context.op, sizeof run.context.op, "%s", op);
    run.context.n = n;
    return run;
}

static void matrix_should_set_row_steps_against_cub_segmented_and_torch(void)
{
    struct method_result rows[] = {row("group_per_row", "rows", 26.9), row("warp_per_row", "rows", 110.2),
                                   row("cub_segmented", "vendor", 595.6), row("torch", "vendor", 147.9)};
    const struct run run = pair_run(rows, 4, "float", "sum", 16777216);
    char text[1024];
    matrix_text(&run, 1, text, sizeof text);
    printf("%s", text);
    CHECK(strstr(text, "torch us") != NULL);
    CHECK(strstr(text, "group_per_row") != NULL);
    CHECK(strstr(text, "26.90") && strstr(text, "595.60") && strstr(text, "147.90"));
    CHECK(strstr(text, "0.05x") != NULL); /* 26.9 / 595.6 */
    CHECK(strstr(text, "PASS") != NULL);
}

static void matrix_should_print_a_dash_for_what_a_run_did_not_measure(void)
{
    struct method_result rows[] = {row("one_pass_ilp", "modern", 27.5), row("cub", "vendor", 28.5)};
    const struct run run = pair_run(rows, 2, "double", "max", 8388608);
    char text[1024];
    matrix_text(&run, 1, text, sizeof text);
    printf("%s", text);
    const char *line = strstr(text, "double");
    CHECK(line && strstr(line, "one_pass_ilp") && strstr(line, "27.50") && strstr(line, "28.50"));
    CHECK(line && strstr(line, "0.96x") != NULL);
    /* thrust, cublas and torch: three "-" cells */
    int dashes = 0;
    for (const char *c = line; c && *c && *c != '\n'; ++c)
        dashes += c[0] == ' ' && c[1] == '-' && c[2] == ' ';
    CHECK(dashes == 3);
}

static void matrix_should_set_column_steps_against_cublas_gemv(void)
{
    struct method_result rows[] = {row("split_columns", "columns", 30.66),
                                   row("block_columns", "columns", 1801.5),
                                   row("cublas_columns", "vendor", 29.73),
                                   row("torch", "vendor", 142.35)};
    const struct run run = pair_run(rows, 4, "float", "sum", 16777216);
    char text[1024];
    matrix_text(&run, 1, text, sizeof text);
    printf("%s", text);
    const char *line = strstr(text, "float");
    CHECK(strstr(text, "cublas us") != NULL);
    CHECK(line && strstr(line, "split_columns") && strstr(line, "30.66"));
    CHECK(line && strstr(line, "29.73") && strstr(line, "142.35"));
    CHECK(line && strstr(line, "1801.50") == NULL);
}

/* The header printed for a run of this shape, into buf. */
static void header_text(const char *shape, size_t n, size_t cols, size_t results, char *buf,
                        size_t len)
{
    struct run_context c = {.n = n, .cols = cols, .result_count = results};
    snprintf(c.shape, sizeof c.shape, "%s", shape);
    snprintf(c.element_type, sizeof c.element_type, "float");
    snprintf(c.op, sizeof c.op, "sum");
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    print_run_header(f, &c);
    rewind(f);
    buf[fread(buf, 1, len - 1, f)] = '\0';
    fclose(f);
}

/* Rows name the rows and the width; columns the rows (n / cols) and the
 * columns, each a result - not the result count as if it were rows. */
static void header_should_describe_rows_and_columns_by_their_own_counts(void)
{
    char text[4096];
    header_text("rows", 1000 * 7, 7, 1000, text, sizeof text);
    CHECK(strstr(text, "shape    rows: 1000 rows x 7 cols") != NULL);
    header_text("columns", 131072 * 128, 128, 128, text, sizeof text);
    CHECK(strstr(text, "shape    columns: 131072 rows x 128 cols, a result per column") != NULL);
    CHECK(strstr(text, "rows: 128 rows") == NULL);
}

/* print_results_table's text for `run`, into buf. */
static void results_text(const struct run *run, char *buf, size_t len)
{
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    print_results_table(f, run);
    rewind(f);
    buf[fread(buf, 1, len - 1, f)] = '\0';
    fclose(f);
}

/* The result cell: value@index for argmax and argmin - an index past 2^31,
 * NO_INDEX for an empty input - and the value alone for max. */
static void results_table_should_show_value_at_index_for_argmax_and_argmin(void)
{
    struct method_result rows[] = {row("one_pass_ilp", "modern", 27.5), row("cpu_loop", "cpu", 900.0),
                                   row("reduce0", "progression", 80.0)};
    rows[0].result = 0.99999994;
    rows[0].result_index = 3000000001LL;
    rows[1].result = -INFINITY;
    rows[1].result_index = NO_INDEX;
    rows[2].status = STATUS_REFUSED;
    rows[2].time_us.count = 0;
    struct run run = pair_run(rows, 3, "float", "argmax", 4000000000u);
    char text[4096];
    results_text(&run, text, sizeof text);
    printf("%s", text);
    CHECK(strstr(text, " 0.99999994@3000000001 ") != NULL);
    CHECK(strstr(text, " -inf@-1 ") != NULL);
    snprintf(run.context.op, sizeof run.context.op, "argmin");
    snprintf(run.context.element_type, sizeof run.context.element_type, "int32");
    rows[0].result = -2147483648.0;
    rows[0].result_index = 7;
    results_text(&run, text, sizeof text);
    CHECK(strstr(text, " -2147483648@7 ") != NULL);
    snprintf(run.context.op, sizeof run.context.op, "min");
    rows[0].result_index = NO_INDEX;
    results_text(&run, text, sizeof text);
    CHECK(strstr(text, " -2147483648 ") != NULL && strchr(text, '@') == NULL);
}

int main(void)
{
    RUN_TEST(matrix_should_set_row_steps_against_cub_segmented_and_torch);
    RUN_TEST(matrix_should_print_a_dash_for_what_a_run_did_not_measure);
    RUN_TEST(matrix_should_set_column_steps_against_cublas_gemv);
    RUN_TEST(header_should_describe_rows_and_columns_by_their_own_counts);
    RUN_TEST(results_table_should_show_value_at_index_for_argmax_and_argmin);
    return test_exit_code();
}
