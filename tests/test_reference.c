/* The CPU reference, the PASS/FAIL bound and the accuracy measure: the
 * suite's notion of "right" and "how wrong", for every element type and
 * operator; argmax's and argmin's extremes (element_type.h's rules: ties to
 * the lowest index, the first NaN wins, NO_INDEX for nothing) and their
 * exact check. (The bounds of each summation order on adversarial data:
 * test_bounds.c.) */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data_gen.h"
#include "reference.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct data_info INEXACT = {.exact_sum_known = false, .exact_sum = 0.0};
static const struct summation_order CHAIN = {.kind = ORDER_SERIAL_CHAIN};
static const struct summation_order TREE = {.kind = ORDER_BLOCK_PASSES, .width = 256, .depth = 8};

static struct reference reference_of(const float *h, size_t n)
{
    return compute_reference((struct reduce_spec){TYPE_FLOAT, OP_SUM}, h, n, INEXACT);
}

/* A hand-made reference: what error_bound, result_passes and
 * result_accuracy read (the sums already exact in the accumulator). */
static struct reference made(enum element_type t, enum reduce_op op, double sum, double sum_abs,
                             size_t n, bool exact)
{
    return (struct reference){.spec = {t, op}, .sum = sum, .sum_abs = sum_abs,
                              .sum_rounded = sum, .sum_abs_rounded = sum_abs, .max = sum,
                              .min = sum, .n = n, .exact = exact};
}

/* gamma_k = k u / (1 - k u): Higham's constant, for k u < 1. */
static double gamma_k(double k, double u) { return k * u / (1.0 - k * u); }

/* ---- float sums (the original suite) */

static void reference_should_sum_exactly_where_double_cannot(void)
{
    /* 1e16 + many ones: a plain double loop of 1e16 + 1 steps loses them
     * (ulp(1e16) = 2); compensation keeps them. */
    enum { N = 1 + 1000000 };
    float *h = malloc(N * sizeof *h);
    h[0] = 1e16f;
    for (size_t i = 1; i < N; ++i)
        h[i] = 1.0f;
    const struct reference ref = reference_of(h, N);
    CHECK(ref.sum == (double)1e16f + 1000000.0);
    CHECK(ref.sum_abs == (double)1e16f + 1000000.0);
    CHECK(ref.sum_rounded == (double)1e16f); /* a float's ulp there is 2^30 */
    CHECK(!ref.exact && ref.n == N);
    free(h);
}

static void reference_should_track_sum_of_absolute_values(void)
{
    const float h[] = {1.5f, -2.5f, 3.0f, -0.0f};
    const struct reference ref = reference_of(h, 4);
    CHECK(ref.sum == 2.0);
    CHECK(ref.sum_abs == 7.0);
    CHECK(ref.max == 3.0 && ref.min == -2.5);
    CHECK(reference_target(&ref, false) == 2.0);
    CHECK(reference_target(&ref, true) == 7.0);
}

static void reference_should_equal_the_exact_sum_of_uniform_floats(void)
{
    /* uniform floats are k 2^-24: a million of them sum exactly in a double */
    enum { N = 1000003 };
    float *h = malloc(N * sizeof *h);
    fill_data(h, N, TYPE_FLOAT, DIST_SIGNED, 12);
    double exact = 0.0;
    for (size_t i = 0; i < N; ++i)
        exact += h[i];
    const struct reference ref = reference_of(h, N);
    CHECK(ref.sum == exact);
    CHECK(ref.sum_rounded == (double)(float)exact); /* one exact double: one rounding */
    free(h);
}

static void float_answer_should_be_rounded_once_from_the_exact_sum(void)
{
    /* 1 + 2^-24 + 2^-60: the double nearest is 1 + 2^-24, a float tie that
     * would round to 1; the float nearest the exact sum is 1 + 2^-23. */
    const float h[] = {1.0f, 0x1p-24f, 0x1p-60f};
    const struct reference ref = reference_of(h, 3);
    CHECK(ref.sum == 1.0 + 0x1p-24);
    CHECK(ref.sum_rounded == 1.0 + 0x1p-23);
    CHECK(result_accuracy(1.0 + 0x1p-23, &ref, false).ulps == 0.0);
    CHECK(result_accuracy(1.0, &ref, false).ulps == 1.0);
}

static void bound_should_be_highams_worst_case_for_the_order(void)
{
    const double u = 0x1p-24;
    struct reference ref = made(TYPE_FLOAT, OP_SUM, 0.0, 1000.0, 1 << 20, false);
    /* a chain: k = n - 1; block passes of 256, 8 deep: 3 passes + 1, k = 32 */
    const double chain = error_bound(&ref, CHAIN), tree = error_bound(&ref, TREE);
    const double k_chain = (1 << 20) - 1, k_tree = 32;
    CHECK(chain >= k_chain * u * 1000.0 && chain <= gamma_k(k_chain, u) * 1000.0 * (1 + 1e-12));
    CHECK(tree >= k_tree * u * 1000.0 && tree <= gamma_k(k_tree, u) * 1000.0 * (1 + 1e-12));
    CHECK(tree < chain / 30000.0);
    ref.sum_abs = 2000.0;
    CHECK(error_bound(&ref, TREE) == 2.0 * tree); /* proportional to sum |x| */
    /* past k u = 1, gamma_k is no bound; (1 + u)^k - 1 still is */
    ref.n = (size_t)1 << 26;
    CHECK(fabs(error_bound(&ref, CHAIN) / (2000.0 * expm1(4.0)) - 1.0) < 1e-6);
    ref.n = 1; /* the one addition is with the identity: nothing but the margin */
    CHECK(error_bound(&ref, CHAIN) == 0x1p-49 * 2000.0);
    CHECK(error_bound(&ref, TREE) == 0x1p-49 * 2000.0);
    ref.n = 0;
    CHECK(error_bound(&ref, CHAIN) == 0x1p-49 * 2000.0);
}

static void bound_should_be_zero_for_exact_data(void)
{
    const struct reference ref = made(TYPE_FLOAT, OP_SUM, 5.0, 5.0, 100, true);
    CHECK(error_bound(&ref, CHAIN) == 0.0);
    CHECK(result_passes(5.0f, &ref, CHAIN, false));
    CHECK(!result_passes(nextafterf(5.0f, 6.0f), &ref, CHAIN, false));
    CHECK(!result_passes(nextafterf(5.0f, 4.0f), &ref, CHAIN, false));
}

static void exact_data_should_make_the_reference_exact(void)
{
    enum { N = 1000 };
    float h[N];
    const struct data_info info = fill_data(h, N, TYPE_FLOAT, DIST_SMALL_INTS, 3);
    CHECK(info.exact_sum_known);
    const struct reference ref =
        compute_reference((struct reduce_spec){TYPE_FLOAT, OP_SUM}, h, N, info);
    CHECK(ref.exact && ref.sum == info.exact_sum && error_bound(&ref, CHAIN) == 0.0);
    CHECK(ref.sum_rounded == info.exact_sum);
    CHECK(!result_passes(info.exact_sum + 1.0, &ref, CHAIN, false));
}

