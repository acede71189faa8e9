/* Saved runs: the CSV round trip, the JSON and markdown writers, atomic
 * writes, and one clear rejection for each way a baseline file can be bad.
 * Temporary files go under argv[1] (ctest passes the build directory) or the
 * current directory. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "result_files.h"

static const char *temp_dir = ".";

/* temp_dir/name in buf. */
static const char *temp_path(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", temp_dir, name);
    return buf;
}

static bool file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* The whole file as a malloc'd string ("" if unreadable). */
static char *slurp(const char *path)
{
    char *text = calloc(1, 1 << 16);
    FILE *f = fopen(path, "rb");
    if (f) {
        const size_t got = fread(text, 1, (1 << 16) - 1, f);
        text[got] = '\0';
        fclose(f);
    }
    return text;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* text with the first `from` replaced by `to`, malloc'd. */
static char *replace_first(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    char *out = calloc(1, strlen(text) + strlen(to) + 1);
    if (!at) {
        strcpy(out, text);
        return out;
    }
    memcpy(out, text, (size_t)(at - text));
    strcat(out, to);
    strcat(out, at + strlen(from));
    return out;
}

/* The 1-based line of text on which fragment starts. */
static size_t line_of(const char *text, const char *fragment)
{
    const char *at = strstr(text, fragment);
    size_t line = 1;
    for (const char *p = text; at && p < at; ++p)
        line += *p == '\n';
    return line;
}

static struct method_result method(const char *name, const char *family, double median_us)
{
    struct method_result m = {
        .time_us = {.count = 100, .median = median_us, .min = median_us * 0.97,
                    .max = median_us * 1.21, .q1 = median_us * 0.99, .q3 = median_us * 1.01},
        .gbps = 67108864.0 / (median_us * 1e3),
        .pct_peak = 100.0 / 3.0,
        .ratio_to_cub = 1.0 / 7.0,
        .result = 8388608.25,
        .error_ulps = 0.5,
        .rel_error = DBL_MIN / 4.0, /* subnormal: must survive the trip too */
        .status = STATUS_PASS,
        .determinism = DETERMINISM_BITWISE,
        .grid = GRID_SAME,
        .noisy = false,
        .n = 16777216,
        .clocks = {.readings = 100, .sm_mhz_min = 1755, .mem_mhz_min = 2619,
                   .temperature_c_max = 44, .power_w_max = 312.25,
                   .event_reasons = CLOCK_EVENT_SW_POWER_CAP | CLOCK_EVENT_GPU_IDLE},
        .throttled = true,
    };
    snprintf(m.name, sizeof m.name, "%s", name);
    snprintf(m.family, sizeof m.family, "%s", family);
    return m;
}

/* Three rows with the awkward cases: text needing quotes, a leading '#',
 * non-finite numbers, a row with no timings. */
static struct run sample_run(struct method_result rows[3])
{
    rows[0] = method("reduce0", "progression", 812.5);
    rows[1] = method("#cub", "vendor", 32.2);
    rows[1].determinism = DETERMINISM_VARIES;
    rows[1].noisy = true;
    rows[1].result = NAN;
    rows[1].error_ulps = NAN;
    rows[1].rel_error = INFINITY;
    rows[1].grid = GRID_DIFFERS;
    snprintf(rows[1].note, sizeof rows[1].note, "flags: \"odd\", spread | wide");
    rows[2] = (struct method_result){.status = STATUS_REFUSED, .determinism = DETERMINISM_UNKNOWN,
                                     .grid = GRID_UNFORCED};
    snprintf(rows[2].name, sizeof rows[2].name, "atomic_naive");
    snprintf(rows[2].family, sizeof rows[2].family, "progression");
    snprintf(rows[2].note, sizeof rows[2].note, "accepts at most 1048576 elements");
    struct run run = {
        .context = {.sm_count = 132, .l2_bytes = 52428800, .peak_gbs = 3352.32,
                    .driver_version = 13000, .runtime_version = 13000,
                    .cccl_version = 3000000, .cublas_version = 130000,
                    .n = 16777216, .offset = 1, .samples = 100, .seed = UINT64_MAX,
                    .device_index = 1, .max_noise_pct = 0.5, .sm_clock_mhz = 1980,
                    .sm_clock_max_mhz = 1980, .mem_clock_mhz = 2619, .temperature_c = 39,
                    .power_w = 95.5},
        .rows = rows,
        .count = 3,
    };
    snprintf(run.context.device_name, sizeof run.context.device_name,
             "NVIDIA \"H100\", 80GB \\ HBM3=fast");
    snprintf(run.context.flush_mode, sizeof run.context.flush_mode, "read-sweep");
    snprintf(run.context.strategy, sizeof run.context.strategy, "padded");
    snprintf(run.context.element_type, sizeof run.context.element_type, "bfloat16");
    snprintf(run.context.op, sizeof run.context.op, "max");
    snprintf(run.context.distribution, sizeof run.context.distribution, "uniform");
    snprintf(run.context.date, sizeof run.context.date, "2026-11-22T09:00:00Z");
    snprintf(run.context.git_commit, sizeof run.context.git_commit, "abc1234");
    snprintf(run.context.clocks, sizeof run.context.clocks, "nvml");
    return run;
}

/* Exact equality, with NaN equal to NaN (it is what was written). */
static bool same_double(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

static bool same_context(const struct run_context *a, const struct run_context *b)
{
    return strcmp(a->device_name, b->device_name) == 0 && a->sm_count == b->sm_count &&
           a->l2_bytes == b->l2_bytes && a->peak_gbs == b->peak_gbs &&
           a->driver_version == b->driver_version && a->runtime_version == b->runtime_version &&
           a->cccl_version == b->cccl_version && a->cublas_version == b->cublas_version &&
           strcmp(a->flush_mode, b->flush_mode) == 0 && strcmp(a->strategy, b->strategy) == 0 &&
           strcmp(a->element_type, b->element_type) == 0 && strcmp(a->op, b->op) == 0 &&
           a->n == b->n && a->offset == b->offset && a->samples == b->samples &&
           a->device_index == b->device_index && a->max_noise_pct == b->max_noise_pct &&
           strcmp(a->distribution, b->distribution) == 0 && a->seed == b->seed &&
           strcmp(a->date, b->date) == 0 && strcmp(a->git_commit, b->git_commit) == 0 &&
           strcmp(a->clocks, b->clocks) == 0 && a->sm_clock_mhz == b->sm_clock_mhz &&
           a->sm_clock_max_mhz == b->sm_clock_max_mhz && a->mem_clock_mhz == b->mem_clock_mhz &&
           a->temperature_c == b->temperature_c && a->power_w == b->power_w;
}

static bool same_method(const struct method_result *a, const struct method_result *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->family, b->family) == 0 &&
           a->time_us.count == b->time_us.count && a->time_us.median == b->time_us.median &&
           a->time_us.min == b->time_us.min && a->time_us.max == b->time_us.max &&
           a->time_us.q1 == b->time_us.q1 && a->time_us.q3 == b->time_us.q3 &&
           same_double(a->gbps, b->gbps) && same_double(a->pct_peak, b->pct_peak) &&
           same_double(a->ratio_to_cub, b->ratio_to_cub) && same_double(a->result, b->result) &&
           same_double(a->error_ulps, b->error_ulps) && same_double(a->rel_error, b->rel_error) &&
           a->status == b->status && a->determinism == b->determinism && a->grid == b->grid &&
           a->noisy == b->noisy &&
           strcmp(a->note, b->note) == 0 && a->n == b->n &&
           memcmp(&a->clocks, &b->clocks, sizeof a->clocks) == 0 && a->throttled == b->throttled;
}

/* The sample run as CSV text (written to `name`, read, removed). */
static char *sample_csv_text(const char *name)
{
    struct method_result rows[3];
    const struct run run = sample_run(rows);
    char path[512], err[512];
    CHECK(write_run_csv(temp_path(path, sizeof path, name), &run, err, sizeof err) == 0);
    char *text = slurp(path);
    remove(path);
    return text;
}

static bool is_named(const char *field, size_t len, const char *const *names)
{
    for (size_t k = 0; names[k]; ++k)
        if (strlen(names[k]) == len && strncmp(field, names[k], len) == 0)
            return true;
    return false;
}

/* text without the CSV columns named in `drop` (a NULL-terminated list):
 * from the header row and every row up to the end marker, quotes respected. */
static char *without_columns(const char *text, const char *const *drop)
{
    char *out = calloc(1, strlen(text) + 1), *o = out;
    bool dropped[64] = {false}, header_seen = false, in_table = false;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        end = end ? end + 1 : line + strlen(line);
        const bool is_header = !header_seen && line[0] != '#';
        header_seen = header_seen || is_header;
        in_table = is_header || (in_table && line[0] != '#'); /* '#' after it: the end marker */
        if (!in_table) {
            memcpy(o, line, (size_t)(end - line));
            o += end - line;
            line = end;
            continue;
        }
        size_t column = 0;
        bool quoted = false, first = true;
        for (const char *field = line, *c = line; c < end; ++c) {
            quoted = *c == '"' ? !quoted : quoted;
            if (quoted || (*c != ',' && *c != '\n'))
                continue;
            const size_t len = (size_t)(c - field);
            if (is_header && column < 64)
                dropped[column] = is_named(field, len, drop);
            if (column >= 64 || !dropped[column]) {
                if (!first)
                    *o++ = ',';
                memcpy(o, field, len);
                o += len;
                first = false;
            }
            ++column;
            field = c + 1;
        }
        *o++ = '\n';
        line = end;
    }
    *o = '\0';
    return out;
}

