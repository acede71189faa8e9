/* How cub_segmented writes CUB's argmax and argmin pairs as the suite's
 * records (vendor_shims/cub_arg_records.cuh), on the CPU: a result is kept
 * as CUB found it, an empty segment gets the identity and no index, and
 * CUB's own start - (1, lowest()) for ArgMax, (1, max()) for ArgMin, which
 * CCCL 3.0.1 returns for a segment whose every element loses to it (all
 * -inf for an argmax) - gets element 0, while a real element 1 holding the
 * start's value stays. */
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>

#include "check.h"
#include "cub_arg_records.cuh"

/* What the records iterator stores for segment i when CUB hands it the pair
 * (index, value). */
template <class Op, class T, class Bounds>
static arg_record<T> stored(const T *in, Bounds bounds, long long i, int index, T value)
{
    arg_record<T> out[4] = {};
    const store_arg_records<T, Op, cub::KeyValuePair<int, T>, Bounds> store{in, out, bounds};
    store(i, cub::KeyValuePair<int, T>(index, value));
    return out[i];
}

template <class V, class W> static bool record_is(const arg_pair<V> &r, W value, long long index)
{
    return r.index == index && r.value == (V)value;
}

static void a_found_extremum_is_kept()
{
    const float in[] = {1.0f, 5.0f, 2.0f, -3.0f, -1.0f, -2.0f};
    CHECK(record_is(stored<op_argmax>(in, row_bounds{3}, 0, 1, 5.0f), 5.0f, 1));
    CHECK(record_is(stored<op_argmin>(in, row_bounds{3}, 1, 0, -3.0f), -3.0f, 0));
    const int ints[] = {INT_MIN, INT_MIN, 4, INT_MIN};
    /* an element 1 of the start's value is a result, not the start */
    CHECK(record_is(stored<op_argmax>(ints, row_bounds{2}, 0, 1, INT_MIN), INT_MIN, 1));
    CHECK(record_is(stored<op_argmax>(ints, row_bounds{2}, 1, 0, 4), 4, 0));
}

static void cubs_start_over_a_row_of_only_minus_infinity_gives_element_0()
{
    const float inf = INFINITY;
    const float one[] = {-inf, 2.0f, -inf};
    CHECK(record_is(stored<op_argmax>(one, row_bounds{1}, 0, 1, -FLT_MAX), -inf, 0));
    CHECK(record_is(stored<op_argmax>(one, row_bounds{1}, 2, 1, -FLT_MAX), -inf, 0));
    const float three[] = {-inf, -inf, -inf, -inf, -FLT_MAX, -inf};
    CHECK(record_is(stored<op_argmax>(three, row_bounds{3}, 0, 1, -FLT_MAX), -inf, 0));
    /* element 1 really is -FLT_MAX: CUB's answer stands */
    CHECK(record_is(stored<op_argmax>(three, row_bounds{3}, 1, 1, -FLT_MAX), -FLT_MAX, 1));
    const float plus[] = {inf, inf};
    CHECK(record_is(stored<op_argmin>(plus, row_bounds{2}, 0, 1, FLT_MAX), inf, 0));
    const double minus[] = {-(double)inf, -(double)inf};
    CHECK(record_is(stored<op_argmax>(minus, row_bounds{2}, 0, 1, -DBL_MAX), -(double)inf, 0));
    const __half halves[] = {__float2half(-inf), __float2half(-inf)};
    CHECK(record_is(stored<op_argmax>(halves, row_bounds{2}, 0, 1, __float2half(-65504.0f)), -inf, 0));
}

static void segments_empty_or_of_only_minus_infinity()
{
    const float inf = INFINITY;
    const float in[] = {-inf, -inf, 7.0f};
    const std::uint64_t offsets[] = {0, 0, 2, 3};
    const offset_bounds<const std::uint64_t *> bounds{offsets};
    const arg_record<float> empty = stored<op_argmax>(in, bounds, 0, 1, -FLT_MAX);
    CHECK(empty.index == NO_INDEX && empty.value == -inf);
    CHECK(record_is(stored<op_argmax>(in, bounds, 1, 1, -FLT_MAX), -inf, 0));
    CHECK(record_is(stored<op_argmax>(in, bounds, 2, 0, 7.0f), 7.0f, 0));
}

int main()
{
    RUN_TEST(a_found_extremum_is_kept);
    RUN_TEST(cubs_start_over_a_row_of_only_minus_infinity_gives_element_0);
    RUN_TEST(segments_empty_or_of_only_minus_infinity);
    return test_exit_code();
}