static void result_should_fail_for_nan_infinity_and_outside_bound(void)
{
    const struct reference ref = made(TYPE_FLOAT, OP_SUM, 100.0, 100.0, 1 << 16, false);
    const double bound = error_bound(&ref, TREE);
    CHECK(bound > 24.0 * 0x1p-24 * 100.0 && bound < 25.0 * 0x1p-24 * 100.0); /* k = 8 x 3 */
    CHECK(result_passes(100.0 + bound * (1 - 1e-9), &ref, TREE, false)); /* just inside */
    CHECK(result_passes(100.0 - bound * (1 - 1e-9), &ref, TREE, false));
    CHECK(!result_passes(100.0 + bound * (1 + 1e-9), &ref, TREE, false)); /* just outside */
    CHECK(!result_passes(100.0 + 2.0 * bound, &ref, TREE, false));
    CHECK(!result_passes(100.0 - 2.0 * bound, &ref, TREE, false));
    CHECK(result_passes(100.0 + 2.0 * bound, &ref, CHAIN, false)); /* a chain may lose that */
    CHECK(!result_passes(NAN, &ref, CHAIN, false));
    CHECK(!result_passes(INFINITY, &ref, CHAIN, false));
    CHECK(!result_passes(-INFINITY, &ref, CHAIN, false));
}

static void sequential_float_sum_should_pass_its_bound_at_64_mib(void)
{
    /* 2^24 uniform values summed in one float chain (what atomics do) stay
     * inside the chain's bound (test_bounds.c: where a chain leaves a tree's). */
    const size_t n = (size_t)1 << 24;
    float *h = malloc(n * sizeof *h);
    fill_data(h, n, TYPE_FLOAT, DIST_UNIFORM, 7);
    float chain = 0.0f;
    for (size_t i = 0; i < n; ++i)
        chain += h[i];
    const struct reference ref = reference_of(h, n);
    CHECK(result_passes(chain, &ref, CHAIN, false));
    CHECK(chain != ref.sum_rounded); /* the chain did lose something */
    CHECK(result_accuracy(chain, &ref, false).ulps >= 1.0);
    free(h);
}

/* ---- accuracy: ulps of the exactly rounded answer, and relative */

static void accuracy_should_count_ulps_of_the_rounded_answer(void)
{
    const struct reference one = made(TYPE_FLOAT, OP_SUM, 1.0, 3.0, 10, false);
    struct accuracy a = result_accuracy(1.0, &one, false);
    CHECK(a.ulps == 0.0 && a.relative == 0.0);
    a = result_accuracy(1.0 + 0x1p-23, &one, false);
    CHECK(a.ulps == 1.0 && a.relative == 0x1p-23);
    a = result_accuracy(1.0 - 0x1p-24, &one, false); /* below 1 the floats are twice as dense */
    CHECK(a.ulps == 0.5);
    a = result_accuracy(1.0 + 3 * 0x1p-23, &one, false);
    CHECK(a.ulps == 3.0);
    const struct reference d = made(TYPE_DOUBLE, OP_SUM, -1024.0, 2048.0, 10, false);
    a = result_accuracy(-1024.0 - 0x1p-42, &d, false);
    CHECK(a.ulps == 1.0 && a.relative == 0x1p-52);
    const struct reference half = made(TYPE_HALF, OP_SUM, 1.0, 1.0, 10, false);
    CHECK(result_accuracy(1.0 + 0x1p-23, &half, false).ulps == 1.0); /* accumulated in float */
    const struct reference ints = made(TYPE_INT64, OP_SUM, 100.0, 100.0, 10, true);
    a = result_accuracy(103.0, &ints, false);
    CHECK(a.ulps == 3.0 && a.relative == 0.03);
}

static void accuracy_of_a_zero_answer_should_count_subnormal_steps(void)
{
    const struct reference zero = made(TYPE_FLOAT, OP_SUM, 0.0, 8.0, 10, false);
    struct accuracy a = result_accuracy(0.0, &zero, false);
    CHECK(a.ulps == 0.0 && a.relative == 0.0);
    a = result_accuracy(-0.0, &zero, false);
    CHECK(a.ulps == 0.0);
    a = result_accuracy(0x1p-140, &zero, false);
    CHECK(a.ulps == 512.0 && a.relative == INFINITY);
    const struct reference dzero = made(TYPE_DOUBLE, OP_SUM, 0.0, 8.0, 10, false);
    CHECK(result_accuracy(-0x1p-1070, &dzero, false).ulps == 16.0);
}

static void accuracy_should_use_the_target_of_each_operator(void)
{
    const double h[] = {2.0, -5.0, 0.5};
    const struct reference sum =
        compute_reference((struct reduce_spec){TYPE_DOUBLE, OP_SUM}, h, 3, INEXACT);
    CHECK(result_accuracy(-2.5, &sum, false).ulps == 0.0);
    CHECK(result_accuracy(7.5, &sum, true).ulps == 0.0); /* sum |x| for cuBLAS's rows */
    CHECK(result_accuracy(7.5 + 0x1p-50, &sum, true).ulps == 1.0);
    const struct reference max =
        compute_reference((struct reduce_spec){TYPE_FLOAT, OP_MAX}, (const float[]){0.75f, -1.0f}, 2, INEXACT);
    CHECK(result_accuracy(0.75, &max, false).ulps == 0.0);
    CHECK(result_accuracy((double)nextafterf(0.75f, 1.0f), &max, false).ulps == 1.0);
    CHECK(isnan(result_accuracy(NAN, &max, false).ulps));
    CHECK(result_accuracy(INFINITY, &max, false).ulps == INFINITY);
    const float unused = 0.0f;
    const struct reference empty_max =
        compute_reference((struct reduce_spec){TYPE_FLOAT, OP_MAX}, &unused, 0, INEXACT);
    CHECK(result_accuracy(-INFINITY, &empty_max, false).ulps == 0.0);
}

/* ---- max and min */

/* The largest (or smallest) element compared in its own type, not through
 * a double: what a method computes. */
static double true_extreme(enum element_type t, const void *h, size_t n, bool largest)
{
    size_t best = 0;
    for (size_t i = 1; i < n; ++i) {
        bool better = false;
        switch (t) {
        case TYPE_FLOAT: {
            const float *a = h;
            better = largest ? a[i] > a[best] : a[i] < a[best];
            break;
        }
        case TYPE_DOUBLE: {
            const double *a = h;
            better = largest ? a[i] > a[best] : a[i] < a[best];
            break;
        }
        case TYPE_INT32: {
            const int32_t *a = h;
            better = largest ? a[i] > a[best] : a[i] < a[best];
            break;
        }
        case TYPE_INT64: {
            const int64_t *a = h;
            better = largest ? a[i] > a[best] : a[i] < a[best];
            break;
        }
        case TYPE_UINT32: {
            const uint32_t *a = h;
            better = largest ? a[i] > a[best] : a[i] < a[best];
            break;
        }
        case TYPE_HALF: {
            const unsigned short *a = h;
            const float x = half_to_float(a[i]), y = half_to_float(a[best]);
            better = largest ? x > y : x < y;
            break;
        }
        case TYPE_BFLOAT16: {
            const unsigned short *a = h;
            const float x = bfloat16_to_float(a[i]), y = bfloat16_to_float(a[best]);
            better = largest ? x > y : x < y;
            break;
        }
        case TYPE_COUNT: break;
        }
        if (better)
            best = i;
    }
    return load_as_double(t, h, best);
}

