/* Shapes on the CPU (shape.h, shape_reference.h): the segment generators
 * (offsets from 0 to n, never decreasing; uniform has empty segments,
 * powerlaw a long tail; the mean near MEAN; seeds reproduce), the file of
 * lengths and its errors, the rows shape's errors, and the per-row
 * reference: its bound at each row's own length, max and min exact, empty
 * segments the identity, a wrong row caught with its index and both values;
 * argmax and argmin of rows, segments and columns against hand-worked
 * answers, each index counted within its row, segment or column. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "shape_reference.h"

static const char *tmp_dir = ".";

static segment_offset *generate(const char *text, uint64_t seed, size_t n, size_t *count)
{
    struct segment_spec spec;
    char err[256];
    CHECK(parse_segment_spec(text, &spec, err, sizeof err));
    segment_offset *offsets = make_segment_offsets(&spec, seed, &n, count, err, sizeof err);
    CHECK(offsets != NULL);
    return offsets;
}

static size_t longest(const segment_offset *o, size_t count)
{
    size_t most = 0;
    for (size_t i = 0; i < count; ++i)
        most = o[i + 1] - o[i] > most ? (size_t)(o[i + 1] - o[i]) : most;
    return most;
}

static size_t empties(const segment_offset *o, size_t count)
{
    size_t e = 0;
    for (size_t i = 0; i < count; ++i)
        e += o[i + 1] == o[i];
    return e;
}

static void uniform_segments_should_cover_n_with_empty_ones_and_mean_near_mean(void)
{
    const size_t n = 1000003;
    size_t count = 0;
    char err[256];
    segment_offset *o = generate("uniform:8", 7, n, &count);
    CHECK(offsets_valid(o, count, n, err, sizeof err));
    CHECK(empties(o, count) > count / 30); /* 1 in 17 lengths is 0 */
    CHECK(longest(o, count) <= 16);
    const double mean = (double)n / (double)count;
    CHECK(fabs(mean - 8.0) < 0.1);
    free(o);
}

static void powerlaw_segments_should_be_mostly_short_with_a_long_tail(void)
{
    const size_t n = (size_t)1 << 24;
    size_t count = 0;
    char err[256];
    segment_offset *o = generate("powerlaw:100", 3, n, &count);
    CHECK(offsets_valid(o, count, n, err, sizeof err));
    size_t short_ones = 0;
    for (size_t i = 0; i < count; ++i)
        short_ones += o[i + 1] - o[i] < 100;
    CHECK(short_ones > count * 7 / 10); /* about 3 in 4 */
    CHECK(longest(o, count) > 50 * 100);
    const double mean = (double)n / (double)count;
    CHECK(mean > 80.0 && mean < 120.0);
    free(o);
}

static void same_seed_should_give_same_offsets_and_another_seed_others(void)
{
    size_t a_count = 0, b_count = 0, c_count = 0;
    segment_offset *a = generate("powerlaw:33", 11, 100000, &a_count);
    segment_offset *b = generate("powerlaw:33", 11, 100000, &b_count);
    segment_offset *c = generate("powerlaw:33", 12, 100000, &c_count);
    CHECK(a_count == b_count && memcmp(a, b, (a_count + 1) * sizeof *a) == 0);
    CHECK(a_count != c_count || memcmp(a, c, (a_count + 1) * sizeof *a) != 0);
    free(a);
    free(b);
    free(c);
}

static void tiny_totals_should_give_valid_offsets(void)
{
    char err[256];
    for (size_t n = 0; n <= 33; ++n) {
        size_t count = 0;
        segment_offset *o = generate("uniform:1", n, n, &count);
        CHECK(offsets_valid(o, count, n, err, sizeof err));
        CHECK(n > 0 || count == 0);
        free(o);
    }
}

