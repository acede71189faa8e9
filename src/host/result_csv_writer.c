/* The CSV writer (--csv): the format is documented in result_files.c. */
#include <stdio.h>
#include <string.h>

#include "result_files.h"
#include "result_format.h"

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
        write_csv_text(out, (const char *)record + f->offset, field_text_length(f, record));
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
    for (size_t i = 0, len = field_text_length(f, c); i < len; ++i)
        fputc(is_control(s[i]) ? ' ' : s[i], out);
    fputc('\n', out);
}

static void write_csv_body(FILE *out, const struct run *run)
{
    fprintf(out, "%s\n", FORMAT_MAGIC);
    for (size_t k = 0; k < CONTEXT_FIELD_COUNT; ++k)
        write_context_line(out, &CONTEXT_FIELDS[k], &run->context);
    char header[1024];
    fprintf(out, "%s\n", format_header(CURRENT_FORMAT, header, sizeof header));
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

int write_run_csv(const char *path, const struct run *run, char *err, size_t err_len)
{
    return write_run_file(path, run, write_csv_body, err, err_len);
}