static void max_and_min_should_be_exact_for_every_type(void)
{
    enum { N = 3 * 4096 + 5 }; /* past the reference's chunks of 4096 */
    const enum distribution dists[] = {DIST_UNIFORM, DIST_SIGNED, DIST_WIDE_RANGE};
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (size_t d = 0; d < COUNT(dists); ++d) {
            const enum element_type type = (enum element_type)t;
            void *h = malloc(N * element_size(type));
            const struct data_info info = fill_data(h, N, type, dists[d], 30 + d);
            for (int op = OP_MAX; op <= OP_MIN; ++op) {
                const struct reduce_spec spec = {type, (enum reduce_op)op};
                const struct reference ref = compute_reference(spec, h, N, info);
                const double want_max = true_extreme(type, h, N, true);
                const double want_min = true_extreme(type, h, N, false);
                CHECK(ref.max == want_max && ref.min == want_min);
                CHECK(want_max > want_min); /* the data are not constant */
                const double target = op == OP_MAX ? want_max : want_min;
                CHECK(reference_target(&ref, false) == target);
                CHECK(reference_target(&ref, true) == target); /* sums_abs is for sums */
                CHECK(error_bound(&ref, CHAIN) == 0.0);
                CHECK(result_passes(target, &ref, CHAIN, false));
                if (!(ref.max == want_max && ref.min == want_min))
                    fprintf(stderr, "  %s %s: max %.17g (want %.17g), min %.17g (want %.17g)\n",
                            element_type_name(type), distribution_name(dists[d]), ref.max,
                            want_max, ref.min, want_min);
            }
            free(h);
        }
}

static void planted_extremes_should_be_found_at_any_index(void)
{
    enum { N = 2 * 4096 + 7 };
    const size_t at[] = {0, 4095, 4096, N - 1};
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (size_t k = 0; k < COUNT(at); ++k) {
            const enum element_type type = (enum element_type)t;
            void *h = malloc(N * element_size(type));
            const struct data_info info = fill_data(h, N, type, DIST_UNIFORM, 5);
            const size_t other = at[(k + 1) % COUNT(at)];
            store_from_double(type, h, at[k], extreme_value(type, OP_MAX));
            store_from_double(type, h, other, extreme_value(type, OP_MIN));
            const struct reference ref = compute_reference((struct reduce_spec){type, OP_MAX}, h, N, info);
            CHECK(ref.max == extreme_value(type, OP_MAX));
            CHECK(ref.min == extreme_value(type, OP_MIN));
            free(h);
        }
}

static void max_of_negative_values_should_not_be_zero(void)
{
    const float f[] = {-3.5f, -1.25f, -2.0f};
    const struct reference rf = compute_reference((struct reduce_spec){TYPE_FLOAT, OP_MAX}, f, 3, INEXACT);
    CHECK(rf.max == -1.25 && rf.min == -3.5);
    const int64_t i64[] = {-9007199254740992LL, -5, -9007199254740991LL};
    const struct reference ri = compute_reference((struct reduce_spec){TYPE_INT64, OP_MAX}, i64, 3, INEXACT);
    CHECK(ri.max == -5.0 && ri.min == -0x1p53);
    const uint32_t u32[] = {4294967295u, 4294967294u};
    const struct reference ru = compute_reference((struct reduce_spec){TYPE_UINT32, OP_MIN}, u32, 2, INEXACT);
    CHECK(ru.max == 4294967295.0 && ru.min == 4294967294.0);
    const unsigned short halves[] = {0xfbff, 0xbc00, 0x8001}; /* -65504, -1, -2^-24 */
    const struct reference rh = compute_reference((struct reduce_spec){TYPE_HALF, OP_MAX}, halves, 3, INEXACT);
    CHECK(rh.max == -0x1p-24 && rh.min == -65504.0);
    const unsigned short bf[] = {0xff7f, 0xbf80}; /* -0x1.fep127, -1 */
    const struct reference rb = compute_reference((struct reduce_spec){TYPE_BFLOAT16, OP_MIN}, bf, 2, INEXACT);
    CHECK(rb.max == -1.0 && rb.min == -0x1.fep127);
}

static void empty_input_should_give_the_identity(void)
{
    const float unused = 1.0f;
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = 0; op < OP_COUNT; ++op) {
            const enum element_type type = (enum element_type)t;
            const struct reduce_spec spec = {type, (enum reduce_op)op};
            const struct reference ref = compute_reference(spec, &unused, 0, INEXACT);
            CHECK(ref.n == 0 && ref.sum == 0.0 && ref.sum_abs == 0.0);
            CHECK(ref.max == identity_as_double(OP_MAX, type));
            CHECK(ref.min == identity_as_double(OP_MIN, type));
            const double identity = identity_as_double(spec.op, type);
            CHECK(reference_target(&ref, false) == identity);
            CHECK(result_passes(identity, &ref, CHAIN, false));
        }
    const struct reference fmax_ref =
        compute_reference((struct reduce_spec){TYPE_FLOAT, OP_MAX}, &unused, 0, INEXACT);
    CHECK(fmax_ref.max == -INFINITY);
    const struct reference imax_ref =
        compute_reference((struct reduce_spec){TYPE_INT32, OP_MAX}, &unused, 0, INEXACT);
    CHECK(imax_ref.max == -2147483648.0);
    const struct reference umin_ref =
        compute_reference((struct reduce_spec){TYPE_UINT32, OP_MIN}, &unused, 0, INEXACT);
    CHECK(umin_ref.min == 4294967295.0);
}

/* ---- bounds for every type */

static void bound_should_be_zero_for_max_min_and_integer_sums(void)
{
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = OP_MAX; op <= OP_MIN; ++op) {
            const struct reference ref = made((enum element_type)t, (enum reduce_op)op, 1.0, 1e6, 1 << 20, false);
            CHECK(error_bound(&ref, CHAIN) == 0.0);
        }
    /* integer data is exact whatever the data info says */
    const int32_t ints[] = {7, -3, 2147483, 0, -2147483};
    const struct reference ri =
        compute_reference((struct reduce_spec){TYPE_INT32, OP_SUM}, ints, 5, INEXACT);
    CHECK(ri.exact && ri.sum == 4.0 && ri.sum_abs == 4294976.0 && error_bound(&ri, CHAIN) == 0.0);
    CHECK(!result_passes(5.0, &ri, CHAIN, false) && !result_passes(3.0, &ri, CHAIN, false));
    CHECK(result_passes(4.0, &ri, CHAIN, false));
    const uint32_t uints[] = {4294967295u};
    const struct reference ru =
        compute_reference((struct reduce_spec){TYPE_UINT32, OP_SUM}, uints, 1, INEXACT);
    CHECK(ru.exact && ru.sum == 4294967295.0 && error_bound(&ru, CHAIN) == 0.0);
    const int64_t longs[] = {9007199254740991LL, -9007199254740991LL, 1};
    const struct reference rl =
        compute_reference((struct reduce_spec){TYPE_INT64, OP_SUM}, longs, 3, INEXACT);
    CHECK(rl.exact && rl.sum == 1.0 && error_bound(&rl, CHAIN) == 0.0);
}