/* The sample CSV as a version 2 writer wrote it: no error_ulps or grid. */
static char *v2_text(void)
{
    static const char *const V3_COLUMNS[] = {
        "n", "error_ulps", "grid", "clock_readings", "sm_clock_mhz", "mem_clock_mhz",
        "temperature_c", "power_w", "clock_events", "throttled", "cols", NULL};
    char *text = sample_csv_text("v2_source.csv");
    char *columns = without_columns(text, V3_COLUMNS);
    char *v2 = replace_first(columns, "# reduction-suite run v4\n", "# reduction-suite run v2\n");
    free(columns);
    free(text);
    return v2;
}

/* Writes text to `name`, reads it, and checks that it is rejected with a
 * message naming the file and containing each fragment (NULL: unused). */
static void check_rejected(const char *name, const char *text, const char *fragment1,
                           const char *fragment2)
{
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, name), text);
    struct run run = {.count = 99};
    CHECK(read_run_csv(path, &run, err, sizeof err) == -1);
    CHECK(run.rows == NULL && run.count == 0);
    free_run(&run); /* in case it was wrongly accepted */
    const bool names_file = strstr(err, path) != NULL;
    const bool has1 = fragment1 == NULL || strstr(err, fragment1) != NULL;
    const bool has2 = fragment2 == NULL || strstr(err, fragment2) != NULL;
    CHECK(names_file);
    CHECK(has1);
    CHECK(has2);
    if (!(names_file && has1 && has2))
        fprintf(stderr, "  message was: %s\n", err);
    remove(path);
}

