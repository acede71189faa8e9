/* Saving a run and reading one back as a baseline.
 *
 * CSV (--csv; the baseline format, the only one read back)
 * ---------------------------------------------------------
 *   # reduction-suite run v4                      magic and format version
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
 * - The end marker is what tells a whole file from one cut short at a row
 *   boundary. The reader rejects, naming the file (and line and column where
 *   there is one): an empty file, a first line other than the magic line
 *   (foreign file) or another version, a missing or repeated context key, a
 *   header that is not exactly COLUMNS (missing and unexpected columns named),
 *   a row with the wrong number of fields, a value that does not parse in full
 *   or is out of range, a duplicate method name, a last line without a line
 *   break, a missing end marker or one whose count disagrees, and anything but
 *   blank lines after it. Unknown context keys are ignored, so a later v2
 *   writer may add context without breaking older readers.
 * - A row is keyed by (method, n, cols). A single run's rows all have the
 *   context's n; a sweep (--sweep) writes one file of the same format with a
 *   row per method and size, and context n = 0; a row sweep (--row-sweep) a
 *   row per method and width (cols), context shape rows, cols 0.
 * - Shapes (v4): context shape = whole / rows / segments, result_count (the
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
 * - Older files are still read. v1 (float sums only) lacks the element_type
 *   and op keys, which read as float and sum. Keys added later are optional
 *   (device_index, max_noise_pct, the clock keys: a file without them reads
 *   as device 0, a fixed sample count, no clocks). v1 and v2 files have the
 *   columns they had (v1-v3 no shape keys and no cols: the whole array):
 *   no n (it reads as the context's n), no error_ulps
 *   (nan), no grid (-), no clock columns (0); their rel_error was relative to
 *   sum |x|.
 *
 * JSON (--json): one object, for other tools; never read back here.
 *   {"format": "reduction-suite run v4",
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

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"

#define FORMAT_NAME "reduction-suite run"
#define FORMAT_VERSION "v4"
#define FORMAT_VERSION_NUMBER 4
#define FORMAT_VERSION_V1 "v1" /* float sums only: no element_type or op keys */
#define FORMAT_MAGIC_PREFIX "# " FORMAT_NAME " "
#define FORMAT_MAGIC FORMAT_MAGIC_PREFIX FORMAT_VERSION
#define END_MARKER_PREFIX "# end rows="
#define MIN_READ_BYTES ((size_t)64 << 10)
#define MAX_FILE_BYTES ((size_t)16 << 20) /* MIN_READ_BYTES x 2^8; far above any real run */
#define MAX_FIELDS 64                     /* fields stored per line; more are counted */
#define SNIPPET_LEN 48                    /* how much of a bad value a message quotes */

/* ---- one description of every field, shared by all writers and the reader */

enum field_kind {
    FIELD_TEXT, /* char array of `size` bytes */
    FIELD_INT,  /* FIELD_INT..FIELD_DOUBLE: the numbers */
    FIELD_SIZE,
    FIELD_U64,
    FIELD_DOUBLE,
    FIELD_STATUS,      /* enum method_status, by method_status_name */
    FIELD_DETERMINISM, /* enum determinism, by determinism_name */
    FIELD_GRID,        /* enum grid_check, by grid_check_name */
    FIELD_BOOL,
};

struct field {
    const char *name;
    enum field_kind kind;
    size_t offset;
    size_t size;
    bool optional; /* a context key added within v2: a file without it reads as 0 */
    int since;     /* a column added in this format version: older files lack it */
};

#define CONTEXT_FIELD(member, kind)                                                     \
    {#member, kind, offsetof(struct run_context, member),                              \
     sizeof(((struct run_context *)0)->member), false, 0}
#define OPTIONAL_CONTEXT_FIELD(member, kind)                                            \
    {#member, kind, offsetof(struct run_context, member),                              \
     sizeof(((struct run_context *)0)->member), true, 0}
#define METHOD_FIELD(column, member, kind)                                              \
    {column, kind, offsetof(struct method_result, member),                             \
     sizeof(((struct method_result *)0)->member), false, 1}
#define METHOD_FIELD_SINCE(version, column, member, kind)                               \
    {column, kind, offsetof(struct method_result, member),                             \
     sizeof(((struct method_result *)0)->member), false, version}