static void bound_should_use_the_accumulators_unit_roundoff(void)
{
    const size_t n = (size_t)1 << 20; /* block passes of 256, 8 deep: k = 32 */
    const struct reference d = made(TYPE_DOUBLE, OP_SUM, 0.0, 1000.0, n, false);
    const double margin = 0x1p-49 * 1000.0;
    CHECK(fabs(error_bound(&d, TREE) - margin - 32.0 * 0x1p-53 * 1000.0) < 1e-25);
    const enum element_type float_accumulated[] = {TYPE_FLOAT, TYPE_HALF, TYPE_BFLOAT16};
    for (size_t k = 0; k < COUNT(float_accumulated); ++k) {
        const struct reference f = made(float_accumulated[k], OP_SUM, 0.0, 1000.0, n, false);
        CHECK(fabs(error_bound(&f, TREE) / (32.0 * 0x1p-24 * 1000.0) - 1.0) < 1e-5);
    }
}

static void double_sum_should_fail_one_ulp_off_an_exact_target(void)
{
    const struct reference ref = made(TYPE_DOUBLE, OP_SUM, 12345.5, 12345.5, 1000, true);
    CHECK(result_passes(12345.5, &ref, CHAIN, false));
    CHECK(!result_passes(nextafter(12345.5, 0.0), &ref, CHAIN, false));
    CHECK(!result_passes(nextafter(12345.5, 1e9), &ref, CHAIN, false));
    /* inexact double data: a float-sized error is far outside the double bound */
    const struct reference wide = made(TYPE_DOUBLE, OP_SUM, 1.0, 1.0, 4, false);
    CHECK(result_passes(1.0 + 0x1p-52, &wide, CHAIN, false));
    CHECK(!result_passes(1.0 + 0x1p-23, &wide, CHAIN, false));
}

static void max_should_fail_one_ulp_off_for_every_floating_type(void)
{
    const enum element_type floating[] = {TYPE_FLOAT, TYPE_DOUBLE, TYPE_HALF, TYPE_BFLOAT16};
    for (size_t k = 0; k < COUNT(floating); ++k) {
        struct reference ref = made(floating[k], OP_MAX, 0.0, 1e6, 1 << 20, false);
        ref.max = 0.75;
        CHECK(result_passes(0.75, &ref, CHAIN, false));
        CHECK(!result_passes(nextafter(0.75, 1.0), &ref, CHAIN, false));
        CHECK(!result_passes((double)nextafterf(0.75f, 0.0f), &ref, CHAIN, false));
        CHECK(!result_passes(0.75 + 0x1p-8, &ref, CHAIN, false)); /* one bfloat16 ulp at 0.75 */
    }
    struct reference ints = made(TYPE_INT64, OP_MIN, 0.0, 0.0, 10, true);
    ints.min = -0x1p53;
    CHECK(result_passes(-0x1p53, &ints, CHAIN, false));
    CHECK(!result_passes(-0x1p53 + 1.0, &ints, CHAIN, false));
}

static void nan_should_never_pass(void)
{
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = 0; op < OP_COUNT; ++op) {
            const struct reference ref = made((enum element_type)t, (enum reduce_op)op, 1.0, 1.0, 10, false);
            CHECK(!result_passes(NAN, &ref, CHAIN, false));
            CHECK(!result_passes(NAN, &ref, CHAIN, true));
        }
    const float unused = 0.0f;
    const struct reference empty_max =
        compute_reference((struct reduce_spec){TYPE_FLOAT, OP_MAX}, &unused, 0, INEXACT);
    CHECK(!result_passes(NAN, &empty_max, CHAIN, false)); /* not even against -inf */
}

static void infinity_should_pass_only_as_the_empty_max_or_min(void)
{
    const float unused = 0.0f;
    const struct reference empty_max =
        compute_reference((struct reduce_spec){TYPE_FLOAT, OP_MAX}, &unused, 0, INEXACT);
    CHECK(result_passes(-INFINITY, &empty_max, CHAIN, false));
    CHECK(!result_passes(INFINITY, &empty_max, CHAIN, false));
    CHECK(!result_passes(-FLT_MAX, &empty_max, CHAIN, false));
    CHECK(!result_passes(-DBL_MAX, &empty_max, CHAIN, false));
    const struct reference empty_min =
        compute_reference((struct reduce_spec){TYPE_HALF, OP_MIN}, &unused, 0, INEXACT);
    CHECK(result_passes(INFINITY, &empty_min, CHAIN, false));
    CHECK(!result_passes(-INFINITY, &empty_min, CHAIN, false));
    CHECK(!result_passes(65504.0, &empty_min, CHAIN, false));
    /* a finite target: no infinity passes, however large the bound */
    const struct reference huge = made(TYPE_FLOAT, OP_SUM, 1e30, 1e38, (size_t)1 << 30, false);
    CHECK(error_bound(&huge, CHAIN) > 1e33);
    CHECK(!result_passes(INFINITY, &huge, CHAIN, false));
    CHECK(!result_passes(-INFINITY, &huge, CHAIN, false));
    struct reference finite_max = made(TYPE_FLOAT, OP_MAX, 0.0, 0.0, 5, false);
    finite_max.max = FLT_MAX;
    CHECK(!result_passes(INFINITY, &finite_max, CHAIN, false));
    CHECK(result_passes(FLT_MAX, &finite_max, CHAIN, false));
}

static void reference_target_should_be_sum_abs_only_for_sums_abs_sums(void)
{
    const double h[] = {2.0, -5.0, 0.5};
    const struct reference sum =
        compute_reference((struct reduce_spec){TYPE_DOUBLE, OP_SUM}, h, 3, INEXACT);
    CHECK(reference_target(&sum, false) == -2.5);
    CHECK(reference_target(&sum, true) == 7.5);
    CHECK(result_passes(7.5, &sum, CHAIN, true) && !result_passes(-2.5, &sum, CHAIN, true));
    CHECK(result_passes(-2.5, &sum, CHAIN, false) && !result_passes(7.5, &sum, CHAIN, false));
    const struct reference max =
        compute_reference((struct reduce_spec){TYPE_DOUBLE, OP_MAX}, h, 3, INEXACT);
    CHECK(reference_target(&max, false) == 2.0 && reference_target(&max, true) == 2.0);
    const struct reference min =
        compute_reference((struct reduce_spec){TYPE_DOUBLE, OP_MIN}, h, 3, INEXACT);
    CHECK(reference_target(&min, false) == -5.0 && reference_target(&min, true) == -5.0);
}

/* ---- chain limits */

