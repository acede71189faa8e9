/* The host-side arithmetic of steps 19 and 20, on the CPU: how an input is
 * cut into fixed tiles (kernels/blocks/fixed_tiles.cuh), the exact accumulator
 * (kernels/blocks/superaccumulator.cuh), whose split, limbs and rounding are
 * __host__ __device__ code, and step 20's windows (kernels/blocks/exact_windows.cuh),
 * replayed over whole tiles as a warp runs them: every window's sum must be
 * exact, and the tile's total the exactly rounded sum. Values
 * are added limb by limb as the warp's lanes would add them, then rounded;
 * the result must be the exact sum rounded once to nearest (ties to even).
 * The reference is Shewchuk's exact summation as Python's math.fsum does it
 * (a different algorithm: floating-point partials, not an integer), which is
 * correctly rounded to double; float results compare with it rounded again to
 * float (a double rounding that random data never meets; the ties are tested
 * on their own, with known answers). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "check.h"
#include "exact_windows.cuh"
#include "fixed_tiles.cuh"
#include "superaccumulator.cuh"

template <class R> struct accumulator_on_cpu {
    using layout = superaccumulator_layout<R>;
    long long limbs[layout::LIMBS] = {};
    unsigned flags = 0;

    void add(double v)
    {
        const superaccumulator_term t = superaccumulator_split<layout::BIAS>(v);
        flags |= t.nonfinite;
        for (int limb = 0; limb < layout::LIMBS; ++limb)
            limbs[limb] += superaccumulator_piece(t, limb);
    }
    R round() { return superaccumulator_round<R>(limbs, flags); }
};

template <class R> static R exact_sum(const std::vector<double> &values)
{
    accumulator_on_cpu<R> acc;
    for (double v : values)
        acc.add(v);
    return acc.round();
}

/* math.fsum (CPython, Modules/mathmodule.c): correctly rounded, finite sums only. */
static double fsum(const std::vector<double> &values)
{
    std::vector<double> partials;
    for (double x : values) {
        size_t i = 0;
        for (double y : partials) {
            if (fabs(x) < fabs(y)) {
                const double t = x;
                x = y;
                y = t;
            }
            const double hi = x + y;
            const double lo = y - (hi - x);
            if (lo != 0.0)
                partials[i++] = lo;
            x = hi;
        }
        partials.resize(i);
        partials.push_back(x);
    }
    size_t n = partials.size();
    double hi = 0.0, lo = 0.0;
    if (n > 0) {
        hi = partials[--n];
        while (n > 0) {
            const double x = hi, y = partials[--n];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0)
                break;
        }
        if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
            const double y = lo * 2.0, x = hi + y;
            if (y == x - hi)
                hi = x;
        }
    }
    return hi;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t next_random(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A float with a random significand, sign and exponent in [lo, hi]. */
static float random_float(int lo, int hi)
{
    const float m = (float)(next_random() >> 40) / 16777216.0f + 0.5f; /* [0.5, 1) */
    const float v = ldexpf(m, lo + (int)(next_random() % (uint64_t)(hi - lo + 1)));
    return next_random() & 1 ? -v : v;
}

static double random_double(int lo, int hi)
{
    const double m = (double)(next_random() >> 11) / 9007199254740992.0 / 2.0 + 0.5;
    const double v = ldexp(m, lo + (int)(next_random() % (uint64_t)(hi - lo + 1)));
    return next_random() & 1 ? -v : v;
}

static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }
static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static void empty_and_zero_sums_should_be_plus_zero(void)
{
    CHECK(same_bits(exact_sum<float>({}), 0.0f));
    CHECK(same_bits(exact_sum<double>({}), 0.0));
    CHECK(same_bits(exact_sum<float>({0.0, -0.0, 0.0}), 0.0f));
    CHECK(same_bits(exact_sum<double>({1e300, -1e300}), 0.0));
}

