/* The JSON writer (--json): the format is documented in result_files.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "result_files.h"
#include "result_format.h"

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
        write_json_string(out, p, field_text_length(f, record));
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
    case FIELD_I64:
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

int write_run_json(const char *path, const struct run *run, char *err, size_t err_len)
{
    return write_run_file(path, run, write_json_body, err, err_len);
}