static void chain_limit_should_stop_float_sums_at_2_pow_24_and_double_at_2_pow_53(void)
{
    CHECK(chain_limit((struct reduce_spec){TYPE_FLOAT, OP_SUM}) == (size_t)1 << 24);
    CHECK(chain_limit((struct reduce_spec){TYPE_HALF, OP_SUM}) == (size_t)1 << 24);
    CHECK(chain_limit((struct reduce_spec){TYPE_BFLOAT16, OP_SUM}) == (size_t)1 << 24);
    CHECK(chain_limit((struct reduce_spec){TYPE_DOUBLE, OP_SUM}) == (size_t)1 << 53);
    CHECK(chain_limit((struct reduce_spec){TYPE_INT32, OP_SUM}) == SIZE_MAX);
    CHECK(chain_limit((struct reduce_spec){TYPE_INT64, OP_SUM}) == SIZE_MAX);
    CHECK(chain_limit((struct reduce_spec){TYPE_UINT32, OP_SUM}) == SIZE_MAX);
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = OP_MAX; op < OP_COUNT; ++op) /* max, min, argmax, argmin */
            CHECK(chain_limit((struct reduce_spec){(enum element_type)t, (enum reduce_op)op}) == SIZE_MAX);
}

/* ---- half and bfloat16 */

/* binary16 from its definition, independent of the library's decoder. */
static double half_by_definition(unsigned short bits)
{
    const int e = (bits >> 10) & 0x1f;
    const double m = bits & 0x3ff;
    const double magnitude = e ? ldexp(1.0 + m / 1024.0, e - 15) : ldexp(m / 1024.0, -14);
    return bits & 0x8000 ? -magnitude : magnitude;
}

static void half_reference_should_sum_the_widened_values(void)
{
    /* signed half data are multiples of 2^-10: their sum is exact in a
     * double, so the reference must equal it bit for bit */
    enum { N = 100003 };
    unsigned short *h = malloc(N * sizeof *h);
    fill_data(h, N, TYPE_HALF, DIST_SIGNED, 8);
    double sum = 0.0, sum_abs = 0.0, max = -INFINITY, min = INFINITY;
    for (size_t i = 0; i < N; ++i) {
        const double v = half_by_definition(h[i]);
        sum += v;
        sum_abs += fabs(v);
        max = fmax(max, v);
        min = fmin(min, v);
    }
    const struct reference ref = compute_reference((struct reduce_spec){TYPE_HALF, OP_SUM}, h, N, INEXACT);
    CHECK(ref.sum == sum && ref.sum_abs == sum_abs);
    CHECK(ref.max == max && ref.min == min);
    CHECK(sum != 0.0 && sum_abs > 1000.0);
    free(h);
}

static void bfloat16_reference_should_sum_the_widened_values(void)
{
    const unsigned short h[] = {0x3f80, 0x4049, 0xc000, 0x3c00}; /* 1, 3.140625, -2, 2^-7 */
    const struct reference ref =
        compute_reference((struct reduce_spec){TYPE_BFLOAT16, OP_SUM}, h, 4, INEXACT);
    CHECK(ref.sum == 1.0 + 3.140625 - 2.0 + 0x1p-7);
    CHECK(ref.sum_abs == 1.0 + 3.140625 + 2.0 + 0x1p-7);
}

static void integer_reference_should_sum_across_chunks_exactly(void)
{
    enum { N = 3 * 4096 + 11 };
    int32_t *h = malloc(N * sizeof *h);
    int64_t exact = 0;
    for (int32_t i = 0; i < N; ++i) {
        h[i] = (i % 2 ? -1 : 1) * i * 1000;
        exact += h[i];
    }
    const struct reference ref = compute_reference((struct reduce_spec){TYPE_INT32, OP_SUM}, h, N, INEXACT);
    CHECK(ref.sum == (double)exact && ref.exact);
    CHECK(ref.max == (double)((N - 1) / 2 * 2) * 1000.0);
    CHECK(ref.min == -(double)((N - 2) / 2 * 2 + 1) * 1000.0);
    free(h);
}

/* ---- built piece by piece (multi-GPU shards, parallel fills) */

static bool same_extreme_bits(struct extreme a, struct extreme b)
{
    return memcmp(&a.value, &b.value, sizeof a.value) == 0 && a.index == b.index;
}

static bool same_reference(const struct reference *a, const struct reference *b)
{
    return same_extreme_bits(a->arg_max, b->arg_max) && same_extreme_bits(a->arg_min, b->arg_min) &&
           same_extreme_bits(a->abs_arg_max, b->abs_arg_max) &&
           same_extreme_bits(a->abs_arg_min, b->abs_arg_min) &&
           memcmp(&a->sum, &b->sum, sizeof a->sum) == 0 &&
           memcmp(&a->sum_abs, &b->sum_abs, sizeof a->sum_abs) == 0 &&
           memcmp(&a->sum_rounded, &b->sum_rounded, sizeof a->sum_rounded) == 0 &&
           memcmp(&a->sum_abs_rounded, &b->sum_abs_rounded, sizeof a->sum_abs_rounded) == 0 &&
           a->max == b->max &&
           a->min == b->min && a->n == b->n && a->exact == b->exact;
}

/* Pieces added in order, at any cut points (inside and across the 4096-value
 * chunks), give compute_reference's values bit for bit, for every type. */
static void pieces_in_order_should_equal_the_whole_bit_for_bit(void)
{
    enum { N = 20011 };
    static const size_t CUTS[][3] = {{0, 0, N}, {1, 4096, 4097}, {4095, 8192, 12289},
                                     {7, 7, 19999}, {N, N, N}};
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int d = 0; d < DIST_COUNT; ++d) {
            const enum element_type type = (enum element_type)t;
            const struct reduce_spec spec = {type, OP_SUM};
            unsigned char *h = malloc(N * element_size(type));
            const struct data_info info = fill_data(h, N, type, (enum distribution)d, 3);
            const struct reference whole = compute_reference(spec, h, N, info);
            for (size_t c = 0; c < COUNT(CUTS); ++c) {
                struct reference_partial p;
                reference_partial_start(&p, spec);
                size_t done = 0;
                for (size_t k = 0; k <= 3; ++k) {
                    const size_t end = k < 3 ? CUTS[c][k] : N;
                    reference_partial_add(&p, type, h + done * element_size(type), end - done);
                    done = end;
                }
                const struct reference pieces = reference_partial_finish(&p, spec, info);
                CHECK(same_reference(&pieces, &whole));
            }
            free(h);
        }
}

/* Partials of consecutive parts, merged (one per thread): the sums are
 * exact until finish rounds them, so every field matches the whole. */
static void merged_partials_should_match_the_whole(void)
{
    enum { N = 100003, PARTS = 7 };
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int d = 0; d < DIST_COUNT; ++d) {
            const enum element_type type = (enum element_type)t;
            const struct reduce_spec spec = {type, OP_SUM};
            unsigned char *h = malloc(N * element_size(type));
            const struct data_info info = fill_data(h, N, type, (enum distribution)d, 9);
            const struct reference whole = compute_reference(spec, h, N, info);
            struct reference_partial all;
            reference_partial_start(&all, spec);
            for (size_t k = 0; k < PARTS; ++k) {
                const size_t first = N * k / PARTS, last = N * (k + 1) / PARTS;
                struct reference_partial part;
                reference_partial_start(&part, spec);
                reference_partial_add(&part, type, h + first * element_size(type), last - first);
                reference_partial_merge(&all, &part);
            }
            const struct reference merged = reference_partial_finish(&all, spec, info);
            CHECK(same_reference(&merged, &whole));
            free(h);
        }
}

