#include "reference.h"

#include <math.h>
#include <stdint.h>

#define BOUND_LAMBDA 4.0
#define CHUNK 4096 /* values converted to double at a time: one switch per chunk */

/* Neumaier's compensated sum: carries the low-order bits each addition
 * drops, so 2^31 terms lose nothing a float or double result could show. */
struct compensated {
    double sum, carry;
};

static void add_compensated(struct compensated *c, double x)
{
    const double t = c->sum + x;
    c->carry += fabs(c->sum) >= fabs(x) ? (c->sum - t) + x : (x - t) + c->sum;
    c->sum = t;
}

struct reference_partial reference_partial_start(struct reduce_spec spec)
{
    const struct reference_partial p = {.max = identity_as_double(OP_MAX, spec.type),
                                        .min = identity_as_double(OP_MIN, spec.type)};
    return p;
}

void reference_partial_add(struct reference_partial *p, enum element_type t, const void *h,
                           size_t count)
{
    struct compensated sum = {p->sum, p->sum_carry}, sum_abs = {p->sum_abs, p->sum_abs_carry};
    double max = p->max, min = p->min;
    double values[CHUNK];
    for (size_t first = 0; first < count; first += CHUNK) {
        const size_t chunk = count - first < CHUNK ? count - first : CHUNK;
        for (size_t i = 0; i < chunk; ++i)
            values[i] = load_as_double(t, h, first + i);
        for (size_t i = 0; i < chunk; ++i) {
            add_compensated(&sum, values[i]);
            add_compensated(&sum_abs, fabs(values[i]));
            max = values[i] > max ? values[i] : max;
            min = values[i] < min ? values[i] : min;
        }
    }
    p->sum = sum.sum;
    p->sum_carry = sum.carry;
    p->sum_abs = sum_abs.sum;
    p->sum_abs_carry = sum_abs.carry;
    p->max = max;
    p->min = min;
    p->n += count;
}

void reference_partial_merge(struct reference_partial *into, const struct reference_partial *next)
{
    struct compensated sum = {into->sum, into->sum_carry + next->sum_carry},
                       sum_abs = {into->sum_abs, into->sum_abs_carry + next->sum_abs_carry};
    add_compensated(&sum, next->sum);
    add_compensated(&sum_abs, next->sum_abs);
    into->sum = sum.sum;
    into->sum_carry = sum.carry;
    into->sum_abs = sum_abs.sum;
    into->sum_abs_carry = sum_abs.carry;
    into->max = next->max > into->max ? next->max : into->max;
    into->min = next->min < into->min ? next->min : into->min;
    into->n += next->n;
}

struct reference reference_partial_finish(const struct reference_partial *p,
                                          struct reduce_spec spec, struct data_info info)
{
    const struct reference ref = {
        .spec = spec,
        .sum = p->sum + p->sum_carry,
        .sum_abs = p->sum_abs + p->sum_abs_carry,
        .max = p->max,
        .min = p->min,
        .n = p->n,
        .exact = info.exact_sum_known || is_integer_type(spec.type),
    };
    return ref;
}

struct reference compute_reference(struct reduce_spec spec, const void *h, size_t n,
                                   struct data_info info)
{
    struct reference_partial p = reference_partial_start(spec);
    reference_partial_add(&p, spec.type, h, n);
    return reference_partial_finish(&p, spec, info);
}

static double unit_roundoff(enum element_type accumulator)
{
    return accumulator == TYPE_DOUBLE ? 0x1p-53 : 0x1p-24;
}

double error_bound(const struct reference *ref)
{
    if (ref->exact || ref->spec.op != OP_SUM)
        return 0.0;
    const double growth = fmax(BOUND_LAMBDA * sqrt((double)ref->n), 2.0);
    return growth * unit_roundoff(accumulator_type(ref->spec.type)) * ref->sum_abs;
}

double reference_target(const struct reference *ref, bool sums_abs)
{
    switch (ref->spec.op) {
    case OP_MAX: return ref->max;
    case OP_MIN: return ref->min;
    default: return sums_abs ? ref->sum_abs : ref->sum;
    }
}

double relative_error(double result, double target, const struct reference *ref)
{
    if (result == target)
        return 0.0;
    return ref->sum_abs > 0.0 ? fabs(result - target) / ref->sum_abs : fabs(result - target);
}

bool result_passes(double result, const struct reference *ref, bool sums_abs)
{
    const double target = reference_target(ref, sums_abs);
    if (isnan(result))
        return false;
    if (isinf(result) || isinf(target))
        return result == target;
    return fabs(result - target) <= error_bound(ref);
}

size_t chain_limit(struct reduce_spec spec)
{
    if (spec.op != OP_SUM || is_integer_type(spec.type))
        return SIZE_MAX;
    return accumulator_type(spec.type) == TYPE_DOUBLE ? (size_t)1 << 53 : (size_t)1 << 24;
}