static void small_terms_should_not_be_lost(void)
{
    /* 1 + 2^-24 + 2^-60: above the tie between 1 and 1 + 2^-23, so it rounds
     * up - a double sum loses the 2^-60 first and rounds down to 1. */
    CHECK(same_bits(exact_sum<float>({1.0, ldexp(1.0, -24), ldexp(1.0, -60)}), 1.0f + ldexpf(1.0f, -23)));
    CHECK(same_bits(exact_sum<float>({ldexp(1.0, -60), ldexp(1.0, -24), 1.0}), 1.0f + ldexpf(1.0f, -23)));
    CHECK(same_bits(exact_sum<float>({-1.0, -ldexp(1.0, -24), -ldexp(1.0, -60)}), -1.0f - ldexpf(1.0f, -23)));
    /* Exact ties go to the even significand. */
    CHECK(same_bits(exact_sum<float>({1.0, ldexp(1.0, -24)}), 1.0f));
    CHECK(same_bits(exact_sum<float>({1.0 + ldexp(1.0, -23), ldexp(1.0, -24)}), 1.0f + ldexpf(1.0f, -22)));
    CHECK(same_bits(exact_sum<double>({1.0, ldexp(1.0, -53)}), 1.0));
    CHECK(same_bits(exact_sum<double>({1.0, ldexp(1.0, -53), ldexp(1.0, -1074)}), 1.0 + ldexp(1.0, -52)));
    /* Cancellation leaves what a floating-point sum would have lost. */
    CHECK(same_bits(exact_sum<float>({ldexp(1.0, 100), 1.0, -ldexp(1.0, 100)}), 1.0f));
    CHECK(same_bits(exact_sum<double>({ldexp(1.0, 1000), ldexp(1.0, -1000), -ldexp(1.0, 1000)}),
                    ldexp(1.0, -1000)));
}

static void range_edges_should_round_like_ieee(void)
{
    const double tiny = ldexp(1.0, -149);
    CHECK(same_bits(exact_sum<float>({tiny, tiny}), ldexpf(1.0f, -148)));
    CHECK(same_bits(exact_sum<float>({ldexp(1.0, -126), -tiny}), ldexpf(1.0f, -126) - ldexpf(1.0f, -149)));
    CHECK(same_bits(exact_sum<double>({4.9e-324, 4.9e-324, -4.9e-324}), 4.9e-324));
    CHECK(same_bits(exact_sum<float>({FLT_MAX, FLT_MAX, -FLT_MAX}), FLT_MAX));
    CHECK(isinf(exact_sum<float>({FLT_MAX, FLT_MAX})));
    CHECK(exact_sum<float>({-(double)FLT_MAX, -(double)FLT_MAX}) < 0.0f);
    CHECK(isinf(exact_sum<double>({DBL_MAX, DBL_MAX})));
    CHECK(same_bits(exact_sum<double>({DBL_MAX, DBL_MAX, -DBL_MAX}), DBL_MAX));
    /* FLT_MAX + half an ulp is a tie with 2^128, whose significand is even: inf. */
    CHECK(same_bits(exact_sum<float>({FLT_MAX, ldexp(1.0, 102)}), FLT_MAX));
    CHECK(isinf(exact_sum<float>({FLT_MAX, ldexp(1.0, 103)})));
    CHECK(same_bits(exact_sum<float>({FLT_MAX, ldexp(1.0, 103), -ldexp(1.0, 80)}), FLT_MAX));
}

static void non_finite_values_should_win(void)
{
    CHECK(isinf(exact_sum<float>({INFINITY, 1.0})) && exact_sum<float>({INFINITY, 1.0}) > 0);
    CHECK(isinf(exact_sum<double>({-INFINITY, 1.0})) && exact_sum<double>({-INFINITY, 1.0}) < 0);
    CHECK(isnan(exact_sum<float>({INFINITY, -INFINITY})));
    CHECK(isnan(exact_sum<double>({NAN, 1.0})));
}