static void an_empty_partial_should_give_the_identity(void)
{
    const struct reduce_spec spec = {TYPE_INT32, OP_MAX};
    struct reference_partial p, empty;
    reference_partial_start(&p, spec);
    reference_partial_start(&empty, spec);
    reference_partial_merge(&p, &empty);
    reference_partial_add(&p, TYPE_INT32, NULL, 0);
    const struct reference ref = reference_partial_finish(&p, spec, (struct data_info){0});
    CHECK(ref.n == 0 && ref.sum == 0.0 && ref.sum_abs == 0.0 && ref.exact);
    CHECK(ref.max == identity_as_double(OP_MAX, TYPE_INT32));
    CHECK(ref.min == identity_as_double(OP_MIN, TYPE_INT32));
}

/* ---- argmax and argmin */

/* x stored as type t (exact in every type for the values used here), malloc'd. */
static void *typed(enum element_type t, const double *x, size_t n)
{
    unsigned char *h = malloc((n ? n : 1) * element_size(t));
    for (size_t i = 0; i < n; ++i)
        store_from_double(t, h, i, x[i]);
    return h;
}

/* e is (value, index) exactly: a NaN for a NaN, the sign of a zero kept. */
static bool is_extreme(struct extreme e, double value, long long index)
{
    const bool same = isnan(value) ? isnan(e.value)
                                   : e.value == value && !signbit(e.value) == !signbit(value);
    if (!same || e.index != index)
        fprintf(stderr, "  extreme %.17g @%lld, want %.17g @%lld\n", e.value, e.index, value,
                index);
    return same && e.index == index;
}

/* The reference of x as type t, for argmax (argmin's fields are the same). */
static struct reference arg_reference_of(enum element_type t, const double *x, size_t n)
{
    void *h = typed(t, x, n);
    const struct reduce_spec spec = {t, OP_ARGMAX};
    const struct reference ref = compute_reference(spec, h, n, INEXACT);
    free(h);
    return ref;
}

/* The maximum 100 three times and the minimum 1 three times among values
 * 10..22: the first of each, for every type. */
static void argmax_and_argmin_should_take_the_lowest_index_of_a_tie(void)
{
    enum { N = 20 };
    double x[N];
    for (size_t i = 0; i < N; ++i)
        x[i] = (double)(10 + (i * 7) % 13);
    x[3] = x[11] = x[17] = 100.0;
    x[5] = x[9] = x[19] = 1.0;
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const enum element_type type = (enum element_type)t;
        const struct reference ref = arg_reference_of(type, x, N);
        CHECK(is_extreme(ref.arg_max, 100.0, 3) && is_extreme(ref.arg_min, 1.0, 5));
        struct reference argmin = ref;
        argmin.spec.op = OP_ARGMIN;
        CHECK(is_extreme(reference_extreme(&ref, false), 100.0, 3));
        CHECK(is_extreme(reference_extreme(&argmin, false), 1.0, 5));
        CHECK(reference_target(&ref, false) == 100.0 && reference_target(&argmin, false) == 1.0);
    }
}

/* The extremes at the first and at the last element, past the reference's
 * 4096-value chunks, for every type. */
static void argmax_and_argmin_should_find_the_first_and_the_last_element(void)
{
    enum { N = 2 * 4096 + 7 };
    double *x = malloc(N * sizeof *x);
    for (size_t i = 0; i < N; ++i)
        x[i] = (double)(10 + (i * 7) % 13);
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const enum element_type type = (enum element_type)t;
        x[0] = 100.0;
        x[N - 1] = 1.0;
        struct reference ref = arg_reference_of(type, x, N);
        CHECK(is_extreme(ref.arg_max, 100.0, 0) && is_extreme(ref.arg_min, 1.0, N - 1));
        x[0] = 1.0;
        x[N - 1] = 100.0;
        ref = arg_reference_of(type, x, N);
        CHECK(is_extreme(ref.arg_max, 100.0, N - 1) && is_extreme(ref.arg_min, 1.0, 0));
    }
    free(x);
}

/* All elements equal - the identity itself included (-inf, the lowest or
 * largest integer), which NO_INDEX must not keep - give index 0. */
static void all_equal_elements_should_give_index_0(void)
{
    const double fives[] = {5.0, 5.0, 5.0, 5.0, 5.0};
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const struct reference ref = arg_reference_of((enum element_type)t, fives, 5);
        CHECK(is_extreme(ref.arg_max, 5.0, 0) && is_extreme(ref.arg_min, 5.0, 0));
    }
    const double minus_inf[] = {-INFINITY, -INFINITY, -INFINITY};
    const double plus_inf[] = {INFINITY, INFINITY};
    CHECK(is_extreme(arg_reference_of(TYPE_FLOAT, minus_inf, 3).arg_max, -INFINITY, 0));
    CHECK(is_extreme(arg_reference_of(TYPE_HALF, plus_inf, 2).arg_min, INFINITY, 0));
    const double int32_min[] = {-2147483648.0, -2147483648.0};
    CHECK(is_extreme(arg_reference_of(TYPE_INT32, int32_min, 2).arg_max, -2147483648.0, 0));
    const double uint32_max[] = {4294967295.0, 4294967295.0};
    CHECK(is_extreme(arg_reference_of(TYPE_UINT32, uint32_max, 2).arg_min, 4294967295.0, 0));
    const double uint32_zero[] = {0.0, 0.0, 0.0};
    CHECK(is_extreme(arg_reference_of(TYPE_UINT32, uint32_zero, 3).arg_max, 0.0, 0));
}

/* A NaN beats every number for argmax and argmin alike, the first NaN is
 * kept, a later larger number does not displace it; max and min skip it. */
static void the_first_nan_should_win_argmax_and_argmin(void)
{
    static const enum element_type FLOATING[] = {TYPE_FLOAT, TYPE_DOUBLE, TYPE_HALF, TYPE_BFLOAT16};
    static const size_t FIRST_NAN[] = {0, 2, 5};
    for (size_t t = 0; t < COUNT(FLOATING); ++t)
        for (size_t k = 0; k < COUNT(FIRST_NAN); ++k) {
            double x[] = {3.0, -4.0, 2.0, 8.0, -9.0, 1.0, 7.0};
            x[FIRST_NAN[k]] = NAN;
            x[6] = NAN; /* a second NaN, later */
            const struct reference ref = arg_reference_of(FLOATING[t], x, COUNT(x));
            const long long at = (long long)FIRST_NAN[k];
            CHECK(is_extreme(ref.arg_max, NAN, at) && is_extreme(ref.arg_min, NAN, at));
            CHECK(is_extreme(ref.abs_arg_max, NAN, at) && is_extreme(ref.abs_arg_min, NAN, at));
            CHECK(ref.max == 8.0 && ref.min == -9.0);
        }
}