/* "line N" for the line of text where fragment starts. */
static const char *line_label(char *buf, size_t len, const char *text, const char *fragment)
{
    snprintf(buf, len, "line %zu:", line_of(text, fragment));
    return buf;
}

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
    CHECK(strncmp(text, "# reduction-suite run v4\n", 25) == 0);
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
    static const char *const OPS[] = {"sum", "max", "min"};
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

/* The sample CSV as a version 1 writer wrote it: v1 magic, no element_type
 * or op keys, v2's columns (everything else the same). */
static char *v1_text(void)
{
    char *text = v2_text();
    char *magic = replace_first(text, "# reduction-suite run v2\n", "# reduction-suite run v1\n");
    char *no_type = replace_first(magic, "# element_type=bfloat16\n", "");
    char *v1 = replace_first(no_type, "# op=max\n", "");
    free(no_type);
    free(magic);
    free(text);
    return v1;
}

static void v1_file_should_read_as_a_float_sum(void)
{
    char *text = v1_text();
    CHECK(strncmp(text, "# reduction-suite run v1\n", 25) == 0);
    CHECK(strstr(text, "element_type") == NULL && strstr(text, "# op=") == NULL);
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, "v1.csv"), text);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    if (err[0])
        fprintf(stderr, "  %s\n", err);
    CHECK(strcmp(read.context.element_type, "float") == 0);
    CHECK(strcmp(read.context.op, "sum") == 0);
    /* everything else as written */
    struct method_result rows[3];
    struct run written = sample_run(rows);
    snprintf(written.context.element_type, sizeof written.context.element_type, "float");
    snprintf(written.context.op, sizeof written.context.op, "sum");
    CHECK(same_context(&read.context, &written.context));
    CHECK(read.count == 3);
    for (size_t i = 0; i < read.count && i < 3; ++i) {
        rows[i].error_ulps = NAN; /* columns of v3 */
        rows[i].grid = GRID_UNCHECKED;
        rows[i].clocks = (struct clock_conditions){0};
        rows[i].throttled = false;
        rows[i].n = read.context.n;
        CHECK(same_method(&read.rows[i], &rows[i]));
    }
    free_run(&read);
    remove(path);
    free(text);
}

static void v1_file_should_still_need_every_other_key(void)
{
    char *text = v1_text();
    char *cut = replace_first(text, "# n=16777216\n", "");
    check_rejected("v1_missing_n.csv", cut, "missing context key(s) 'n'", NULL);
    free(cut);
    free(text);
}

