/* Step 20's windows, element by element: __host__ __device__, so
 * test_superaccumulator replays a warp's tile on the CPU and checks every
 * window's sum is exact.
 *
 * A window takes the elements of a tile whose magnitudes lie in a range of
 * binades just under the tile's largest (or under the previous window) and
 * sums them without rounding:
 *   floats (and half, bfloat16, widened): K + 1 binades, summed in double.
 *     An element at or above 2^(e - K) is a whole number of 2^(e - K - 23)
 *     and below 2^(e + 1), so `count` of them stay under count 2^(K + 24)
 *     units: K = 29 - log2(count) keeps every partial sum within 2^53.
 *   doubles: 65 binades, summed as 128-bit integers in units of the lowest
 *     binade's ulp: m < 2^53 shifted by at most 64, 512 of them < 2^126. */
#ifndef EXACT_WINDOWS_CUH
#define EXACT_WINDOWS_CUH

#include <cuda/std/bit>
#include <cuda/std/cstddef>

#include <math.h>

#include "superaccumulator.cuh"

/* K for a tile of `count` elements (a power of two). */
__host__ __device__ constexpr int float_window_binades(size_t count)
{
    int log2_count = 0;
    while (((size_t)1 << log2_count) < count)
        ++log2_count;
    return 29 - log2_count;
}

/* The smallest magnitude the window under `largest` (>= 0) takes: 2^(e - K),
 * or 0 when the whole range below is narrower than a window (subnormals
 * included); +inf when largest is inf or NaN: then the window takes only
 * those (they fail every comparison), and the result is not finite. */
__host__ __device__ inline float float_window_floor(float largest, int k)
{
    const int field = cuda::std::bit_cast<int>(largest) >> 23;
    if (field == 255)
        return cuda::std::bit_cast<float>(0x7f800000);
    return field > k ? cuda::std::bit_cast<float>((field - k) << 23) : 0.0f;
}

/* x's share of the window [floor, ceiling) - the first window: everything
 * from floor up, inf and NaN included - and its magnitude if it lies under
 * floor (else 0). */
template <bool FIRST>
__host__ __device__ inline float float_window_term(float x, float floor, float ceiling, float *under)
{
    const float a = fabsf(x);
    const bool below = a < floor;
    *under = below ? a : 0.0f;
    return (FIRST || a < ceiling) && !below ? x : 0.0f;
}

constexpr int DOUBLE_WINDOW_BINADES = 64;

/* The lowest exponent field of the window under a double whose high word,
 * sign cleared, is top_word (subnormals count as field 1). */
__host__ __device__ inline int double_window_floor(unsigned top_word)
{
    const int field = (int)(top_word >> 20);
    const int f = field > 0 ? field : 1;
    return f - DOUBLE_WINDOW_BINADES > 1 ? f - DOUBLE_WINDOW_BINADES : 1;
}

/* The double (lo, hi words) as a signed integer in units of 2^(floor - 1075)
 * if its binade lies in [floor, ceiling) (the first window: from floor up),
 * else 0; and its high word, sign cleared - a tiny subnormal's counted as
 * 1 - if it lies under floor (else 0). Finite values only. */
template <bool FIRST>
__host__ __device__ inline __int128 double_window_term(unsigned lo, unsigned hi, int floor, int ceiling,
                                                      unsigned *under)
{
    const int field = (int)(hi >> 20) & 0x7ff;
    const int f = field > 0 ? field : 1;
    const bool below = f < floor, in = !below && (FIRST || f < ceiling);
    const unsigned long long m =
        in ? ((unsigned long long)((hi & 0xfffffu) | (field ? 0x100000u : 0u)) << 32) | lo : 0ull;
    const unsigned __int128 w = (unsigned __int128)m << (in ? f - floor : 0);
    const unsigned __int128 sign = (unsigned __int128)(__int128)((int)hi >> 31); /* 0 or all ones */
    *under = below ? (hi & 0x7fffffffu) | (lo != 0) : 0u;
    return (__int128)((w ^ sign) - sign);
}

/* The superaccumulator flag of an infinite or NaN double, else 0. */
__host__ __device__ inline unsigned double_nonfinite_flag(unsigned lo, unsigned hi)
{
    if (((hi >> 20) & 0x7ff) != 0x7ff)
        return 0;
    return (hi & 0xfffffu) | lo ? SUPERACC_NAN : hi >> 31 ? SUPERACC_NEG_INF : SUPERACC_POS_INF;
}

#endif