/* -0.0 and +0.0 are equal: the lower index wins and its sign is kept. */
static void signed_zeros_should_tie_to_the_lower_index_and_keep_its_sign(void)
{
    static const enum element_type FLOATING[] = {TYPE_FLOAT, TYPE_DOUBLE, TYPE_HALF, TYPE_BFLOAT16};
    const double minus_first[] = {-0.0, 0.0, -1.0};
    const double plus_first[] = {0.0, -0.0, 1.0};
    for (size_t t = 0; t < COUNT(FLOATING); ++t) {
        const struct reference a = arg_reference_of(FLOATING[t], minus_first, 3);
        CHECK(is_extreme(a.arg_max, -0.0, 0) && signbit(a.arg_max.value));
        CHECK(is_extreme(a.abs_arg_min, 0.0, 0)); /* |x|: both zeros are +0 */
        const struct reference b = arg_reference_of(FLOATING[t], plus_first, 3);
        CHECK(is_extreme(b.arg_min, 0.0, 0) && !signbit(b.arg_min.value));
        CHECK(!arg_result_passes(0.0, 0, a.arg_max) && arg_result_passes(-0.0, 0, a.arg_max));
    }
}

/* Nothing: NO_INDEX and the value operator's identity. */
static void an_empty_input_should_give_no_index_and_the_identity(void)
{
    const float unused = 1.0f;
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = OP_ARGMAX; op <= OP_ARGMIN; ++op) {
            const enum element_type type = (enum element_type)t;
            const struct reduce_spec spec = {type, (enum reduce_op)op};
            const struct reference ref = compute_reference(spec, &unused, 0, INEXACT);
            const double identity = identity_as_double(value_op(spec.op), type);
            CHECK(is_extreme(reference_extreme(&ref, false), identity, NO_INDEX));
            CHECK(is_extreme(reference_extreme(&ref, true), identity, NO_INDEX));
            CHECK(reference_target(&ref, false) == identity);
            CHECK(arg_result_passes(identity, NO_INDEX, reference_extreme(&ref, false)));
            CHECK(!arg_result_passes(identity, 0, reference_extreme(&ref, false)));
        }
    const struct reference f = arg_reference_of(TYPE_FLOAT, NULL, 0);
    CHECK(is_extreme(f.arg_max, -INFINITY, -1) && is_extreme(f.arg_min, INFINITY, -1));
    const struct reference i = arg_reference_of(TYPE_INT32, NULL, 0);
    CHECK(is_extreme(i.arg_max, -2147483648.0, -1) && is_extreme(i.arg_min, 2147483647.0, -1));
    const struct reference u = arg_reference_of(TYPE_UINT32, NULL, 0);
    CHECK(is_extreme(u.arg_max, 0.0, -1) && is_extreme(u.arg_min, 4294967295.0, -1));
    const struct reference l = arg_reference_of(TYPE_INT64, NULL, 0);
    CHECK(is_extreme(l.arg_max, -0x1p63, -1) && is_extreme(l.arg_min, 0x1p63, -1));
}

/* Over |x| (cuBLAS's I?amax, I?amin): |-7| and |7| tie, the first wins, and
 * the value is |x|; a METHOD_SUMS_ABS method is checked against these. */
static void abs_arg_max_and_min_should_take_the_first_largest_and_smallest_magnitude(void)
{
    const double x[] = {3.0, -7.0, 7.0, -0.5, 0.5, 2.0};
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const enum element_type type = (enum element_type)t;
        if (is_integer_type(type))
            continue; /* no -0.5: the integers' case follows */
        const struct reference ref = arg_reference_of(type, x, COUNT(x));
        CHECK(is_extreme(ref.abs_arg_max, 7.0, 1) && is_extreme(ref.abs_arg_min, 0.5, 3));
        CHECK(is_extreme(ref.arg_max, 7.0, 2) && is_extreme(ref.arg_min, -7.0, 1));
        struct reference argmin = ref;
        argmin.spec.op = OP_ARGMIN;
        CHECK(is_extreme(reference_extreme(&ref, true), 7.0, 1));
        CHECK(is_extreme(reference_extreme(&argmin, true), 0.5, 3));
        CHECK(reference_target(&argmin, true) == 0.5 && reference_target(&ref, true) == 7.0);
    }
    const double ints[] = {5.0, -9.0, 9.0, 1.0, -1.0};
    const struct reference r = arg_reference_of(TYPE_INT32, ints, COUNT(ints));
    CHECK(is_extreme(r.abs_arg_max, 9.0, 1) && is_extreme(r.abs_arg_min, 1.0, 3));
}

/* Integer types at their limits, bit for bit. */
static void integer_argmax_and_argmin_should_be_exact_at_the_types_limits(void)
{
    const double i32[] = {5.0, -2147483648.0, 2147483647.0, 2147483647.0, -2147483648.0};
    const struct reference a = arg_reference_of(TYPE_INT32, i32, COUNT(i32));
    CHECK(is_extreme(a.arg_max, 2147483647.0, 2) && is_extreme(a.arg_min, -2147483648.0, 1));
    const double u32[] = {7.0, 4294967295.0, 0.0, 4294967295.0, 0.0};
    const struct reference b = arg_reference_of(TYPE_UINT32, u32, COUNT(u32));
    CHECK(is_extreme(b.arg_max, 4294967295.0, 1) && is_extreme(b.arg_min, 0.0, 2));
    const double i64[] = {-0x1p53, 0x1p53, 0x1p53 - 1.0, 0x1p53, -0x1p53};
    const struct reference c = arg_reference_of(TYPE_INT64, i64, COUNT(i64));
    CHECK(is_extreme(c.arg_max, 0x1p53, 1) && is_extreme(c.arg_min, -0x1p53, 0));
}

/* Indices past 2^31 and 2^32 without the elements: a partial told it holds
 * 3e9 elements, then another merged after it - its extremes' indices count
 * on from 3e9; on a tie the first partial's lower index stays. */
static void merged_partials_should_count_indices_past_2_pow_31(void)
{
    const struct reduce_spec spec = {TYPE_FLOAT, OP_ARGMAX};
    const float first[] = {1.0f, 8.0f, -4.0f}, tie[] = {8.0f, -4.0f, 2.0f},
                after[] = {3.0f, 9.0f, 9.0f, -5.0f};
    const size_t big = 3000000000u;
    struct reference_partial all, next;
    reference_partial_start(&all, spec);
    reference_partial_add(&all, TYPE_FLOAT, first, 3);
    all.n = big; /* as if 3e9 - 3 more elements no larger or smaller had followed */
    reference_partial_start(&next, spec);
    reference_partial_add(&next, TYPE_FLOAT, tie, 3);
    reference_partial_merge(&all, &next);
    CHECK(is_extreme(all.arg_max, 8.0, 1) && is_extreme(all.arg_min, -4.0, 2));
    reference_partial_start(&next, spec);
    reference_partial_add(&next, TYPE_FLOAT, after, 4);
    reference_partial_merge(&all, &next);
    const struct reference ref = reference_partial_finish(&all, spec, INEXACT);
    CHECK(ref.n == big + 7);
    CHECK(is_extreme(ref.arg_max, 9.0, 3000000004LL));
    CHECK(is_extreme(ref.arg_min, -5.0, 3000000006LL));
    CHECK(is_extreme(ref.abs_arg_max, 9.0, 3000000004LL) && is_extreme(ref.abs_arg_min, 1.0, 0));
    reference_partial_start(&next, spec); /* an empty partial changes nothing */
    reference_partial_merge(&all, &next);
    CHECK(is_extreme(all.arg_max, 9.0, 3000000004LL) && all.n == big + 7);
    /* added straight after 5e9 elements: past 2^32 too */
    all.n = 5000000000u;
    const float top = 10.0f;
    reference_partial_add(&all, TYPE_FLOAT, &top, 1);
    CHECK(is_extreme(all.arg_max, 10.0, 5000000000LL) && all.n == 5000000001u);
}