static const struct field CONTEXT_FIELDS[] = {
    CONTEXT_FIELD(device_name, FIELD_TEXT),     OPTIONAL_CONTEXT_FIELD(device_index, FIELD_INT),
    CONTEXT_FIELD(sm_count, FIELD_INT),
    CONTEXT_FIELD(l2_bytes, FIELD_SIZE),        CONTEXT_FIELD(peak_gbs, FIELD_DOUBLE),
    CONTEXT_FIELD(read_ceiling_gbs, FIELD_DOUBLE), CONTEXT_FIELD(launch_floor_us, FIELD_DOUBLE),
    CONTEXT_FIELD(driver_version, FIELD_INT),   CONTEXT_FIELD(runtime_version, FIELD_INT),
    CONTEXT_FIELD(cccl_version, FIELD_INT),     CONTEXT_FIELD(cublas_version, FIELD_INT),
    CONTEXT_FIELD(flush_mode, FIELD_TEXT),      CONTEXT_FIELD(strategy, FIELD_TEXT),
    CONTEXT_FIELD(element_type, FIELD_TEXT),    CONTEXT_FIELD(op, FIELD_TEXT),
    CONTEXT_FIELD(n, FIELD_SIZE),               CONTEXT_FIELD(offset, FIELD_SIZE),
    CONTEXT_FIELD(samples, FIELD_INT),          OPTIONAL_CONTEXT_FIELD(max_noise_pct, FIELD_DOUBLE),          CONTEXT_FIELD(distribution, FIELD_TEXT),
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
#define CONTEXT_FIELD_COUNT (sizeof CONTEXT_FIELDS / sizeof CONTEXT_FIELDS[0])

static const struct field COLUMNS[] = {
    METHOD_FIELD("name", name, FIELD_TEXT),
    METHOD_FIELD("family", family, FIELD_TEXT),
    METHOD_FIELD_SINCE(3, "n", n, FIELD_SIZE),
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
    METHOD_FIELD_SINCE(3, "error_ulps", error_ulps, FIELD_DOUBLE),
    METHOD_FIELD("rel_error", rel_error, FIELD_DOUBLE),
    METHOD_FIELD("determinism", determinism, FIELD_DETERMINISM),
    METHOD_FIELD_SINCE(3, "grid", grid, FIELD_GRID),
    METHOD_FIELD("noisy", noisy, FIELD_BOOL),
    METHOD_FIELD("host_timed", host_timed, FIELD_BOOL),
    METHOD_FIELD_SINCE(3, "clock_readings", clocks.readings, FIELD_INT),
    METHOD_FIELD_SINCE(3, "sm_clock_mhz", clocks.sm_mhz_min, FIELD_INT),
    METHOD_FIELD_SINCE(3, "mem_clock_mhz", clocks.mem_mhz_min, FIELD_INT),
    METHOD_FIELD_SINCE(3, "temperature_c", clocks.temperature_c_max, FIELD_INT),
    METHOD_FIELD_SINCE(3, "power_w", clocks.power_w_max, FIELD_DOUBLE),
    METHOD_FIELD_SINCE(3, "clock_events", clocks.event_reasons, FIELD_U64),
    METHOD_FIELD_SINCE(3, "throttled", throttled, FIELD_BOOL),
    METHOD_FIELD_SINCE(4, "cols", cols, FIELD_SIZE),
    METHOD_FIELD("note", note, FIELD_TEXT),
};
#define COLUMN_COUNT (sizeof COLUMNS / sizeof COLUMNS[0])

/* The columns of a file of format `version`, in order: COLUMNS less those
 * added after it. */
static size_t columns_of_version(int version, const struct field *columns[COLUMN_COUNT])
{
    size_t count = 0;
    for (size_t i = 0; i < COLUMN_COUNT; ++i)
        if (COLUMNS[i].since <= version)
            columns[count++] = &COLUMNS[i];
    return count;
}

static const enum determinism DETERMINISMS[] = {DETERMINISM_UNKNOWN, DETERMINISM_BITWISE,
                                                DETERMINISM_VARIES};

/* ---- values to text */

/* strlen that stops at max (C11 has no strnlen): a fixed-size text field is
 * read only within its array, even if it is not terminated. */
static size_t bounded_length(const char *s, size_t max)
{
    const char *nul = memchr(s, '\0', max);
    return nul ? (size_t)(nul - s) : max;
}

static size_t text_length(const struct field *f, const void *record)
{
    return bounded_length((const char *)record + f->offset, f->size);
}

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

/* A field's value as plain text: what the CSV holds for every kind but
 * FIELD_TEXT, which the writers quote or escape themselves. */
static const char *format_scalar(const struct field *f, const void *record, char *buf, size_t len)
{
    const char *p = (const char *)record + f->offset;
    switch (f->kind) {
    case FIELD_INT: snprintf(buf, len, "%d", *(const int *)p); break;
    case FIELD_SIZE: snprintf(buf, len, "%zu", *(const size_t *)p); break;
    case FIELD_U64: snprintf(buf, len, "%" PRIu64, *(const uint64_t *)p); break;
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
    case FIELD_TEXT: snprintf(buf, len, "%.*s", (int)text_length(f, record), p); break;
    }
    return buf;
}

static bool is_control(char c) { return (unsigned char)c < 0x20 || c == 0x7f; }

/* The header row of a file of format `version`: its column names, comma-separated. */
static const char *format_header(int version, char *buf, size_t len)
{
    const struct field *columns[COLUMN_COUNT];
    const size_t count = columns_of_version(version, columns);
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", columns[i]->name);
    return buf;
}

/* ---- CSV writer */

static void write_csv_text(FILE *out, const char *s, size_t len)
{
    const bool quoted = len > 0 && (s[0] == '#' || memchr(s, ',', len) || memchr(s, '"', len));
    if (quoted)
        fputc('"', out);
    for (size_t i = 0; i < len; ++i) {
        if (s[i] == '"')
            fputc('"', out);
        fputc(is_control(s[i]) ? ' ' : s[i], out);
    }
    if (quoted)
        fputc('"', out);
}

static void write_csv_field(FILE *out, const struct field *f, const void *record)
{
    char buf[64];
    if (f->kind == FIELD_TEXT)
        write_csv_text(out, (const char *)record + f->offset, text_length(f, record));
    else
        fputs(format_scalar(f, record, buf, sizeof buf), out);
}

static void write_context_line(FILE *out, const struct field *f, const struct run_context *c)
{
    char buf[64];
    fprintf(out, "# %s=", f->name);
    if (f->kind != FIELD_TEXT) {
        fprintf(out, "%s\n", format_scalar(f, c, buf, sizeof buf));
        return;
    }
    const char *s = (const char *)c + f->offset;
    for (size_t i = 0, len = text_length(f, c); i < len; ++i)
        fputc(is_control(s[i]) ? ' ' : s[i], out);
    fputc('\n', out);
}

static void write_csv_body(FILE *out, const struct run *run)
{
    fprintf(out, "%s\n", FORMAT_MAGIC);
    for (size_t k = 0; k < CONTEXT_FIELD_COUNT; ++k)
        write_context_line(out, &CONTEXT_FIELDS[k], &run->context);
    char header[1024];
    fprintf(out, "%s\n", format_header(FORMAT_VERSION_NUMBER, header, sizeof header));
    for (size_t i = 0; i < run->count; ++i) {
        for (size_t c = 0; c < COLUMN_COUNT; ++c) {
            if (c)
                fputc(',', out);
            write_csv_field(out, &COLUMNS[c], &run->rows[i]);
        }
        fputc('\n', out);
    }
    fprintf(out, "%s%zu\n", END_MARKER_PREFIX, run->count);
}

/* ---- JSON writer */

static void write_json_string(FILE *out, const char *s, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len; ++i) {
        const char c = s[i];
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (is_control(c))
                fprintf(out, "\\u%04x", (unsigned)(unsigned char)c);
            else
                fputc(c, out);
        }
    }
    fputc('"', out);
}