static void bad_segment_specs_should_be_refused(void)
{
    static const char *const BAD[] = {"uniform", "uniform:", "uniform:0", "uniform:-3",
                                      "uniform:2.5", "powerlaw:x", "file:", "gauss:10", ""};
    struct segment_spec spec;
    char err[256];
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; ++i) {
        err[0] = '\0';
        CHECK(!parse_segment_spec(BAD[i], &spec, err, sizeof err));
        CHECK(strstr(err, "--segments") != NULL);
    }
    CHECK(parse_segment_spec("uniform:10000", &spec, err, sizeof err));
    CHECK(spec.source == SEGMENTS_UNIFORM && spec.mean == 10000);
    CHECK(strcmp(spec.text, "uniform:10000") == 0);
}

static bool offsets_from_file(const char *contents, size_t *n, size_t *count,
                              segment_offset **offsets, char *err, size_t err_len)
{
    char path[512], text[600];
    snprintf(path, sizeof path, "%s/test_shape_lengths.txt", tmp_dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(contents, f);
    fclose(f);
    snprintf(text, sizeof text, "file:%s", path);
    struct segment_spec spec;
    CHECK(parse_segment_spec(text, &spec, err, err_len));
    *offsets = make_segment_offsets(&spec, 1, n, count, err, err_len);
    remove(path);
    return *offsets != NULL;
}

static void a_file_of_lengths_should_give_its_offsets_and_total(void)
{
    size_t n = 999, count = 0;
    segment_offset *o = NULL;
    char err[256];
    CHECK(offsets_from_file("0\n3\n0\n5\n0\n", &n, &count, &o, err, sizeof err));
    CHECK(count == 5 && n == 8);
    const segment_offset want[] = {0, 0, 3, 3, 8, 8};
    CHECK(o && memcmp(o, want, sizeof want) == 0);
    free(o);
    CHECK(offsets_from_file("7", &n, &count, &o, err, sizeof err)); /* no final newline */
    CHECK(count == 1 && n == 7);
    free(o);
}

static void a_bad_file_should_name_its_line(void)
{
    size_t n = 0, count = 0;
    segment_offset *o = NULL;
    char err[256];
    CHECK(!offsets_from_file("4\n5\nfive\n6\n", &n, &count, &o, err, sizeof err));
    CHECK(strstr(err, "line 3") != NULL && strstr(err, "five") != NULL);
    CHECK(!offsets_from_file("4\n\n6\n", &n, &count, &o, err, sizeof err));
    CHECK(strstr(err, "line 2") != NULL);
    CHECK(!offsets_from_file("-1\n", &n, &count, &o, err, sizeof err));
    CHECK(strstr(err, "line 1") != NULL);
    CHECK(!offsets_from_file("", &n, &count, &o, err, sizeof err));
    CHECK(strstr(err, "no lengths") != NULL);
    struct segment_spec spec;
    CHECK(parse_segment_spec("file:/nonexistent/lengths.txt", &spec, err, sizeof err));
    CHECK(make_segment_offsets(&spec, 1, &n, &count, err, sizeof err) == NULL);
    CHECK(strstr(err, "/nonexistent/lengths.txt") != NULL);
}

static void offsets_valid_should_catch_each_broken_rule(void)
{
    char err[256];
    const segment_offset good[] = {0, 2, 2, 5};
    const segment_offset late_start[] = {1, 2, 2, 5};
    const segment_offset decreasing[] = {0, 3, 2, 5};
    CHECK(offsets_valid(good, 3, 5, err, sizeof err));
    CHECK(!offsets_valid(good, 3, 6, err, sizeof err));
    CHECK(!offsets_valid(late_start, 3, 5, err, sizeof err));
    CHECK(!offsets_valid(decreasing, 3, 5, err, sizeof err));
    CHECK(strstr(err, "offsets[2]") != NULL);
}

static void rows_shape_should_take_rows_or_the_total_and_refuse_the_rest(void)
{
    struct reduce_shape s;
    char err[256];
    CHECK(make_rows_shape(33, 0, 33 * 7, &s, err, sizeof err));
    CHECK(s.kind == SHAPE_ROWS && s.count == 7 && s.cols == 33);
    CHECK(make_rows_shape(1, 5, 0, &s, err, sizeof err) && s.count == 5);
    CHECK(!make_rows_shape(0, 0, 10, &s, err, sizeof err));
    CHECK(!make_rows_shape(3, 0, 10, &s, err, sizeof err));
    CHECK(strstr(err, "10") != NULL);
    CHECK(!make_rows_shape(SIZE_MAX / 2, 3, 0, &s, err, sizeof err));
    CHECK(shape_first(&s, 0, 0) == 0);
}

/* Rows of floats whose sum must meet each row's own bound: a row of width w
 * is checked at k = longest_chain(order, w), not at the whole input's. */
static void check_row_bounds(size_t cols)
{
    const size_t rows = 3, n = rows * cols;
    float *x = malloc(n * sizeof *x);
    const struct data_info info = fill_data(x, n, TYPE_FLOAT, DIST_SIGNED, 5);
    const struct reduce_spec spec = {TYPE_FLOAT, OP_SUM};
    struct reduce_shape shape;
    char err[256];
    CHECK(make_rows_shape(cols, rows, 0, &shape, err, sizeof err));
    struct shape_reference ref;
    CHECK(compute_shape_reference(&ref, spec, shape, x, n, info));
    const struct summation_order chain = {.kind = ORDER_SERIAL_CHAIN};
    for (size_t i = 0; i < rows; ++i) {
        const struct reference whole = compute_reference(spec, x + i * cols, cols, info);
        const struct reference row = shape_result_reference(&ref, i);
        CHECK(row.n == cols);
        CHECK(row.sum == whole.sum && row.sum_abs == whole.sum_abs);
        CHECK(error_bound(&row, chain) == error_bound(&whole, chain));
        CHECK(error_bound(&row, chain) == chain_error_bound(&whole, cols - 1));
        CHECK(cols == 1 || error_bound(&row, chain) > 0.0);
    }
    free_shape_reference(&ref);
    free(x);
}

/* Widths 1 and 2 take a shortcut (one IEEE addition); 3 and 1000 the exact sum. */
static void a_row_bound_should_be_the_whole_array_bound_at_its_length(void)
{
    const size_t widths[] = {1, 2, 3, 1000};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; ++i)
        check_row_bounds(widths[i]);
}

