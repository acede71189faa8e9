/* Saved runs: the CSV round trip, the JSON and markdown writers, atomic
 * writes, and one clear rejection for each way a baseline file can be bad.
 * Older layouts are test_result_layouts.c's, impossible times and size
 * test_result_checks.c's. Temporary files go under argv[1] (ctest passes the
 * build directory) or the current directory. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "result_file_fixtures.h"

/* ---- round trip */

static void csv_round_trip_should_preserve_every_field(void)
{
    struct method_result rows[3];
    const struct run written = sample_run(rows);
    char path[512], err[512];
    temp_path(path, sizeof path, "round_trip.csv");
    CHECK(write_run_csv(path, &written, err, sizeof err) == 0);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    CHECK(read.count == written.count);
    CHECK(same_context(&read.context, &written.context));
    for (size_t i = 0; i < read.count && i < written.count; ++i)
        CHECK(same_method(&read.rows[i], &written.rows[i]));
    free_run(&read);
    remove(path);
}

static void csv_should_quote_text_and_end_with_row_count(void)
{
    char *text = sample_csv_text("quoting.csv");
    CHECK(strncmp(text, "# reduction-suite run v5\n", 25) == 0);
    /* result_index (v5) right after result */
    CHECK(strstr(text, ",ratio_to_cub,result,result_index,error_ulps,") != NULL);
    CHECK(strstr(text, ",8388608.25,-1,0.5,") != NULL);
    /* the reduction, in CONTEXT_FIELDS order: after strategy, before n */
    CHECK(strstr(text, "\n# strategy=padded\n# element_type=bfloat16\n# op=max\n# n=16777216\n") != NULL);
    CHECK(strstr(text, "# device_name=NVIDIA \"H100\", 80GB \\ HBM3=fast\n") != NULL);
    CHECK(strstr(text, "\n\"#cub\",vendor,") != NULL);
    CHECK(strstr(text, ",\"flags: \"\"odd\"\", spread | wide\"\n") != NULL);
    CHECK(strstr(text, "\n# end rows=3\n") != NULL);
    CHECK(strstr(text, ",812.5,") != NULL); /* shortest digits when they round-trip */
    free(text);
}

static void csv_should_round_trip_an_empty_run(void)
{
    struct run empty = {.context = {.n = 1}};
    snprintf(empty.context.element_type, sizeof empty.context.element_type, "int64");
    snprintf(empty.context.op, sizeof empty.context.op, "min");
    char path[512], err[512];
    temp_path(path, sizeof path, "empty_run.csv");
    CHECK(write_run_csv(path, &empty, err, sizeof err) == 0);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    CHECK(read.count == 0 && read.context.n == 1);
    CHECK(strcmp(read.context.element_type, "int64") == 0 && strcmp(read.context.op, "min") == 0);
    free_run(&read);
    remove(path);
}

static void csv_round_trip_should_preserve_every_reduction(void)
{
    static const char *const TYPES[] = {"float", "double", "int32", "int64", "uint32", "half", "bfloat16"};
    static const char *const OPS[] = {"sum", "max", "min", "argmax", "argmin"};
    CHECK(sizeof OPS / sizeof OPS[0] == OP_COUNT);
    for (size_t t = 0; t < sizeof TYPES / sizeof TYPES[0]; ++t)
        for (size_t op = 0; op < sizeof OPS / sizeof OPS[0]; ++op) {
            struct method_result rows[3];
            struct run written = sample_run(rows);
            snprintf(written.context.element_type, sizeof written.context.element_type, "%s", TYPES[t]);
            snprintf(written.context.op, sizeof written.context.op, "%s", OPS[op]);
            char path[512], err[512];
            temp_path(path, sizeof path, "reduction_round_trip.csv");
            CHECK(write_run_csv(path, &written, err, sizeof err) == 0);
            struct run read = {0};
            CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
            CHECK(strcmp(read.context.element_type, TYPES[t]) == 0);
            CHECK(strcmp(read.context.op, OPS[op]) == 0);
            CHECK(same_context(&read.context, &written.context) && read.count == 3);
            free_run(&read);
            remove(path);
        }
}

/* ---- argmax and argmin: result_index (v5) */

/* An index past 2^31 and NO_INDEX read back as written, as do the extremes
 * a long long holds. */