static void random_sums_should_match_fsum(void)
{
    for (int round = 0; round < 300; ++round) {
        std::vector<double> f, d;
        const size_t n = 1 + next_random() % 2000;
        const int spread = 1 + (int)(next_random() % 120); /* exponents in [-spread, spread] */
        for (size_t i = 0; i < n; ++i) {
            f.push_back(random_float(-spread, spread));
            d.push_back(random_double(-8 * spread, 8 * spread));
        }
        const float got_f = exact_sum<float>(f), want_f = (float)fsum(f);
        const double got_d = exact_sum<double>(d), want_d = fsum(d);
        if (!same_bits(got_f, want_f) || !same_bits(got_d, want_d))
            fprintf(stderr, "  round %d: float %.9g want %.9g, double %.17g want %.17g\n", round, got_f,
                    want_f, got_d, want_d);
        CHECK(same_bits(got_f, want_f));
        CHECK(same_bits(got_d, want_d));
        /* Any order, the same bits. */
        for (size_t i = n; i > 1; --i) {
            const size_t j = next_random() % i;
            const double t = f[i - 1];
            f[i - 1] = f[j];
            f[j] = t;
        }
        CHECK(same_bits(exact_sum<float>(f), got_f));
    }
}

static void many_terms_should_not_overflow_a_limb(void)
{
    /* 2^20 equal terms whose pieces fill their limbs: 2^20 * 0.1f is exact in double. */
    accumulator_on_cpu<float> acc;
    const float tenth = 0.1f;
    for (int i = 0; i < (1 << 20); ++i)
        acc.add(-(double)tenth);
    CHECK(same_bits(acc.round(), (float)(-(double)tenth * 1048576.0)));
    accumulator_on_cpu<double> big;
    for (int i = 0; i < (1 << 20); ++i)
        big.add(DBL_MAX / 4);
    CHECK(isinf(big.round()));
}

/* Head, whole vectors and tail cover every element once, whatever the
 * alignment; tiles cover the vectors; nothing depends on more than n and the
 * address modulo 16. */
static void tile_plans_should_cover_every_element_once(void)
{
    const size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 1023, 1024, 1025, 4096, 65537, 1000003,
                            ((size_t)1 << 31) + 5};
    const size_t element_bytes[] = {2, 4, 8};
    for (size_t e = 0; e < 3; ++e)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
            for (uintptr_t address = 4096; address < 4096 + 32; address += element_bytes[e]) {
                const size_t n = sizes[s], bytes = element_bytes[e], width = 16 / bytes;
                const tile_plan p = plan_tiles(address, n, bytes);
                CHECK(p.head < width && p.head <= n);
                CHECK((address + p.head * bytes) % 16 == 0 || p.head == n);
                CHECK(p.tail_start == p.head + p.body_vectors * width);
                CHECK(p.tail_start <= n && n - p.tail_start < width);
                CHECK(p.tiles * TILE_VECTORS >= p.body_vectors);
                CHECK(p.tiles == 0 || (p.tiles - 1) * TILE_VECTORS < p.body_vectors);
                const tile_plan same = plan_tiles(address + 16 * 1024, n, bytes);
                CHECK(same.head == p.head && same.tiles == p.tiles && same.tail_start == p.tail_start);
            }
    /* 64 MiB of floats, aligned: 16384 tiles of 4 KiB, no head, no tail. */
    const tile_plan p = plan_tiles(256, (size_t)1 << 24, 4);
    CHECK(p.head == 0 && p.body_vectors == (size_t)1 << 22 && p.tiles == 16384 && p.tail_start == (size_t)1 << 24);
}

/* Step 20's double windows add 127-bit integers times 2^base units: the
 * same limbs as adding the integer's two halves as doubles. */
