/* What a reduction produces from its n elements, beside the element type and
 * the operator: one value for the whole array, one per row of a matrix, or
 * one per segment of a ragged array. Pure host code, tested on the CPU.
 *
 *   whole     today's reduction: one result (count 1).
 *   rows      count rows of cols elements, row-major and contiguous
 *             (n = count x cols): row i is elements [i x cols, (i+1) x cols).
 *             When cols x element size is not a multiple of 16 bytes, most
 *             rows start misaligned for 16-byte loads: methods handle it.
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

enum shape_kind { SHAPE_WHOLE, SHAPE_ROWS, SHAPE_SEGMENTS, SHAPE_KIND_COUNT };
#define SHAPE_BIT(k) (1u << (k))

/* Offsets are 64-bit: more than 2^31 elements in all is a shape the suite
 * takes, with every row or segment shorter than that or not. */
typedef uint64_t segment_offset;

struct reduce_shape {
    enum shape_kind kind;
    size_t count;  /* results: 1 for whole, the rows, or the segments */
    size_t cols;   /* rows: elements in each row (>= 1); 0 for the other kinds */
    const segment_offset *offsets; /* segments: count + 1 offsets - device memory
                                      when a method gets the shape, host memory
                                      for the references and CPU methods; NULL
                                      for the other kinds */
};

/* "whole", "rows", "segments" (tables, result files, messages). */
const char *shape_kind_name(enum shape_kind k);

#ifdef __cplusplus
}
#endif

#endif