static void csv_round_trip_should_keep_an_index_past_2_pow_31_and_no_index(void)
{
    struct method_result rows[3];
    const struct run written = argmax_run(rows);
    char *text = run_csv_text("argmax_text.csv", &written);
    CHECK(strstr(text, "\n# op=argmax\n") != NULL);
    CHECK(strstr(text, ",8388608.25,12345678901,0.5,") != NULL);
    CHECK(strstr(text, ",nan,-1,nan,") != NULL);
    struct run read = {0};
    CHECK(read_fixture("argmax_round_trip.csv", text, &read));
    CHECK(read.count == 3 && same_context(&read.context, &written.context));
    for (size_t i = 0; i < read.count && i < 3; ++i)
        CHECK(same_method(&read.rows[i], &rows[i]));
    CHECK(read.count == 3 && read.rows[0].result_index == 12345678901LL);
    CHECK(read.count == 3 && read.rows[1].result_index == -1 && read.rows[2].result_index == -1);
    free_run(&read);
    rows[0].result_index = LLONG_MAX;
    rows[1].result_index = LLONG_MIN;
    char *extremes = run_csv_text("argmax_extremes_text.csv", &written);
    CHECK(strstr(extremes, ",9223372036854775807,") && strstr(extremes, ",-9223372036854775808,"));
    CHECK(read_fixture("argmax_extremes.csv", extremes, &read));
    CHECK(read.count == 3 && read.rows[0].result_index == LLONG_MAX);
    CHECK(read.count == 3 && read.rows[1].result_index == LLONG_MIN);
    free_run(&read);
    free(extremes);
    free(text);
}

/* What is not a whole number, or is past a signed 64-bit integer, is
 * refused naming the line and the column. */
static void read_should_reject_a_result_index_that_is_not_a_whole_number_or_out_of_range(void)
{
    static const struct {
        const char *index, *message;
    } CASES[] = {
        {",12x,", "column 'result_index': '12x' is not a whole number"},
        {",1.5,", "column 'result_index': '1.5' is not a whole number"},
        {",,", "column 'result_index': '' is not a whole number"},
        {",--1,", "column 'result_index': '--1' is not a whole number"},
        {",+7,", "column 'result_index': '+7' is not a whole number"},
        {",nan,", "column 'result_index': 'nan' is not a whole number"},
        {",9223372036854775808,",
         "column 'result_index': '9223372036854775808' is out of range for a whole number"},
        {",-9223372036854775809,",
         "column 'result_index': '-9223372036854775809' is out of range for a whole number"},
    };
    struct method_result rows[3];
    const struct run run = argmax_run(rows);
    char *text = run_csv_text("bad_index_source.csv", &run);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        char *bad = replace_first(text, ",12345678901,", CASES[i].index);
        char label[32];
        CHECK(strcmp(bad, text) != 0);
        check_rejected("bad_index.csv", bad, line_label(label, sizeof label, bad, "reduce0,"),
                       CASES[i].message);
        free(bad);
    }
    free(text);
}

/* ---- JSON and markdown */

static void json_should_escape_text_and_write_non_finite_as_null(void)
{
    struct method_result rows[3];
    const struct run run = sample_run(rows);
    char path[512], err[512];
    CHECK(write_run_json(temp_path(path, sizeof path, "run.json"), &run, err, sizeof err) == 0);
    char *text = slurp(path);
    CHECK(text[0] == '{');
    CHECK(strstr(text, "\"format\": \"reduction-suite run v5\"") != NULL);
    CHECK(strstr(text, "\"clocks\": \"nvml\",\n    \"sm_clock_mhz\": 1980,") != NULL);
    CHECK(strstr(text, "\"sm_clock_mhz\": 1755, \"mem_clock_mhz\": 2619, \"temperature_c\": 44, "
                       "\"power_w\": 312.25, \"clock_events\": \"5\", \"throttled\": true") != NULL);
    CHECK(strstr(text, "\"element_type\": \"bfloat16\"") != NULL);
    CHECK(strstr(text, "\"op\": \"max\"") != NULL);
    CHECK(strstr(text, "\"device_name\": \"NVIDIA \\\"H100\\\", 80GB \\\\ HBM3=fast\"") != NULL);
    CHECK(strstr(text, "\"seed\": \"18446744073709551615\"") != NULL);
    CHECK(strstr(text, "\"methods\": [") != NULL);
    CHECK(strstr(text, "{\"name\": \"reduce0\", \"family\": \"progression\", \"n\": 16777216, "
                       "\"status\": \"PASS\", \"median_us\": 812.5,") != NULL);
    CHECK(strstr(text, "\"result\": null, \"result_index\": -1, \"error_ulps\": null, "
                       "\"rel_error\": null") != NULL);
    CHECK(strstr(text, "\"result\": 8388608.25, \"result_index\": -1, \"error_ulps\": 0.5, "
                       "\"rel_error\": ") != NULL);
    CHECK(strstr(text, "\"determinism\": \"varies\", \"grid\": \"differs\"") != NULL);
    CHECK(strstr(text, "\"noisy\": true") != NULL);
    CHECK(strstr(text, "\"determinism\": \"varies\"") != NULL);
    CHECK(strstr(text, "\"note\": \"flags: \\\"odd\\\", spread | wide\"") != NULL);
    CHECK(strcmp(text + strlen(text) - 4, "]\n}\n") == 0);
    free(text);
    remove(path);
}

