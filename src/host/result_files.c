/* Saving a run and reading one back as a baseline: the formats, the one
 * description of every field they share, and values as text. The writers
 * are result_csv_writer.c, result_json_writer.c and result_markdown_writer.c,
 * the reader result_csv_reader.c.
 *
 * CSV (--csv; the baseline format, the only one read back)
 * ---------------------------------------------------------
 *   # reduction-suite run v5                      magic and format version
 *   # device_name=NVIDIA H100 80GB HBM3           one '# key=value' line per
 *   # sm_count=132                                run_context field, in this
 *   ...                                           order (CONTEXT_FIELDS below)
 *   name,family,status,median_us,...,note         the header: COLUMNS below
 *   reduce0,progression,16777216,PASS,812.5,...,  one row per (method, n)
 *   # end rows=21                                 end marker: the row count
 *
 * - Context values run from the first '=' to the end of the line, unquoted
 *   (the key never holds '='), so a device name with commas or quotes needs no
 *   escaping there.
 * - Rows are RFC 4180 fields: a text field holding a comma or a double quote,
 *   or starting with '#' (which would read as a comment line), is quoted, with
 *   inner quotes doubled. Numbers are never quoted.
 * - Every record is one line: the writer turns control characters in text (a
 *   line break in a CUDA error string, say) into spaces. The reader accepts
 *   CRLF line ends.
 * - Doubles are written in the fewest digits (15 to 17) that read back to the
 *   same double, so a round trip is exact; non-finite values as nan, inf, -inf.
 *   Integers are decimal; seed is the full unsigned 64-bit value.
 * - status is PASS / FAIL / ERROR / REFUSED, determinism bitwise / varies / -
 *   (unknown), grid same / differs / unforced / - (run_result.h), noisy and
 *   host_timed 0 or 1; samples is the method's own sample count. error_ulps
 *   and rel_error are the last result's distance from the exactly rounded
 *   answer (reference.h: result_accuracy): nan, inf where they are.
 * - result_index (v5): argmax's and argmin's index of the first result
 *   (element_type.h: -1 for an empty input), -1 for sum, max and min.
 * - The end marker is what tells a whole file from one cut short at a row
 *   boundary. The reader rejects, naming the file (and line and column where
 *   there is one): an empty file, a first line other than the magic line
 *   (foreign file) or another version, a missing or repeated context key, a
 *   header that is not exactly the columns of a layout of its version
 *   (missing and unexpected columns named, against the newest such layout),
 *   a row with the wrong number of fields, a value that does not parse in full
 *   or is out of range, a duplicate row key (below), a last line without a line
 *   break, a missing end marker or one whose count disagrees, and anything but
 *   blank lines after it. Unknown context keys are ignored, so a later v2
 *   writer may add context without breaking older readers.
 * - Times no samples could give are refused, naming the column: a min_us,
 *   q1_us, median_us, q3_us or max_us that is not finite or is negative,
 *   figures out of the order min <= q1 <= median <= q3 <= max, and, in a row
 *   that took samples, a median that is not a normal positive number (0 or
 *   subnormal: the noise (q3 - q1) / median it divides would be meaningless).
 * - A row is keyed by (method, n, cols). A single run's rows all have the
 *   context's n; a sweep (--sweep) writes one file of the same format with a
 *   row per method and size, and context n = 0; a row sweep (--row-sweep) a
 *   row per method and width (cols), context shape rows, cols 0.
 * - Shapes (v4): context shape = whole / rows / segments / columns, result_count (the
 *   results: 1, the rows, the segments), cols (rows: the width) and segments
 *   (the --segments spec, "" otherwise); column cols (a row's width, 0 for
 *   the other shapes). Verdicts are refused across shapes (baseline.h:
 *   same_shape). Rows' gbps counts the results written and the offsets read
 *   beside the input (measure.h: counted_bytes); error_ulps and rel_error are
 *   the worst over the rows.
 * - Clocks: the context records the device's state when the run began
 *   (clocks = "nvml", or why they are unknown, all figures 0 then); each row
 *   the lowest SM and memory clocks, the highest temperature and power over
 *   its clock_readings readings (one after each timed sample), clock_events
 *   = every NVML clock-event reason bit seen (clock_conditions.h), and
 *   throttled = 1 when one of them lowers clocks under load (THROTTLED).
 * - Older files are still read (FILE_FORMATS below), none rewritten; what a
 *   layout lacks reads as unknown, never made up:
 *   v1 (float sums only) lacks the element_type and op keys, which read as
 *   float and sum. Keys added later are optional (device_index,
 *   max_noise_pct, the clock keys: a file without them reads as device 0, a
 *   fixed sample count, no clocks). v1 and v2 have the columns they had (v1-v3
 *   no shape keys and no cols: the whole array): no n (it reads as the
 *   context's n), no error_ulps (nan), no grid (-), no clock columns (0);
 *   their rel_error was relative to sum |x|. v3 was first written without
 *   error_ulps and grid (bench/results/h100_64mib.csv): nan and - there.
 *   v1-v4 have no result_index (they hold no argmax or argmin): -1.
 * - The sweep format, "# reduction-suite sweep v1" (--sweep-csv, before
 *   sweeps wrote this format; bench/results/h200_sweep.csv), reads as a
 *   sweep: keys device (device_name), peak_gbs, flush_mode, samples,
 *   element_type, op, distribution, git_commit and date, the rest of the
 *   context unknown (0 or empty, n 0); columns n, method (name), family,
 *   status, the five times, gbps, pct_peak and ratio_to_cub. It recorded no
 *   per-row sample count: a PASS row counts the context's samples, others
 *   none. result, error_ulps and rel_error read as nan, determinism and grid
 *   as -, noisy and host_timed as 0. It had no end marker, so a sweep file
 *   cut at a row boundary cannot be told from a whole one.
 *
 * JSON (--json): one object, for other tools; never read back here.
 *   {"format": "reduction-suite run v5",
 *    "context": {every CSV context key},
 *    "methods": [{every CSV column}, ...]}   one method per line
 *   Non-finite numbers are null; seed is a string of decimal digits because a
 *   64-bit integer does not survive readers that hold numbers in doubles.
 *
 * Markdown (--markdown): a one-line context caption, a blank line, and the
 * table  method | family | n | median µs | GB/s | % peak | vs CUB | result | ulps |
 * check | repeat / grid  (check: the status, THROTTLED when the clocks were).
 */
