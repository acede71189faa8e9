#include "shape_reference.h"

#include <math.h>
#include <stdlib.h>

#include "exact_sum.h"

/* argmax's or argmin's extreme of one row: length elements from first,
 * stride apart, indexed from 0. */
static struct extreme row_extreme(struct reduce_spec spec, const void *h, size_t first,
                                  size_t length, size_t stride)
{
    const bool max = spec.op == OP_ARGMAX;
    struct extreme e = {identity_as_double(spec.op, spec.type), NO_INDEX};
    for (size_t k = 0; k < length; ++k) {
        const double x = load_as_double(spec.type, h, first + k * stride);
        if (extreme_takes_over(max, x, (long long)k, e))
            e = (struct extreme){x, (long long)k};
    }
    return e;
}

/* The sum and the sum of magnitudes of one row: length elements from first,
 * stride apart, each rounded once from the exact sum. */
static void row_sum(struct reduce_spec spec, const void *h, size_t first, size_t length,
                    size_t stride, double *value, double *sum_abs)
{
    if (length <= 2) {
        /* One IEEE addition is rounded once, to nearest even: exactly
         * exact_sum_round's double, without its 70 limbs - which cost
         * ~0.6 us a row, 10 s for a 1-column 64 MiB float input. */
        const double a = length > 0 ? load_as_double(spec.type, h, first) : 0.0;
        const double b = length > 1 ? load_as_double(spec.type, h, first + stride) : 0.0;
        *value = a + b;
        *sum_abs = fabs(a) + fabs(b);
        return;
    }
    struct exact_sum total, total_abs;
    exact_sum_init(&total);
    exact_sum_init(&total_abs);
    for (size_t k = 0; k < length; ++k) {
        const double x = load_as_double(spec.type, h, first + k * stride);
        exact_sum_add(&total, x);
        exact_sum_add(&total_abs, fabs(x));
    }
    *value = exact_sum_round(&total, TYPE_DOUBLE);
    *sum_abs = exact_sum_round(&total_abs, TYPE_DOUBLE);
}

/* max's or min's value of one row (the identity when it is empty). */
static double row_best(struct reduce_spec spec, const void *h, size_t first, size_t length,
                       size_t stride)
{
    double best = identity_as_double(spec.op, spec.type);
    for (size_t k = 0; k < length; ++k) {
        const double x = load_as_double(spec.type, h, first + k * stride);
        best = spec.op == OP_MAX ? (x > best ? x : best) : (x < best ? x : best);
    }
    return best;
}

bool compute_shape_reference(struct shape_reference *ref, struct reduce_spec spec,
                             struct reduce_shape shape, const void *h, size_t n,
                             struct data_info info)
{
    const bool sum = spec.op == OP_SUM, arg = is_arg_op(spec.op);
    const size_t slots = shape.count ? shape.count : 1;
    *ref = (struct shape_reference){
        .spec = spec,
        .shape = shape,
        .n = n,
        .value = malloc(slots * sizeof *ref->value),
        .index = arg ? malloc(slots * sizeof *ref->index) : NULL,
        .sum_abs = sum ? malloc(slots * sizeof *ref->sum_abs) : NULL,
        .exact = info.exact_sum_known || is_integer_type(spec.type),
    };
    if (!ref->value || (sum && !ref->sum_abs) || (arg && !ref->index)) {
        free_shape_reference(ref);
        return false;
    }
    const size_t stride = shape_stride(&shape); /* columns: a row apart */
    for (size_t i = 0; i < shape.count; ++i) {
        const size_t first = shape_first(&shape, i, n), length = shape_length(&shape, i, n);
        if (sum) {
            row_sum(spec, h, first, length, stride, &ref->value[i], &ref->sum_abs[i]);
        } else if (arg) {
            const struct extreme e = row_extreme(spec, h, first, length, stride);
            ref->value[i] = e.value;
            ref->index[i] = e.index;
        } else {
            ref->value[i] = row_best(spec, h, first, length, stride);
        }
    }
    return true;
}

void free_shape_reference(struct shape_reference *ref)
{
    free(ref->value);
    free(ref->index);
    free(ref->sum_abs);
    ref->value = ref->sum_abs = NULL;
    ref->index = NULL;
}

/* A double rounded to the accumulator type, as a double. */
static double to_accumulator(double x, enum element_type accumulator)
{
    return accumulator == TYPE_FLOAT ? (double)(float)x : x;
}

struct reference shape_result_reference(const struct shape_reference *ref, size_t i)
{
    const enum element_type accumulator = accumulator_type(ref->spec.type);
    const double value = ref->value[i];
    const double sum_abs = ref->sum_abs ? ref->sum_abs[i] : 0.0;
    const struct extreme extreme = {value, ref->index ? ref->index[i] : NO_INDEX};
    return (struct reference){
        .spec = ref->spec,
        .sum = value,
        .sum_abs = sum_abs,
        .sum_rounded = to_accumulator(value, accumulator),
        .sum_abs_rounded = to_accumulator(sum_abs, accumulator),
        .max = value,
        .min = value,
        .arg_max = extreme,
        .arg_min = extreme,
        .n = shape_length(&ref->shape, i, ref->n),
        .exact = ref->exact,
    };
}

/* The arg operators' check: every result's index and value, exactly. */
static bool check_arg_results(const struct shape_reference *ref, const void *results,
                              struct result_mismatch *bad)
{
    for (size_t i = 0; i < ref->shape.count; ++i) {
        const double got = load_result_value(ref->spec, results, i);
        const long long at = load_result_index(ref->spec, results, i);
        const struct extreme want = {ref->value[i], ref->index[i]};
        if (arg_result_passes(got, at, want))
            continue;
        *bad = (struct result_mismatch){.index = i, .got = got, .want = want.value,
                                        .length = shape_length(&ref->shape, i, ref->n),
                                        .got_index = at, .want_index = want.index};
        return false;
    }
    return true;
}

bool check_shaped_results(const struct shape_reference *ref, const void *results,
                          struct summation_order order, bool sums_abs,
                          struct result_mismatch *bad, struct accuracy *worst)
{
    const enum element_type accumulator = accumulator_type(ref->spec.type);
    struct accuracy most = {0.0, 0.0};
    const bool exact_target_known = !sums_abs;
    if (worst)
        *worst = most;
    if (is_arg_op(ref->spec.op))
        return check_arg_results(ref, results, bad);
    for (size_t i = 0; i < ref->shape.count; ++i) {
        const double got = load_as_double(accumulator, results, i);
        /* Most rows of a right method are the exactly rounded answer itself:
         * then no bound need be worked out (a log1p and an expm1 a row made a
         * 16M-row sample take most of a second to check). */
        if (!worst && exact_target_known &&
            got == (ref->spec.op == OP_SUM ? to_accumulator(ref->value[i], accumulator)
                                           : ref->value[i]))
            continue;
        const struct reference row = shape_result_reference(ref, i);
        if (!result_passes(got, &row, order, sums_abs)) {
            *bad = (struct result_mismatch){
                .index = i,
                .got = got,
                .want = reference_target(&row, sums_abs),
                .bound = error_bound(&row, order),
                .length = row.n,
            };
            return false;
        }
        if (!worst)
            continue;
        const struct accuracy a = result_accuracy(got, &row, sums_abs);
        most.ulps = a.ulps > most.ulps ? a.ulps : most.ulps;
        most.relative = a.relative > most.relative ? a.relative : most.relative;
    }
    if (worst)
        *worst = most;
    return true;
}