/* Other tools read the index as a JSON number, NO_INDEX as -1. */
static void json_should_write_the_index_as_a_number(void)
{
    struct method_result rows[3];
    const struct run run = argmax_run(rows);
    char path[512], err[512];
    CHECK(write_run_json(temp_path(path, sizeof path, "argmax.json"), &run, err, sizeof err) == 0);
    char *text = slurp(path);
    CHECK(strstr(text, "\"op\": \"argmax\"") != NULL);
    CHECK(strstr(text, "\"result\": 8388608.25, \"result_index\": 12345678901, "
                       "\"error_ulps\": 0.5,") != NULL);
    CHECK(strstr(text, "\"result\": null, \"result_index\": -1, \"error_ulps\": null,") != NULL);
    CHECK(strstr(text, "\"result_index\": \"") == NULL); /* a number, not a string */
    free(text);
    remove(path);
}

/* An argmax run's result cell is the value @ its index; a max run's has no @. */
static void markdown_should_show_the_index_of_an_argmax_run_alone(void)
{
    struct method_result rows[3];
    const struct run run = argmax_run(rows);
    char path[512], err[512];
    CHECK(write_run_markdown(temp_path(path, sizeof path, "argmax.md"), &run, err, sizeof err) == 0);
    char *text = slurp(path);
    CHECK(strstr(text, "| 0.14x | 8388608.25 @12345678901 | 0.5 | PASS THROTTLED |") != NULL);
    CHECK(strstr(text, "| nan @-1 | nan |") != NULL);
    free(text);
    struct method_result max_rows[3];
    const struct run max = sample_run(max_rows);
    CHECK(write_run_markdown(path, &max, err, sizeof err) == 0);
    text = slurp(path);
    CHECK(strstr(text, "| 0.14x | 8388608.25 | 0.5 |") != NULL && strstr(text, " @") == NULL);
    free(text);
    remove(path);
}

static void markdown_should_have_caption_and_table(void)
{
    struct method_result rows[3];
    const struct run run = sample_run(rows);
    char path[512], err[512];
    CHECK(write_run_markdown(temp_path(path, sizeof path, "run.md"), &run, err, sizeof err) == 0);
    char *text = slurp(path);
    CHECK(strstr(text, "NVIDIA \"H100\", 80GB \\ HBM3=fast (132 SMs, 3352 GB/s") == text);
    CHECK(strstr(text, "driver 13.0, runtime 13.0, CCCL 3.0.0") != NULL);
    CHECK(strstr(text, "bfloat16 max (uniform,") != NULL);
    CHECK(strstr(text, "clocks SM 1980 MHz (max 1980), memory 2619 MHz, 39 C, 96 W at start;") != NULL);
    CHECK(strstr(text, "L2 flush read-sweep") != NULL);
    CHECK(strstr(text, "\n\n| method | family | n | median µs | GB/s | % peak | vs CUB | result | "
                       "ulps | check | repeat / grid |\n") != NULL);
    CHECK(strstr(text, "| reduce0 | progression | 16777216 | 812.50 | 82.6 | 33.3 | 0.14x | "
                       "8388608.25 | 0.5 | PASS THROTTLED | bitwise / same |\n") != NULL);
    CHECK(strstr(text, "| nan | nan | PASS (noisy) THROTTLED | varies / differs |\n") != NULL);
    CHECK(strstr(text, "| atomic_naive | progression | 0 | - | - | - | - | - | - | "
                       "REFUSED: accepts at most 1048576 elements | - / unforced |\n") != NULL);
    free(text);
    remove(path);
}

/* ---- atomic writes */

typedef int (*writer_fn)(const char *, const struct run *, char *, size_t);

