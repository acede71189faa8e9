/* The CPU reference every method is checked against, and the bound that
 * decides PASS/FAIL. */
#ifndef REFERENCE_H
#define REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "data_gen.h"

struct reference {
    struct reduce_spec spec;
    double sum;     /* sum x, compensated (Neumaier) in double: exact to ~1e-16 */
    double sum_abs; /* sum |x|, the scale of any summation error */
    double max, min; /* exact; the identity when n = 0 */
    size_t n;
    bool exact;     /* the sum is exact in any order (data_gen.h): integers, small-ints */
};

/* Over the n values stored at h (of spec.type), as the GPU reads them: half
 * and bfloat16 are widened exactly. */
struct reference compute_reference(struct reduce_spec spec, const void *h, size_t n,
                                   struct data_info info);

/* The same reference built piece by piece, for inputs drawn in parts: a
 * multi-GPU shard of 100 GiB is drawn, copied and folded in chunks, by
 * several threads, never held whole on the host.
 *   start -> add (each piece, in order) -> finish
 * gives exactly compute_reference's values (the same operations in the same
 * order). merge folds in a partial built over the pieces that follow (one
 * thread's share): exact for max, min and integer sums, and within a few
 * units in the last place of a double for floating-point sums - far below
 * any error_bound. */
struct reference_partial {
    double sum, sum_carry;         /* sum x, Neumaier-compensated */
    double sum_abs, sum_abs_carry; /* sum |x| */
    double max, min;
    size_t n;
};

struct reference_partial reference_partial_start(struct reduce_spec spec);
/* Folds in count values of type t stored at h. */
void reference_partial_add(struct reference_partial *p, enum element_type t, const void *h,
                           size_t count);
void reference_partial_merge(struct reference_partial *into, const struct reference_partial *next);
/* info: the whole input's (fill_data_range says whether its sum is exact). */
struct reference reference_partial_finish(const struct reference_partial *p,
                                          struct reduce_spec spec, struct data_info info);

/* Largest error allowed, in absolute terms. Max and min, integer sums and
 * exact data: zero - the result must match bit for bit. Floating-point sums:
 * summation in any order of n terms has |error| <= gamma(n-1) * sum|x| in the
 * worst case (gamma(k) = k*u / (1 - k*u), u the accumulator's unit roundoff:
 * 2^-24 for float, half and bfloat16, 2^-53 for double), but that bound is
 * vacuous past 1/u terms. Rounding errors behave like independent random
 * variables, so the realistic bound grows with sqrt(n) (Higham & Mary 2019,
 * "A new approach to probabilistic rounding error analysis"):
 *     bound = LAMBDA * sqrt(n) * u * sum|x|,   LAMBDA = 4,
 * floored at 2u * sum|x| for the smallest n. A tree sum (log2 n deep) sits
 * orders of magnitude below it; a sequential chain (atomics, the plain CPU
 * loop) stays under it until the running sum grows so large that added terms
 * fall below half an ulp - at which point it really is wrong and FAILs. */
double error_bound(const struct reference *ref);

/* The value a method must match: sum |x| for a METHOD_SUMS_ABS sum. */
double reference_target(const struct reference *ref, bool sums_abs);

/* |result - target| relative to sum |x| (the scale of a sum's error); 0
 * when sum |x| is 0 or the two are equal (infinite identities included). */
double relative_error(double result, double target, const struct reference *ref);

/* NaN never passes; an infinity only where the target is that infinity (the
 * max or min of nothing). */
bool result_passes(double result, const struct reference *ref, bool sums_abs);

/* Largest n a METHOD_SERIAL_CHAIN method accepts for spec: a floating-point
 * sum in one running total stops growing once the total's half-ulp exceeds
 * the terms (2^24 + 1 == 2^24 in float), so past 1/u elements it is refused
 * rather than allowed to return a wrong sum (seen at 2^31 + 5 uniform floats:
 * exactly 2^24). 2^24 for float accumulators, 2^53 for double; no limit
 * (SIZE_MAX) for integers, max and min. */
size_t chain_limit(struct reduce_spec spec);

#endif