static void wide_integers_should_add_like_their_doubles(void)
{
    for (int round = 0; round < 500; ++round) {
        const unsigned long long a = next_random() >> 11, b = next_random() >> 11; /* < 2^53 */
        const bool negative = next_random() & 1;
        const int base = (int)(next_random() % 1900);
        const unsigned __int128 x = ((unsigned __int128)a << 64) + b;
        accumulator_on_cpu<double> wide, halves;
        for (int limb = 0; limb < superaccumulator_layout<double>::LIMBS; ++limb)
            wide.limbs[limb] += superaccumulator_wide_piece(x, negative, base, limb);
        const double sign = negative ? -1.0 : 1.0;
        halves.add(sign * ldexp((double)a, 64 + base - 1074));
        halves.add(sign * ldexp((double)b, base - 1074));
        const double got = wide.round(), want = halves.round();
        if (!same_bits(got, want))
            fprintf(stderr, "  a %llu b %llu base %d: %.17g want %.17g\n", a, b, base, got, want);
        CHECK(same_bits(got, want));
    }
    accumulator_on_cpu<float> zero;
    for (int limb = 0; limb < superaccumulator_layout<float>::LIMBS; ++limb)
        zero.limbs[limb] += superaccumulator_wide_piece(0, true, 37, limb);
    CHECK(same_bits(zero.round(), 0.0f));
}

/* One float tile as step 20's warp sums it: windows under the largest
 * magnitude until nothing is left; each window's double sum must be exact:
 * fsum of its elements less the sum is zero. */
static float exact_float_tile(const std::vector<float> &tile)
{
    const int k = float_window_binades(tile.size());
    unsigned top = 0;
    for (float x : tile) {
        unsigned bits;
        memcpy(&bits, &x, sizeof bits);
        top = (bits & 0x7fffffffu) > top ? bits & 0x7fffffffu : top;
    }
    float largest;
    memcpy(&largest, &top, sizeof largest);
    accumulator_on_cpu<float> acc;
    float floor = float_window_floor(largest, k), ceiling = 0.0f, below = 0.0f;
    for (bool first = true; first || below > 0.0f; first = false) {
        if (!first)
            floor = float_window_floor(below, k);
        double sum = 0.0;
        std::vector<double> window;
        below = 0.0f;
        for (float x : tile) {
            float under;
            const float term = first ? float_window_term<true>(x, floor, ceiling, &under)
                                     : float_window_term<false>(x, floor, ceiling, &under);
            sum += term;
            window.push_back(term);
            below = under > below ? under : below;
        }
        window.push_back(-sum); /* what the double sum lost, exactly: must be nothing */
        if (isfinite(sum))
            CHECK(fsum(window) == 0.0);
        acc.add(sum);
        ceiling = floor;
    }
    return acc.round();
}

static double exact_double_tile(const std::vector<double> &tile)
{
    accumulator_on_cpu<double> acc;
    unsigned top = 0;
    for (double x : tile) {
        unsigned long long bits;
        memcpy(&bits, &x, sizeof bits);
        acc.flags |= double_nonfinite_flag((unsigned)bits, (unsigned)(bits >> 32));
        const unsigned word = (unsigned)(bits >> 32) & 0x7fffffffu;
        top = word > top ? word : top;
    }
    if (acc.flags)
        return acc.round();
    int floor = double_window_floor(top), ceiling = 0;
    unsigned below = 0;
    for (bool first = true; first || below != 0; first = false) {
        if (!first)
            floor = double_window_floor(below);
        __int128 sum = 0;
        below = 0;
        for (double x : tile) {
            unsigned long long bits;
            memcpy(&bits, &x, sizeof bits);
            unsigned under;
            sum += first ? double_window_term<true>((unsigned)bits, (unsigned)(bits >> 32), floor, ceiling, &under)
                         : double_window_term<false>((unsigned)bits, (unsigned)(bits >> 32), floor, ceiling, &under);
            below = under > below ? under : below;
        }
        const bool negative = sum < 0;
        const unsigned __int128 magnitude = negative ? (unsigned __int128)0 - (unsigned __int128)sum : (unsigned __int128)sum;
        CHECK(magnitude >> 126 == 0); /* the bound the window's width relies on */
        for (int limb = 0; limb < superaccumulator_layout<double>::LIMBS; ++limb)
            acc.limbs[limb] += superaccumulator_wide_piece(magnitude, negative, floor - 1, limb);
        ceiling = floor;
    }
    return acc.round();
}