static void writers_should_fail_cleanly_into_missing_directory(void)
{
    const writer_fn writers[] = {write_run_csv, write_run_json, write_run_markdown};
    struct method_result rows[3];
    const struct run run = sample_run(rows);
    char path[512], tmp[520], err[512];
    temp_path(path, sizeof path, "no_such_dir/run.out");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; ++i) {
        err[0] = '\0';
        CHECK(writers[i](path, &run, err, sizeof err) == -1);
        CHECK(strstr(err, "cannot write") != NULL && strstr(err, path) != NULL);
        CHECK(strstr(err, "No such file or directory") != NULL);
        CHECK(!file_exists(path) && !file_exists(tmp));
    }
}

static void write_should_replace_old_file_and_leave_no_tmp(void)
{
    struct method_result rows[3];
    struct run run = sample_run(rows);
    char path[512], tmp[520], err[512];
    temp_path(path, sizeof path, "replaced.csv");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    write_text(path, "old contents\n");
    run.count = 1;
    CHECK(write_run_csv(path, &run, err, sizeof err) == 0);
    CHECK(!file_exists(tmp));
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0 && read.count == 1);
    free_run(&read);
    remove(path);
}

/* ---- rejected files */

static void read_should_reject_missing_file(void)
{
    char path[512], err[512];
    temp_path(path, sizeof path, "does_not_exist.csv");
    struct run run;
    CHECK(read_run_csv(path, &run, err, sizeof err) == -1);
    CHECK(strstr(err, path) != NULL && strstr(err, "cannot open") != NULL);
    CHECK(run.rows == NULL && run.count == 0);
}

static void read_should_reject_empty_file(void)
{
    check_rejected("empty.csv", "", "empty file", NULL);
}

static void read_should_reject_foreign_file(void)
{
    check_rejected("foreign.csv", "name,age\nalice,31\n", "not a reduction-suite results file",
                   "first line is 'name,age'");
    check_rejected("binary.csv", "\x7f" "ELF\x02\x01\x01", "not a reduction-suite results file",
                   NULL);
}

static void read_should_reject_other_format_version(void)
{
    check_rejected("v9.csv", "# reduction-suite run v9\n", "unsupported format version 'v9'", NULL);
    /* a whole file of a later version, however well-formed */
    char *text = sample_csv_text("v5_source.csv");
    char *v6 = replace_first(text, "# reduction-suite run v5\n", "# reduction-suite run v6\n");
    check_rejected("v6.csv", v6, "unsupported format version 'v6'", "reads 'v1' to 'v5'");
    char *v20 = replace_first(text, "# reduction-suite run v5\n", "# reduction-suite run v20\n");
    check_rejected("v20.csv", v20, "unsupported format version 'v20'", NULL);
    char *v0 = replace_first(text, "# reduction-suite run v5\n", "# reduction-suite run v0\n");
    check_rejected("v0.csv", v0, "unsupported format version 'v0'", NULL);
    free(v0);
    free(v20);
    free(v6);
    free(text);
}

static void read_should_reject_missing_context_key(void)
{
    char *text = sample_csv_text("context.csv");
    char *cut = replace_first(text, "# seed=18446744073709551615\n", "");
    check_rejected("missing_key.csv", cut, "missing context key(s) 'seed'", NULL);
    free(cut);
    free(text);
}

static void read_should_reject_bad_context_value(void)
{
    char *text = sample_csv_text("context.csv");
    char *bad = replace_first(text, "# n=16777216\n", "# n=-5\n");
    char label[32];
    check_rejected("bad_context.csv", bad, line_label(label, sizeof label, bad, "# n=-5"),
                   "context key 'n': '-5' is out of range");
    free(bad);
    free(text);
}

static void read_should_reject_wrong_header(void)
{
    char *text = sample_csv_text("header.csv");
    char *renamed = replace_first(text, ",median_us,", ",medain_us,");
    check_rejected("wrong_header.csv", renamed, "missing column(s) 'median_us'",
                   "unexpected column(s) 'medain_us'");
    char *swapped = replace_first(text, "name,family,", "family,name,");
    check_rejected("swapped_header.csv", swapped, "columns repeated or out of order", NULL);
    free(swapped);
    free(renamed);
    free(text);
}