static void write_json_value(FILE *out, const struct field *f, const void *record)
{
    char buf[64];
    const char *p = (const char *)record + f->offset;
    switch (f->kind) {
    case FIELD_TEXT:
        write_json_string(out, p, text_length(f, record));
        break;
    case FIELD_U64:
    case FIELD_STATUS:
    case FIELD_DETERMINISM:
    case FIELD_GRID:
        format_scalar(f, record, buf, sizeof buf);
        write_json_string(out, buf, strlen(buf));
        break;
    case FIELD_BOOL:
        fputs(*(const bool *)p ? "true" : "false", out);
        break;
    case FIELD_DOUBLE: /* JSON has no NaN or infinity */
        if (isfinite(*(const double *)p))
            fputs(format_scalar(f, record, buf, sizeof buf), out);
        else
            fputs("null", out);
        break;
    case FIELD_INT:
    case FIELD_SIZE:
        fputs(format_scalar(f, record, buf, sizeof buf), out);
        break;
    }
}

static void write_json_members(FILE *out, const struct field *fields, size_t count,
                               const void *record, const char *separator)
{
    for (size_t i = 0; i < count; ++i) {
        if (i)
            fputs(separator, out);
        fprintf(out, "\"%s\": ", fields[i].name);
        write_json_value(out, &fields[i], record);
    }
}

static void write_json_body(FILE *out, const struct run *run)
{
    fputs("{\n  \"format\": \"" FORMAT_NAME " " FORMAT_VERSION "\",\n  \"context\": {\n    ", out);
    write_json_members(out, CONTEXT_FIELDS, CONTEXT_FIELD_COUNT, &run->context, ",\n    ");
    fputs("\n  },\n  \"methods\": [", out);
    for (size_t i = 0; i < run->count; ++i) {
        fputs(i ? ",\n    {" : "\n    {", out);
        write_json_members(out, COLUMNS, COLUMN_COUNT, &run->rows[i], ", ");
        fputc('}', out);
    }
    fputs(run->count ? "\n  ]\n}\n" : "]\n}\n", out);
}

/* ---- markdown writer */

static void write_markdown_text(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; ++i) {
        if (s[i] == '|')
            fputc('\\', out); /* a bare '|' would split the cell */
        fputc(is_control(s[i]) ? ' ' : s[i], out);
    }
}