/* Each row summed in float, one after another (a serial chain): every row
 * passes; one row nudged past its bound is caught with its index and both
 * values. */
static void a_wrong_row_should_be_caught_with_its_index_and_values(void)
{
    const size_t cols = 257, rows = 40, n = rows * cols;
    float *x = malloc(n * sizeof *x), *results = malloc(rows * sizeof *results);
    const struct data_info info = fill_data(x, n, TYPE_FLOAT, DIST_WIDE_RANGE, 9);
    const struct reduce_spec spec = {TYPE_FLOAT, OP_SUM};
    struct reduce_shape shape;
    char err[256];
    CHECK(make_rows_shape(cols, 0, n, &shape, err, sizeof err));
    struct shape_reference ref;
    CHECK(compute_shape_reference(&ref, spec, shape, x, n, info));
    for (size_t i = 0; i < rows; ++i) {
        float total = 0.0f;
        for (size_t j = 0; j < cols; ++j)
            total += x[i * cols + j];
        results[i] = total;
    }
    const struct summation_order chain = {.kind = ORDER_SERIAL_CHAIN};
    struct result_mismatch bad = {0};
    struct accuracy worst = {-1.0, -1.0};
    CHECK(check_shaped_results(&ref, results, chain, false, &bad, &worst));
    CHECK(worst.ulps >= 0.0 && worst.ulps < 1000.0 && worst.relative < 1e-4);
    const struct reference row = shape_result_reference(&ref, 31);
    results[31] = (float)(ref.value[31] + 2.0 * error_bound(&row, chain));
    CHECK(!check_shaped_results(&ref, results, chain, false, &bad, NULL));
    CHECK(bad.index == 31 && bad.length == cols);
    CHECK(bad.got == (double)results[31] && bad.want == ref.value[31]);
    results[31] = NAN;
    CHECK(!check_shaped_results(&ref, results, chain, false, &bad, NULL) && bad.index == 31);
    free_shape_reference(&ref);
    free(results);
    free(x);
}

/* Segments with empty ones first and last: max and min exact per segment,
 * the identity for the empty ones, and a max one bit off is wrong. */