static void read_should_reject_missing_column(void)
{
    char *text = sample_csv_text("header.csv");
    char *missing = replace_first(text, ",gbps,", ",");
    char label[32];
    check_rejected("missing_column.csv", missing,
                   line_label(label, sizeof label, missing, "name,family"),
                   "header row: missing column(s) 'gbps'");
    free(missing);
    free(text);
}

static void read_should_reject_non_numeric_field(void)
{
    char *text = sample_csv_text("numeric.csv");
    char *bad = replace_first(text, ",812.5,", ",812.5us,");
    char label[32];
    check_rejected("non_numeric.csv", bad, line_label(label, sizeof label, bad, "reduce0,"),
                   "column 'median_us': '812.5us' is not a number");
    char *bad_count = replace_first(text, ",100,", ",1e2,");
    check_rejected("non_integer.csv", bad_count, "column 'samples': '1e2' is not a whole number",
                   NULL);
    char *bad_status = replace_first(text, ",PASS,", ",OK,");
    check_rejected("bad_status.csv", bad_status, "column 'status': 'OK' is not PASS", NULL);
    free(bad_status);
    free(bad_count);
    free(bad);
    free(text);
}

static void read_should_reject_row_with_wrong_field_count(void)
{
    char *text = sample_csv_text("fields.csv");
    char *extra = replace_first(text, "elements\n", "elements,extra\n");
    check_rejected("extra_field.csv", extra, "31 fields, expected 30", NULL);
    free(extra);
    free(text);
}

static void read_should_reject_file_cut_mid_row(void)
{
    char *text = sample_csv_text("truncated.csv");
    char *row = strstr(text, "\natomic_naive,");
    row[20] = '\0'; /* the file ends inside the last row */
    char label[32];
    check_rejected("cut_mid_row.csv", text, line_label(label, sizeof label, text, "atomic_naive,"),
                   "truncated");
    free(text);
}

static void read_should_reject_file_cut_before_end_marker(void)
{
    char *text = sample_csv_text("truncated.csv");
    strstr(text, "# end rows=")[0] = '\0';
    check_rejected("cut_before_end.csv", text, "truncated: no end marker", NULL);
    free(text);
}

static void read_should_reject_end_marker_with_wrong_count(void)
{
    char *text = sample_csv_text("count.csv");
    char *wrong = replace_first(text, "# end rows=3", "# end rows=4");
    check_rejected("wrong_count.csv", wrong, "end marker says 4 rows but the file has 3", NULL);
    free(wrong);
    free(text);
}

static void read_should_reject_duplicate_method(void)
{
    char *text = sample_csv_text("duplicate.csv");
    const char *row = strstr(text, "\nreduce0,") + 1;
    const size_t through_row = (size_t)(strchr(row, '\n') + 1 - text);
    char *doubled = calloc(1, strlen(text) + through_row + 1);
    memcpy(doubled, text, through_row); /* ...the row, then the row again and the rest */
    strcat(doubled, row);
    char also[64];
    snprintf(also, sizeof also, "(also on line %zu)", line_of(doubled, "reduce0,"));
    check_rejected("duplicate.csv", doubled, "duplicate method 'reduce0'", also);
    free(doubled);
    free(text);
}

static void read_should_reject_unterminated_quote(void)
{
    char *text = sample_csv_text("quote.csv");
    char *bad = replace_first(text, ",\"flags: ", ",\"\"flags: ");
    check_rejected("bad_quote.csv", bad, "text after a closing quote", NULL);
    char *open = replace_first(text, "spread | wide\"\n", "spread | wide\n");
    check_rejected("open_quote.csv", open, "unterminated quoted field", NULL);
    free(open);
    free(bad);
    free(text);
}

static void read_should_reject_text_after_end_marker(void)
{
    char *text = sample_csv_text("trailer.csv");
    const size_t len = strlen(text);
    char *more = calloc(1, len + 32);
    memcpy(more, text, len);
    strcat(more, "reduce9,oops\n");
    check_rejected("after_end.csv", more, "text after the end marker", NULL);
    free(more);
    free(text);
}

/* Fuzz-style properties of the reader: every strict prefix of a valid file is
 * rejected (no truncation passes silently), and random single-byte
 * corruptions never crash it (ASan/UBSan in CI) and, when accepted, still
 * give a whole run. */