/* driver/runtime: 13000 -> "13.0"; CCCL: 3000000 -> "3.0.0". */
static void write_markdown_caption(FILE *out, const struct run_context *c)
{
    write_markdown_text(out, c->device_name, bounded_length(c->device_name, sizeof c->device_name));
    fprintf(out, " (%d SMs, %.0f GB/s theoretical); driver %d.%d, runtime %d.%d, CCCL %d.%d.%d; "
                 "%s %s (%s, seed %" PRIu64 ", offset %zu); median of %d samples, "
                 "L2 flush %s, pass kernels %s; ",
            c->sm_count, c->peak_gbs, c->driver_version / 1000, c->driver_version % 1000 / 10,
            c->runtime_version / 1000, c->runtime_version % 1000 / 10,
            c->cccl_version / 1000000, c->cccl_version / 1000 % 1000, c->cccl_version % 1000,
            c->element_type, c->op, c->distribution, c->seed, c->offset, c->samples,
            c->flush_mode, c->strategy);
    if (c->sm_clock_mhz > 0)
        fprintf(out, "clocks SM %d MHz (max %d), memory %d MHz, %d C, %.0f W at start; ",
                c->sm_clock_mhz, c->sm_clock_max_mhz, c->mem_clock_mhz, c->temperature_c,
                c->power_w);
    else
        fprintf(out, "clocks not recorded; ");
    fprintf(out, "%s, suite %s\n", c->date, c->git_commit);
}

static void write_markdown_cell(FILE *out, const char *s, size_t max)
{
    write_markdown_text(out, s, bounded_length(s, max));
    fputs(" | ", out);
}

static void write_markdown_row(FILE *out, const struct method_result *r)
{
    fputs("| ", out);
    write_markdown_cell(out, r->name, sizeof r->name);
    write_markdown_cell(out, r->family, sizeof r->family);
    fprintf(out, "%zu | ", r->n);
    if (r->time_us.count > 0)
        fprintf(out, "%.2f | %.1f | %.1f | ", r->time_us.median, r->gbps, r->pct_peak);
    else
        fputs("- | - | - | ", out);
    if (r->ratio_to_cub > 0.0) /* 0: CUB did not run */
        fprintf(out, "%.2fx | ", r->ratio_to_cub);
    else
        fputs("- | ", out);
    if (r->time_us.count > 0)
        fprintf(out, "%.9g | %.3g | ", r->result, r->error_ulps);
    else
        fputs("- | - | ", out);
    fputs(method_status_name(r->status), out);
    if (r->noisy)
        fputs(" (noisy)", out);
    if (r->throttled)
        fputs(" THROTTLED", out);
    if (r->status != STATUS_PASS && r->note[0]) {
        fputs(": ", out);
        write_markdown_text(out, r->note, bounded_length(r->note, sizeof r->note));
    }
    fprintf(out, " | %s / %s |\n", determinism_name(r->determinism), grid_check_name(r->grid));
}

static void write_markdown_body(FILE *out, const struct run *run)
{
    write_markdown_caption(out, &run->context);
    fputs("\n| method | family | n | median µs | GB/s | % peak | vs CUB | result | ulps | check | "
          "repeat / grid |\n"
          "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n",
          out);
    for (size_t i = 0; i < run->count; ++i)
        write_markdown_row(out, &run->rows[i]);
}

/* ---- writing atomically */

typedef void (*write_body_fn)(FILE *out, const struct run *run);

static int write_atomically(const char *path, const struct run *run, write_body_fn body,
                            char *err, size_t err_len)
{
    struct atomic_file file;
    if (atomic_file_open(&file, path, err, err_len) != 0)
        return -1;
    body(file.file, run);
    return atomic_file_commit(&file, err, err_len);
}

int write_run_csv(const char *path, const struct run *run, char *err, size_t err_len)
{
    return write_atomically(path, run, write_csv_body, err, err_len);
}

int write_run_json(const char *path, const struct run *run, char *err, size_t err_len)
{
    return write_atomically(path, run, write_json_body, err, err_len);
}

int write_run_markdown(const char *path, const struct run *run, char *err, size_t err_len)
{
    return write_atomically(path, run, write_markdown_body, err, err_len);
}

/* ---- reading: errors */

struct csv_reader {
    const char *path;
    char *err;
    size_t err_len;
    size_t line_no; /* 0 before the first line, and for problems of the whole file */
    int version;    /* the file's format version, from its first line */
};

/* "PATH: line N: what", or "PATH: what" when line_no is 0. Returns -1. */
static int fail(const struct csv_reader *r, size_t line_no, const char *fmt, ...)
{
    char what[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    if (line_no)
        snprintf(r->err, r->err_len, "%s: line %zu: %s", r->path, line_no, what);
    else
        snprintf(r->err, r->err_len, "%s: %s", r->path, what);
    return -1;
}

/* A bounded, printable copy of text for a message. */
static const char *snippet(const char *text, char *buf, size_t len)
{
    size_t i = 0;
    for (; text[i] && i + 4 < len; ++i)
        buf[i] = isprint((unsigned char)text[i]) ? text[i] : '?';
    snprintf(buf + i, len - i, "%s", text[i] ? "..." : "");
    return buf;
}

/* ---- reading: values */

static bool parse_u64(const char *text, uint64_t max, uint64_t *out)
{
    if (!isdigit((unsigned char)text[0])) /* strtoull would take "-1" and " 1" */
        return false;
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE || v > max)
        return false;
    *out = v;
    return true;
}