static void max_and_min_should_match_bit_for_bit_and_empty_segments_give_the_identity(void)
{
    const int32_t x[] = {5, -7, 3, 9, -2, 4};
    const segment_offset offsets[] = {0, 0, 2, 2, 5, 6, 6};
    const struct reduce_shape shape = {.kind = SHAPE_SEGMENTS, .count = 6, .offsets = offsets};
    const struct data_info info = {.exact_sum_known = true};
    const struct summation_order chain = {.kind = ORDER_SERIAL_CHAIN};
    struct shape_reference ref;
    struct result_mismatch bad;
    const struct reduce_spec max = {TYPE_INT32, OP_MAX}, min = {TYPE_INT32, OP_MIN},
                             sum = {TYPE_INT32, OP_SUM};
    CHECK(compute_shape_reference(&ref, max, shape, x, 6, info));
    int32_t want_max[] = {INT32_MIN, 5, INT32_MIN, 9, 4, INT32_MIN};
    CHECK(check_shaped_results(&ref, want_max, chain, false, &bad, NULL));
    want_max[3] = 8;
    CHECK(!check_shaped_results(&ref, want_max, chain, false, &bad, NULL));
    CHECK(bad.index == 3 && bad.got == 8.0 && bad.want == 9.0 && bad.bound == 0.0);
    free_shape_reference(&ref);
    CHECK(compute_shape_reference(&ref, min, shape, x, 6, info));
    const int32_t want_min[] = {INT32_MAX, -7, INT32_MAX, -2, 4, INT32_MAX};
    CHECK(check_shaped_results(&ref, want_min, chain, false, &bad, NULL));
    free_shape_reference(&ref);
    CHECK(compute_shape_reference(&ref, sum, shape, x, 6, info));
    int32_t want_sum[] = {0, -2, 0, 10, 4, 0};
    CHECK(check_shaped_results(&ref, want_sum, chain, false, &bad, NULL));
    want_sum[5] = 1;
    CHECK(!check_shaped_results(&ref, want_sum, chain, false, &bad, NULL) && bad.index == 5);
    free_shape_reference(&ref);
}

/* ---- argmax and argmin of each row, segment and column */

static const struct summation_order ARG_CHAIN = {.kind = ORDER_SERIAL_CHAIN};

