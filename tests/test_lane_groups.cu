/* How group_per_row splits a row among a group's lanes
 * (kernels/blocks/row_lanes.cuh, group_for), on the CPU: the lanes and the
 * 16-byte loads a lane for sums, argmax rows and segments, at the widths
 * where the rule changes. */
#include "check.h"
#include "row_lanes.cuh"

static lane_group float_sum_rows(size_t cols) { return group_for<float, op_sum>(cols, SHAPE_ROWS); }
static lane_group float_argmax_rows(size_t cols)
{
    return group_for<float, op_argmax>(cols, SHAPE_ROWS);
}
static bool is(lane_group g, unsigned lanes, unsigned loads)
{
    return g.lanes == lanes && g.loads == loads;
}

static void sums_take_two_loads_or_three()
{
    CHECK(is(float_sum_rows(16), 2, 2));   /* 4 vectors */
    CHECK(is(float_sum_rows(33), 4, 3));   /* 9 vectors: 4 lanes of three */
    CHECK(is(float_sum_rows(64), 8, 2));   /* 16 vectors */
    CHECK(is(float_sum_rows(1024), 16, 3)); /* past 32 vectors */
}

static void argmax_rows_of_whole_vectors_take_four_loads_or_eight()
{
    CHECK(is(float_argmax_rows(16), 2, 2));  /* 4 vectors: under ARG_MIN_VECTORS */
    CHECK(is(float_argmax_rows(32), 2, 4));
    CHECK(is(float_argmax_rows(60), 4, 4)); /* 15 vectors: the last of four */
    CHECK(is(float_argmax_rows(64), 2, 8)); /* 16: the first of eight */
    CHECK(is(float_argmax_rows(128), 4, 8));
    CHECK(is(float_argmax_rows(256), 8, 8));
    CHECK(is(float_argmax_rows(508), 16, 8)); /* 127 vectors: the last of eight */
    CHECK(is(float_argmax_rows(512), 16, 4)); /* 16 lanes either way: four */
    CHECK(is(float_argmax_rows(2048), 16, 4));
    CHECK(is((group_for<double, op_argmin>(32, SHAPE_ROWS)), 2, 8)); /* 16 vectors of 2 */
}

/* Eight loads choose the lanes; five where five still cover the row. */
static void uneven_argmax_rows_take_five_loads_where_they_cover_the_row()
{
    CHECK(is(float_argmax_rows(33), 2, 5));  /* 9 vectors */
    CHECK(is(float_argmax_rows(37), 2, 5));  /* 10: the most two lanes of five cover */
    CHECK(is(float_argmax_rows(41), 2, 8));  /* 11: five would take 4 lanes */
    CHECK(is(float_argmax_rows(50), 2, 8));  /* 13 */
    CHECK(is(float_argmax_rows(63), 4, 5));  /* 17: past two lanes of eight */
    CHECK(is(float_argmax_rows(100), 4, 8)); /* 26: five would take 8 lanes */
    CHECK(is(float_argmax_rows(255), 16, 5)); /* 65 */
    CHECK(is(float_argmax_rows(1001), 16, 8)); /* 251: 16 lanes of five fall short */
    CHECK(is((group_for<double, op_argmin>(33, SHAPE_ROWS)), 4, 5)); /* 17 vectors of 2 */
}

static void segments_take_three_loads_whatever_the_operator()
{
    CHECK(is((group_for<float, op_argmax>(256, SHAPE_SEGMENTS)), 16, 3));
    CHECK(is((group_for<float, op_sum>(40, SHAPE_SEGMENTS)), 4, 3));
}

int main()
{
    RUN_TEST(sums_take_two_loads_or_three);
    RUN_TEST(argmax_rows_of_whole_vectors_take_four_loads_or_eight);
    RUN_TEST(uneven_argmax_rows_take_five_loads_where_they_cover_the_row);
    RUN_TEST(segments_take_three_loads_whatever_the_operator);
    return test_exit_code();
}