static bool parse_int(const char *text, int *out)
{
    const bool negative = text[0] == '-';
    uint64_t magnitude;
    if (!parse_u64(text + negative, negative ? (uint64_t)INT_MAX + 1 : INT_MAX, &magnitude))
        return false;
    *out = negative ? (int)(-(int64_t)magnitude) : (int)magnitude;
    return true;
}

static bool parse_double(const char *text, double *out)
{
    if (text[0] == '\0' || isspace((unsigned char)text[0]))
        return false;
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    /* ERANGE also flags subnormal results, which are exact: reject only overflow. */
    if (*end != '\0' || (errno == ERANGE && isinf(v)))
        return false;
    *out = v;
    return true;
}

static bool parse_status(const char *text, enum method_status *out)
{
    for (int s = 0; s < STATUS_COUNT; ++s)
        if (strcmp(text, method_status_name((enum method_status)s)) == 0) {
            *out = (enum method_status)s;
            return true;
        }
    return false;
}

static bool parse_determinism(const char *text, enum determinism *out)
{
    for (size_t i = 0; i < sizeof DETERMINISMS / sizeof DETERMINISMS[0]; ++i)
        if (strcmp(text, determinism_name(DETERMINISMS[i])) == 0) {
            *out = DETERMINISMS[i];
            return true;
        }
    return false;
}

static bool parse_grid_check(const char *text, enum grid_check *out)
{
    for (int g = 0; g < GRID_CHECK_COUNT; ++g)
        if (strcmp(text, grid_check_name((enum grid_check)g)) == 0) {
            *out = (enum grid_check)g;
            return true;
        }
    return false;
}

/* Digits, perhaps after a minus: a whole number, whether or not it fits. */
static bool is_whole_number(const char *text)
{
    const char *digits = text + (text[0] == '-');
    return digits[0] != '\0' && strspn(digits, "0123456789") == strlen(digits);
}

/* Stores text as field f of record. Returns false with what is wrong in why. */
static bool parse_value(const struct field *f, const char *text, void *record, char *why,
                        size_t why_len)
{
    char *p = (char *)record + f->offset;
    char shown[SNIPPET_LEN];
    uint64_t u;
    bool ok = false;
    const char *expected = "";
    switch (f->kind) {
    case FIELD_TEXT:
        if (strlen(text) >= f->size) {
            snprintf(why, why_len, "longer than %zu characters", f->size - 1);
            return false;
        }
        memcpy(p, text, strlen(text) + 1);
        return true;
    case FIELD_INT:
        ok = parse_int(text, (int *)p);
        expected = "a whole number";
        break;
    case FIELD_SIZE:
        ok = parse_u64(text, SIZE_MAX, &u);
        if (ok)
            *(size_t *)p = (size_t)u;
        expected = "a whole number >= 0";
        break;
    case FIELD_U64:
        ok = parse_u64(text, UINT64_MAX, (uint64_t *)p);
        expected = "a whole number >= 0";
        break;
    case FIELD_DOUBLE:
        ok = parse_double(text, (double *)p);
        expected = "a number";
        break;
    case FIELD_STATUS:
        ok = parse_status(text, (enum method_status *)p);
        expected = "PASS, FAIL, ERROR or REFUSED";
        break;
    case FIELD_DETERMINISM:
        ok = parse_determinism(text, (enum determinism *)p);
        expected = "bitwise, varies or -";
        break;
    case FIELD_GRID:
        ok = parse_grid_check(text, (enum grid_check *)p);
        expected = "same, differs, unforced or -";
        break;
    case FIELD_BOOL:
        ok = strcmp(text, "0") == 0 || strcmp(text, "1") == 0;
        if (ok)
            *(bool *)p = text[0] == '1';
        expected = "0 or 1";
        break;
    }
    if (!ok)
        snprintf(why, why_len, "'%s' is %s%s", snippet(text, shown, sizeof shown),
                 f->kind != FIELD_TEXT && f->kind <= FIELD_DOUBLE && is_whole_number(text)
                     ? "out of range for "
                     : "not ",
                 expected);
    return ok;
}

/* ---- reading: lines and fields */

struct line_cursor {
    char *next, *end;
    size_t line_no;
};

/* The next line, NUL-terminated in place, without its line break (LF or
 * CRLF). Returns false at the end of the text. */