#include "result_files.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "result_format.h"

/* ---- one description of every field, shared by all writers and the reader */

#define CONTEXT_FIELD(member, kind)                                                     \
    {#member, kind, offsetof(struct run_context, member),                              \
     sizeof(((struct run_context *)0)->member), false, 0}
#define OPTIONAL_CONTEXT_FIELD(member, kind)                                            \
    {#member, kind, offsetof(struct run_context, member),                              \
     sizeof(((struct run_context *)0)->member), true, 0}
#define NAMED_CONTEXT_FIELD(key, member, kind)                                          \
    {key, kind, offsetof(struct run_context, member),                                  \
     sizeof(((struct run_context *)0)->member), false, 0}
#define METHOD_FIELD(column, member, kind)                                              \
    {column, kind, offsetof(struct method_result, member),                             \
     sizeof(((struct method_result *)0)->member), false, LAYOUT_V1}
#define METHOD_FIELD_SINCE(layout, column, member, kind)                                \
    {column, kind, offsetof(struct method_result, member),                             \
     sizeof(((struct method_result *)0)->member), false, layout}
#define COUNT_OF(array) (sizeof array / sizeof array[0])

const struct field CONTEXT_FIELDS[] = {
    CONTEXT_FIELD(device_name, FIELD_TEXT),     OPTIONAL_CONTEXT_FIELD(device_index, FIELD_INT),
    CONTEXT_FIELD(sm_count, FIELD_INT),
    CONTEXT_FIELD(l2_bytes, FIELD_SIZE),        CONTEXT_FIELD(peak_gbs, FIELD_DOUBLE),
    CONTEXT_FIELD(read_ceiling_gbs, FIELD_DOUBLE), CONTEXT_FIELD(launch_floor_us, FIELD_DOUBLE),
    CONTEXT_FIELD(driver_version, FIELD_INT),   CONTEXT_FIELD(runtime_version, FIELD_INT),
    CONTEXT_FIELD(cccl_version, FIELD_INT),     CONTEXT_FIELD(cublas_version, FIELD_INT),
    CONTEXT_FIELD(flush_mode, FIELD_TEXT),      CONTEXT_FIELD(strategy, FIELD_TEXT),
    CONTEXT_FIELD(element_type, FIELD_TEXT),    CONTEXT_FIELD(op, FIELD_TEXT),
    CONTEXT_FIELD(n, FIELD_SIZE),               CONTEXT_FIELD(offset, FIELD_SIZE),
    CONTEXT_FIELD(samples, FIELD_INT),          OPTIONAL_CONTEXT_FIELD(max_noise_pct, FIELD_DOUBLE),
    CONTEXT_FIELD(distribution, FIELD_TEXT),
    CONTEXT_FIELD(seed, FIELD_U64),             CONTEXT_FIELD(date, FIELD_TEXT),
    CONTEXT_FIELD(git_commit, FIELD_TEXT),
    OPTIONAL_CONTEXT_FIELD(clocks, FIELD_TEXT),
    OPTIONAL_CONTEXT_FIELD(sm_clock_mhz, FIELD_INT),
    OPTIONAL_CONTEXT_FIELD(sm_clock_max_mhz, FIELD_INT),
    OPTIONAL_CONTEXT_FIELD(mem_clock_mhz, FIELD_INT),
    OPTIONAL_CONTEXT_FIELD(temperature_c, FIELD_INT),
    OPTIONAL_CONTEXT_FIELD(power_w, FIELD_DOUBLE),
    /* Shapes (v4): absent from older files, which reduced the whole array. */
    OPTIONAL_CONTEXT_FIELD(shape, FIELD_TEXT),
    OPTIONAL_CONTEXT_FIELD(result_count, FIELD_SIZE),
    OPTIONAL_CONTEXT_FIELD(cols, FIELD_SIZE),
    OPTIONAL_CONTEXT_FIELD(segments, FIELD_TEXT),
};
const size_t CONTEXT_FIELD_COUNT = COUNT_OF(CONTEXT_FIELDS);
_Static_assert(COUNT_OF(CONTEXT_FIELDS) <= MAX_CONTEXT_FIELDS,
               "MAX_CONTEXT_FIELDS must hold every key");

