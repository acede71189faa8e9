/* The CPU reference every method is checked against, and the error bound
 * that decides PASS/FAIL. */
#ifndef REFERENCE_H
#define REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "data_gen.h"

struct reference {
    double sum;     /* sum x, compensated (Neumaier) in double: exact to ~1e-16 */
    double sum_abs; /* sum |x|, the scale of any float summation error */
    size_t n;
    bool exact;     /* the float sum is exact in any order (data_gen.h) */
};

struct reference compute_reference(const float *h, size_t n, struct data_info info);

/* Largest error allowed for a float sum of these n values, in absolute terms.
 * Float summation in any order of n terms has |error| <= gamma(n-1) * sum|x|
 * in the worst case (gamma(k) = k*u / (1 - k*u), u = 2^-24), but that bound is
 * vacuous past 2^24 terms. Rounding errors behave like independent random
 * variables, so the realistic bound grows with sqrt(n) (Higham & Mary 2019,
 * "A new approach to probabilistic rounding error analysis"):
 *     bound = LAMBDA * sqrt(n) * u * sum|x|,   LAMBDA = 4,
 * floored at 2u * sum|x| for the smallest n. A tree sum (log2 n deep) sits
 * orders of magnitude below it; a sequential float chain (atomics, the plain
 * CPU loop) stays under it until the running sum grows so large that added
 * terms fall below half an ulp - at which point it really is wrong and FAILs.
 * When the data's sum is exact (small integers), the bound is zero. */
double error_bound(const struct reference *ref);

/* The value a method must match: sum |x| for METHOD_SUMS_ABS methods. */
double reference_target(const struct reference *ref, bool sums_abs);

/* |result - target| relative to sum |x| (the scale of the error); 0 when
 * sum |x| is 0. */
double relative_error(double result, double target, const struct reference *ref);

/* NaN and infinities never pass. */
bool result_passes(float result, const struct reference *ref, bool sums_abs);

#endif
