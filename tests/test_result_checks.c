/* The reader's checks on rows: times no samples could give are refused,
 * naming the line and the column, and a file of 250k rows - near the
 * reader's 16 MiB cap - reads, finds its duplicate and compares with itself
 * in well under a second. Temporary files go under argv[1] or the current
 * directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "baseline.h"
#include "check.h"
#include "result_file_fixtures.h"

#define MAX_FILE_BYTES ((long)16 << 20) /* the reader's cap (result_csv_reader.c) */

/* The sample CSV with reduce0's five times (median, min, max, q1, q3, as the
 * columns stand) replaced by `times`. */
static char *with_times(const char *times)
{
    char *text = sample_csv_text("times_source.csv");
    static const char ROW[] = "\nreduce0,progression,16777216,PASS,";
    char *start = strstr(text, ROW) + strlen(ROW);
    const char *end = strstr(start, ",100,"); /* the samples column */
    char *out = calloc(1, strlen(text) + strlen(times) + 1);
    memcpy(out, text, (size_t)(start - text));
    strcat(out, times);
    strcat(out, end);
    free(text);
    return out;
}

/* The row with `times` is refused: on its line, with this message. */
static void check_times_refused(const char *times, const char *message)
{
    char *text = with_times(times);
    char label[32];
    check_rejected("bad_times.csv", text, line_label(label, sizeof label, text, "reduce0,"),
                   message);
    free(text);
}

static void read_should_refuse_times_that_are_not_finite(void)
{
    check_times_refused("812.5,788,983,804,inf", "column 'q3_us': 'inf' is not a time");
    check_times_refused("nan,788,983,804,820", "column 'median_us': 'nan' is not a time");
    check_times_refused("812.5,-inf,983,804,820", "column 'min_us': '-inf' is not a time");
    check_times_refused("812.5,788,inf,804,820", "column 'max_us': 'inf' is not a time");
}

static void read_should_refuse_negative_times(void)
{
    check_times_refused("812.5,-1,983,804,820", "column 'min_us': '-1' is not a time");
    check_times_refused("-812.5,-900,-700,-850,-750", "column 'min_us': '-900' is not a time");
}

static void read_should_refuse_times_out_of_order(void)
{
    check_times_refused("812.5,805,983,804,820", "column 'q1_us': '804' is below min_us '805'");
    check_times_refused("812.5,788,983,830,840",
                        "column 'median_us': '812.5' is below q1_us '830'");
    check_times_refused("812.5,788,983,804,800",
                        "column 'q3_us': '800' is below median_us '812.5'");
    check_times_refused("812.5,788,815,804,820", "column 'max_us': '815' is below q3_us '820'");
}

/* A median of 0 or a subnormal one makes (q3 - q1) / median meaningless. */
static void read_should_refuse_a_median_that_is_not_a_normal_number(void)
{
    check_times_refused("4.9e-324,0,983,0,820",
                        "column 'median_us': '4.9e-324' is not a normal positive number");
    check_times_refused("0,0,0,0,0", "column 'median_us': '0' is not a normal positive number");
}

/* The edges that are fine: every figure equal, and a row that took no
 * samples with times of 0 (a REFUSED row in the sample run). */
static void read_should_accept_equal_times_and_untimed_rows(void)
{
    char *text = with_times("812.5,812.5,812.5,812.5,812.5");
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, "equal_times.csv"), text);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    CHECK(read.count == 3 && read.rows[0].time_us.q3 == 812.5);
    CHECK(read.count == 3 && read.rows[2].time_us.count == 0 && read.rows[2].time_us.median == 0);
    free_run(&read);
    remove(path);
    free(text);
}

/* ---- size */

#define NAME_LETTERS 52
#define SIZES_PER_NAME 4800 /* 52 x 4800 = 249,600 rows */
#define BIG_ROWS (NAME_LETTERS * SIZES_PER_NAME)

/* A sweep of BIG_ROWS rows, each as short as a row gets (one-letter names,
 * no family, times of 1 us), so the file stays under the reader's cap. */