static void v2_file_should_need_element_type_and_op(void)
{
    char *text = sample_csv_text("v2_keys.csv");
    char *no_type = replace_first(text, "# element_type=bfloat16\n", "");
    check_rejected("v2_missing_type.csv", no_type, "missing context key(s) 'element_type'", NULL);
    char *no_op = replace_first(text, "# op=max\n", "");
    check_rejected("v2_missing_op.csv", no_op, "missing context key(s) 'op'", NULL);
    char *neither = replace_first(no_type, "# op=max\n", "");
    check_rejected("v2_missing_both.csv", neither, "missing context key(s) 'element_type', 'op'", NULL);
    char *twice = replace_first(text, "# op=max\n", "# op=max\n# op=sum\n");
    check_rejected("v2_op_twice.csv", twice, "context key 'op' given twice", NULL);
    free(twice);
    free(neither);
    free(no_op);
    free(no_type);
    free(text);
}

/* Keys added within v2 are optional: a file written before them reads as
 * device 0 and a fixed sample count. */
static void v2_file_without_later_keys_should_read_them_as_zero(void)
{
    char *text = sample_csv_text("v2_later_keys.csv");
    CHECK(strstr(text, "\n# device_index=1\n") && strstr(text, "\n# max_noise_pct=0.5\n"));
    char *no_device = replace_first(text, "# device_index=1\n", "");
    char *older = replace_first(no_device, "# max_noise_pct=0.5\n", "");
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, "v2_older.csv"), older);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    CHECK(read.context.device_index == 0 && read.context.max_noise_pct == 0.0);
    CHECK(read.count == 3 && strcmp(read.context.element_type, "bfloat16") == 0);
    free_run(&read);
    remove(path);
    char *twice = replace_first(text, "# device_index=1\n", "# device_index=1\n# device_index=2\n");
    check_rejected("v2_device_twice.csv", twice, "context key 'device_index' given twice", NULL);
    free(twice);
    free(older);
    free(no_device);
    free(text);
}

/* v2 files (every committed result before the accuracy columns) read with
 * their own columns: error_ulps unknown (nan), grid unchecked. */
static void v2_file_should_read_without_the_accuracy_columns(void)
{
    char *text = v2_text();
    CHECK(strstr(text, "error_ulps") == NULL && strstr(text, ",grid,") == NULL);
    CHECK(strstr(text, ",result,rel_error,determinism,noisy,") != NULL);
    CHECK(strstr(text, ",8388608.25,5.562684646268003e-309,bitwise,0,") != NULL);
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, "v2.csv"), text);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    if (err[0])
        fprintf(stderr, "  %s\n", err);
    struct method_result rows[3];
    const struct run written = sample_run(rows);
    CHECK(same_context(&read.context, &written.context) && read.count == 3);
    for (size_t i = 0; i < read.count && i < 3; ++i) {
        CHECK(isnan(read.rows[i].error_ulps) && read.rows[i].grid == GRID_UNCHECKED);
        rows[i].error_ulps = NAN;
        rows[i].grid = GRID_UNCHECKED;
        rows[i].clocks = (struct clock_conditions){0};
        rows[i].throttled = false;
        rows[i].n = read.context.n;
        CHECK(same_method(&read.rows[i], &rows[i]));
    }
    free_run(&read);
    remove(path);
    /* a v2 file must not have the v3 columns, nor a v3 file lack them */
    char *sample = sample_csv_text("v3_source.csv");
    char *v2_magic = replace_first(sample, "# reduction-suite run v4\n", "# reduction-suite run v2\n");
    check_rejected("v2_with_v3_columns.csv", v2_magic, "unexpected column(s) 'n', 'error_ulps', 'grid', 'clock_readings'",
                   NULL);
    char *v3_magic = replace_first(text, "# reduction-suite run v2\n", "# reduction-suite run v3\n");
    check_rejected("v3_without_its_columns.csv", v3_magic, "missing column(s) 'n', 'error_ulps', 'grid', 'clock_readings'",
                   NULL);
    free(v3_magic);
    free(v2_magic);
    free(sample);
    free(text);
}

/* The start of a real v2 file (bench/results/h100_64mib.csv, measured on an
 * H100): no per-row n, no clocks. */