const struct field COLUMNS[] = {
    METHOD_FIELD("name", name, FIELD_TEXT),
    METHOD_FIELD("family", family, FIELD_TEXT),
    METHOD_FIELD_SINCE(LAYOUT_V3_FIRST, "n", n, FIELD_SIZE),
    METHOD_FIELD("status", status, FIELD_STATUS),
    METHOD_FIELD("median_us", time_us.median, FIELD_DOUBLE),
    METHOD_FIELD("min_us", time_us.min, FIELD_DOUBLE),
    METHOD_FIELD("max_us", time_us.max, FIELD_DOUBLE),
    METHOD_FIELD("q1_us", time_us.q1, FIELD_DOUBLE),
    METHOD_FIELD("q3_us", time_us.q3, FIELD_DOUBLE),
    METHOD_FIELD("samples", time_us.count, FIELD_SIZE),
    METHOD_FIELD("gbps", gbps, FIELD_DOUBLE),
    METHOD_FIELD("pct_peak", pct_peak, FIELD_DOUBLE),
    METHOD_FIELD("ratio_to_cub", ratio_to_cub, FIELD_DOUBLE),
    METHOD_FIELD("result", result, FIELD_DOUBLE),
    METHOD_FIELD_SINCE(LAYOUT_V5, "result_index", result_index, FIELD_I64),
    METHOD_FIELD_SINCE(LAYOUT_V3, "error_ulps", error_ulps, FIELD_DOUBLE),
    METHOD_FIELD("rel_error", rel_error, FIELD_DOUBLE),
    METHOD_FIELD("determinism", determinism, FIELD_DETERMINISM),
    METHOD_FIELD_SINCE(LAYOUT_V3, "grid", grid, FIELD_GRID),
    METHOD_FIELD("noisy", noisy, FIELD_BOOL),
    METHOD_FIELD("host_timed", host_timed, FIELD_BOOL),
    METHOD_FIELD_SINCE(LAYOUT_V3_FIRST, "clock_readings", clocks.readings, FIELD_INT),
    METHOD_FIELD_SINCE(LAYOUT_V3_FIRST, "sm_clock_mhz", clocks.sm_mhz_min, FIELD_INT),
    METHOD_FIELD_SINCE(LAYOUT_V3_FIRST, "mem_clock_mhz", clocks.mem_mhz_min, FIELD_INT),
    METHOD_FIELD_SINCE(LAYOUT_V3_FIRST, "temperature_c", clocks.temperature_c_max, FIELD_INT),
    METHOD_FIELD_SINCE(LAYOUT_V3_FIRST, "power_w", clocks.power_w_max, FIELD_DOUBLE),
    METHOD_FIELD_SINCE(LAYOUT_V3_FIRST, "clock_events", clocks.event_reasons, FIELD_U64),
    METHOD_FIELD_SINCE(LAYOUT_V3_FIRST, "throttled", throttled, FIELD_BOOL),
    METHOD_FIELD_SINCE(LAYOUT_V4, "cols", cols, FIELD_SIZE),
    METHOD_FIELD("note", note, FIELD_TEXT),
};
const size_t COLUMN_COUNT = COUNT_OF(COLUMNS);
_Static_assert(COUNT_OF(COLUMNS) <= MAX_COLUMNS, "MAX_COLUMNS must hold every column");