/* Tiles built to break a window that is one binade too wide, or a floor in
 * the wrong place: every element at the top of the window's range but one at
 * its very bottom with its last bit set; values over every exponent;
 * cancelling pairs; subnormals; zeros. */
static void exact_windows_should_sum_every_tile_exactly(void)
{
    for (size_t count : {(size_t)1024, (size_t)2048}) { /* float and half tiles */
        const int k = float_window_binades(count);
        for (int round = 0; round < 60; ++round) {
            std::vector<float> tile(count);
            const int e = -100 + (int)(next_random() % 200);
            const int kind = round % 5;
            for (size_t i = 0; i < count; ++i) {
                if (kind == 0) /* the window's full width, all near the top */
                    tile[i] = (i == 7) ? ldexpf(1.0f + ldexpf(1.0f, -23), e - k)
                                       : ldexpf(2.0f - ldexpf(1.0f, -23), e);
                else if (kind == 1)
                    tile[i] = random_float(-149, 127);
                else if (kind == 2)
                    tile[i] = i % 2 ? -tile[i - 1] : random_float(-60, 60) + random_float(-140, -100);
                else if (kind == 3)
                    tile[i] = ldexpf((float)(next_random() % 4096), -149) * (next_random() & 1 ? 1.0f : -1.0f);
                else
                    tile[i] = next_random() % 3 ? 0.0f : random_float(-30, 30);
            }
            std::vector<double> as_double(tile.begin(), tile.end());
            const float got = exact_float_tile(tile), want = (float)fsum(as_double);
            CHECK(same_bits(got, want) || isinf(want));
        }
    }
    for (int round = 0; round < 60; ++round) {
        std::vector<double> tile(512);
        const int kind = round % 4;
        const int e = -900 + (int)(next_random() % 1800);
        for (size_t i = 0; i < tile.size(); ++i) {
            if (kind == 0)
                tile[i] = (i == 3) ? ldexp(1.0 + ldexp(1.0, -52), e - DOUBLE_WINDOW_BINADES)
                                   : ldexp(2.0 - ldexp(1.0, -52), e);
            else if (kind == 1)
                tile[i] = random_double(-1074, 1000);
            else if (kind == 2)
                tile[i] = i % 2 ? -tile[i - 1] : random_double(-300, 300) + random_double(-1000, -900);
            else
                tile[i] = next_random() % 2 ? ldexp((double)(next_random() % 100000), -1074) : 0.0;
        }
        CHECK(same_bits(exact_double_tile(tile), fsum(tile)));
    }
    CHECK(isinf(exact_double_tile({1.0, INFINITY, 2.0})));
    CHECK(isnan(exact_double_tile({INFINITY, -INFINITY})));
    CHECK(isnan(exact_float_tile(std::vector<float>{1.0f, NAN, 2.0f})));
    CHECK(isinf(exact_float_tile(std::vector<float>{1.0f, -INFINITY})));
}

int main(void)
{
    RUN_TEST(tile_plans_should_cover_every_element_once);
    RUN_TEST(empty_and_zero_sums_should_be_plus_zero);
    RUN_TEST(small_terms_should_not_be_lost);
    RUN_TEST(range_edges_should_round_like_ieee);
    RUN_TEST(non_finite_values_should_win);
    RUN_TEST(random_sums_should_match_fsum);
    RUN_TEST(many_terms_should_not_overflow_a_limb);
    RUN_TEST(wide_integers_should_add_like_their_doubles);
    RUN_TEST(exact_windows_should_sum_every_tile_exactly);
    return test_exit_code();
}
