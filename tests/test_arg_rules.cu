/* The rules of argmax and argmin as the kernels compare (kernels/blocks/
 * element_traits.cuh, __host__ __device__ code), on the CPU: the two forms of
 * "b beats a" - with a NaN test first, and without a branch - agree on every
 * pair of awkward values (NaNs, infinities, signed zeros, equal values) for
 * float and double; a pair's combine keeps the lower index of equal values
 * and a NaN over any number, and its comparison - arg_wins, and the form
 * without a branch that split_columns and the segments' last kernel
 * combine with - agrees with the rule
 * spelled out case by case; a span's int index widens by sign and offset,
 * the identity's NO_INDEX staying NO_INDEX. */
#include <math.h>

#include "check.h"
#include "element_traits.cuh"

template <class V> static void check_beats_forms_agree()
{
    const V values[] = {(V)NAN, -(V)INFINITY, (V)-1.5, (V)-0.0, (V)0.0, (V)1e-30, (V)1.5, (V)INFINITY};
    int compared = 0;
    for (V a : values)
        for (V b : values) {
            const bool max_beats = arg_beats<true>(b, a), min_beats = arg_beats<false>(b, a);
            CHECK(arg_beats_without_branch<true>(b, a) == max_beats);
            CHECK(arg_beats_without_branch<false>(b, a) == min_beats);
            CHECK((span_beats<true, int>(b, a)) == max_beats);
            CHECK((span_beats<false, long long>(b, a)) == min_beats);
            /* the rule itself: a NaN beats a number, nothing beats a NaN, equal values never beat */
            if (a != a)
                CHECK(!max_beats && !min_beats);
            else if (b != b)
                CHECK(max_beats && min_beats);
            else
                CHECK(max_beats == (b > a) && min_beats == (b < a));
            ++compared;
        }
    CHECK(compared == 64);
}

static void beats_forms_agree_on_awkward_floats() { check_beats_forms_agree<float>(); }
static void beats_forms_agree_on_awkward_doubles() { check_beats_forms_agree<double>(); }

static void combine_keeps_the_lower_index_and_the_nan()
{
    const op_argmax max;
    const op_argmin min;
    const arg_pair<float, int> early{2.0f, 3}, late{2.0f, 9}, nan_late{NAN, 12}, big{5.0f, 1};
    CHECK(max(early, late).index == 3 && max(late, early).index == 3);
    CHECK(min(early, late).index == 3 && min(late, early).index == 3);
    CHECK(max(big, nan_late).index == 12 && min(big, nan_late).index == 12);
    CHECK(max(early, big).index == 1 && min(early, big).index == 3);
    const arg_pair<float, int> none = identity<op_argmax, arg_pair<float, int> >();
    CHECK(none.index == NO_INDEX && max(none, late).index == 9 && max(late, none).index == 9);
}

/* The rule of a pair's combine, spelled out with a branch a case: a NaN
 * against a number wins, a number against a NaN loses; two different
 * numbers, the larger (argmax) or smaller (argmin); otherwise the lower
 * index, NO_INDEX counting as the largest. */
template <bool MAX, class V, class I> static bool wins_by_the_rule(arg_pair<V, I> b, arg_pair<V, I> a)
{
    const bool b_nan = b.value != b.value, a_nan = a.value != a.value;
    if (b_nan != a_nan)
        return b_nan;
    if (!b_nan && b.value != a.value)
        return MAX ? b.value > a.value : b.value < a.value;
    using U = cuda::std::make_unsigned_t<I>;
    return (U)b.index < (U)a.index;
}

/* arg_wins, arg_wins_without_branch and the combine built on it against
 * that rule for every pair of awkward values and of indices (equal, lower,
 * higher, NO_INDEX). */
template <class V, class I> static void check_wins_follows_the_rule(const V *values, int count)
{
    const I indices[] = {0, 3, 9, (I)NO_INDEX};
    int compared = 0;
    for (int i = 0; i < count; ++i)
        for (int j = 0; j < count; ++j)
            for (I bi : indices)
                for (I ai : indices) {
                    const arg_pair<V, I> b{values[i], bi}, a{values[j], ai};
                    const bool max_wins = wins_by_the_rule<true>(b, a);
                    const bool min_wins = wins_by_the_rule<false>(b, a);
                    CHECK((arg_wins<true>(b, a)) == max_wins && (arg_wins<false>(b, a)) == min_wins);
                    CHECK((arg_wins_without_branch<true>(b, a)) == max_wins);
                    CHECK((arg_wins_without_branch<false>(b, a)) == min_wins);
                    const arg_pair<V, I> max_pair = combine_without_branch<op_argmax>{}(a, b);
                    const arg_pair<V, I> min_pair = combine_without_branch<op_argmin>{}(a, b);
                    CHECK(max_pair.index == (max_wins ? bi : ai) && min_pair.index == (min_wins ? bi : ai));
                    ++compared;
                }
    CHECK(compared == count * count * 16);
}

static void wins_follows_the_rule_for_awkward_values()
{
    const float floats[] = {NAN, -NAN, -INFINITY, -1.5f, -0.0f, 0.0f, 1e-30f, 1.5f, INFINITY};
    const double doubles[] = {NAN, -INFINITY, -1.5, -0.0, 0.0, 1.5, INFINITY};
    const int ints[] = {-2147483647 - 1, -1, 0, 1, 2147483647};
    check_wins_follows_the_rule<float, int>(floats, 9);
    check_wins_follows_the_rule<float, long long>(floats, 9);
    check_wins_follows_the_rule<double, long long>(doubles, 7);
    check_wins_follows_the_rule<int, long long>(ints, 5);
}

static void int_indices_widen_by_sign_and_offset()
{
    const size_t past_2_31 = ((size_t)1 << 31) + 7;
    const arg_pair<double> moved = widen_index(arg_pair<double, int>{1.0, 5}, past_2_31);
    CHECK(moved.value == 1.0 && moved.index == (long long)past_2_31 + 5);
    const arg_pair<double> top = widen_index(arg_pair<double, int>{1.0, 0x7fffffff}, 0);
    CHECK(top.index == 0x7fffffffLL);
    const arg_pair<double> none = widen_index(arg_pair<double, int>{1.0, (int)NO_INDEX}, past_2_31);
    CHECK(none.index == (long long)NO_INDEX);
    CHECK(widen_index(2.5f, past_2_31) == 2.5f); /* a value result passes through */
}

int main()
{
    RUN_TEST(beats_forms_agree_on_awkward_floats);
    RUN_TEST(beats_forms_agree_on_awkward_doubles);
    RUN_TEST(combine_keeps_the_lower_index_and_the_nan);
    RUN_TEST(wins_follows_the_rule_for_awkward_values);
    RUN_TEST(int_indices_widen_by_sign_and_offset);
    return test_exit_code();
}
