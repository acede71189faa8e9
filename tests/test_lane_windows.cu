/* How step 40 places a lane's segments (kernels/blocks/lane_windows.cuh),
 * on the CPU: the vectors a lane's range overlaps, from an aligned or a
 * misaligned input; which ranges the lane walks itself (inside the array,
 * at most MOST_WINDOWS windows: the edges of that limit both ways) and
 * which it leaves to its warp; and that the start and end bits give back
 * every segment that is not empty, on fixed and on random lengths. */
#include <cstdlib>

#include "check.h"
#include "lane_windows.cuh"

/* Offsets of SEGMENTS segments of the given lengths, from `first`. */
static void offsets_of(size_t first, const unsigned (&lengths)[SEGMENTS], size_t (&o)[SEGMENTS + 1])
{
    o[0] = first;
    for (unsigned s = 0; s < SEGMENTS; ++s)
        o[s + 1] = o[s] + lengths[s];
}

/* The segments read back from r's bits match the offsets: the k-th start
 * bit and the k-th end bit are the first and last element of the k-th
 * segment that is not empty, `filled` marks those segments, and no other
 * bit is set. */
template <class T> static void check_bits_give_segments(const size_t (&o)[SEGMENTS + 1], size_t lead)
{
    lane_range r = place_range<T>(o, lead);
    mark_segments<T>(r, o, lead);
    const size_t first = r.first_vector * VECTOR_WIDTH<T> - lead;
    uint64_t starts = r.start_bits, ends = r.end_bits;
    for (unsigned s = 0; s < SEGMENTS; ++s) {
        const bool filled = (r.filled >> s & 1u) != 0;
        CHECK(filled == (o[s + 1] > o[s]));
        if (!filled || starts == 0 || ends == 0)
            continue;
        CHECK(first + (size_t)__builtin_ctzll(starts) == o[s]);
        CHECK(first + (size_t)__builtin_ctzll(ends) + 1 == o[s + 1]);
        starts &= starts - 1;
        ends &= ends - 1;
    }
    CHECK(starts == 0 && ends == 0);
    CHECK(__builtin_popcountll(r.start_bits) == __builtin_popcount(r.filled));
}

static void a_range_overlaps_the_vectors_of_its_first_and_last_elements()
{
    /* floats, aligned: elements 4..19 are vectors 1..4 */
    const unsigned two[SEGMENTS] = {2, 2, 2, 2, 2, 2, 2, 2};
    size_t o[SEGMENTS + 1];
    offsets_of(4, two, o);
    lane_range r = place_range<float>(o, 0);
    CHECK(r.first_vector == 1 && r.end_vector == 5);
    /* one element off 16 bytes: element 4 sits in vector 1, element 19 in vector 5 */
    r = place_range<float>(o, 1);
    CHECK(r.first_vector == 1 && r.end_vector == 6);
    /* an empty range overlaps no vector */
    const unsigned none[SEGMENTS] = {};
    offsets_of(9, none, o);
    r = place_range<float>(o, 0);
    CHECK(r.end_vector - r.first_vector <= 1);
}

static void a_lane_walks_at_most_its_windows_inside_the_array()
{
    const size_t n = 1000;
    /* floats: windows of 5 vectors, 3 of them: 60 elements from a vector's start */
    unsigned lengths[SEGMENTS] = {8, 8, 8, 8, 8, 8, 8, 4};
    size_t o[SEGMENTS + 1];
    offsets_of(40, lengths, o);
    CHECK(o[SEGMENTS] - o[0] == 60 && lane_walks<float>(place_range<float>(o, 0), n, 0));
    lengths[SEGMENTS - 1] = 5; /* 61 elements: a sixteenth vector */
    offsets_of(40, lengths, o);
    CHECK(!lane_walks<float>(place_range<float>(o, 0), n, 0));
    /* the same 60 elements one element into a vector take sixteen vectors */
    lengths[SEGMENTS - 1] = 4;
    offsets_of(41, lengths, o);
    CHECK(!lane_walks<float>(place_range<float>(o, 0), n, 0));
    /* doubles: windows of 9 vectors of 2, 3 of them: 54 elements */
    const unsigned doubles[SEGMENTS] = {7, 7, 7, 7, 7, 7, 7, 5};
    offsets_of(100, doubles, o);
    CHECK(lane_walks<double>(place_range<double>(o, 0), n, 0));
}

static void the_arrays_edges_short_of_a_vector_go_to_the_warp()
{
    const unsigned one[SEGMENTS] = {1, 1, 1, 1, 1, 1, 1, 1};
    size_t o[SEGMENTS + 1];
    /* a misaligned input: its first elements share a vector with what lies before it */
    offsets_of(0, one, o);
    CHECK(lane_walks<float>(place_range<float>(o, 0), 100, 0));
    CHECK(!lane_walks<float>(place_range<float>(o, 3), 100, 3));
    offsets_of(1, one, o); /* element 1 from a lead of 3: the second vector's first */
    CHECK(lane_walks<float>(place_range<float>(o, 3), 100, 3));
    /* the last elements: whole vectors only up to n */
    offsets_of(90, one, o); /* ends at 98 */
    CHECK(lane_walks<float>(place_range<float>(o, 0), 100, 0));
    CHECK(!lane_walks<float>(place_range<float>(o, 0), 98 + 1, 0)); /* 99: vector 24 runs to 100 */
    CHECK(lane_walks<float>(place_range<float>(o, 2), 98, 2)); /* 98 + 2 = 100: whole vectors */
}

static void the_bits_give_back_every_segment()
{
    const unsigned fixed[][SEGMENTS] = {{1, 0, 2, 0, 0, 1, 2, 1}, {0, 0, 0, 0, 0, 0, 0, 3},
                                        {2, 2, 2, 2, 2, 2, 2, 2}, {0, 0, 0, 0, 0, 0, 0, 0},
                                        {5, 0, 9, 1, 0, 7, 3, 20}};
    size_t o[SEGMENTS + 1];
    for (const auto &lengths : fixed)
        for (size_t first = 16; first < 20; ++first)
            for (size_t lead = 0; lead < 4; ++lead) {
                offsets_of(first, lengths, o);
                check_bits_give_segments<float>(o, lead);
                check_bits_give_segments<double>(o, lead % 2);
            }
    srand(7);
    for (int trial = 0; trial < 10000; ++trial) { /* random lengths 0-4, as uniform:2 */
        unsigned lengths[SEGMENTS];
        for (unsigned s = 0; s < SEGMENTS; ++s)
            lengths[s] = (unsigned)(rand() % 5);
        const size_t lead = (size_t)(rand() % 4);
        offsets_of(64 + (size_t)(rand() % 64), lengths, o);
        if (lane_walks<float>(place_range<float>(o, lead), 1 << 20, lead))
            check_bits_give_segments<float>(o, lead);
    }
}

int main()
{
    RUN_TEST(a_range_overlaps_the_vectors_of_its_first_and_last_elements);
    RUN_TEST(a_lane_walks_at_most_its_windows_inside_the_array);
    RUN_TEST(the_arrays_edges_short_of_a_vector_go_to_the_warp);
    RUN_TEST(the_bits_give_back_every_segment);
    return test_exit_code();
}
