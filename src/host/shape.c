#include "shape.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_gen.h"     /* splitmix64 */
#include "whole_number.h" /* parse_count */

/* Segment lengths draw from their own stream: the same seed's data and
 * lengths are not the same numbers. */
#define SEGMENT_STREAM 0x5e9e47u

static const char *const KIND_NAMES[SHAPE_KIND_COUNT] = {"whole", "rows", "segments", "columns"};

const char *shape_kind_name(enum shape_kind k)
{
    return k < SHAPE_KIND_COUNT ? KIND_NAMES[k] : "?";
}

const char *shape_result_noun(enum shape_kind k)
{
    static const char *const NOUNS[SHAPE_KIND_COUNT] = {"result", "row", "segment", "column"};
    return k < SHAPE_KIND_COUNT ? NOUNS[k] : "result";
}

enum shape_kind shape_kind_from_name(const char *name)
{
    for (int k = 0; k < SHAPE_KIND_COUNT; ++k)
        if (strcmp(name, KIND_NAMES[k]) == 0)
            return (enum shape_kind)k;
    return SHAPE_KIND_COUNT;
}

struct reduce_shape whole_shape(void)
{
    return (struct reduce_shape){.kind = SHAPE_WHOLE, .count = 1};
}

/* The rows of a matrix of `cols` columns: `rows`, or n / cols when rows is 0. */
static bool matrix_rows(size_t cols, size_t rows, size_t n, size_t *matrix_rows, char *err,
                        size_t err_len)
{
    if (cols == 0) {
        snprintf(err, err_len, "--cols: a row of 0 elements has no width; give 1 or more");
        return false;
    }
    if (rows == 0) {
        if (n % cols != 0) {
            snprintf(err, err_len, "--cols %zu: the total of %zu elements is not a whole number of "
                               "rows (give -n or --bytes a multiple of the width, or --rows)",
                 cols, n);
            return false;
        }
        rows = n / cols;
    } else if (rows > SIZE_MAX / cols) {
        snprintf(err, err_len, "--rows %zu x --cols %zu elements is too large", rows, cols);
        return false;
    }
    *matrix_rows = rows;
    return true;
}

bool make_rows_shape(size_t cols, size_t rows, size_t n, struct reduce_shape *shape, char *err,
                     size_t err_len)
{
    if (!matrix_rows(cols, rows, n, &rows, err, err_len))
        return false;
    *shape = (struct reduce_shape){.kind = SHAPE_ROWS, .count = rows, .cols = cols};
    return true;
}

bool make_columns_shape(size_t cols, size_t rows, size_t n, struct reduce_shape *shape,
                        char *err, size_t err_len)
{
    if (!matrix_rows(cols, rows, n, &rows, err, err_len))
        return false;
    *shape = (struct reduce_shape){.kind = SHAPE_COLUMNS, .count = cols, .cols = cols};
    return true;
}

size_t shape_first(const struct reduce_shape *shape, size_t i, size_t n)
{
    (void)n;
    switch (shape->kind) {
    case SHAPE_ROWS: return i * shape->cols;
    case SHAPE_COLUMNS: return i;
    case SHAPE_SEGMENTS: return (size_t)shape->offsets[i];
    default: return 0;
    }
}

size_t shape_length(const struct reduce_shape *shape, size_t i, size_t n)
{
    switch (shape->kind) {
    case SHAPE_ROWS: return shape->cols;
    case SHAPE_COLUMNS: return n / shape->cols;
    case SHAPE_SEGMENTS: return (size_t)(shape->offsets[i + 1] - shape->offsets[i]);
    default: return n;
    }
}

size_t shape_stride(const struct reduce_shape *shape)
{
    return shape->kind == SHAPE_COLUMNS ? shape->cols : 1;
}

