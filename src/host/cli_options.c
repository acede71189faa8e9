#include "cli_options.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(err, err_len, fmt, args);
    va_end(args);
}

size_t largest_offset(enum element_type t) { return 16 / element_size(t) - 1; }

/* Seed 000's spelling: -r K runs reduceK. */
static bool add_reduce_step(struct bench_options *o, size_t step, char *err, size_t err_len)
{
    char name[16];
    snprintf(name, sizeof name, "reduce%zu", step);
    return add_method_list(o, name, err, err_len);
}

/* --gpus N (--gpus all is read before the table). */
static bool set_gpus(struct bench_options *o, size_t count, char *err, size_t err_len)
{
    (void)err;
    (void)err_len;
    o->multi_gpu = true;
    o->gpus = (int)count;
    return true;
}

#define FIELD(name) offsetof(struct bench_options, name)

/* In --help's order. */
const struct numeric_option NUMERIC_OPTIONS[] = {
    {.id = 'n', .name = "--size", .usage = "-n, --size N, -s N", .kind = NUMERIC_SIZE,
     .field = FIELD(n), .min = 1, .max = SIZE_MAX},
    {.id = 'b', .name = "--bytes", .usage = "-b, --bytes N", .kind = NUMERIC_SIZE,
     .field = FIELD(bytes), .min = 8, .max = SIZE_MAX, .min_why = "one element of every type"},
    {.id = 'r', .name = "-r", .usage = "-r K", .kind = NUMERIC_SIZE, .set = add_reduce_step,
     .min = 0, .max = 99, .max_why = "reduce99; the registry says which steps exist"},
    {.id = 'S', .name = "--samples", .usage = "-S, --samples N", .kind = NUMERIC_INT,
     .field = FIELD(samples), .min = 1, .max = INT_MAX},
    {.id = 'w', .name = "--warmup", .usage = "-w, --warmup N", .kind = NUMERIC_INT,
     .field = FIELD(warmup), .min = 1, .max = INT_MAX},
    {.id = OPT_MAX_NOISE, .name = "--max-noise", .usage = "--max-noise P",
     .kind = NUMERIC_POSITIVE, .field = FIELD(max_noise_pct), .max = 1000000000},
    {.id = OPT_MIN_SAMPLES, .name = "--min-samples", .usage = "--min-samples N",
     .kind = NUMERIC_INT, .field = FIELD(min_samples), .min = 2, .max = INT_MAX,
     .min_why = "a standard error needs two samples"},
    {.id = OPT_MAX_SAMPLES, .name = "--max-samples", .usage = "--max-samples N",
     .kind = NUMERIC_INT, .field = FIELD(max_samples), .min = 2, .max = INT_MAX,
     .min_why = "a standard error needs two samples"},
    {.id = OPT_TIMEOUT, .name = "--timeout", .usage = "--timeout S", .kind = NUMERIC_POSITIVE,
     .field = FIELD(timeout_s), .max = 1000000000},
    {.id = OPT_BATCH, .name = "--batch", .usage = "--batch K", .kind = NUMERIC_INT,
     .field = FIELD(batch), .min = 1, .max = INT_MAX},
    {.id = OPT_SEED, .name = "--seed", .usage = "--seed N", .kind = NUMERIC_U64,
     .field = FIELD(seed), .min = 0, .max = SIZE_MAX},
    {.id = OPT_OFFSET, .name = "--offset", .usage = "--offset K", .kind = NUMERIC_SIZE,
     .field = FIELD(offset), .min = 0, .max = SIZE_MAX, .max_why = "under 16 bytes",
     .max_for_type = largest_offset},
    {.id = OPT_SWEEP_MAX, .name = "--sweep-max", .usage = "--sweep-max N", .kind = NUMERIC_SIZE,
     .field = FIELD(sweep_max), .min = 1024, .max = SIZE_MAX,
     .min_why = "the sweep starts at 2^10"},
    {.id = OPT_DEVICE, .name = "--device", .usage = "--device N", .kind = NUMERIC_INT,
     .field = FIELD(device), .min = 0, .max = INT_MAX},
    {.id = OPT_GPUS, .name = "--gpus", .usage = "--gpus N (or all)", .kind = NUMERIC_INT,
     .set = set_gpus, .min = 1, .max = MAX_GPUS, .max_why = "the most one process drives"},
    {.id = OPT_COLS, .name = "--cols", .usage = "--cols C", .kind = NUMERIC_SIZE,
     .field = FIELD(cols), .min = 1, .max = SIZE_MAX},
    {.id = OPT_ROWS, .name = "--rows", .usage = "--rows R", .kind = NUMERIC_SIZE,
     .field = FIELD(rows), .min = 1, .max = SIZE_MAX},
    {.id = OPT_AXIS, .name = "--axis", .usage = "--axis A", .kind = NUMERIC_INT,
     .field = FIELD(axis), .min = AXIS_COLUMNS, .max = AXIS_ROWS,
     .max_why = "0 reduces the columns, 1 the rows"},
};
const size_t NUMERIC_OPTION_COUNT = sizeof NUMERIC_OPTIONS / sizeof NUMERIC_OPTIONS[0];

