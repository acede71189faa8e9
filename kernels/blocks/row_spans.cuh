/* Rows and segments as one thing to a row kernel (steps 21-27): `count`
 * results, result i being Op over the elements [begin(i), end(i)) of the
 * input. A kernel is written once over a Spans type and instantiated for both
 * shapes (src/host/shape.h):
 *   uniform_rows     row i is [i x cols, (i + 1) x cols): no memory read;
 *   offset_segments  segment i is [offsets[i], offsets[i + 1]), the offsets
 *                    in device memory (64-bit, CUB's convention); an empty
 *                    segment gives the identity, as every reducer below does
 *                    for zero elements.
 * Index math is 64-bit throughout: more than 2^31 elements in all is a shape
 * the suite takes. */
#ifndef ROW_SPANS_CUH
#define ROW_SPANS_CUH

#include <cuda_runtime.h>

#include "element_traits.cuh"
#include "shape.h"

/* The most elements an int index counts from a span's start (2^31: the
 * last is INT_MAX); a longer span's arg result carries a 64-bit index. */
constexpr size_t INT_SPAN_ELEMENTS = (size_t)1 << 31;

struct uniform_rows {
    size_t count;
    size_t cols;
    __device__ __forceinline__ size_t begin(size_t i) const { return i * cols; }
    __device__ __forceinline__ size_t end(size_t i) const { return (i + 1) * cols; }
};

struct offset_segments {
    size_t count;
    const segment_offset *offsets;
    __device__ __forceinline__ size_t begin(size_t i) const { return __ldg(&offsets[i]); }
    __device__ __forceinline__ size_t end(size_t i) const { return __ldg(&offsets[i + 1]); }
};

/* Calls f(spans) with the Spans type of `shape`: the one place a run-time
 * shape becomes a template instantiation (as with_pair does for the type and
 * operator). Whole-array shapes are the whole-array entry points' business. */
template <class F> int with_spans(reduce_shape shape, F &&f)
{
    switch (shape.kind) {
    case SHAPE_ROWS: return f(uniform_rows{shape.count, shape.cols});
    case SHAPE_SEGMENTS: return f(offset_segments{shape.count, shape.offsets});
    case SHAPE_WHOLE:
    case SHAPE_COLUMNS: /* a column is not a span: the column steps read it */
    case SHAPE_KIND_COUNT: break;
    }
    return (int)cudaErrorInvalidValue;
}

/* Elements per result on average: the width of rows, n / count for segments.
 * What a launcher may know of a shape without reading the offsets (that would
 * need a host sync inside the timed call). */
static inline size_t mean_span_length(reduce_shape shape, size_t n)
{
    if (shape.kind == SHAPE_ROWS)
        return shape.cols;
    return shape.count > 0 ? n / shape.count : 0;
}

#endif