static struct run big_run(void)
{
    static const char LETTERS[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    struct run run = {.rows = calloc(BIG_ROWS, sizeof *run.rows), .count = BIG_ROWS};
    for (size_t i = 0; run.rows && i < BIG_ROWS; ++i) {
        struct method_result *m = &run.rows[i];
        m->name[0] = LETTERS[i / SIZES_PER_NAME];
        m->n = i % SIZES_PER_NAME;
        m->time_us = (struct sample_stats){.count = 1, .median = 1, .min = 1, .max = 1, .q1 = 1,
                                           .q3 = 1};
    }
    return run;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (f)
        fclose(f);
    return size;
}

/* Writes big_run to path, with its last row keyed like its first when
 * duplicate; false when it could not. */
static bool write_big_file(const char *path, bool duplicate)
{
    struct run run = big_run();
    if (!run.rows)
        return false;
    if (duplicate) {
        run.rows[BIG_ROWS - 1].name[0] = run.rows[0].name[0];
        run.rows[BIG_ROWS - 1].n = run.rows[0].n;
    }
    char err[512];
    const bool written = write_run_csv(path, &run, err, sizeof err) == 0;
    free(run.rows);
    return written;
}

static void a_250k_row_file_should_read_and_compare_in_linear_time(void)
{
    char path[512], err[512] = "";
    CHECK(write_big_file(temp_path(path, sizeof path, "big.csv"), false));
    const long size = file_size(path);
    CHECK(size > 0 && size < MAX_FILE_BYTES);
    const clock_t start = clock();
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    struct comparison c = {0};
    CHECK(compare_runs(&read, &read, &c) == 0);
    const double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("     %d rows, %ld bytes: read and compared in %.3f s of CPU time\n", BIG_ROWS, size,
           seconds);
    CHECK(seconds < 5.0); /* minutes before; well under a second even unoptimised */
    CHECK(read.count == BIG_ROWS && c.count == BIG_ROWS);
    size_t same = 0;
    for (size_t i = 0; i < c.count; ++i)
        same += c.rows[i].verdict == VERDICT_SAME && c.rows[i].n == read.rows[i].n;
    CHECK(same == BIG_ROWS);
    free_comparison(&c);
    free_run(&read);
    remove(path);
}

/* The duplicate at the far end is found, naming both lines: the header is
 * on line h, row j on h + 1 + j. */
static void a_duplicate_at_the_end_of_a_250k_row_file_should_name_both_lines(void)
{
    char path[512], err[512] = "";
    CHECK(write_big_file(temp_path(path, sizeof path, "big_duplicate.csv"), true));
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == -1);
    FILE *f = fopen(path, "rb");
    size_t header_line = 0;
    char line[2048];
    while (f && fgets(line, sizeof line, f) && line[0] == '#')
        ++header_line;
    if (f)
        fclose(f);
    ++header_line; /* the header row itself */
    char expected[160];
    snprintf(expected, sizeof expected,
             "line %zu: duplicate method 'a' at n = 0 (also on line %zu)",
             header_line + BIG_ROWS, header_line + 1);
    CHECK(strstr(err, expected) != NULL);
    if (!strstr(err, expected))
        fprintf(stderr, "  expected '%s' in: %s\n", expected, err);
    remove(path);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        temp_dir = argv[1];
    RUN_TEST(read_should_refuse_times_that_are_not_finite);
    RUN_TEST(read_should_refuse_negative_times);
    RUN_TEST(read_should_refuse_times_out_of_order);
    RUN_TEST(read_should_refuse_a_median_that_is_not_a_normal_number);
    RUN_TEST(read_should_accept_equal_times_and_untimed_rows);
    RUN_TEST(a_250k_row_file_should_read_and_compare_in_linear_time);
    RUN_TEST(a_duplicate_at_the_end_of_a_250k_row_file_should_name_both_lines);
    return test_exit_code();
}