static bool next_line(struct line_cursor *c, char **line, bool *terminated)
{
    if (c->next >= c->end)
        return false;
    *line = c->next;
    char *newline = memchr(c->next, '\n', (size_t)(c->end - c->next));
    *terminated = newline != NULL;
    char *stop = newline ? newline : c->end;
    c->next = stop + (newline != NULL);
    if (stop > *line && stop[-1] == '\r')
        --stop;
    *stop = '\0';
    ++c->line_no;
    return true;
}

/* Like next_line, but a last line without its line break - the writer always
 * ends one - means the file was cut short. Returns 1, 0 at the end, -1. */
static int take_line(struct csv_reader *r, struct line_cursor *c, char **line)
{
    bool terminated;
    if (!next_line(c, line, &terminated))
        return 0;
    r->line_no = c->line_no;
    if (!terminated)
        return fail(r, r->line_no, "truncated: the file ends in the middle of this line");
    return 1;
}

/* Splits one CSV record in place (quotes removed, doubled quotes undoubled;
 * unquoting only shrinks, so the text is rewritten where it lies). Stores the
 * first max fields and returns how many there are, or 0 with *problem set. */
static size_t split_csv(char *line, char **fields, size_t max, const char **problem)
{
    size_t count = 0;
    char *in = line;
    for (;;) {
        char *const field = in;
        char *out = in;
        if (*in == '"') {
            for (++in;; ++in) {
                if (*in == '\0') {
                    *problem = "unterminated quoted field";
                    return 0;
                }
                if (*in == '"' && in[1] != '"')
                    break;
                in += *in == '"'; /* "" stands for one quote */
                *out++ = *in;
            }
            ++in;
            if (*in != ',' && *in != '\0') {
                *problem = "text after a closing quote";
                return 0;
            }
        } else {
            for (; *in != ',' && *in != '\0'; ++in) {
                if (*in == '"') {
                    *problem = "a quote inside an unquoted field";
                    return 0;
                }
                *out++ = *in;
            }
        }
        const char separator = *in; /* out may equal in: read before terminating */
        *out = '\0';
        if (count < max)
            fields[count] = field;
        ++count;
        if (separator == '\0')
            return count;
        ++in;
    }
}

/* ---- reading: the parts of the file */

/* Sets r->version: 1 (float sums only) up to FORMAT_VERSION_NUMBER. */
static int check_magic(struct csv_reader *r, struct line_cursor *c)
{
    char *line = NULL;
    bool terminated = false;
    char shown[SNIPPET_LEN];
    next_line(c, &line, &terminated); /* the text is not empty: there is a first line */
    r->line_no = c->line_no;
    if (strncmp(line, FORMAT_MAGIC_PREFIX, strlen(FORMAT_MAGIC_PREFIX)) != 0)
        return fail(r, 0, "not a reduction-suite results file (first line is '%s', expected '%s')",
                    snippet(line, shown, sizeof shown), FORMAT_MAGIC);
    const char *version = line + strlen(FORMAT_MAGIC_PREFIX);
    r->version = 0;
    for (int v = 1; v <= FORMAT_VERSION_NUMBER; ++v) {
        char name[8];
        snprintf(name, sizeof name, "v%d", v);
        r->version = strcmp(version, name) == 0 ? v : r->version;
    }
    if (r->version == 0)
        return fail(r, 1,
                    "unsupported format version '%s' (this build reads '" FORMAT_VERSION_V1
                    "' to '" FORMAT_VERSION "')",
                    snippet(version, shown, sizeof shown));
    if (!terminated)
        return fail(r, 1, "truncated: the file ends in the middle of this line");
    return 0;
}

static const struct field *find_context_field(const char *key)
{
    for (size_t k = 0; k < CONTEXT_FIELD_COUNT; ++k)
        if (strcmp(CONTEXT_FIELDS[k].name, key) == 0)
            return &CONTEXT_FIELDS[k];
    return NULL;
}

static int read_context_line(struct csv_reader *r, char *line, struct run_context *ctx,
                             bool seen[CONTEXT_FIELD_COUNT])
{
    char *const equals = strchr(line, '=');
    if (strncmp(line, "# ", 2) != 0 || !equals || equals == line + 2)
        return fail(r, r->line_no, "malformed context line (expected '# key=value')");
    *equals = '\0';
    const struct field *f = find_context_field(line + 2);
    if (!f)
        return 0; /* a key from a later writer: see the format notes */
    const size_t k = (size_t)(f - CONTEXT_FIELDS);
    if (seen[k])
        return fail(r, r->line_no, "context key '%s' given twice", f->name);
    seen[k] = true;
    char why[128];
    if (!parse_value(f, equals + 1, ctx, why, sizeof why))
        return fail(r, r->line_no, "context key '%s': %s", f->name, why);
    return 0;
}

static int check_context_complete(const struct csv_reader *r, const bool seen[CONTEXT_FIELD_COUNT])
{
    char missing[512] = "";
    size_t used = 0;
    for (size_t k = 0; k < CONTEXT_FIELD_COUNT; ++k)
        if (!seen[k] && !CONTEXT_FIELDS[k].optional && used < sizeof missing)
            used += (size_t)snprintf(missing + used, sizeof missing - used, "%s'%s'",
                                     used ? ", " : "", CONTEXT_FIELDS[k].name);
    if (used)
        return fail(r, 0, "missing context key(s) %s", missing);
    return 0;
}

