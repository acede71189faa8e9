/* Reading a saved CSV back as a baseline (result_files.h): every format the
 * suite has written (FILE_FORMATS; documented in result_files.c), each
 * problem named with the file, the line and, in a row, the column. */
#include "result_files.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_format.h"
#include "row_index.h"

#define RUN_MAGIC_PREFIX "# " FORMAT_NAME " "
#define MIN_READ_BYTES ((size_t)64 << 10)
#define MAX_FILE_BYTES ((size_t)16 << 20) /* MIN_READ_BYTES x 2^8; far above any real run */
#define MAX_FIELDS 64                     /* fields stored per line; more are counted */

/* ---- errors */

struct csv_reader {
    const char *path;
    char *err;
    size_t err_len;
    size_t line_no; /* 0 before the first line, and for problems of the whole file */
    /* The formats the first line allows (consecutive in FILE_FORMATS); once
     * the header is read, format is the one it matched, format_count 1. */
    const struct file_format *format;
    size_t format_count;
    const struct field *columns[MAX_COLUMNS]; /* the header's */
    size_t column_count;
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

/* ---- lines and fields */

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

/* ---- the parts of the file */

/* Sets r->format to the formats whose first line this is. */
static int check_magic(struct csv_reader *r, struct line_cursor *c)
{
    char *line = NULL;
    bool terminated = false;
    char shown[SNIPPET_LEN];
    next_line(c, &line, &terminated); /* the text is not empty: there is a first line */
    r->line_no = c->line_no;
    r->format_count = 0;
    for (size_t i = 0; i < FILE_FORMAT_COUNT; ++i)
        if (strcmp(FILE_FORMATS[i].magic, line) == 0 && r->format_count++ == 0)
            r->format = &FILE_FORMATS[i];
    const size_t prefix_len = strlen(RUN_MAGIC_PREFIX);
    if (r->format_count == 0 && strncmp(line, RUN_MAGIC_PREFIX, prefix_len) == 0)
        return fail(r, 1,
                    "unsupported format version '%s' (this build reads 'v1' to '" FORMAT_VERSION
                    "', and the older '# reduction-suite sweep v1')",
                    snippet(line + prefix_len, shown, sizeof shown));
    if (r->format_count == 0)
        return fail(r, 0, "not a reduction-suite results file (first line is '%s', expected '%s')",
                    snippet(line, shown, sizeof shown), FORMAT_MAGIC);
    if (!terminated)
        return fail(r, 1, "truncated: the file ends in the middle of this line");
    return 0;
}

static const struct field *find_context_field(const struct file_format *f, const char *key)
{
    for (size_t k = 0; k < f->context_count; ++k)
        if (strcmp(f->context[k].name, key) == 0)
            return &f->context[k];
    return NULL;
}

static int read_context_line(struct csv_reader *r, char *line, struct run_context *ctx,
                             bool seen[MAX_CONTEXT_FIELDS])
{
    char *const equals = strchr(line, '=');
    if (strncmp(line, "# ", 2) != 0 || !equals || equals == line + 2)
        return fail(r, r->line_no, "malformed context line (expected '# key=value')");
    *equals = '\0';
    const struct field *f = find_context_field(r->format, line + 2);
    if (!f)
        return 0; /* a key from a later writer: see the format notes */
    const size_t k = (size_t)(f - r->format->context);
    if (seen[k])
        return fail(r, r->line_no, "context key '%s' given twice", f->name);
    seen[k] = true;
    char why[128];
    if (!parse_value(f, equals + 1, ctx, why, sizeof why))
        return fail(r, r->line_no, "context key '%s': %s", f->name, why);
    return 0;
}

static int check_context_complete(const struct csv_reader *r, const bool seen[MAX_CONTEXT_FIELDS])
{
    const struct file_format *f = r->format;
    char missing[512] = "";
    size_t used = 0;
    for (size_t k = 0; k < f->context_count; ++k)
        if (!seen[k] && !f->context[k].optional && used < sizeof missing)
            used += (size_t)snprintf(missing + used, sizeof missing - used, "%s'%s'",
                                     used ? ", " : "", f->context[k].name);
    if (used)
        return fail(r, 0, "missing context key(s) %s", missing);
    return 0;
}

/* The keys a format implies (v1: a float sum) count as given. */
static void imply_context(const struct csv_reader *r, struct run_context *ctx,
                          bool seen[MAX_CONTEXT_FIELDS])
{
    char why[128];
    for (const struct implied_key *key = r->format->implied; key->key; ++key) {
        const struct field *f = find_context_field(r->format, key->key);
        seen[f - r->format->context] = parse_value(f, key->value, ctx, why, sizeof why);
    }
}

/* Reads '# key=value' lines up to the header row, which it returns. */
static int read_context(struct csv_reader *r, struct line_cursor *c, struct run_context *ctx,
                        char **header)
{
    bool seen[MAX_CONTEXT_FIELDS] = {false};
    imply_context(r, ctx, seen);
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

/* Whether names are exactly the columns of format f; they become the
 * reader's columns either way (the caller tries the next format if not). */
static bool header_is(struct csv_reader *r, const struct file_format *f, char *const *names,
                      size_t count)
{
    r->column_count = format_columns(f, r->columns);
    bool exact = count == r->column_count;
    for (size_t i = 0; exact && i < r->column_count; ++i)
        exact = strcmp(names[i], r->columns[i]->name) == 0;
    return exact;
}

/* What is wrong with a header that matches no layout: said against the
 * newest layout of the file's version. */
static int describe_header_mismatch(struct csv_reader *r, char *const *names, size_t count)
{
    const struct field *columns[MAX_COLUMNS];
    const size_t expected_count = format_columns(r->format, columns);
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
                format_header(r->format, expected, sizeof expected));
}

/* The header must be exactly the columns of one layout the first line allows. */
static int check_header(struct csv_reader *r, char *line)
{
    char *names[MAX_FIELDS];
    const char *problem = NULL;
    const size_t count = split_csv(line, names, MAX_FIELDS, &problem);
    if (problem)
        return fail(r, r->line_no, "header row: %s", problem);
    for (size_t i = 0; i < r->format_count; ++i)
        if (header_is(r, &r->format[i], names, count)) {
            r->format = &r->format[i];
            r->format_count = 1;
            return 0;
        }
    return describe_header_mismatch(r, names, count);
}

/* ---- rows */

static bool has_column(const struct csv_reader *r, size_t offset)
{
    for (size_t i = 0; i < r->column_count; ++i)
        if (r->columns[i]->offset == offset)
            return true;
    return false;
}

/* What a layout did not record but its context tells: rows before v3
 * reduced the context's n; a sweep v1 row that passed took its samples. */
static void fill_from_context(const struct csv_reader *r, const struct run_context *ctx,
                              struct method_result *m)
{
    if (!has_column(r, offsetof(struct method_result, n)))
        m->n = ctx->n;
    if (!has_column(r, offsetof(struct method_result, time_us.count)) &&
        m->status == STATUS_PASS && ctx->samples > 0)
        m->time_us.count = (size_t)ctx->samples;
}

/* The five times, in the order any samples give them. */
static const size_t TIME_ORDER[] = {
    offsetof(struct method_result, time_us.min), offsetof(struct method_result, time_us.q1),
    offsetof(struct method_result, time_us.median), offsetof(struct method_result, time_us.q3),
    offsetof(struct method_result, time_us.max)};
#define TIME_FIGURES (sizeof TIME_ORDER / sizeof TIME_ORDER[0])

/* Times no samples could give: not finite or negative, out of order, or a
 * median that is not a normal positive number in a row that took samples
 * (the noise (q3 - q1) / median would divide by 0 or overflow). Each
 * message names the column and quotes the file's text. */
static int check_times(const struct csv_reader *r, char *const *fields,
                       const struct method_result *m)
{
    size_t at[TIME_FIGURES] = {0}; /* each figure's column */
    for (size_t i = 0; i < r->column_count; ++i)
        for (size_t k = 0; k < TIME_FIGURES; ++k)
            if (r->columns[i]->offset == TIME_ORDER[k])
                at[k] = i; /* every format has all five (FILE_FORMATS) */
    char shown[SNIPPET_LEN], before[SNIPPET_LEN];
    for (size_t k = 0; k < TIME_FIGURES; ++k) {
        const double v = *(const double *)((const char *)m + TIME_ORDER[k]);
        const char *column = r->columns[at[k]]->name;
        if (!isfinite(v) || v < 0.0)
            return fail(r, r->line_no, "column '%s': '%s' is not a time (finite and >= 0)",
                        column, snippet(fields[at[k]], shown, sizeof shown));
        const double previous = k ? *(const double *)((const char *)m + TIME_ORDER[k - 1]) : 0.0;
        if (v < previous)
            return fail(r, r->line_no,
                        "column '%s': '%s' is below %s '%s' (samples give min <= q1 <= median "
                        "<= q3 <= max)",
                        column, snippet(fields[at[k]], shown, sizeof shown),
                        r->columns[at[k - 1]]->name,
                        snippet(fields[at[k - 1]], before, sizeof before));
    }
    if (m->time_us.count > 0 && !isnormal(m->time_us.median))
        return fail(r, r->line_no,
                    "column '%s': '%s' is not a normal positive number in a row of %zu samples "
                    "(the noise (q3 - q1) / median divides by it)",
                    r->columns[at[2]]->name, snippet(fields[at[2]], shown, sizeof shown),
                    m->time_us.count);
    return 0;
}

static int read_row(struct csv_reader *r, char *line, const struct run_context *ctx,
                    struct method_result *m)
{
    if (line[0] == '\0')
        return fail(r, r->line_no, "empty line where a row was expected");
    char *fields[MAX_FIELDS];
    const char *problem = NULL;
    const size_t count = split_csv(line, fields, MAX_FIELDS, &problem);
    if (problem)
        return fail(r, r->line_no, "%s", problem);
    if (count != r->column_count)
        return fail(r, r->line_no, "%zu fields, expected %zu", count, r->column_count);
    /* unknown where the layout has no column */
    *m = (struct method_result){
        .result = NAN, .result_index = NO_INDEX, .error_ulps = NAN, .rel_error = NAN};
    char why[128];
    for (size_t i = 0; i < r->column_count; ++i)
        if (!parse_value(r->columns[i], fields[i], m, why, sizeof why))
            return fail(r, r->line_no, "column '%s': %s", r->columns[i]->name, why);
    if (m->name[0] == '\0')
        return fail(r, r->line_no, "column '%s': empty method name", r->columns[0]->name);
    fill_from_context(r, ctx, m);
    return check_times(r, fields, m);
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

/* Rows up to the end marker (or the end of a format without one). Rows are
 * consecutive lines, so row j is on first_line + j: that is how a duplicate
 * names where its twin was. A row is keyed by (method, n, cols): a sweep
 * repeats methods, one row per size, a row sweep one per width. */
static int read_rows_into(struct csv_reader *r, struct line_cursor *c, struct run *out,
                          struct row_index *index)
{
    const size_t first_line = c->line_no + 1;
    size_t capacity = 0, twin = 0;
    char *line;
    int got;
    while ((got = take_line(r, c, &line)) == 1 && line[0] != '#') {
        struct method_result m;
        if (read_row(r, line, &out->context, &m) != 0 || append_row(r, out, &capacity, &m) != 0)
            return -1;
        const int known = row_index_add(index, out->rows, out->count - 1, &twin);
        if (known < 0)
            return fail(r, r->line_no, "out of memory");
        if (known > 0 && m.cols)
            return fail(r, r->line_no,
                        "duplicate method '%s' at n = %zu, cols = %zu (also on line %zu)", m.name,
                        m.n, m.cols, first_line + twin);
        if (known > 0)
            return fail(r, r->line_no, "duplicate method '%s' at n = %zu (also on line %zu)",
                        m.name, m.n, first_line + twin);
    }
    if (got < 0)
        return -1;
    if (!r->format->end_marker)
        return got == 0 ? 0 : fail(r, r->line_no, "a '#' line among the rows (this format has "
                                                  "no end marker)");
    if (got == 0)
        return fail(r, 0, "truncated: no end marker ('%sN') after line %zu", END_MARKER_PREFIX,
                    c->line_no);
    return check_end(r, c, line, out->count);
}

static int read_rows(struct csv_reader *r, struct line_cursor *c, struct run *out)
{
    struct row_index index;
    if (row_index_init(&index, 0) != 0)
        return fail(r, 0, "out of memory");
    const int status = read_rows_into(r, c, out, &index);
    row_index_free(&index);
    return status;
}

/* ---- the whole file */

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
    struct csv_reader r = {.path = path, .err = err, .err_len = err_len};
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
