/* The columns shape on the CPU (shape.h, shape_reference.h): a column is
 * element i of each row of a row-major matrix - first i, n / cols long, a
 * row apart - and its reference is the whole-array reference of those
 * elements. Known answers on a small integer matrix; random data at 1
 * column, 1 row, 31 / 32 / 33 columns and odd sizes, each column checked
 * against the reference of its elements gathered into a contiguous array;
 * a wrong column caught with its index. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "shape_reference.h"

static void columns_shape_should_describe_each_column_a_row_apart(void)
{
    struct reduce_shape s;
    char err[256];
    CHECK(make_columns_shape(33, 0, 33 * 7, &s, err, sizeof err));
    CHECK(s.kind == SHAPE_COLUMNS && s.count == 33 && s.cols == 33 && !s.offsets);
    CHECK(shape_first(&s, 0, 33 * 7) == 0 && shape_first(&s, 32, 33 * 7) == 32);
    CHECK(shape_length(&s, 5, 33 * 7) == 7 && shape_stride(&s) == 33);
    CHECK(make_columns_shape(4, 5, 0, &s, err, sizeof err) && s.count == 4);
    CHECK(shape_length(&s, 3, 20) == 5);
    CHECK(make_columns_shape(1, 0, 9, &s, err, sizeof err) && s.count == 1);
    CHECK(shape_length(&s, 0, 9) == 9 && shape_stride(&s) == 1);
    CHECK(make_columns_shape(9, 0, 9, &s, err, sizeof err) && s.count == 9);
    CHECK(shape_length(&s, 8, 9) == 1);
    CHECK(!make_columns_shape(0, 0, 10, &s, err, sizeof err));
    CHECK(!make_columns_shape(3, 0, 10, &s, err, sizeof err) && strstr(err, "10") != NULL);
    CHECK(!make_columns_shape(SIZE_MAX / 2, 3, 0, &s, err, sizeof err));
    CHECK(strcmp(shape_kind_name(SHAPE_COLUMNS), "columns") == 0);
    CHECK(shape_kind_from_name("columns") == SHAPE_COLUMNS);
    CHECK(strcmp(shape_result_noun(SHAPE_COLUMNS), "column") == 0);
    CHECK(strcmp(shape_result_noun(SHAPE_ROWS), "row") == 0);
    CHECK(strcmp(shape_result_noun(SHAPE_SEGMENTS), "segment") == 0);
    const struct reduce_shape rows = {.kind = SHAPE_ROWS, .count = 7, .cols = 33};
    CHECK(shape_stride(&rows) == 1);
}

/* [[1 2 3 4] [5 6 7 8] [9 10 11 12]]: the column sums, maxima and minima,
 * and one column off by one is caught with its index. */
static void a_small_matrix_should_give_its_known_column_answers(void)
{
    const int32_t x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const struct reduce_shape shape = {.kind = SHAPE_COLUMNS, .count = 4, .cols = 4};
    const struct data_info info = {.exact_sum_known = true};
    const struct summation_order chain = {.kind = ORDER_SERIAL_CHAIN};
    const enum reduce_op ops[] = {OP_SUM, OP_MAX, OP_MIN};
    int32_t want[][4] = {{15, 18, 21, 24}, {9, 10, 11, 12}, {1, 2, 3, 4}};
    for (size_t k = 0; k < 3; ++k) {
        const struct reduce_spec spec = {TYPE_INT32, ops[k]};
        struct shape_reference ref;
        struct result_mismatch bad;
        CHECK(compute_shape_reference(&ref, spec, shape, x, 12, info));
        for (size_t c = 0; c < 4; ++c)
            CHECK(ref.value[c] == (double)want[k][c]);
        CHECK(shape_result_reference(&ref, 2).n == 3);
        CHECK(check_shaped_results(&ref, want[k], chain, false, &bad, NULL));
        want[k][3] += 1;
        CHECK(!check_shaped_results(&ref, want[k], chain, false, &bad, NULL));
        CHECK(bad.index == 3 && bad.length == 3);
        free_shape_reference(&ref);
    }
}

/* Each column of a rows x cols float matrix against the whole-array
 * reference of its elements copied out; a float chain down each column
 * passes, and a column pushed past its bound is caught. */
static void check_random_columns(size_t cols, size_t rows, enum reduce_op op)
{
    const size_t n = rows * cols;
    float *x = malloc(n * sizeof *x), *column = malloc(rows * sizeof *column);
    float *results = malloc(cols * sizeof *results);
    const struct data_info info = fill_data(x, n, TYPE_FLOAT, DIST_SIGNED, 11 + cols + rows);
    const struct reduce_spec spec = {TYPE_FLOAT, op};
    const struct summation_order chain = {.kind = ORDER_SERIAL_CHAIN};
    struct reduce_shape shape;
    struct shape_reference ref;
    struct result_mismatch bad;
    char err[256];
    CHECK(make_columns_shape(cols, rows, n, &shape, err, sizeof err));
    CHECK(compute_shape_reference(&ref, spec, shape, x, n, info));
    for (size_t c = 0; c < cols; ++c) {
        float total = op == OP_SUM ? 0.0f : x[c];
        for (size_t r = 0; r < rows; ++r) {
            const float v = x[r * cols + c];
            column[r] = v;
            total = op == OP_SUM ? total + v : op == OP_MAX ? (v > total ? v : total)
                                                            : (v < total ? v : total);
        }
        results[c] = total;
        const struct reference whole = compute_reference(spec, column, rows, info);
        const struct reference mine = shape_result_reference(&ref, c);
        CHECK(mine.n == rows);
        CHECK(op == OP_SUM ? mine.sum == whole.sum && mine.sum_abs == whole.sum_abs
                           : mine.max == (op == OP_MAX ? whole.max : whole.min));
    }
    CHECK(check_shaped_results(&ref, results, chain, false, &bad, NULL));
    const size_t wrong = cols / 2;
    const struct reference column_ref = shape_result_reference(&ref, wrong);
    results[wrong] = (float)(ref.value[wrong] + 2.0 * error_bound(&column_ref, chain) + 1.0);
    CHECK(!check_shaped_results(&ref, results, chain, false, &bad, NULL));
    CHECK(bad.index == wrong && bad.length == rows);
    free_shape_reference(&ref);
    free(results);
    free(column);
    free(x);
}

static void random_columns_should_match_the_reference_of_their_elements(void)
{
    static const size_t SHAPES[][2] = {{1, 1},   {1, 1001}, {1000, 1}, {31, 7},  {32, 7},
                                       {33, 7},  {33, 257}, {7, 3},    {3, 2},   {257, 5}};
    const enum reduce_op ops[] = {OP_SUM, OP_MAX, OP_MIN};
    for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; ++i)
        for (size_t k = 0; k < 3; ++k)
            check_random_columns(SHAPES[i][0], SHAPES[i][1], ops[k]);
}

int main(void)
{
    RUN_TEST(columns_shape_should_describe_each_column_a_row_apart);
    RUN_TEST(a_small_matrix_should_give_its_known_column_answers);
    RUN_TEST(random_columns_should_match_the_reference_of_their_elements);
    return test_exit_code();
}