/* ---- the older sweep format (see the notes above) */

static const struct field SWEEP_V1_CONTEXT[] = {
    NAMED_CONTEXT_FIELD("device", device_name, FIELD_TEXT),
    CONTEXT_FIELD(peak_gbs, FIELD_DOUBLE),
    CONTEXT_FIELD(flush_mode, FIELD_TEXT),
    CONTEXT_FIELD(samples, FIELD_INT),
    CONTEXT_FIELD(element_type, FIELD_TEXT),
    CONTEXT_FIELD(op, FIELD_TEXT),
    CONTEXT_FIELD(distribution, FIELD_TEXT),
    CONTEXT_FIELD(git_commit, FIELD_TEXT),
    CONTEXT_FIELD(date, FIELD_TEXT),
};

static const struct field SWEEP_V1_COLUMNS[] = {
    METHOD_FIELD("n", n, FIELD_SIZE),
    METHOD_FIELD("method", name, FIELD_TEXT),
    METHOD_FIELD("family", family, FIELD_TEXT),
    METHOD_FIELD("status", status, FIELD_STATUS),
    METHOD_FIELD("median_us", time_us.median, FIELD_DOUBLE),
    METHOD_FIELD("min_us", time_us.min, FIELD_DOUBLE),
    METHOD_FIELD("max_us", time_us.max, FIELD_DOUBLE),
    METHOD_FIELD("q1_us", time_us.q1, FIELD_DOUBLE),
    METHOD_FIELD("q3_us", time_us.q3, FIELD_DOUBLE),
    METHOD_FIELD("gbps", gbps, FIELD_DOUBLE),
    METHOD_FIELD("pct_peak", pct_peak, FIELD_DOUBLE),
    METHOD_FIELD("ratio_to_cub", ratio_to_cub, FIELD_DOUBLE),
};

/* ---- every format the reader takes */

static const struct implied_key NOTHING_IMPLIED[] = {{NULL, NULL}};
static const struct implied_key FLOAT_SUM[] = {
    {"element_type", "float"}, {"op", "sum"}, {NULL, NULL}};

#define RUN_FORMAT(version, implied, layout)                                            \
    {"# " FORMAT_NAME " " version, CONTEXT_FIELDS, COUNT_OF(CONTEXT_FIELDS), implied,     \
     COLUMNS, COUNT_OF(COLUMNS), layout, true}

