/* Result files of every layout the suite has written read back, none
 * rewritten: v1 (float sums), v2, v3 as first written (no error_ulps or
 * grid), v4 (no result_index), and the sweep format v1 of --sweep-csv. What
 * a layout lacks reads as unknown. Temporary files go under argv[1] or the
 * current directory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "check.h"
#include "result_file_fixtures.h"

/* The magic line the writers write today. */
#define CURRENT_MAGIC "# reduction-suite run v5\n"

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

/* The sample CSV as a version 4 writer wrote it: no result_index. */
static char *v4_text(void)
{
    static const char *const V5_COLUMNS[] = {"result_index", NULL};
    char *text = sample_csv_text("v4_source.csv");
    char *columns = without_columns(text, V5_COLUMNS);
    char *v4 = replace_first(columns, CURRENT_MAGIC, "# reduction-suite run v4\n");
    free(columns);
    free(text);
    return v4;
}

/* The sample CSV as a version 2 writer wrote it: no error_ulps or grid. */
static char *v2_text(void)
{
    static const char *const V3_COLUMNS[] = {
        "n", "error_ulps", "grid", "clock_readings", "sm_clock_mhz", "mem_clock_mhz",
        "temperature_c", "power_w", "clock_events", "throttled", "cols", NULL};
    char *text = v4_text();
    char *columns = without_columns(text, V3_COLUMNS);
    char *v2 = replace_first(columns, "# reduction-suite run v4\n", "# reduction-suite run v2\n");
    free(columns);
    free(text);
    return v2;
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
    struct run read = {0};
    CHECK(read_fixture("v1.csv", text, &read));
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
    struct run read = {0};
    CHECK(read_fixture("v2.csv", text, &read));
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
    /* a v2 file must not have the v3 columns, nor a v3 file lack them */
    char *sample = v4_text();
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

/* The start of a real v3 file from before error_ulps and grid joined v3
 * (bench/results/h100_64mib.csv, measured on an H100). */
static const char V3_FIRST_FILE[] =
    "# reduction-suite run v3\n# device_name=NVIDIA H100 80GB HBM3\n# device_index=0\n"
    "# sm_count=132\n# l2_bytes=52428800\n# peak_gbs=3352.32\n"
    "# read_ceiling_gbs=2866.84171447951\n# launch_floor_us=2.9440000653266907\n"
    "# driver_version=13000\n# runtime_version=13000\n# cccl_version=3000001\n"
    "# cublas_version=130100\n# flush_mode=read-sweep\n# strategy=padded\n"
    "# element_type=float\n# op=sum\n# n=16777216\n# offset=0\n# samples=100\n"
    "# max_noise_pct=0\n# distribution=uniform\n# seed=1\n# date=2026-11-23T00:59:04Z\n"
    "# git_commit=84820be\n# clocks=nvml\n# sm_clock_mhz=1980\n# sm_clock_max_mhz=1980\n"
    "# mem_clock_mhz=2619\n# temperature_c=33\n# power_w=83.459\n"
    "name,family,n,status,median_us,min_us,max_us,q1_us,q3_us,samples,gbps,pct_peak,"
    "ratio_to_cub,result,rel_error,determinism,noisy,host_timed,clock_readings,sm_clock_mhz,"
    "mem_clock_mhz,temperature_c,power_w,clock_events,throttled,note\n"
    "smem_serial_atomic,progression,16777216,PASS,120.86399644613266,120.41600048542023,"
    "121.60000205039978,120.72800286114216,121.0239976644516,100,555.2428016056002,"
    "16.562941533194927,4.1989994106110204,8389176,3.96003878326879e-06,varies,0,0,100,1980,"
    "2619,34,131.405,0,0,atomics\n"
    "cpu_loop,cpu,16777216,PASS,14498.512000001967,14224.668000012636,14663.987999990582,"
    "14440.341749995947,14573.861499998719,10,4.628672514806409,0.13807370760567036,"
    "503.7003998943397,8389132,1.284835593154647e-06,bitwise,0,0,0,0,0,0,0,0,0,\n"
    "# end rows=2\n";

static void v3_file_before_the_accuracy_columns_should_read_them_as_unknown(void)
{
    struct run read = {0};
    CHECK(read_fixture("v3_first.csv", V3_FIRST_FILE, &read));
    CHECK(read.count == 2 && read.context.sm_clock_mhz == 1980);
    for (size_t i = 0; i < read.count; ++i)
        CHECK(isnan(read.rows[i].error_ulps) && read.rows[i].grid == GRID_UNCHECKED);
    if (read.count == 2) {
        CHECK(read.rows[0].time_us.q3 == 121.0239976644516 && read.rows[0].result == 8389176);
        CHECK(read.rows[0].clocks.power_w_max == 131.405 && read.rows[0].n == 16777216);
        CHECK(read.rows[1].time_us.count == 10 && read.rows[1].determinism == DETERMINISM_BITWISE);
    }
    free_run(&read);
    /* one of the two columns alone is neither layout: named against the newest */
    char *half =
        replace_first(V3_FIRST_FILE, ",result,rel_error,", ",result,error_ulps,rel_error,");
    check_rejected("v3_half.csv", half, "header row: missing column(s) 'grid'", NULL);
    free(half);
}

/* The sample run as the current writer writes it, less the columns v3 first
 * lacked, reads back whole in every other field. */
static void v3_first_layout_should_keep_every_field_it_has(void)
{
    static const char *const LATER[] = {"error_ulps", "grid", "cols", "result_index", NULL};
    char *text = sample_csv_text("v3_first_source.csv");
    char *columns = without_columns(text, LATER);
    char *v3 = replace_first(columns, CURRENT_MAGIC, "# reduction-suite run v3\n");
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, "v3_first_sample.csv"), v3);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    struct method_result rows[3];
    const struct run written = sample_run(rows);
    CHECK(same_context(&read.context, &written.context) && read.count == 3);
    for (size_t i = 0; i < read.count && i < 3; ++i) {
        rows[i].error_ulps = NAN;
        rows[i].grid = GRID_UNCHECKED;
        CHECK(same_method(&read.rows[i], &rows[i]));
    }
    free_run(&read);
    remove(path);
    free(v3);
    free(columns);
    free(text);
}