static const char V2_FILE[] =
    "# reduction-suite run v2\n# device_name=NVIDIA H100 80GB HBM3\n# sm_count=132\n"
    "# l2_bytes=52428800\n# peak_gbs=3352.32\n# read_ceiling_gbs=2812.1003467648557\n"
    "# launch_floor_us=3.135999897494912\n# driver_version=13000\n# runtime_version=13000\n"
    "# cccl_version=3000001\n# cublas_version=130100\n# flush_mode=read-sweep\n"
    "# strategy=padded\n# element_type=float\n# op=sum\n# n=16777216\n# offset=0\n"
    "# samples=100\n# distribution=uniform\n# seed=1\n# date=2026-11-22T23:48:43Z\n"
    "# git_commit=d0f8ba1\n"
    "name,family,status,median_us,min_us,max_us,q1_us,q3_us,samples,gbps,pct_peak,ratio_to_cub,"
    "result,rel_error,determinism,noisy,host_timed,note\n"
    "reduce3,progression,PASS,49.50400069355965,48.54400083422661,50.75199902057648,"
    "49.15200173854828,49.95200037956238,100,1355.6250618090087,40.43841464445544,"
    "1.695342449535235,8389142,9.28186894220478e-08,bitwise,0,0,\n"
    "smem_serial_atomic,progression,PASS,121.0239976644516,120.64000219106674,121.8239963054657,"
    "120.91999687254429,121.18399888277054,100,554.5087362430756,16.54104429896536,"
    "4.144657356545548,8389176,3.96003878326879e-06,varies,0,0,atomics\n"
    "# end rows=2\n";

static void v2_file_should_read_rows_at_its_n_without_clocks(void)
{
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, "v2.csv"), V2_FILE);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    CHECK(read.count == 2 && read.context.n == 16777216);
    for (size_t i = 0; i < read.count; ++i) {
        CHECK(read.rows[i].n == 16777216);
        CHECK(read.rows[i].clocks.readings == 0 && read.rows[i].clocks.sm_mhz_min == 0);
        CHECK(!read.rows[i].throttled);
    }
    CHECK(read.count == 2 && read.rows[1].time_us.median == 121.0239976644516);
    CHECK(read.context.clocks[0] == '\0' && read.context.sm_clock_mhz == 0);
    free_run(&read);
    /* a v2 file carries exactly v2's columns */
    char *with_n = replace_first(V2_FILE, "name,family,status,", "name,family,n,status,");
    check_rejected("v2_with_n.csv", with_n, "unexpected column(s) 'n'", NULL);
    free(with_n);
    remove(path);
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
    CHECK(strstr(text, "\"format\": \"reduction-suite run v4\"") != NULL);
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
    CHECK(strstr(text, "\"result\": null, \"error_ulps\": null, \"rel_error\": null") != NULL);
    CHECK(strstr(text, "\"result\": 8388608.25, \"error_ulps\": 0.5, \"rel_error\": ") != NULL);
    CHECK(strstr(text, "\"determinism\": \"varies\", \"grid\": \"differs\"") != NULL);
    CHECK(strstr(text, "\"noisy\": true") != NULL);
    CHECK(strstr(text, "\"determinism\": \"varies\"") != NULL);
    CHECK(strstr(text, "\"note\": \"flags: \\\"odd\\\", spread | wide\"") != NULL);
    CHECK(strcmp(text + strlen(text) - 4, "]\n}\n") == 0);
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
    char *text = sample_csv_text("v4_source.csv");
    char *v4 = replace_first(text, "# reduction-suite run v4\n", "# reduction-suite run v5\n");
    check_rejected("v5.csv", v4, "unsupported format version 'v5'", "reads 'v1' to 'v4'");
    char *v20 = replace_first(text, "# reduction-suite run v4\n", "# reduction-suite run v20\n");
    check_rejected("v20.csv", v20, "unsupported format version 'v20'", NULL);
    char *v0 = replace_first(text, "# reduction-suite run v4\n", "# reduction-suite run v0\n");
    check_rejected("v0.csv", v0, "unsupported format version 'v0'", NULL);
    free(v0);
    free(v20);
    free(v4);
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
    check_rejected("extra_field.csv", extra, "30 fields, expected 29", NULL);
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
    RUN_TEST(v2_file_should_read_rows_at_its_n_without_clocks);
    RUN_TEST(v1_file_should_read_as_a_float_sum);
    RUN_TEST(v1_file_should_still_need_every_other_key);
    RUN_TEST(v2_file_should_need_element_type_and_op);
    RUN_TEST(v2_file_without_later_keys_should_read_them_as_zero);
    RUN_TEST(v2_file_should_read_without_the_accuracy_columns);
    RUN_TEST(json_should_escape_text_and_write_non_finite_as_null);
    RUN_TEST(markdown_should_have_caption_and_table);
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