/* The current format first: the writers' (CURRENT_FORMAT). */
const struct file_format FILE_FORMATS[] = {
    RUN_FORMAT(FORMAT_VERSION, NOTHING_IMPLIED, LAYOUT_V5),
    RUN_FORMAT("v4", NOTHING_IMPLIED, LAYOUT_V4),
    RUN_FORMAT("v1", FLOAT_SUM, LAYOUT_V1),
    RUN_FORMAT("v2", NOTHING_IMPLIED, LAYOUT_V1),
    RUN_FORMAT("v3", NOTHING_IMPLIED, LAYOUT_V3),
    RUN_FORMAT("v3", NOTHING_IMPLIED, LAYOUT_V3_FIRST),
    {"# reduction-suite sweep v1", SWEEP_V1_CONTEXT, COUNT_OF(SWEEP_V1_CONTEXT),
     NOTHING_IMPLIED, SWEEP_V1_COLUMNS, COUNT_OF(SWEEP_V1_COLUMNS), LAYOUT_V1, false},
};
const size_t FILE_FORMAT_COUNT = COUNT_OF(FILE_FORMATS);
const struct file_format *const CURRENT_FORMAT = &FILE_FORMATS[0];

size_t format_columns(const struct file_format *f, const struct field *columns[MAX_COLUMNS])
{
    size_t count = 0;
    for (size_t i = 0; i < f->column_count && count < MAX_COLUMNS; ++i)
        if (f->columns[i].since <= f->layout)
            columns[count++] = &f->columns[i];
    return count;
}

const char *format_header(const struct file_format *f, char *buf, size_t len)
{
    const struct field *columns[MAX_COLUMNS];
    const size_t count = format_columns(f, columns);
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", columns[i]->name);
    return buf;
}

/* ---- values to text */

size_t bounded_length(const char *s, size_t max)
{
    const char *nul = memchr(s, '\0', max);
    return nul ? (size_t)(nul - s) : max;
}

size_t field_text_length(const struct field *f, const void *record)
{
    return bounded_length((const char *)record + f->offset, f->size);
}

bool is_control(char c) { return (unsigned char)c < 0x20 || c == 0x7f; }

static void format_double(double v, char *buf, size_t len)
{
    if (isnan(v)) {
        snprintf(buf, len, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, len, v < 0 ? "-inf" : "inf");
        return;
    }
    /* 17 significant digits always round-trip; fewer read better when they do. */
    for (int digits = 15; digits < 17; ++digits) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, len, "%.17g", v);
}

const char *format_scalar(const struct field *f, const void *record, char *buf, size_t len)
{
    const char *p = (const char *)record + f->offset;
    switch (f->kind) {
    case FIELD_INT: snprintf(buf, len, "%d", *(const int *)p); break;
    case FIELD_SIZE: snprintf(buf, len, "%zu", *(const size_t *)p); break;
    case FIELD_U64: snprintf(buf, len, "%" PRIu64, *(const uint64_t *)p); break;
    case FIELD_I64: snprintf(buf, len, "%lld", *(const long long *)p); break;
    case FIELD_DOUBLE: format_double(*(const double *)p, buf, len); break;
    case FIELD_STATUS:
        snprintf(buf, len, "%s", method_status_name(*(const enum method_status *)p));
        break;
    case FIELD_DETERMINISM:
        snprintf(buf, len, "%s", determinism_name(*(const enum determinism *)p));
        break;
    case FIELD_GRID:
        snprintf(buf, len, "%s", grid_check_name(*(const enum grid_check *)p));
        break;
    case FIELD_BOOL: snprintf(buf, len, "%d", *(const bool *)p ? 1 : 0); break;
    case FIELD_TEXT: snprintf(buf, len, "%.*s", (int)field_text_length(f, record), p); break;
    }
    return buf;
}

/* ---- writing atomically */

int write_run_file(const char *path, const struct run *run, write_body_fn body, char *err,
                   size_t err_len)
{
    struct atomic_file file;
    if (atomic_file_open(&file, path, err, err_len) != 0)
        return -1;
    body(file.file, run);
    return atomic_file_commit(&file, err, err_len);
}
