/* What a reduction produces from its n elements, beside the element type and
 * the operator: one value for the whole array, one per row or one per column
 * of a matrix, or one per segment of a ragged array. Pure host code, tested
 * on the CPU.
 *
 *   whole     today's reduction: one result (count 1).
 *   rows      count rows of cols elements, row-major and contiguous
 *             (n = count x cols): row i is elements [i x cols, (i+1) x cols).
 *             When cols x element size is not a multiple of 16 bytes, most
 *             rows start misaligned for 16-byte loads: methods handle it.
 *   columns   the count = cols columns of a row-major matrix of n / cols
 *             rows (the same layout as rows): element (r, c) is at
 *             r x cols + c, so column c is elements c, c + cols, c + 2 cols,
 *             ... - n / cols of them, cols apart (shape_stride). Neighbouring
 *             columns are neighbouring elements: a row of the matrix is
 *             contiguous, a column is not.
 *   segments  count segments described by count + 1 offsets, as CUB takes
 *             them: segment i is elements [offsets[i], offsets[i+1]),
 *             offsets[0] = 0, offsets[count] = n, never decreasing. An empty
 *             segment's result is the operator's identity.
 * A method writes one accumulator (accumulator_type) per result, in order,
 * to a device array of count values. */
#ifndef SHAPE_H
#define SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum shape_kind { SHAPE_WHOLE, SHAPE_ROWS, SHAPE_SEGMENTS, SHAPE_COLUMNS, SHAPE_KIND_COUNT };
#define SHAPE_BIT(k) (1u << (k))

/* Offsets are 64-bit: more than 2^31 elements in all is a shape the suite
 * takes, with every row or segment shorter than that or not. */
typedef uint64_t segment_offset;

struct reduce_shape {
    enum shape_kind kind;
    size_t count;  /* results: 1 for whole, the rows, the columns or the segments */
    size_t cols;   /* rows and columns: elements in each row of the matrix (>= 1);
                      0 for the other kinds */
    const segment_offset *offsets; /* segments: count + 1 offsets - device memory
                                      when a method gets the shape, host memory
                                      for the references and CPU methods; NULL
                                      for the other kinds */
};

/* "whole", "rows", "segments", "columns" (tables, result files, messages). */
const char *shape_kind_name(enum shape_kind k);
/* What one result of the kind is called in a message: "row", "column", ... */
const char *shape_result_noun(enum shape_kind k);
/* The kind with that name; SHAPE_KIND_COUNT if none. */
enum shape_kind shape_kind_from_name(const char *name);

/* The shape of one result per whole array: count 1. */
struct reduce_shape whole_shape(void);

/* --cols with --rows or the total: `rows` rows of `cols` elements, or, when
 * rows is 0, n / cols rows. False with one line in err for a width of 0, a
 * total that is not rows x cols, or rows x cols past SIZE_MAX. */
bool make_rows_shape(size_t cols, size_t rows, size_t n, struct reduce_shape *shape, char *err,
                     size_t err_len);
/* The same matrix (--cols, --axis 0), one result per column: count = cols. */
bool make_columns_shape(size_t cols, size_t rows, size_t n, struct reduce_shape *shape,
                        char *err, size_t err_len);

/* Result i's elements: shape_length of them, the first at shape_first, each
 * shape_stride after the one before (host offsets for segments; the whole
 * array is result 0 of n; a column is element i of each row: first i,
 * length n / cols, stride cols; every other kind is contiguous, stride 1). */
size_t shape_first(const struct reduce_shape *shape, size_t i, size_t n);
size_t shape_length(const struct reduce_shape *shape, size_t i, size_t n);
size_t shape_stride(const struct reduce_shape *shape);

/* --row-sweep's and --col-sweep's widths (cols) at a total of n: every power
 * of two up to n and the odd widths 3, 33, 1000 and 100003 that fit,
 * ascending, into widths[] (room for WIDTH_SWEEP_MAX_WIDTHS). Returns how
 * many. */
#define WIDTH_SWEEP_MAX_WIDTHS 72
size_t width_sweep_widths(size_t n, size_t *widths);

/* --segments SPEC: where the segment lengths come from.
 *   uniform:MEAN   lengths uniform in 0 .. 2 MEAN: empty segments included
 *   powerlaw:MEAN  a heavy tail (Lomax, shape 2): lengths
 *                  floor((MEAN + 1/2) (U^(-1/2) - 1)), U uniform in (0, 1];
 *                  about 3 in 4 are shorter than MEAN, the median is near
 *                  0.4 MEAN, and a few are a hundred times MEAN; the mean is
 *                  MEAN (the tail's variance is infinite: a sample mean
 *                  converges slowly)
 *   file:PATH      a text file of lengths, one whole number a line; the
 *                  input's n is their total
 * The generated kinds draw lengths from the seed until they reach n and clip
 * the last: the same (spec, n, seed) gives the same offsets on every machine.
 *
 * Bounds. MEAN is 1 .. SEGMENT_MEAN_MAX: 2^40 elements (4 TiB of floats, past
 * any GPU's memory) keeps uniform's 2 MEAN + 1 and powerlaw's products far
 * from 64-bit overflow. A shape has at most max_count segments
 * (SEGMENT_COUNT_MAX, 2^32: 32 GiB of offsets on the host and as much on the
 * GPU): empty segments cover nothing, so without a bound a generator drawing
 * them could run without end, and a file could grow the offsets without
 * limit. */
enum segment_source { SEGMENTS_UNIFORM, SEGMENTS_POWERLAW, SEGMENTS_FILE };
#define SEGMENT_SPEC_LEN 256
#define SEGMENT_MEAN_MAX ((size_t)1 << 40)
#define SEGMENT_COUNT_MAX ((size_t)1 << 32)

struct segment_spec {
    enum segment_source source;
    size_t mean;                  /* uniform, powerlaw: 1 .. SEGMENT_MEAN_MAX */
    size_t max_count;             /* the most segments: SEGMENT_COUNT_MAX (tests lower it) */
    char text[SEGMENT_SPEC_LEN];  /* as given: tables and result files */
};

/* False with one line in err for an unknown kind, a mean that is not a
 * whole number in 1 .. SEGMENT_MEAN_MAX, an empty path or a spec too long. */
bool parse_segment_spec(const char *text, struct segment_spec *spec, char *err, size_t err_len);

/* powerlaw's length for a draw u in (0, 1]: floor((mean + 1/2) (u^(-1/2) - 1)),
 * clamped to POWERLAW_LENGTH_MAX before it becomes a size_t (a double past
 * 2^64 has no size_t; a length past n is clipped to n anyway). */
#define POWERLAW_LENGTH_MAX ((size_t)1 << 62)
size_t powerlaw_length(size_t mean, double u);

/* The count + 1 offsets of spec's segments (malloc'd; free them), count in
 * *count. Generated kinds cover n elements; a file sets n to its total (in
 * *n). NULL with one line in err: a file that cannot be read, a line that is
 * not a whole number (with its line number), no lengths, more than
 * spec->max_count segments (for generated kinds, also when n / mean alone is
 * past it, before any is drawn), out of memory. */
segment_offset *make_segment_offsets(const struct segment_spec *spec, uint64_t seed, size_t *n,
                                     size_t *count, char *err, size_t err_len);

/* offsets[0] = 0, offsets[count] = n, never decreasing; false with the first
 * offending index in err. */
bool offsets_valid(const segment_offset *offsets, size_t count, size_t n, char *err,
                   size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