size_t width_sweep_widths(size_t n, size_t *widths)
{
    static const size_t ODD[] = {3, 33, 1000, 100003};
    size_t count = 0, odd = 0;
    for (size_t power = 1; power != 0 && power <= n; power <<= 1) {
        for (; odd < sizeof ODD / sizeof ODD[0] && ODD[odd] < power && ODD[odd] <= n; ++odd)
            widths[count++] = ODD[odd];
        widths[count++] = power;
    }
    for (; odd < sizeof ODD / sizeof ODD[0] && ODD[odd] <= n; ++odd)
        widths[count++] = ODD[odd];
    return count;
}

bool parse_segment_spec(const char *text, struct segment_spec *spec, char *err, size_t err_len)
{
    static const struct { const char *prefix; enum segment_source source; } KINDS[] = {
        {"uniform:", SEGMENTS_UNIFORM}, {"powerlaw:", SEGMENTS_POWERLAW}, {"file:", SEGMENTS_FILE}};
    if (strlen(text) >= sizeof spec->text) {
        snprintf(err, err_len, "--segments: the spec is longer than %zu characters",
             sizeof spec->text - 1);
        return false;
    }
    for (size_t k = 0; k < sizeof KINDS / sizeof KINDS[0]; ++k) {
        const size_t len = strlen(KINDS[k].prefix);
        if (strncmp(text, KINDS[k].prefix, len) != 0)
            continue;
        *spec = (struct segment_spec){.source = KINDS[k].source, .max_count = SEGMENT_COUNT_MAX};
        snprintf(spec->text, sizeof spec->text, "%s", text);
        const char *arg = text + len;
        if (spec->source == SEGMENTS_FILE) {
            if (!*arg) {
                snprintf(err, err_len, "--segments file: needs a path (file:PATH)");
                return false;
            }
            return true;
        }
        if (!parse_count(arg, "--segments mean", &spec->mean, err, err_len))
            return false;
        if (spec->mean == 0) {
            snprintf(err, err_len, "--segments %s: the mean length must be 1 or more", text);
            return false;
        }
        if (spec->mean > SEGMENT_MEAN_MAX) {
            snprintf(err, err_len, "--segments %s: the mean length must be at most %zu",
                     text, SEGMENT_MEAN_MAX);
            return false;
        }
        return true;
    }
    snprintf(err, err_len, "--segments: '%s' is not uniform:MEAN, powerlaw:MEAN or file:PATH", text);
    return false;
}

/* A growing array of offsets, offsets[0] = 0. */
struct offset_list {
    segment_offset *at;
    size_t count, capacity; /* segments so far; room for capacity + 1 offsets */
};

/* One more segment, or false with one line in err naming `what` (the spec):
 * past max_count segments, or out of memory. */
static bool append_length(struct offset_list *list, size_t length, size_t max_count,
                          const char *what, char *err, size_t err_len)
{
    if (list->count == max_count) {
        snprintf(err, err_len, "%s: more than %zu segments", what, max_count);
        return false;
    }
    if (list->count == list->capacity) {
        const size_t capacity = list->capacity ? 2 * list->capacity : 1024;
        segment_offset *grown = realloc(list->at, (capacity + 1) * sizeof *grown);
        if (!grown) {
            snprintf(err, err_len, "%s: out of host memory", what);
            return false;
        }
        list->at = grown;
        list->capacity = capacity;
    }
    list->at[list->count + 1] = list->at[list->count] + length;
    ++list->count;
    return true;
}

size_t powerlaw_length(size_t mean, double u)
{
    const double length = floor(((double)mean + 0.5) * (1.0 / sqrt(u) - 1.0));
    return length < (double)POWERLAW_LENGTH_MAX ? (size_t)length : POWERLAW_LENGTH_MAX;
}

/* mean <= SEGMENT_MEAN_MAX: 2 mean + 1 does not wrap. */
static size_t draw_length(const struct segment_spec *spec, uint64_t *state)
{
    if (spec->source == SEGMENTS_UNIFORM)
        return (size_t)(splitmix64(state) % (2 * (uint64_t)spec->mean + 1));
    /* U in (0, 1], 53 bits: U^(-1/2) stays below 2^27. */
    const double u = ldexp((double)((splitmix64(state) >> 11) + 1), -53);
    return powerlaw_length(spec->mean, u);
}