/* After planting (a tie at the extreme, a NaN), recompute_extremes finds
 * what a whole new reference would, and leaves the sums alone; over nothing,
 * the identities and NO_INDEX. */
static void recompute_extremes_should_match_a_new_reference_after_planting(void)
{
    enum { N = 4096 + 9 };
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const enum element_type type = (enum element_type)t;
        unsigned char *h = malloc(N * element_size(type));
        const struct data_info info = fill_data(h, N, type, DIST_SIGNED, 21);
        struct reference ref = compute_reference((struct reduce_spec){type, OP_ARGMIN}, h, N, info);
        const double sum = ref.sum;
        store_from_double(type, h, 4100, extreme_value(type, OP_MIN));
        store_from_double(type, h, 7, extreme_value(type, OP_MIN));
        store_from_double(type, h, 4101, is_integer_type(type) ? 0.0 : NAN);
        recompute_extremes(&ref, type, h, N);
        const struct reference again = compute_reference(ref.spec, h, N, info);
        CHECK(same_extreme_bits(ref.arg_max, again.arg_max));
        CHECK(same_extreme_bits(ref.arg_min, again.arg_min));
        CHECK(same_extreme_bits(ref.abs_arg_max, again.abs_arg_max));
        CHECK(same_extreme_bits(ref.abs_arg_min, again.abs_arg_min));
        CHECK(ref.sum == sum);
        if (type != TYPE_UINT32) /* uint32's minimum, 0, may be drawn before index 7 */
            CHECK(ref.arg_min.index == (is_integer_type(type) ? 7 : 4101));
        recompute_extremes(&ref, type, h, 0);
        CHECK(is_extreme(ref.arg_max, identity_as_double(OP_MAX, type), NO_INDEX));
        CHECK(is_extreme(ref.abs_arg_min, identity_as_double(OP_MIN, type), NO_INDEX));
        free(h);
    }
}

/* Right: the index and the value bit for bit; two NaNs match whatever their
 * payloads, a NaN and a number never, -0.0 and +0.0 never. */
static void arg_result_passes_should_need_the_index_and_the_exact_value(void)
{
    const struct extreme seven = {7.0, 12}, nan = {NAN, 3}, minus_zero = {-0.0, 4};
    CHECK(arg_result_passes(7.0, 12, seven));
    CHECK(!arg_result_passes(7.0, 13, seven) && !arg_result_passes(7.0, NO_INDEX, seven));
    CHECK(!arg_result_passes(nextafter(7.0, 8.0), 12, seven));
    CHECK(!arg_result_passes((double)nextafterf(7.0f, 6.0f), 12, seven));
    CHECK(!arg_result_passes(NAN, 12, seven));
    CHECK(arg_result_passes(NAN, 3, nan) && arg_result_passes(-NAN, 3, nan));
    CHECK(!arg_result_passes(NAN, 4, nan) && !arg_result_passes(7.0, 3, nan));
    CHECK(!arg_result_passes(INFINITY, 3, nan));
    CHECK(arg_result_passes(-0.0, 4, minus_zero) && !arg_result_passes(0.0, 4, minus_zero));
    CHECK(!arg_result_passes(-0.0, 4, (struct extreme){0.0, 4}));
    CHECK(arg_result_passes(-INFINITY, NO_INDEX, (struct extreme){-INFINITY, NO_INDEX}));
    CHECK(!arg_result_passes(INFINITY, NO_INDEX, (struct extreme){-INFINITY, NO_INDEX}));
    CHECK(arg_result_passes(3e9 + 1, 3000000001LL, (struct extreme){3e9 + 1, 3000000001LL}));
}

int main(void)
{
    RUN_TEST(reference_should_sum_exactly_where_double_cannot);
    RUN_TEST(reference_should_track_sum_of_absolute_values);
    RUN_TEST(reference_should_equal_the_exact_sum_of_uniform_floats);
    RUN_TEST(float_answer_should_be_rounded_once_from_the_exact_sum);
    RUN_TEST(bound_should_be_highams_worst_case_for_the_order);
    RUN_TEST(bound_should_be_zero_for_exact_data);
    RUN_TEST(exact_data_should_make_the_reference_exact);
    RUN_TEST(result_should_fail_for_nan_infinity_and_outside_bound);
    RUN_TEST(sequential_float_sum_should_pass_its_bound_at_64_mib);
    RUN_TEST(accuracy_should_count_ulps_of_the_rounded_answer);
    RUN_TEST(accuracy_of_a_zero_answer_should_count_subnormal_steps);
    RUN_TEST(accuracy_should_use_the_target_of_each_operator);
    RUN_TEST(max_and_min_should_be_exact_for_every_type);
    RUN_TEST(planted_extremes_should_be_found_at_any_index);
    RUN_TEST(max_of_negative_values_should_not_be_zero);
    RUN_TEST(empty_input_should_give_the_identity);
    RUN_TEST(bound_should_be_zero_for_max_min_and_integer_sums);
    RUN_TEST(bound_should_use_the_accumulators_unit_roundoff);
    RUN_TEST(double_sum_should_fail_one_ulp_off_an_exact_target);
    RUN_TEST(max_should_fail_one_ulp_off_for_every_floating_type);
    RUN_TEST(nan_should_never_pass);
    RUN_TEST(infinity_should_pass_only_as_the_empty_max_or_min);
    RUN_TEST(reference_target_should_be_sum_abs_only_for_sums_abs_sums);
    RUN_TEST(chain_limit_should_stop_float_sums_at_2_pow_24_and_double_at_2_pow_53);
    RUN_TEST(half_reference_should_sum_the_widened_values);
    RUN_TEST(bfloat16_reference_should_sum_the_widened_values);
    RUN_TEST(integer_reference_should_sum_across_chunks_exactly);
    RUN_TEST(pieces_in_order_should_equal_the_whole_bit_for_bit);
    RUN_TEST(merged_partials_should_match_the_whole);
    RUN_TEST(an_empty_partial_should_give_the_identity);
    RUN_TEST(argmax_and_argmin_should_take_the_lowest_index_of_a_tie);
    RUN_TEST(argmax_and_argmin_should_find_the_first_and_the_last_element);
    RUN_TEST(all_equal_elements_should_give_index_0);
    RUN_TEST(the_first_nan_should_win_argmax_and_argmin);
    RUN_TEST(signed_zeros_should_tie_to_the_lower_index_and_keep_its_sign);
    RUN_TEST(an_empty_input_should_give_no_index_and_the_identity);
    RUN_TEST(abs_arg_max_and_min_should_take_the_first_largest_and_smallest_magnitude);
    RUN_TEST(integer_argmax_and_argmin_should_be_exact_at_the_types_limits);
    RUN_TEST(merged_partials_should_count_indices_past_2_pow_31);
    RUN_TEST(recompute_extremes_should_match_a_new_reference_after_planting);
    RUN_TEST(arg_result_passes_should_need_the_index_and_the_exact_value);
    return test_exit_code();
}