/* v4 files (before argmax and argmin) read with every field they have and
 * result_index NO_INDEX; a v4 file with the column, or a v5 file without
 * it, is neither layout. */
static void v4_file_should_read_with_no_index(void)
{
    char *text = v4_text();
    CHECK(strncmp(text, "# reduction-suite run v4\n", 25) == 0);
    CHECK(strstr(text, "result_index") == NULL);
    CHECK(strstr(text, ",ratio_to_cub,result,error_ulps,") != NULL);
    struct run read = {0};
    CHECK(read_fixture("v4.csv", text, &read));
    struct method_result rows[3];
    const struct run written = sample_run(rows);
    CHECK(same_context(&read.context, &written.context) && read.count == 3);
    for (size_t i = 0; i < read.count && i < 3; ++i) {
        CHECK(read.rows[i].result_index == NO_INDEX);
        CHECK(same_method(&read.rows[i], &rows[i]));
    }
    CHECK(read.count == 3 && read.rows[0].result == 8388608.25 && read.rows[0].error_ulps == 0.5);
    free_run(&read);
    char *current = sample_csv_text("v5_source.csv");
    char *v4_with_index = replace_first(current, CURRENT_MAGIC, "# reduction-suite run v4\n");
    check_rejected("v4_with_index.csv", v4_with_index, "unexpected column(s) 'result_index'", NULL);
    char *v5_without = replace_first(text, "# reduction-suite run v4\n", CURRENT_MAGIC);
    check_rejected("v5_without_index.csv", v5_without,
                   "header row: missing column(s) 'result_index'", NULL);
    free(v5_without);
    free(v4_with_index);
    free(current);
    free(text);
}

/* The start of a real sweep v1 file (bench/results/h200_sweep.csv, on an H200). */
static const char SWEEP_V1_FILE[] =
    "# reduction-suite sweep v1\n# device=NVIDIA H200\n# peak_gbs=4814.3\n"
    "# flush_mode=read-sweep\n# samples=50\n# element_type=float\n# op=sum\n"
    "# distribution=uniform\n# git_commit=8f3a920\n# date=2026-11-22T23:38:39Z\n"
    "n,method,family,status,median_us,min_us,max_us,q1_us,q3_us,gbps,pct_peak,ratio_to_cub\n"
    "1024,one_pass_ilp,modern,PASS,3.9040,3.8080,4.9920,3.8080,4.0320,1.05,0.02,0.8356\n"
    "1024,cub,vendor,PASS,4.6720,4.4480,5.6640,4.5440,4.7600,0.88,0.02,1.0000\n"
    "1537,one_pass_ilp,modern,PASS,4.2560,4.0000,4.4800,4.0320,4.2560,1.44,0.03,0.9500\n";

