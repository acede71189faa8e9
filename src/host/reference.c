#include "reference.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

#include "exact_sum.h"

#define CHUNK 4096 /* values converted to double at a time: one switch per chunk */
#define CHECK_MARGIN 0x1p-49

bool extreme_takes_over(bool max, double x, long long i, struct extreme e)
{
    if (isnan(x) != isnan(e.value))
        return isnan(x);
    if (!isnan(x) && x != e.value)
        return max ? x > e.value : x < e.value;
    return (unsigned long long)i < (unsigned long long)e.index; /* NO_INDEX loses every tie */
}

static void take_if_over(bool max, double x, long long i, struct extreme *e)
{
    if (extreme_takes_over(max, x, i, *e))
        *e = (struct extreme){x, i};
}

/* Element x at index i against the four arg extremes (of x and of |x|). */
static void take_element(double x, long long i, struct extreme *max, struct extreme *min,
                         struct extreme *abs_max, struct extreme *abs_min)
{
    take_if_over(true, x, i, max);
    take_if_over(false, x, i, min);
    take_if_over(true, fabs(x), i, abs_max);
    take_if_over(false, fabs(x), i, abs_min);
}

void reference_partial_start(struct reference_partial *p, struct reduce_spec spec)
{
    exact_sum_init(&p->sum);
    exact_sum_init(&p->sum_abs);
    p->max = identity_as_double(OP_MAX, spec.type);
    p->min = identity_as_double(OP_MIN, spec.type);
    p->arg_max = p->abs_arg_max = (struct extreme){p->max, NO_INDEX};
    p->arg_min = p->abs_arg_min = (struct extreme){p->min, NO_INDEX};
    p->n = 0;
}

void reference_partial_add(struct reference_partial *p, enum element_type t, const void *h,
                           size_t count)
{
    double values[CHUNK];
    for (size_t first = 0; first < count; first += CHUNK) {
        const size_t chunk = count - first < CHUNK ? count - first : CHUNK;
        for (size_t i = 0; i < chunk; ++i)
            values[i] = load_as_double(t, h, first + i);
        for (size_t i = 0; i < chunk; ++i) {
            exact_sum_add(&p->sum, values[i]);
            exact_sum_add(&p->sum_abs, fabs(values[i]));
            p->max = values[i] > p->max ? values[i] : p->max;
            p->min = values[i] < p->min ? values[i] : p->min;
            take_element(values[i], (long long)(p->n + first + i), &p->arg_max, &p->arg_min,
                         &p->abs_arg_max, &p->abs_arg_min);
        }
    }
    p->n += count;
}

void recompute_extremes(struct reference *ref, enum element_type t, const void *h, size_t n)
{
    ref->arg_max = ref->abs_arg_max = (struct extreme){identity_as_double(OP_MAX, t), NO_INDEX};
    ref->arg_min = ref->abs_arg_min = (struct extreme){identity_as_double(OP_MIN, t), NO_INDEX};
    for (size_t i = 0; i < n; ++i)
        take_element(load_as_double(t, h, i), (long long)i, &ref->arg_max, &ref->arg_min,
                     &ref->abs_arg_max, &ref->abs_arg_min);
}

void reference_partial_merge(struct reference_partial *into, const struct reference_partial *next)
{
    exact_sum_merge(&into->sum, &next->sum);
    exact_sum_merge(&into->sum_abs, &next->sum_abs);
    into->max = next->max > into->max ? next->max : into->max;
    into->min = next->min < into->min ? next->min : into->min;
    if (next->n > 0) {
        const long long shift = (long long)into->n;
        take_if_over(true, next->arg_max.value, shift + next->arg_max.index, &into->arg_max);
        take_if_over(false, next->arg_min.value, shift + next->arg_min.index, &into->arg_min);
        take_if_over(true, next->abs_arg_max.value, shift + next->abs_arg_max.index,
                     &into->abs_arg_max);
        take_if_over(false, next->abs_arg_min.value, shift + next->abs_arg_min.index,
                     &into->abs_arg_min);
    }
    into->n += next->n;
}

struct reference reference_partial_finish(const struct reference_partial *p,
                                          struct reduce_spec spec, struct data_info info)
{
    const enum element_type accumulator = accumulator_type(spec.type);
    const struct reference ref = {
        .spec = spec,
        .sum = exact_sum_round(&p->sum, TYPE_DOUBLE),
        .sum_abs = exact_sum_round(&p->sum_abs, TYPE_DOUBLE),
        .sum_rounded = exact_sum_round(&p->sum, accumulator),
        .sum_abs_rounded = exact_sum_round(&p->sum_abs, accumulator),
        .max = p->max,
        .min = p->min,
        .arg_max = p->arg_max,
        .arg_min = p->arg_min,
        .abs_arg_max = p->abs_arg_max,
        .abs_arg_min = p->abs_arg_min,
        .n = p->n,
        .exact = info.exact_sum_known || is_integer_type(spec.type),
    };
    return ref;
}

struct reference compute_reference(struct reduce_spec spec, const void *h, size_t n,
                                   struct data_info info)
{
    struct reference_partial p;
    reference_partial_start(&p, spec);
    reference_partial_add(&p, spec.type, h, n);
    return reference_partial_finish(&p, spec, info);
}

static double unit_roundoff(enum element_type accumulator)
{
    return accumulator == TYPE_DOUBLE ? 0x1p-53 : 0x1p-24;
}

double chain_error_bound(const struct reference *ref, size_t k)
{
    if (ref->exact || ref->spec.op != OP_SUM)
        return 0.0;
    const double u = unit_roundoff(accumulator_type(ref->spec.type));
    const double growth = expm1((double)k * log1p(u)); /* (1 + u)^k - 1 */
    return (growth * (1.0 + CHECK_MARGIN) + CHECK_MARGIN) * ref->sum_abs;
}

double error_bound(const struct reference *ref, struct summation_order order)
{
    return chain_error_bound(ref, longest_chain(order, ref->n));
}

double reference_target(const struct reference *ref, bool sums_abs)
{
    switch (ref->spec.op) {
    case OP_MAX: return ref->max;
    case OP_MIN: return ref->min;
    case OP_ARGMAX:
    case OP_ARGMIN: return reference_extreme(ref, sums_abs).value;
    default: return sums_abs ? ref->sum_abs : ref->sum;
    }
}

struct extreme reference_extreme(const struct reference *ref, bool sums_abs)
{
    if (ref->spec.op == OP_ARGMIN)
        return sums_abs ? ref->abs_arg_min : ref->arg_min;
    return sums_abs ? ref->abs_arg_max : ref->arg_max;
}

bool arg_result_passes(double value, long long index, struct extreme want)
{
    const bool same_value = isnan(want.value)
                                ? isnan(value)
                                : value == want.value && signbit(value) == signbit(want.value);
    return index == want.index && same_value;
}

bool result_passes(double result, const struct reference *ref, struct summation_order order,
                   bool sums_abs)
{
    return result_within_chain(result, ref, longest_chain(order, ref->n), sums_abs);
}

bool result_within_chain(double result, const struct reference *ref, size_t k, bool sums_abs)
{
    const double target = reference_target(ref, sums_abs);
    if (isnan(result))
        return false;
    if (isinf(result) || isinf(target))
        return result == target;
    return fabs(result - target) <= chain_error_bound(ref, k);
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
