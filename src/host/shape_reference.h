/* The CPU reference of a rows, columns or segments reduction, one result at
 * a time (a column read a row apart), and the check of every result a method
 * wrote.
 *
 * Compact on purpose: a 1-column 64 MiB float input has 16M rows, so a row
 * keeps two doubles, not a struct reference - its exact sum rounded once to
 * double (or its max or min) and, for sums, sum |x|, the scale of the row's
 * error bound. The sums are the whole-array reference's exact sums
 * (exact_sum.h) over the row's stored values; shape_result_reference turns
 * one row back into a struct reference, so the bound, the check and the
 * accuracy are reference.h's own, taken at the row's length. */
#ifndef SHAPE_REFERENCE_H
#define SHAPE_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "reference.h"
#include "shape.h"

struct shape_reference {
    struct reduce_spec spec;
    struct reduce_shape shape; /* host offsets for segments: borrowed, not copied */
    size_t n;
    double *value;   /* per result: the exact sum rounded once to double, or the
                        max or min (the identity for an empty row), or the
                        argmax's or argmin's value */
    long long *index; /* per result, argmax and argmin only (NULL otherwise):
                         the extreme's index in its row (NO_INDEX: empty) */
    double *sum_abs; /* per result, sums only (NULL otherwise) */
    bool exact;      /* as struct reference: every row sum is exact in any order */
};

/* Over the n values of spec.type at h, cut by shape (whole, rows or
 * segments with host offsets). False when out of host memory. */
bool compute_shape_reference(struct shape_reference *ref, struct reduce_spec spec,
                             struct reduce_shape shape, const void *h, size_t n,
                             struct data_info info);
void free_shape_reference(struct shape_reference *ref);

/* Result i as a whole-array reference over its own elements (n = the row's
 * length): error_bound, result_passes and result_accuracy apply as they are.
 * Its sum_rounded is the double sum rounded to the accumulator - a second
 * rounding, which can differ from the exactly rounded sum by one unit in a
 * tie: it only feeds the accuracy column, never PASS/FAIL. */
struct reference shape_result_reference(const struct shape_reference *ref, size_t i);

/* The first wrong result: its index, what the method wrote, the reference's
 * target, the bound it missed and its row's length; for argmax and argmin
 * also the index the method wrote and the right one. */
struct result_mismatch {
    size_t index;
    double got, want, bound;
    size_t length;
    long long got_index, want_index;
};

/* Checks results[0 .. shape.count) (result_size each, host memory):
 * integers, max and min bit for bit, argmax and argmin by index and value
 * bit for bit, floating sums within error_bound for `order` at each row's
 * length. False with the first wrong row in *bad. worst (may be
 * NULL): the largest distance of any row from its exactly rounded answer, in
 * ulps and relative (result_accuracy), each the worst over the rows. */
bool check_shaped_results(const struct shape_reference *ref, const void *results,
                          struct summation_order order, bool sums_abs,
                          struct result_mismatch *bad, struct accuracy *worst);

#endif