static bool same_or_both_nan(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

/* count results of spec stored from values and indices, in a buffer that
 * starts as 0xa5 bytes (store_result writes each result's every byte). */
static unsigned char *arg_results(struct reduce_spec spec, const double *values,
                                  const long long *indices, size_t count)
{
    unsigned char *results = malloc(count * result_size(spec));
    memset(results, 0xa5, count * result_size(spec));
    for (size_t i = 0; i < count; ++i)
        store_result(spec, results, i, values[i], indices[i]);
    return results;
}

/* The reference of spec over shape must be (values, indices), bit for bit,
 * and accept the results stored from them; *ref is the caller's to free. */
static void check_arg_reference(struct shape_reference *ref, struct reduce_spec spec,
                                struct reduce_shape shape, const void *h, size_t n,
                                const double *values, const long long *indices)
{
    CHECK(compute_shape_reference(ref, spec, shape, h, n, (struct data_info){0}));
    CHECK(ref->index != NULL && ref->sum_abs == NULL);
    for (size_t i = 0; ref->index && i < shape.count; ++i) {
        const bool same = arg_result_passes(ref->value[i], ref->index[i],
                                            (struct extreme){values[i], indices[i]});
        if (!same)
            fprintf(stderr, "  %s %s result %zu: %.17g @%lld, want %.17g @%lld\n",
                    shape_kind_name(shape.kind), reduce_op_name(spec.op), i, ref->value[i],
                    ref->index[i], values[i], indices[i]);
        CHECK(same);
    }
    unsigned char *results = arg_results(spec, values, indices, shape.count);
    struct result_mismatch bad;
    struct accuracy worst = {-1.0, -1.0};
    CHECK(check_shaped_results(ref, results, ARG_CHAIN, false, &bad, &worst));
    CHECK(worst.ulps == 0.0 && worst.relative == 0.0);
    free(results);
}

/* The right results but result i as (value, index): refused, naming i,
 * both values, both indices and i's length. */
static void check_arg_rejected(const struct shape_reference *ref, const double *values,
                               const long long *indices, size_t i, double value, long long index)
{
    unsigned char *results = arg_results(ref->spec, values, indices, ref->shape.count);
    store_result(ref->spec, results, i, value, index);
    struct result_mismatch bad = {.index = SIZE_MAX};
    CHECK(!check_shaped_results(ref, results, ARG_CHAIN, false, &bad, NULL));
    CHECK(bad.index == i && bad.length == shape_length(&ref->shape, i, ref->n));
    CHECK(bad.got_index == index && bad.want_index == indices[i]);
    CHECK(same_or_both_nan(bad.got, value) && same_or_both_nan(bad.want, values[i]));
    free(results);
}

/* Rows of 4 floats: a tie, a tie at the minimum, two NaNs, signed zeros. */
static void argmax_and_argmin_of_rows_should_index_within_each_row(void)
{
    const float x[] = {3.0f, 9.0f, 9.0f, 1.0f,   -2.0f, -2.0f, -5.0f, -5.0f,
                       0.5f, NAN,  4.0f, NAN,    -0.0f, 0.0f,  -0.0f, 0.0f};
    const struct reduce_shape shape = {.kind = SHAPE_ROWS, .count = 4, .cols = 4};
    const struct reduce_spec argmax = {TYPE_FLOAT, OP_ARGMAX}, argmin = {TYPE_FLOAT, OP_ARGMIN};
    const double max_values[] = {9.0, -2.0, NAN, -0.0}, min_values[] = {1.0, -5.0, NAN, -0.0};
    const long long max_at[] = {1, 0, 1, 0}, min_at[] = {3, 2, 1, 0};
    struct shape_reference ref;
    check_arg_reference(&ref, argmax, shape, x, 16, max_values, max_at);
    check_arg_rejected(&ref, max_values, max_at, 0, 9.0, 2);   /* the later 9 */
    check_arg_rejected(&ref, max_values, max_at, 0, 3.0, 1);   /* the right index, 3 */
    check_arg_rejected(&ref, max_values, max_at, 2, NAN, 3);   /* the later NaN */
    check_arg_rejected(&ref, max_values, max_at, 2, 4.0, 2);   /* NaN skipped */
    check_arg_rejected(&ref, max_values, max_at, 3, 0.0, 0);   /* +0.0 for -0.0 */
    CHECK(shape_result_reference(&ref, 1).arg_max.index == 0);
    free_shape_reference(&ref);
    check_arg_reference(&ref, argmin, shape, x, 16, min_values, min_at);
    check_arg_rejected(&ref, min_values, min_at, 1, -5.0, 3);
    check_arg_rejected(&ref, min_values, min_at, 1, -5.0, 6); /* the whole array's index */
    free_shape_reference(&ref);
}

/* int32 segments, empty ones first, between and last: NO_INDEX and the
 * identity there; an empty segment with an index is wrong. */
static void argmax_and_argmin_of_segments_should_give_no_index_for_empty_ones(void)
{
    const int32_t x[] = {5, -7, 3, 9, -2, 9, 4};
    const segment_offset offsets[] = {0, 0, 2, 2, 6, 7, 7};
    const struct reduce_shape shape = {.kind = SHAPE_SEGMENTS, .count = 6, .offsets = offsets};
    const struct reduce_spec argmax = {TYPE_INT32, OP_ARGMAX}, argmin = {TYPE_INT32, OP_ARGMIN};
    const double lo = -2147483648.0, hi = 2147483647.0;
    const double max_values[] = {lo, 5.0, lo, 9.0, 4.0, lo}, min_values[] = {hi, -7.0, hi, -2.0, 4.0, hi};
    const long long max_at[] = {-1, 0, -1, 1, 0, -1}, min_at[] = {-1, 1, -1, 2, 0, -1};
    struct shape_reference ref;
    check_arg_reference(&ref, argmax, shape, x, 7, max_values, max_at);
    check_arg_rejected(&ref, max_values, max_at, 3, 9.0, 3);  /* the later 9 */
    check_arg_rejected(&ref, max_values, max_at, 1, 4.0, 0);  /* the right index, 4 */
    check_arg_rejected(&ref, max_values, max_at, 0, lo, 0);   /* empty, with an index */
    check_arg_rejected(&ref, max_values, max_at, 5, 0.0, -1); /* empty, not the identity */
    CHECK(shape_result_reference(&ref, 3).n == 4);
    free_shape_reference(&ref);
    check_arg_reference(&ref, argmin, shape, x, 7, min_values, min_at);
    check_arg_rejected(&ref, min_values, min_at, 2, hi, 2);
    free_shape_reference(&ref);
}

/* [[1 12 3 4] [5 6 3 8] [9 10 3 0]]: each column's index is its row. */
static void argmax_and_argmin_of_columns_should_index_down_each_column(void)
{
    const int32_t x[] = {1, 12, 3, 4, 5, 6, 3, 8, 9, 10, 3, 0};
    const struct reduce_shape shape = {.kind = SHAPE_COLUMNS, .count = 4, .cols = 4};
    const struct reduce_spec argmax = {TYPE_INT32, OP_ARGMAX}, argmin = {TYPE_INT32, OP_ARGMIN};
    const double max_values[] = {9.0, 12.0, 3.0, 8.0}, min_values[] = {1.0, 6.0, 3.0, 0.0};
    const long long max_at[] = {2, 0, 0, 1}, min_at[] = {0, 1, 0, 2};
    struct shape_reference ref;
    check_arg_reference(&ref, argmax, shape, x, 12, max_values, max_at);
    check_arg_rejected(&ref, max_values, max_at, 2, 3.0, 1); /* a later 3 */
    check_arg_rejected(&ref, max_values, max_at, 0, 9.0, 8); /* the matrix's index */
    free_shape_reference(&ref);
    check_arg_reference(&ref, argmin, shape, x, 12, min_values, min_at);
    check_arg_rejected(&ref, min_values, min_at, 3, 4.0, 2);
    free_shape_reference(&ref);
}

static void width_sweep_widths_should_be_powers_of_two_and_the_odd_widths_up_to_n(void)
{
    size_t widths[WIDTH_SWEEP_MAX_WIDTHS];
    const size_t count = width_sweep_widths((size_t)1 << 24, widths);
    CHECK(count == 25 + 4);
    CHECK(widths[0] == 1 && widths[1] == 2 && widths[2] == 3 && widths[3] == 4);
    CHECK(widths[count - 1] == (size_t)1 << 24);
    for (size_t i = 1; i < count; ++i)
        CHECK(widths[i] > widths[i - 1]);
    CHECK(width_sweep_widths(1, widths) == 1 && widths[0] == 1);
    CHECK(width_sweep_widths(40, widths) == 8 && widths[7] == 33); /* 1 2 3 4 8 16 32 33 */
    CHECK(width_sweep_widths(0, widths) == 0);
    CHECK(width_sweep_widths(SIZE_MAX, widths) <= WIDTH_SWEEP_MAX_WIDTHS);
}

/* ---- bounds: the mean, the count of segments, powerlaw's conversion */

static void segment_mean_should_be_taken_up_to_2_to_the_40_and_refused_past_it(void)
{
    static const char *const PAST[] = {
        "uniform:1099511627777", "powerlaw:1099511627777",
        "uniform:9223372036854775808",  /* 2 MEAN + 1 wrapped to 1: every length 0, no end */
        "uniform:9223372036854775813",  /* 2 MEAN + 1 wrapped to 11: a mean of 5 */
        "powerlaw:9223372036854775808", "uniform:18446744073709551615",
        "powerlaw:18446744073709551616" /* past size_t */};
    struct segment_spec spec;
    char err[256];
    for (size_t i = 0; i < sizeof PAST / sizeof PAST[0]; ++i) {
        err[0] = '\0';
        CHECK(!parse_segment_spec(PAST[i], &spec, err, sizeof err));
        CHECK(strstr(err, "--segments") != NULL);
        CHECK(strstr(err, "at most 1099511627776") != NULL || strstr(err, "too large"));
    }
    CHECK(SEGMENT_MEAN_MAX == (size_t)1099511627776u);
    CHECK(parse_segment_spec("uniform:1099511627776", &spec, err, sizeof err));
    CHECK(spec.mean == SEGMENT_MEAN_MAX && spec.max_count == SEGMENT_COUNT_MAX);
    CHECK(parse_segment_spec("powerlaw:1099511627775", &spec, err, sizeof err));
    CHECK(spec.source == SEGMENTS_POWERLAW && spec.mean == SEGMENT_MEAN_MAX - 1);
}

/* At the largest mean, lengths stay within 0 .. 2 MEAN and the offsets reach n. */
static void the_largest_mean_should_cover_n_in_about_n_over_mean_segments(void)
{
    const size_t n = (size_t)1 << 50, mean = SEGMENT_MEAN_MAX;
    char err[256];
    size_t count = 0;
    segment_offset *o = generate("uniform:1099511627776", 5, n, &count);
    CHECK(o && offsets_valid(o, count, n, err, sizeof err));
    CHECK(o && longest(o, count) <= 2 * mean);
    CHECK(count > n / mean / 2 && count < n / mean * 2); /* about 1024 */
    free(o);
    o = generate("powerlaw:1099511627776", 5, n, &count);
    CHECK(o && offsets_valid(o, count, n, err, sizeof err));
    CHECK(count > n / mean / 4 && count < n / mean * 4);
    free(o);
}

static void powerlaw_length_should_clamp_before_it_converts(void)
{
    const double smallest_u = 0x1p-53; /* the longest draw */
    CHECK(powerlaw_length(SEGMENT_MEAN_MAX, smallest_u) == POWERLAW_LENGTH_MAX);
    CHECK(powerlaw_length(SIZE_MAX, smallest_u) == POWERLAW_LENGTH_MAX); /* past 2^64 */
    CHECK(powerlaw_length(SIZE_MAX, 0.25) == POWERLAW_LENGTH_MAX);
    CHECK(powerlaw_length(1, 1.0) == 0);
    CHECK(powerlaw_length(1, 0.25) == 1);     /* 1.5 x (2 - 1) */
    CHECK(powerlaw_length(100, 0.25) == 100); /* 100.5 x (2 - 1) */
    /* just under the clamp: converted, not clamped */
    const size_t near = powerlaw_length(SEGMENT_MEAN_MAX, 0x1p-44); /* ~ 2^40 x 2^22 */
    CHECK(near > ((size_t)1 << 61) && near < POWERLAW_LENGTH_MAX);
}

/* n / mean past the bound: refused at once, nothing drawn (without the
 * bound, uniform:1 over 2^64 - 1 elements would grow its offsets until
 * memory ran out). */
static void a_total_past_the_count_bound_should_fail_before_drawing(void)
{
    struct segment_spec spec;
    char err[256];
    size_t n = SIZE_MAX, count = 0;
    CHECK(parse_segment_spec("uniform:1", &spec, err, sizeof err));
    CHECK(make_segment_offsets(&spec, 1, &n, &count, err, sizeof err) == NULL);
    CHECK(strstr(err, "more than the 4294967296 a shape may have") != NULL);
    CHECK(parse_segment_spec("uniform:10", &spec, err, sizeof err));
    spec.max_count = 99;
    n = 1000; /* about 100 segments */
    CHECK(make_segment_offsets(&spec, 1, &n, &count, err, sizeof err) == NULL);
    CHECK(strstr(err, "--segments uniform:10: 1000 elements make about 100 segments, more than "
                      "the 99") != NULL);
}

/* Empty segments cover nothing: a stream of them ends at the count bound
 * with an error, and a shape just at the bound is made as without it. */
static void the_count_bound_should_end_a_stream_of_empty_segments(void)
{
    struct segment_spec spec;
    char err[256];
    CHECK(parse_segment_spec("powerlaw:1", &spec, err, sizeof err)); /* 2 in 3 lengths are 0 */
    size_t count = 0, n = 1;
    uint64_t seed = 1;
    segment_offset *unbounded = NULL;
    for (; seed < 100 && count < 3; ++seed) { /* a seed whose one element comes third or later */
        free(unbounded);
        unbounded = make_segment_offsets(&spec, seed, &n, &count, err, sizeof err);
    }
    CHECK(unbounded && count >= 3);
    spec.max_count = count;
    size_t bounded_count = 0;
    segment_offset *bounded = make_segment_offsets(&spec, seed - 1, &n, &bounded_count, err,
                                                   sizeof err);
    CHECK(bounded && bounded_count == count);
    CHECK(bounded && unbounded && memcmp(bounded, unbounded, (count + 1) * sizeof *bounded) == 0);
    spec.max_count = count - 1;
    CHECK(make_segment_offsets(&spec, seed - 1, &n, &bounded_count, err, sizeof err) == NULL);
    char want[64];
    snprintf(want, sizeof want, "--segments powerlaw:1: more than %zu segments", count - 1);
    CHECK(strstr(err, want) != NULL);
    free(bounded);
    free(unbounded);
}

/* A file's lines count against the bound too. */
static void a_file_with_more_lengths_than_the_bound_should_be_refused(void)
{
    char path[512], text[600], err[256];
    snprintf(path, sizeof path, "%s/test_shape_many.txt", tmp_dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs("0\n0\n0\n0\n0\n", f);
    fclose(f);
    snprintf(text, sizeof text, "file:%s", path);
    struct segment_spec spec;
    CHECK(parse_segment_spec(text, &spec, err, sizeof err));
    size_t n = 0, count = 0;
    spec.max_count = 5;
    segment_offset *o = make_segment_offsets(&spec, 1, &n, &count, err, sizeof err);
    CHECK(o != NULL && count == 5 && n == 0);
    free(o);
    spec.max_count = 4;
    CHECK(make_segment_offsets(&spec, 1, &n, &count, err, sizeof err) == NULL);
    CHECK(strstr(err, "line 5: more than 4 segments") != NULL);
    remove(path);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        tmp_dir = argv[1];
    RUN_TEST(uniform_segments_should_cover_n_with_empty_ones_and_mean_near_mean);
    RUN_TEST(powerlaw_segments_should_be_mostly_short_with_a_long_tail);
    RUN_TEST(same_seed_should_give_same_offsets_and_another_seed_others);
    RUN_TEST(tiny_totals_should_give_valid_offsets);
    RUN_TEST(bad_segment_specs_should_be_refused);
    RUN_TEST(a_file_of_lengths_should_give_its_offsets_and_total);
    RUN_TEST(a_bad_file_should_name_its_line);
    RUN_TEST(offsets_valid_should_catch_each_broken_rule);
    RUN_TEST(rows_shape_should_take_rows_or_the_total_and_refuse_the_rest);
    RUN_TEST(a_row_bound_should_be_the_whole_array_bound_at_its_length);
    RUN_TEST(a_wrong_row_should_be_caught_with_its_index_and_values);
    RUN_TEST(max_and_min_should_match_bit_for_bit_and_empty_segments_give_the_identity);
    RUN_TEST(argmax_and_argmin_of_rows_should_index_within_each_row);
    RUN_TEST(argmax_and_argmin_of_segments_should_give_no_index_for_empty_ones);
    RUN_TEST(argmax_and_argmin_of_columns_should_index_down_each_column);
    RUN_TEST(width_sweep_widths_should_be_powers_of_two_and_the_odd_widths_up_to_n);
    RUN_TEST(segment_mean_should_be_taken_up_to_2_to_the_40_and_refused_past_it);
    RUN_TEST(the_largest_mean_should_cover_n_in_about_n_over_mean_segments);
    RUN_TEST(powerlaw_length_should_clamp_before_it_converts);
    RUN_TEST(a_total_past_the_count_bound_should_fail_before_drawing);
    RUN_TEST(the_count_bound_should_end_a_stream_of_empty_segments);
    RUN_TEST(a_file_with_more_lengths_than_the_bound_should_be_refused);
    return test_exit_code();
}