static void read_should_reject_every_prefix_and_survive_corruption(void)
{
    char *text = sample_csv_text("fuzz_source.csv");
    char path[4096];
    temp_path(path, sizeof path, "fuzz.csv");
    const size_t len = strlen(text);
    size_t accepted_prefixes = 0;
    for (size_t cut = 0; cut < len; ++cut) {
        char *prefix = malloc(cut + 1);
        memcpy(prefix, text, cut);
        prefix[cut] = '\0';
        write_text(path, prefix);
        struct run run = {0};
        char err[512];
        accepted_prefixes += read_run_csv(path, &run, err, sizeof err) == 0;
        free_run(&run);
        free(prefix);
    }
    CHECK(accepted_prefixes == 0);

    uint64_t state = 2026;
    static const char JUNK[] = ",\"#\n=x9-.e";
    for (int trial = 0; trial < 2000; ++trial) {
        char *mutated = malloc(len + 1);
        memcpy(mutated, text, len + 1);
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        mutated[(state >> 33) % len] = JUNK[(state >> 13) % (sizeof JUNK - 1)];
        write_text(path, mutated);
        struct run run = {0};
        char err[512];
        if (read_run_csv(path, &run, err, sizeof err) == 0)
            CHECK(run.count == 3);
        else
            CHECK(strstr(err, "fuzz.csv") != NULL); /* every error names the file */
        free_run(&run);
        free(mutated);
    }
    free(text);
}

/* A row sweep's file: the shape keys and a row per (method, width), two
 * widths at the same n not taken for duplicates. */
static void csv_round_trip_should_preserve_the_shape(void)
{
    struct method_result rows[3];
    struct run written = sample_run(rows);
    snprintf(written.context.shape, sizeof written.context.shape, "segments");
    snprintf(written.context.segments, sizeof written.context.segments, "uniform:100");
    written.context.result_count = 167000;
    snprintf(rows[1].name, sizeof rows[1].name, "%s", rows[0].name);
    rows[0].n = rows[1].n = 1024;
    rows[0].cols = 32;
    rows[1].cols = 64;
    char path[512], err[512];
    temp_path(path, sizeof path, "shape_round_trip.csv");
    CHECK(write_run_csv(path, &written, err, sizeof err) == 0);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    CHECK(strcmp(read.context.shape, "segments") == 0 && read.context.result_count == 167000);
    CHECK(strcmp(read.context.segments, "uniform:100") == 0);
    CHECK(read.count == 3 && read.rows[0].cols == 32 && read.rows[1].cols == 64);
    free_run(&read);
    remove(path);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        temp_dir = argv[1];
    RUN_TEST(csv_round_trip_should_preserve_the_shape);
    RUN_TEST(csv_round_trip_should_preserve_every_field);
    RUN_TEST(csv_should_quote_text_and_end_with_row_count);
    RUN_TEST(csv_should_round_trip_an_empty_run);
    RUN_TEST(csv_round_trip_should_preserve_every_reduction);
    RUN_TEST(json_should_escape_text_and_write_non_finite_as_null);
    RUN_TEST(json_should_write_the_index_as_a_number);
    RUN_TEST(markdown_should_have_caption_and_table);
    RUN_TEST(markdown_should_show_the_index_of_an_argmax_run_alone);
    RUN_TEST(csv_round_trip_should_keep_an_index_past_2_pow_31_and_no_index);
    RUN_TEST(read_should_reject_a_result_index_that_is_not_a_whole_number_or_out_of_range);
    RUN_TEST(writers_should_fail_cleanly_into_missing_directory);
    RUN_TEST(write_should_replace_old_file_and_leave_no_tmp);
    RUN_TEST(read_should_reject_missing_file);
    RUN_TEST(read_should_reject_empty_file);
    RUN_TEST(read_should_reject_foreign_file);
    RUN_TEST(read_should_reject_other_format_version);
    RUN_TEST(read_should_reject_missing_context_key);
    RUN_TEST(read_should_reject_bad_context_value);
    RUN_TEST(read_should_reject_wrong_header);
    RUN_TEST(read_should_reject_missing_column);
    RUN_TEST(read_should_reject_non_numeric_field);
    RUN_TEST(read_should_reject_row_with_wrong_field_count);
    RUN_TEST(read_should_reject_file_cut_mid_row);
    RUN_TEST(read_should_reject_file_cut_before_end_marker);
    RUN_TEST(read_should_reject_end_marker_with_wrong_count);
    RUN_TEST(read_should_reject_duplicate_method);
    RUN_TEST(read_should_reject_every_prefix_and_survive_corruption);
    RUN_TEST(read_should_reject_unterminated_quote);
    RUN_TEST(read_should_reject_text_after_end_marker);
    return test_exit_code();
}
