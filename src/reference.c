#include "reference.h"

#include <math.h>

#define FLOAT_UNIT_ROUNDOFF 0x1p-24
#define BOUND_LAMBDA 4.0

/* Neumaier's compensated sum: carries the low-order bits each addition
 * drops, so 2^31 terms lose nothing a float result could show. */
struct compensated {
    double sum, carry;
};

static void add_compensated(struct compensated *c, double x)
{
    const double t = c->sum + x;
    c->carry += fabs(c->sum) >= fabs(x) ? (c->sum - t) + x : (x - t) + c->sum;
    c->sum = t;
}

struct reference compute_reference(const float *h, size_t n, struct data_info info)
{
    struct compensated sum = {0.0, 0.0}, sum_abs = {0.0, 0.0};
    for (size_t i = 0; i < n; ++i) {
        add_compensated(&sum, h[i]);
        add_compensated(&sum_abs, fabs((double)h[i]));
    }
    const struct reference ref = {
        .sum = sum.sum + sum.carry,
        .sum_abs = sum_abs.sum + sum_abs.carry,
        .n = n,
        .exact = info.exact_sum_known,
    };
    return ref;
}

double error_bound(const struct reference *ref)
{
    if (ref->exact)
        return 0.0;
    const double growth = fmax(BOUND_LAMBDA * sqrt((double)ref->n), 2.0);
    return growth * FLOAT_UNIT_ROUNDOFF * ref->sum_abs;
}

double reference_target(const struct reference *ref, bool sums_abs)
{
    return sums_abs ? ref->sum_abs : ref->sum;
}

double relative_error(double result, double target, const struct reference *ref)
{
    return ref->sum_abs > 0.0 ? fabs(result - target) / ref->sum_abs : fabs(result - target);
}

bool result_passes(float result, const struct reference *ref, bool sums_abs)
{
    if (!isfinite(result))
        return false;
    return fabs((double)result - reference_target(ref, sums_abs)) <= error_bound(ref);
}