/* Every draw adds a segment, empty or not, so the count bound ends the loop
 * even where lengths of 0 keep coming; a total that alone asks for more
 * segments than that fails at once instead of after max_count draws. */
static bool generate_lengths(const struct segment_spec *spec, uint64_t seed, size_t n,
                             struct offset_list *list, char *err, size_t err_len)
{
    char what[SEGMENT_SPEC_LEN + 16];
    snprintf(what, sizeof what, "--segments %s", spec->text);
    if (n / spec->mean > spec->max_count) {
        snprintf(err, err_len, "%s: %zu elements make about %zu segments, more than the %zu a "
                               "shape may have", what, n, n / spec->mean, spec->max_count);
        return false;
    }
    uint64_t state = seed ^ SEGMENT_STREAM;
    for (size_t covered = 0; covered < n;) {
        size_t length = draw_length(spec, &state);
        if (length > n - covered)
            length = n - covered; /* the last segment, clipped */
        if (!append_length(list, length, spec->max_count, what, err, err_len))
            return false;
        covered += length;
    }
    return true;
}

static bool read_lengths(const char *path, size_t max_count, struct offset_list *list, char *err,
                         size_t err_len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "--segments file:%s: %s", path, strerror(errno));
        return false;
    }
    char line[64], what[SEGMENT_SPEC_LEN + 32];
    bool ok = true;
    for (size_t number = 1; ok && fgets(line, sizeof line, f); ++number) {
        snprintf(what, sizeof what, "--segments file:%s line %zu", path, number);
        const size_t len = strcspn(line, "\r\n");
        if (len == strlen(line) && !feof(f)) {
            snprintf(err, err_len, "%s: longer than a length can be", what);
            ok = false;
            break;
        }
        line[len] = '\0';
        size_t length = 0;
        ok = parse_count(line, what, &length, err, err_len);
        if (ok && length > SIZE_MAX - (size_t)list->at[list->count]) {
            snprintf(err, err_len, "%s: the lengths add up past %zu elements", what, (size_t)SIZE_MAX);
            ok = false;
        }
        ok = ok && append_length(list, length, max_count, what, err, err_len);
    }
    if (ok && ferror(f)) {
        snprintf(err, err_len, "--segments file:%s: read error", path);
        ok = false;
    }
    if (ok && list->count == 0) {
        snprintf(err, err_len, "--segments file:%s: no lengths in it", path);
        ok = false;
    }
    fclose(f);
    return ok;
}

segment_offset *make_segment_offsets(const struct segment_spec *spec, uint64_t seed, size_t *n,
                                     size_t *count, char *err, size_t err_len)
{
    struct offset_list list = {.at = malloc(sizeof *list.at)};
    if (!list.at) {
        snprintf(err, err_len, "--segments: out of host memory");
        return NULL;
    }
    list.at[0] = 0;
    bool ok;
    if (spec->source == SEGMENTS_FILE) {
        ok = read_lengths(spec->text + strlen("file:"), spec->max_count, &list, err, err_len);
        if (ok)
            *n = (size_t)list.at[list.count];
    } else {
        ok = generate_lengths(spec, seed, *n, &list, err, err_len);
    }
    if (!ok) {
        free(list.at);
        return NULL;
    }
    *count = list.count;
    return list.at;
}

bool offsets_valid(const segment_offset *offsets, size_t count, size_t n, char *err,
                   size_t err_len)
{
    if (offsets[0] != 0) {
        snprintf(err, err_len, "offsets[0] is %llu, not 0", (unsigned long long)offsets[0]);
        return false;
    }
    for (size_t i = 0; i < count; ++i)
        if (offsets[i + 1] < offsets[i]) {
            snprintf(err, err_len, "offsets[%zu] = %llu is below offsets[%zu] = %llu", i + 1,
                 (unsigned long long)offsets[i + 1], i, (unsigned long long)offsets[i]);
            return false;
        }
    if (offsets[count] != n) {
        snprintf(err, err_len, "offsets[%zu] = %llu, not the %zu elements", count,
             (unsigned long long)offsets[count], n);
        return false;
    }
    return true;
}