/* Reads '# key=value' lines up to the header row, which it returns. A v1
 * file has no element_type and op: it summed floats. */
static int read_context(struct csv_reader *r, struct line_cursor *c, struct run_context *ctx,
                        char **header)
{
    bool seen[CONTEXT_FIELD_COUNT] = {false};
    if (r->version == 1) {
        snprintf(ctx->element_type, sizeof ctx->element_type, "float");
        snprintf(ctx->op, sizeof ctx->op, "sum");
        seen[(size_t)(find_context_field("element_type") - CONTEXT_FIELDS)] = true;
        seen[(size_t)(find_context_field("op") - CONTEXT_FIELDS)] = true;
    }
    char *line;
    int got;
    while ((got = take_line(r, c, &line)) == 1 && line[0] == '#')
        if (read_context_line(r, line, ctx, seen) != 0)
            return -1;
    if (got < 0)
        return -1;
    if (got == 0)
        return fail(r, 0, "truncated: the file ends before the header row");
    *header = line;
    return check_context_complete(r, seen);
}

static bool header_has(char *const *names, size_t count, const char *name)
{
    for (size_t i = 0; i < count; ++i)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static bool is_column_name(const struct field *const *columns, size_t count, const char *name)
{
    for (size_t i = 0; i < count; ++i)
        if (strcmp(columns[i]->name, name) == 0)
            return true;
    return false;
}

static void append_name(char *list, size_t len, const char *name)
{
    const size_t used = strlen(list);
    snprintf(list + used, len - used, "%s'%s'", used ? ", " : "", name);
}

/* The header must be exactly the columns of the file's version. */
static int check_header(struct csv_reader *r, char *line)
{
    const struct field *columns[COLUMN_COUNT];
    const size_t expected_count = columns_of_version(r->version, columns);
    char *names[MAX_FIELDS];
    const char *problem = NULL;
    const size_t count = split_csv(line, names, MAX_FIELDS, &problem);
    if (problem)
        return fail(r, r->line_no, "header row: %s", problem);
    bool exact = count == expected_count;
    for (size_t i = 0; exact && i < expected_count; ++i)
        exact = strcmp(names[i], columns[i]->name) == 0;
    if (exact)
        return 0;
    if (count > MAX_FIELDS)
        return fail(r, r->line_no, "header row has %zu columns, expected %zu", count,
                    expected_count);
    char missing[512] = "", unexpected[512] = "";
    for (size_t i = 0; i < expected_count; ++i)
        if (!header_has(names, count, columns[i]->name))
            append_name(missing, sizeof missing, columns[i]->name);
    for (size_t i = 0; i < count; ++i)
        if (!is_column_name(columns, expected_count, names[i]))
            append_name(unexpected, sizeof unexpected, names[i]);
    if (missing[0] || unexpected[0])
        return fail(r, r->line_no, "header row: %s%s%s%s%s", missing[0] ? "missing column(s) " : "",
                    missing, missing[0] && unexpected[0] ? "; " : "",
                    unexpected[0] ? "unexpected column(s) " : "", unexpected);
    char expected[1024];
    return fail(r, r->line_no, "header row: columns repeated or out of order (expected %s)",
                format_header(r->version, expected, sizeof expected));
}

static int read_row(struct csv_reader *r, char *line, struct method_result *m)
{
    if (line[0] == '\0')
        return fail(r, r->line_no, "empty line where a row was expected");
    char *fields[MAX_FIELDS];
    const char *problem = NULL;
    const size_t count = split_csv(line, fields, MAX_FIELDS, &problem);
    if (problem)
        return fail(r, r->line_no, "%s", problem);
    const struct field *columns[COLUMN_COUNT];
    const size_t expected_count = columns_of_version(r->version, columns);
    if (count != expected_count)
        return fail(r, r->line_no, "%zu fields, expected %zu", count, expected_count);
    *m = (struct method_result){.error_ulps = NAN}; /* unknown where the version has no column */
    char why[128];
    for (size_t i = 0; i < expected_count; ++i)
        if (!parse_value(columns[i], fields[i], m, why, sizeof why))
            return fail(r, r->line_no, "column '%s': %s", columns[i]->name, why);
    if (m->name[0] == '\0')
        return fail(r, r->line_no, "column 'name': empty method name");
    return 0;
}

static int append_row(struct csv_reader *r, struct run *out, size_t *capacity,
                      const struct method_result *m)
{
    if (out->count == *capacity) {
        const size_t grown = *capacity ? 2 * *capacity : 32;
        struct method_result *rows = realloc(out->rows, grown * sizeof *rows);
        if (!rows)
            return fail(r, r->line_no, "out of memory");
        out->rows = rows;
        *capacity = grown;
    }
    out->rows[out->count++] = *m;
    return 0;
}

/* '# end rows=N', then nothing but blank lines. */
static int check_end(struct csv_reader *r, struct line_cursor *c, const char *marker, size_t rows)
{
    uint64_t promised;
    char shown[SNIPPET_LEN];
    if (strncmp(marker, END_MARKER_PREFIX, strlen(END_MARKER_PREFIX)) != 0 ||
        !parse_u64(marker + strlen(END_MARKER_PREFIX), SIZE_MAX, &promised))
        return fail(r, r->line_no, "expected a row or '%sN', found '%s'", END_MARKER_PREFIX,
                    snippet(marker, shown, sizeof shown));
    if (promised != rows)
        return fail(r, r->line_no, "end marker says %" PRIu64 " rows but the file has %zu",
                    promised, rows);
    char *line;
    int got;
    while ((got = take_line(r, c, &line)) == 1)
        if (line[0] != '\0')
            return fail(r, r->line_no, "text after the end marker");
    return got;
}

/* Rows up to the end marker. Rows are consecutive lines, so row j is on
 * first_line + j: that is how a duplicate names where its twin was. A row is
 * keyed by (method, n): a sweep repeats methods, one row per size. Before v3
 * every row reduced the context's n. */
static int read_rows(struct csv_reader *r, struct line_cursor *c, struct run *out)
{
    const size_t first_line = c->line_no + 1;
    size_t capacity = 0;
    char *line;
    int got;
    while ((got = take_line(r, c, &line)) == 1 && line[0] != '#') {
        struct method_result m;
        if (read_row(r, line, &m) != 0)
            return -1;
        if (r->version < 3)
            m.n = out->context.n;
        for (size_t j = 0; j < out->count; ++j)
            if (strcmp(out->rows[j].name, m.name) == 0 && out->rows[j].n == m.n &&
                out->rows[j].cols == m.cols)
                return fail(r, r->line_no, "duplicate method '%s' at n = %zu (also on line %zu)",
                            m.name, m.n, first_line + j);
        if (append_row(r, out, &capacity, &m) != 0)
            return -1;
    }
    if (got < 0)
        return -1;
    if (got == 0)
        return fail(r, 0, "truncated: no end marker ('%sN') after line %zu", END_MARKER_PREFIX,
                    c->line_no);
    return check_end(r, c, line, out->count);
}

/* ---- reading: the whole file */

/* The whole file, NUL-terminated. Grows as it reads, so it works on pipes too. */
static int load_file(const struct csv_reader *r, char **text, size_t *size)
{
    FILE *f = fopen(r->path, "rb");
    if (!f)
        return fail(r, 0, "cannot open: %s", strerror(errno));
    char *buf = NULL;
    size_t used = 0, capacity = 0;
    int status = 0;
    for (;;) {
        if (used == capacity) {
            if (capacity == MAX_FILE_BYTES) {
                status = fail(r, 0, "larger than %zu bytes: not a results file", MAX_FILE_BYTES);
                break;
            }
            const size_t grown = capacity ? 2 * capacity : MIN_READ_BYTES;
            char *bigger = realloc(buf, grown + 1);
            if (!bigger) {
                status = fail(r, 0, "out of memory");
                break;
            }
            buf = bigger;
            capacity = grown;
        }
        const size_t got = fread(buf + used, 1, capacity - used, f);
        used += got;
        if (got == 0)
            break; /* end of file, or an error: ferror tells */
    }
    if (status == 0 && ferror(f))
        status = fail(r, 0, "cannot read: %s", strerror(errno));
    fclose(f);
    if (status != 0) {
        free(buf);
        return -1;
    }
    buf[used] = '\0';
    *text = buf;
    *size = used;
    return 0;
}

static int parse_run(struct csv_reader *r, char *text, size_t size, struct run *out)
{
    if (size == 0)
        return fail(r, 0, "empty file");
    if (memchr(text, '\0', size))
        return fail(r, 0, "not a reduction-suite results file (binary data)");
    struct line_cursor c = {.next = text, .end = text + size, .line_no = 0};
    char *header = NULL;
    if (check_magic(r, &c) != 0 || read_context(r, &c, &out->context, &header) != 0 ||
        check_header(r, header) != 0)
        return -1;
    return read_rows(r, &c, out);
}

int read_run_csv(const char *path, struct run *out, char *err, size_t err_len)
{
    *out = (struct run){0};
    struct csv_reader r = {.path = path, .err = err, .err_len = err_len, .line_no = 0};
    char *text = NULL;
    size_t size = 0;
    if (load_file(&r, &text, &size) != 0)
        return -1;
    const int status = parse_run(&r, text, size, out);
    free(text);
    if (status != 0)
        free_run(out);
    return status;
}

void free_run(struct run *run)
{
    free(run->rows);
    run->rows = NULL;
    run->count = 0;
}
