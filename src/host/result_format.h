/* The result files' fields and formats: one description of every field and
 * of every layout a file has had, shared by the writers
 * (result_csv_writer.c, result_json_writer.c, result_markdown_writer.c) and
 * the reader (result_csv_reader.c). The formats themselves are documented
 * in result_files.c. Internal to those files. */
#ifndef RESULT_FORMAT_H
#define RESULT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result_files.h"

#define FORMAT_NAME "reduction-suite run"
#define FORMAT_VERSION "v5"
#define FORMAT_MAGIC "# " FORMAT_NAME " " FORMAT_VERSION
#define END_MARKER_PREFIX "# end rows="
#define MAX_COLUMNS 32        /* the most columns any layout has; checked in result_files.c */
#define MAX_CONTEXT_FIELDS 48 /* the most context keys any format has; checked there too */

enum field_kind {
    FIELD_TEXT, /* char array of `size` bytes */
    FIELD_INT,  /* FIELD_INT..FIELD_DOUBLE: the numbers */
    FIELD_SIZE,
    FIELD_U64,
    FIELD_I64, /* long long */
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
    bool optional; /* a context key added within a version: a file without it reads as 0 */
    int since;     /* a column of the layouts from this one on (enum column_layout) */
};

/* The column layouts of the run format, oldest first. A version bump marks
 * most changes; v3 alone was written in two layouts. */
enum column_layout {
    LAYOUT_V1 = 1,   /* v1 and v2 */
    LAYOUT_V3_FIRST, /* v3 as first written: n and the clocks, no error_ulps or grid */
    LAYOUT_V3,       /* v3 with error_ulps and grid */
    LAYOUT_V4,       /* v4: cols */
    LAYOUT_V5,       /* v5: result_index (argmax, argmin) */
};

/* The run format's context keys and columns, in the order the writers write
 * them (every layout's columns are in this order too). */
extern const struct field CONTEXT_FIELDS[];
extern const size_t CONTEXT_FIELD_COUNT;
extern const struct field COLUMNS[];
extern const size_t COLUMN_COUNT;

/* A context key whose value a format implies instead of writing it. */
struct implied_key {
    const char *key, *value;
};

/* One layout a file may have: its first line, its context keys, its columns
 * (those of `columns` from layout `since` or earlier) and whether it ends
 * with the end marker. */
struct file_format {
    const char *magic;
    const struct field *context;
    size_t context_count;
    const struct implied_key *implied; /* NULL-key terminated */
    const struct field *columns;
    size_t column_count;
    int layout;
    bool end_marker;
};

/* Every format the reader takes. Entries with the same magic are
 * consecutive, the newest layout first: a header that matches none is
 * described against that one. */
extern const struct file_format FILE_FORMATS[];
extern const size_t FILE_FORMAT_COUNT;

/* The current format, as the writers write it. */
extern const struct file_format *const CURRENT_FORMAT;

/* The columns of format f, in order. */
size_t format_columns(const struct file_format *f, const struct field *columns[MAX_COLUMNS]);

/* Its header row: the column names, comma-separated. */
const char *format_header(const struct file_format *f, char *buf, size_t len);

/* ---- values to text */

/* strlen that stops at max: a fixed-size text field is read only within its
 * array, even if it is not terminated. */
size_t bounded_length(const char *s, size_t max);
size_t field_text_length(const struct field *f, const void *record);
bool is_control(char c);

/* A field's value as plain text: what the CSV holds for every kind but
 * FIELD_TEXT, which the writers quote or escape themselves. */
const char *format_scalar(const struct field *f, const void *record, char *buf, size_t len);

/* ---- text to values (result_value_parse.c) */

/* Stores text as field f of record. Returns false with what is wrong in why. */
bool parse_value(const struct field *f, const char *text, void *record, char *why,
                 size_t why_len);

/* A whole number >= 0 in full, at most max. */
bool parse_u64(const char *text, uint64_t max, uint64_t *out);

/* A bounded, printable copy of text for a message: SNIPPET_LEN bytes hold
 * as much of a bad value as a message quotes. */
#define SNIPPET_LEN 48
const char *snippet(const char *text, char *buf, size_t len);

/* ---- writing */

typedef void (*write_body_fn)(FILE *out, const struct run *run);

/* Writes body to PATH.tmp and renames it over PATH when whole (atomic_file.h). */
int write_run_file(const char *path, const struct run *run, write_body_fn body, char *err,
                   size_t err_len);

#endif
