/* How step 40 (lane_segments) places a lane's segments, host and device
 * alike so that the CPU tests it (tests/test_lane_windows.cu).
 *
 * A lane takes SEGMENTS consecutive segments; their elements are one
 * range [o[0], o[SEGMENTS]) of the input, read as the array's aligned
 * 16-byte vectors it overlaps (counted from the one holding in[0], which
 * starts `lead` elements before it), a window of WINDOW_VECTORS at a time.
 * The lane walks its range itself where those vectors lie inside the
 * array and number at most MOST_WINDOWS windows; the places where its
 * segments start and end are then bits of one 64-bit word each, counted
 * from the first vector's first element. */
#ifndef LANE_WINDOWS_CUH
#define LANE_WINDOWS_CUH

#include <cstddef>
#include <cstdint>

#include "vector_loads.cuh"

/* Segments a lane. */
constexpr unsigned SEGMENTS = 8;

/* A window: the 16-byte loads that cover a range of sixteen elements
 * (eight segments of up to two: uniform:1's lengths are 0-2) wherever it
 * starts in a vector: 5 for floats, 9 for doubles, 3 for halves. */
template <class T> inline constexpr int WINDOW_VECTORS =
    (int)((2 * SEGMENTS + 2 * (VECTOR_WIDTH<T> - 1)) / VECTOR_WIDTH<T>);
template <class T> inline constexpr int WINDOW = WINDOW_VECTORS<T> * VECTOR_WIDTH<T>;
static_assert(WINDOW<float> <= 32 && WINDOW<double> <= 32 && WINDOW<__half> <= 32,
              "a window's starts and ends are bits of one word");

/* Windows a lane walks itself, as many as keep its range's bits in one
 * 64-bit word (3 for floats and doubles, 2 for halves); a longer range is
 * left to its warp. */
template <class T> inline constexpr int MOST_WINDOWS = 64 / WINDOW<T>;

/* A lane's range: the 16-byte vectors it overlaps and, from the first of
 * them on, a bit for each place where a segment starts and one where it
 * ends (empty segments have neither); bit s of `filled` for each segment
 * not empty. */
struct lane_range {
    size_t first_vector, end_vector;
    uint64_t start_bits, end_bits;
    unsigned filled;
};

/* The vectors of the range [o[0], o[SEGMENTS]); its bits are mark_segments'. */
template <class T>
__host__ __device__ __forceinline__ lane_range place_range(const size_t (&o)[SEGMENTS + 1], size_t lead)
{
    constexpr size_t W = VECTOR_WIDTH<T>;
    lane_range r{};
    r.first_vector = (o[0] + lead) / W;
    r.end_vector = (o[SEGMENTS] + lead + W - 1) / W;
    return r;
}

/* Whether the lane walks its range itself: whole vectors inside the array
 * of n elements (the array's first and last elements, short of a vector,
 * are not), in at most MOST_WINDOWS windows. */
template <class T>
__host__ __device__ __forceinline__ bool lane_walks(const lane_range &r, size_t n, size_t lead)
{
    constexpr size_t W = VECTOR_WIDTH<T>;
    return r.first_vector * W >= lead && r.end_vector * W - lead <= n &&
           r.end_vector - r.first_vector <= (size_t)(MOST_WINDOWS<T> * WINDOW_VECTORS<T>);
}

/* r's bits, for a range the lane walks (every place under 64). */
template <class T>
__host__ __device__ __forceinline__ void mark_segments(lane_range &r, const size_t (&o)[SEGMENTS + 1],
                                                       size_t lead)
{
    const size_t first = r.first_vector * VECTOR_WIDTH<T> - lead;
    r.start_bits = r.end_bits = 0;
    r.filled = 0;
    for (unsigned s = 0; s < SEGMENTS; ++s)
        if (o[s] < o[s + 1]) {
            r.start_bits |= 1ull << (o[s] - first);
            r.end_bits |= 1ull << (o[s + 1] - 1 - first);
            r.filled |= 1u << s;
        }
}

#endif