const struct numeric_option *find_numeric_option(int id)
{
    for (size_t i = 0; i < NUMERIC_OPTION_COUNT; ++i)
        if (NUMERIC_OPTIONS[i].id == id)
            return &NUMERIC_OPTIONS[i];
    return NULL;
}

/* A decimal number above 0 and at most opt->max, nothing else. */
static bool apply_positive(const struct numeric_option *opt, struct bench_options *o,
                           const char *text, char *err, size_t err_len)
{
    char *end = NULL;
    errno = 0;
    const double value = strtod(text, &end);
    if (!*text || *end || errno == ERANGE || !(value > 0.0) || text[0] == ' ') {
        cli_fail(err, err_len, "%s: '%s' is not a positive number", opt->name, text);
        return false;
    }
    if (value > (double)opt->max) {
        cli_fail(err, err_len, "%s: %s is out of range (at most %zu)", opt->name, text, opt->max);
        return false;
    }
    *(double *)((char *)o + opt->field) = value;
    return true;
}

/* "(at least 8: one element of every type)": the bound broken and why. */
static void fail_out_of_range(const struct numeric_option *opt, const char *text, bool below,
                              char *err, size_t err_len)
{
    const char *why = below ? opt->min_why : opt->max_why;
    cli_fail(err, err_len, "%s: %s is out of range (at %s %zu%s%s)", opt->name, text,
             below ? "least" : "most", below ? opt->min : opt->max, why ? ": " : "",
             why ? why : "");
}

bool apply_numeric(const struct numeric_option *opt, struct bench_options *o, const char *text,
                   char *err, size_t err_len)
{
    if (opt->kind == NUMERIC_POSITIVE)
        return apply_positive(opt, o, text, err, err_len);
    size_t value = 0;
    if (!parse_count(text, opt->name, &value, err, err_len))
        return false;
    if (value < opt->min || value > opt->max) {
        fail_out_of_range(opt, text, value < opt->min, err, err_len);
        return false;
    }
    if (opt->set)
        return opt->set(o, value, err, err_len);
    char *field = (char *)o + opt->field;
    if (opt->kind == NUMERIC_INT)
        *(int *)field = (int)value;
    else if (opt->kind == NUMERIC_U64)
        *(uint64_t *)field = value;
    else
        *(size_t *)field = value;
    return true;
}

bool add_method_list(struct bench_options *opts, const char *list, char *err, size_t err_len)
{
    const char *start = list;
    for (;;) {
        const char *end = strchr(start, ',');
        const size_t len = end ? (size_t)(end - start) : strlen(start);
        if (len == 0) {
            cli_fail(err, err_len, "-m: empty method name in '%s'", list);
            return false;
        }
        if (len >= METHOD_NAME_MAX) {
            cli_fail(err, err_len, "-m: method name '%.*s' is too long", (int)len, start);
            return false;
        }
        for (size_t i = 0; i < opts->method_count; ++i)
            if (strlen(opts->methods[i]) == len && strncmp(opts->methods[i], start, len) == 0) {
                cli_fail(err, err_len, "-m: method '%.*s' is named twice", (int)len, start);
                return false;
            }
        if (opts->method_count == MAX_SELECTED) {
            cli_fail(err, err_len, "-m: more than %d methods", MAX_SELECTED);
            return false;
        }
        memcpy(opts->methods[opts->method_count], start, len);
        opts->methods[opts->method_count++][len] = '\0';
        if (!end)
            return true;
        start = end + 1;
    }
}

bool runs_matrix(const struct bench_options *o) { return o->type == TYPE_COUNT || o->op == OP_COUNT; }

size_t default_n(const struct bench_options *o, enum element_type t)
{
    if (o->n)
        return o->n;
    if (o->rows)
        return o->rows * o->cols;
    return (o->bytes ? o->bytes : DEFAULT_BYTES) / element_size(t);
}
