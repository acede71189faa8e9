#include "reference.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

#include "exact_sum.h"

#define CHUNK 4096 /* values converted to double at a time: one switch per chunk */
#define CHECK_MARGIN 0x1p-49

struct reference compute_reference(struct reduce_spec spec, const void *h, size_t n,
                                   struct data_info info)
{
    struct exact_sum sum, sum_abs;
    exact_sum_init(&sum);
    exact_sum_init(&sum_abs);
    double max = identity_as_double(OP_MAX, spec.type), min = identity_as_double(OP_MIN, spec.type);
    double values[CHUNK];
    for (size_t first = 0; first < n; first += CHUNK) {
        const size_t count = n - first < CHUNK ? n - first : CHUNK;
        for (size_t i = 0; i < count; ++i)
            values[i] = load_as_double(spec.type, h, first + i);
        for (size_t i = 0; i < count; ++i) {
            exact_sum_add(&sum, values[i]);
            exact_sum_add(&sum_abs, fabs(values[i]));
            max = values[i] > max ? values[i] : max;
            min = values[i] < min ? values[i] : min;
        }
    }
    const enum element_type accumulator = accumulator_type(spec.type);
    const struct reference ref = {
        .spec = spec,
        .sum = exact_sum_round(&sum, TYPE_DOUBLE),
        .sum_abs = exact_sum_round(&sum_abs, TYPE_DOUBLE),
        .sum_rounded = exact_sum_round(&sum, accumulator),
        .sum_abs_rounded = exact_sum_round(&sum_abs, accumulator),
        .max = max,
        .min = min,
        .n = n,
        .exact = info.exact_sum_known || is_integer_type(spec.type),
    };
    return ref;
}

static double unit_roundoff(enum element_type accumulator)
{
    return accumulator == TYPE_DOUBLE ? 0x1p-53 : 0x1p-24;
}

double error_bound(const struct reference *ref, struct summation_order order)
{
    if (ref->exact || ref->spec.op != OP_SUM)
        return 0.0;
    const double u = unit_roundoff(accumulator_type(ref->spec.type));
    const double k = (double)longest_chain(order, ref->n);
    const double growth = expm1(k * log1p(u)); /* (1 + u)^k - 1 */
    return (growth * (1.0 + CHECK_MARGIN) + CHECK_MARGIN) * ref->sum_abs;
}

double reference_target(const struct reference *ref, bool sums_abs)
{
    switch (ref->spec.op) {
    case OP_MAX: return ref->max;
    case OP_MIN: return ref->min;
    default: return sums_abs ? ref->sum_abs : ref->sum;
    }
}

bool result_passes(double result, const struct reference *ref, struct summation_order order,
                   bool sums_abs)
{
    const double target = reference_target(ref, sums_abs);
    if (isnan(result))
        return false;
    if (isinf(result) || isinf(target))
        return result == target;
    return fabs(result - target) <= error_bound(ref, order);
}

/* The spacing of the accumulator type's values at y: 2^(exponent of y -
 * precision + 1), never below the smallest subnormal step (also for y = 0). */
static double ulp_of(double y, enum element_type accumulator)
{
    if (is_integer_type(accumulator))
        return 1.0;
    const bool is_float = accumulator == TYPE_FLOAT;
    const int precision = is_float ? FLT_MANT_DIG : DBL_MANT_DIG;
    const int smallest_step = is_float ? -149 : -1074;
    int exponent = 0;
    (void)frexp(y, &exponent); /* |y| in [2^(exponent - 1), 2^exponent); 0 for y = 0 */
    const int step = y != 0.0 && exponent - precision > smallest_step ? exponent - precision
                                                                       : smallest_step;
    return ldexp(1.0, step);
}

struct accuracy result_accuracy(double result, const struct reference *ref, bool sums_abs)
{
    const double rounded_sum = sums_abs ? ref->sum_abs_rounded : ref->sum_rounded;
    const double answer = ref->spec.op == OP_SUM ? rounded_sum : reference_target(ref, sums_abs);
    if (result == answer)
        return (struct accuracy){0.0, 0.0};
    if (isnan(result))
        return (struct accuracy){NAN, NAN};
    if (isinf(result) || isinf(answer))
        return (struct accuracy){INFINITY, INFINITY};
    const double error = fabs(result - answer);
    return (struct accuracy){
        .ulps = error / ulp_of(answer, accumulator_type(ref->spec.type)),
        .relative = answer != 0.0 ? error / fabs(answer) : INFINITY,
    };
}

size_t chain_limit(struct reduce_spec spec)
{
    if (spec.op != OP_SUM || is_integer_type(spec.type))
        return SIZE_MAX;
    return accumulator_type(spec.type) == TYPE_DOUBLE ? (size_t)1 << 53 : (size_t)1 << 24;
}
