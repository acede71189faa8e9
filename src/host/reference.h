/* The CPU reference every method is checked against, the bound that decides
 * PASS/FAIL, and how far a result is from the exactly rounded answer. */
#ifndef REFERENCE_H
#define REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "data_gen.h"
#include "exact_sum.h"
#include "summation_order.h"

/* Where an extreme is: its value and its index (NO_INDEX: none). */
struct extreme {
    double value;
    long long index;
};

struct reference {
    struct reduce_spec spec;
    double sum;     /* sum x, computed exactly (exact_sum.h), rounded once to double */
    double sum_abs; /* sum |x| likewise: the scale of any summation error */
    /* The same exact sums rounded once to the accumulator type (float for
     * float, half and bfloat16): the result of a perfect method. */
    double sum_rounded, sum_abs_rounded;
    double max, min; /* exact; the identity when n = 0 */
    /* argmax and argmin: the first largest and the first smallest element, a
     * NaN counting as both (element_type.h's rule); max's and min's identity
     * with NO_INDEX when n = 0; abs_arg_max and abs_arg_min the same over |x|
     * (cuBLAS's I?amax and I?amin, METHOD_SUMS_ABS) */
    struct extreme arg_max, arg_min, abs_arg_max, abs_arg_min;
    size_t n;
    bool exact;     /* the sum is exact in any order (data_gen.h): integers, small-ints */
};

/* Over the n values stored at h (of spec.type), as the GPU reads them: half
 * and bfloat16 are widened exactly. Two exact sums per element: about 2 s
 * for 2^28 elements. */
struct reference compute_reference(struct reduce_spec spec, const void *h, size_t n,
                                   struct data_info info);

/* The same reference built piece by piece, for inputs drawn in parts: a
 * multi-GPU shard of 100 GiB is drawn, copied and folded in chunks, by
 * several threads, never held whole on the host.
 *   start -> add (each piece) -> merge (other threads' partials) -> finish
 * gives exactly compute_reference's values, in any grouping: the sums are
 * exact until finish rounds them. */
struct reference_partial {
    struct exact_sum sum, sum_abs;
    double max, min;
    struct extreme arg_max, arg_min, abs_arg_max, abs_arg_min; /* indices from the
                                                                   partial's first element */
    size_t n;
};

void reference_partial_start(struct reference_partial *p, struct reduce_spec spec);
/* Folds in count values of type t stored at h. */
void reference_partial_add(struct reference_partial *p, enum element_type t, const void *h,
                           size_t count);
/* The arg extremes of ref (arg_max, arg_min and their |x| forms) again, over
 * the n values of type t at h: for a test that planted values in an input
 * whose sums it does not need again (one comparison pass, no exact sums). */
void recompute_extremes(struct reference *ref, enum element_type t, const void *h, size_t n);

/* next's elements follow into's (its indices count on from into's n). */
void reference_partial_merge(struct reference_partial *into, const struct reference_partial *next);

/* Whether value x at index i takes over from extreme e for argmax (max true)
 * or argmin: a NaN beats every number, a larger (smaller) value beats a
 * smaller (larger) one, and equal values - two NaNs included - keep the
 * lower index. The CPU methods and the references share it. */
bool extreme_takes_over(bool max, double x, long long i, struct extreme e);
/* info: the whole input's (fill_data_range says whether its sum is exact). */
struct reference reference_partial_finish(const struct reference_partial *p,
                                          struct reduce_spec spec, struct data_info info);

/* Largest error allowed, in absolute terms, for a method whose sums follow
 * `order`. Max and min, integer sums and exact data: zero - the result must
 * match bit for bit. Floating-point sums: Higham's worst case for the order,
 *     ((1 + u)^k - 1) sum|x|,   k = longest_chain(order, n)  (summation_order.h)
 * (gamma_k sum|x| while k u < 1), u the accumulator's unit roundoff: 2^-24
 * for float, half and bfloat16, 2^-53 for double. A correct method cannot
 * exceed it on any data; FAIL means a bug, not an order that rounds more. A
 * margin of 2^-49 (relative and in units of sum|x|) covers the reference's
 * own rounding to double and the double arithmetic of the check. */
double error_bound(const struct reference *ref, struct summation_order order);
/* The same for a longest chain of k additions given directly (a multi-GPU
 * sum: a shard's chain, then the combine's). */
double chain_error_bound(const struct reference *ref, size_t k);

/* The value a method must match: sum |x| for a METHOD_SUMS_ABS sum; an arg
 * operator's extreme value. */
double reference_target(const struct reference *ref, bool sums_abs);
/* An arg operator's extreme (argmax or argmin); of |x| for a
 * METHOD_SUMS_ABS method (cuBLAS's I?amax and I?amin). */
struct extreme reference_extreme(const struct reference *ref, bool sums_abs);

/* An arg result is right when its index is the reference's and its value is
 * the reference's value, bit for bit (two NaNs match). */
bool arg_result_passes(double value, long long index, struct extreme want);

/* NaN never passes; an infinity only where the target is that infinity (the
 * max or min of nothing); otherwise |result - target| <= error_bound. */
bool result_passes(double result, const struct reference *ref, struct summation_order order,
                   bool sums_abs);
/* result_passes against chain_error_bound(ref, k). */
bool result_within_chain(double result, const struct reference *ref, size_t k, bool sums_abs);

/* A result's distance from the exactly rounded answer (sum_rounded,
 * sum_abs_rounded, or the exact max or min):
 *   ulps      in units in the last place of that answer in the accumulator
 *             type (1 for integers); an answer of 0 counts in the
 *             accumulator's smallest subnormal step (2^-149, 2^-1074), the
 *             ulp of every value that small;
 *   relative  over |answer|; infinite when the answer is 0 and the result
 *             is not.
 * Both 0 for a perfect result, NaN for a NaN result, infinite for an
 * infinite result against a finite answer. */
struct accuracy {
    double ulps, relative;
};
struct accuracy result_accuracy(double result, const struct reference *ref, bool sums_abs);

/* Largest n a METHOD_SERIAL_CHAIN method accepts for spec: a floating-point
 * sum in one running total stops growing once the total's half-ulp exceeds
 * the terms (2^24 + 1 == 2^24 in float), so past 1/u elements it is refused
 * rather than allowed to return a wrong sum (seen at 2^31 + 5 uniform floats:
 * exactly 2^24). 2^24 for float accumulators, 2^53 for double; no limit
 * (SIZE_MAX) for integers, max and min. */
size_t chain_limit(struct reduce_spec spec);

#endif