static void sweep_v1_file_should_read_as_a_sweep_with_unknown_accuracy(void)
{
    struct run read = {0};
    CHECK(read_fixture("sweep_v1.csv", SWEEP_V1_FILE, &read));
    const struct run_context *c = &read.context;
    CHECK(strcmp(c->device_name, "NVIDIA H200") == 0 && c->peak_gbs == 4814.3);
    CHECK(c->samples == 50 && strcmp(c->element_type, "float") == 0 && strcmp(c->op, "sum") == 0);
    CHECK(strcmp(c->git_commit, "8f3a920") == 0 && c->n == 0 && c->sm_count == 0);
    CHECK(read.count == 3);
    if (read.count == 3) {
        const struct method_result *m = &read.rows[0];
        CHECK(strcmp(m->name, "one_pass_ilp") == 0 && strcmp(m->family, "modern") == 0);
        CHECK(m->n == 1024 && read.rows[2].n == 1537 && m->cols == 0);
        CHECK(m->time_us.median == 3.904 && m->time_us.q3 == 4.032 && m->time_us.count == 50);
        CHECK(m->gbps == 1.05 && m->ratio_to_cub == 0.8356);
        CHECK(isnan(m->result) && isnan(m->error_ulps) && isnan(m->rel_error));
        CHECK(m->determinism == DETERMINISM_UNKNOWN && m->grid == GRID_UNCHECKED);
        CHECK(!m->noisy && !m->host_timed && m->clocks.readings == 0);
    }
    struct comparison same;
    CHECK(compare_runs(&read, &read, &same) == 0 && same.count == read.count);
    for (size_t i = 0; i < same.count; ++i)
        CHECK(same.rows[i].verdict == VERDICT_SAME && same.rows[i].change_pct == 0.0);
    free_comparison(&same);
    free_run(&read);
}

/* Its keys are all needed; a row that did not pass took no samples; a '#'
 * line has no place among its rows; and it is told apart from other sweeps. */
static void sweep_v1_file_should_hold_to_its_own_layout(void)
{
    char *no_device = replace_first(SWEEP_V1_FILE, "# device=NVIDIA H200\n", "");
    check_rejected("sweep_no_device.csv", no_device, "missing context key(s) 'device'", NULL);
    char *marker = replace_first(SWEEP_V1_FILE, "1537,", "# end rows=2\n1537,");
    check_rejected("sweep_marker.csv", marker, "a '#' line among the rows", "line 14:");
    char *run_columns = replace_first(SWEEP_V1_FILE, "n,method,", "n,name,");
    check_rejected("sweep_name.csv", run_columns, "missing column(s) 'method'",
                   "unexpected column(s) 'name'");
    char *v2 = replace_first(SWEEP_V1_FILE, "sweep v1", "sweep v2");
    check_rejected("sweep_v2.csv", v2, "not a reduction-suite results file", NULL);
    char *refused = replace_first(SWEEP_V1_FILE,
                                  "cub,vendor,PASS,4.6720,4.4480,5.6640,4.5440,4.7600,",
                                  "cub,vendor,REFUSED,0,0,0,0,0,");
    char path[512], err[512] = "";
    write_text(temp_path(path, sizeof path, "sweep_refused.csv"), refused);
    struct run read = {0};
    CHECK(read_run_csv(path, &read, err, sizeof err) == 0);
    CHECK(read.count == 3 && read.rows[1].status == STATUS_REFUSED);
    CHECK(read.count == 3 && read.rows[1].time_us.count == 0);
    free_run(&read);
    remove(path);
    free(refused);
    free(v2);
    free(run_columns);
    free(marker);
    free(no_device);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        temp_dir = argv[1];
    RUN_TEST(v1_file_should_read_as_a_float_sum);
    RUN_TEST(v1_file_should_still_need_every_other_key);
    RUN_TEST(v2_file_should_need_element_type_and_op);
    RUN_TEST(v2_file_without_later_keys_should_read_them_as_zero);
    RUN_TEST(v2_file_should_read_without_the_accuracy_columns);
    RUN_TEST(v2_file_should_read_rows_at_its_n_without_clocks);
    RUN_TEST(v3_file_before_the_accuracy_columns_should_read_them_as_unknown);
    RUN_TEST(v3_first_layout_should_keep_every_field_it_has);
    RUN_TEST(v4_file_should_read_with_no_index);
    RUN_TEST(sweep_v1_file_should_read_as_a_sweep_with_unknown_accuracy);
    RUN_TEST(sweep_v1_file_should_hold_to_its_own_layout);
    return test_exit_code();
}
