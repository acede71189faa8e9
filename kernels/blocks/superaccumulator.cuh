/* An exact sum of floating-point values, as one long fixed-point integer
 * (Kulisch's long accumulator; ExBLAS keeps one per GPU thread), here spread
 * over the 32 lanes of a warp, and the one rounding of that sum at the end.
 * Used by steps 19 (reproducible) and 20 (exact): what they add here is added
 * exactly, so the order - which warp, which block, which grid - cannot change
 * a bit of the result.
 *
 * The integer counts units of 2^-BIAS: 2^-149 for a float result (every
 * float, half and bfloat16, and every sum of them, is a whole number of
 * those), 2^-1074 for a double result. It is stored as LIMBS signed 64-bit
 * limbs, limb i weighing 2^(32 i) units: a value adds at most 2^32 - 1 to
 * each of the (at most three) limbs its 53-bit significand touches, so a limb
 * absorbs 2^31 additions before it could overflow - the carries are resolved
 * once, when rounding. Each lane holds limbs lane, lane + 32, ...: a double
 * added by the whole warp (the same value on every lane) costs each lane ~20
 * integer instructions, whichever limbs it lands in.
 *
 *   float result:  11 limbs (352 bits): sums up to 2^200, n up to 2^40 terms
 *   double result: 69 limbs (2208 bits): up to 2^1060, 3 limbs per lane
 * A warp may also add a 127-bit integer times a power of two (add_wide):
 * step 20's exact windows of doubles.
 *
 * Infinities and NaN cannot be placed in the integer: they set flags, and the
 * result is then +inf, -inf or NaN as IEEE addition in any order would give.
 *
 * Workspace of the one-launch combine (superaccumulator_grid_total): a
 * counter at byte 0, the non-finite flags at byte 4, LIMBS limbs from byte 16;
 * zero between calls (the last block takes the limbs with atomicExch). */
#ifndef SUPERACCUMULATOR_CUH
#define SUPERACCUMULATOR_CUH

#include <cuda/std/bit>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <math.h>

#include "last_block_done.cuh"

enum superaccumulator_flag : unsigned {
    SUPERACC_POS_INF = 1u << 0,
    SUPERACC_NEG_INF = 1u << 1,
    SUPERACC_NAN = 1u << 2,
};

template <class R> struct superaccumulator_layout;
template <> struct superaccumulator_layout<float> {
    static constexpr int BIAS = 149;
    static constexpr int LIMBS = 11;
    static constexpr int PRECISION = 24;
};
template <> struct superaccumulator_layout<double> {
    static constexpr int BIAS = 1074;
    static constexpr int LIMBS = 69;
    static constexpr int PRECISION = 53;
};

/* A finite double v = mantissa * 2^(32 first_limb + shift) units, split for
 * the limbs; or the flag of a non-finite v. */
struct superaccumulator_term {
    unsigned long long mantissa; /* < 2^53 */
    int first_limb;
    int shift; /* 0..31 */
    bool negative;
    unsigned nonfinite;
};

/* Exact when v is a whole number of 2^-BIAS units (the callers' values are:
 * see the file comment); bits below the unit would be dropped. */
template <int BIAS> __host__ __device__ inline superaccumulator_term superaccumulator_split(double v)
{
    const unsigned long long bits = cuda::std::bit_cast<unsigned long long>(v);
    superaccumulator_term t{};
    t.negative = (bits >> 63) != 0;
    const int biased = (int)(bits >> 52) & 0x7ff;
    unsigned long long m = bits & 0xfffffffffffffull;
    if (biased == 0x7ff) {
        t.nonfinite = m ? SUPERACC_NAN : t.negative ? SUPERACC_NEG_INF : SUPERACC_POS_INF;
        return t;
    }
    int e; /* v = m * 2^(e - BIAS) */
    if (biased == 0) {
        e = 1 - 1075 + BIAS;
    } else {
        m |= 1ull << 52;
        e = biased - 1075 + BIAS;
    }
    if (e < 0) { /* the bits shifted out are zero for a whole number of units */
        m = -e < 64 ? m >> -e : 0;
        e = 0;
    }
    t.mantissa = m;
    t.first_limb = e >> 5;
    t.shift = e & 31;
    return t;
}

/* t's signed contribution to limb `limb`: less than 2^32 in magnitude. */
__host__ __device__ inline long long superaccumulator_piece(const superaccumulator_term &t, int limb)
{
    const int d = limb - t.first_limb;
    unsigned long long piece;
    if (d == 0)
        piece = (t.mantissa << t.shift) & 0xffffffffull;
    else if (d == 1) /* bits 32..63 of mantissa * 2^shift: the shift's overflow is above them */
        piece = (t.mantissa << t.shift) >> 32;
    else if (d == 2)
        piece = t.shift ? t.mantissa >> (64 - t.shift) : 0;
    else
        return 0;
    return t.negative ? -(long long)piece : (long long)piece;
}

/* The contribution to limb `limb` of a signed integer of up to 127 bits,
 * |x| = magnitude, worth magnitude * 2^base units (base >= 0): |x| << (base
 * mod 32) spans at most five limbs from limb base / 32; each piece is less
 * than 2^32 in magnitude. */
__host__ __device__ inline long long superaccumulator_wide_piece(unsigned __int128 magnitude, bool negative,
                                                                 int base, int limb)
{
    const int d = limb - (base >> 5), s = base & 31;
    if (d < 0 || d > 4)
        return 0;
    const int right = 32 * d - s; /* where the piece starts in magnitude */
    unsigned long long piece;
    if (right >= 128)
        piece = 0;
    else if (right >= 0)
        piece = (unsigned long long)(magnitude >> right) & 0xffffffffull;
    else
        piece = (unsigned long long)(magnitude << -right) & 0xffffffffull;
    return negative ? -(long long)piece : (long long)piece;
}

/* The sum of non-finite inputs, from their flags: NaN if any was NaN or
 * both infinities were seen, else the infinity seen. */
template <class R> __host__ __device__ inline R superaccumulator_nonfinite(unsigned nonfinite)
{
    if ((nonfinite & SUPERACC_NAN) || (nonfinite & SUPERACC_POS_INF && nonfinite & SUPERACC_NEG_INF))
        return cuda::std::numeric_limits<R>::quiet_NaN();
    return nonfinite & SUPERACC_POS_INF ? cuda::std::numeric_limits<R>::infinity()
                                        : -cuda::std::numeric_limits<R>::infinity();
}

/* Resolves the carries of limbs[lo..hi] (the nonzero ones), from the
 * lowest up, into digits in [0, 2^32) - two limbs above the highest the
 * carry is the sign, 0 or -1 - and a negative sum into its magnitude
 * (the digits complemented, plus one). Returns one past the last limb
 * written; *negative gets the sign. */
__host__ __device__ inline int superaccumulator_resolve(long long *limbs, int lo, int hi, int limb_count,
                                                       bool *negative)
{
    const int top = hi + 3 < limb_count ? hi + 3 : limb_count;
    long long carry = 0;
    for (int i = lo; i < top; ++i) {
        const long long v = limbs[i] + carry;
        limbs[i] = v & 0xffffffffll;
        carry = v >> 32; /* arithmetic: floor */
    }
    *negative = carry < 0;
    if (*negative) {
        unsigned long long c = 1;
        for (int i = lo; i < top; ++i) {
            const unsigned long long x = (~(unsigned long long)limbs[i] & 0xffffffffull) + c;
            limbs[i] = (long long)(x & 0xffffffffull);
            c = x >> 32;
        }
    }
    return top;
}

/* The magnitude held in the digits limbs[lo..h] (limbs[h] nonzero),
 * rounded once to P bits (to nearest, ties to even): the top three digits
 * as one 96-bit window x, worth x * 2^base units, and a sticky bit for any
 * unit below it. */
template <class R> __host__ __device__ inline double superaccumulator_round_digits(const long long *limbs,
                                                                                  int lo, int h)
{
    using layout = superaccumulator_layout<R>;
    constexpr int P = layout::PRECISION;
    auto digit = [&](int i) -> unsigned long long { return i >= lo ? (unsigned long long)limbs[i] : 0ull; };
    const unsigned __int128 x = ((unsigned __int128)digit(h) << 64) | (digit(h - 1) << 32) | digit(h - 2);
    bool sticky = false; /* any unit below the window */
    for (int i = lo; i < h - 2; ++i)
        sticky |= limbs[i] != 0;
    const int base = 32 * (h - 2);
    const int top_bit = 64 + 31 - cuda::std::countl_zero((unsigned)digit(h));

    if (base + top_bit < P) { /* fewer than P bits: exact, and x holds them all */
        const unsigned long long whole = (unsigned long long)(base >= 0 ? x << base : x >> -base);
        return ldexp((double)whole, -layout::BIAS);
    }
    const int shift = top_bit - P + 1; /* >= 12: the round bit is inside x */
    unsigned long long keep = (unsigned long long)(x >> shift);
    const unsigned __int128 rest = x & (((unsigned __int128)1 << shift) - 1);
    const unsigned __int128 half = (unsigned __int128)1 << (shift - 1);
    if (rest > half || (rest == half && (sticky || (keep & 1))))
        ++keep;
    int exponent = base + shift;
    if (keep >> P) {
        keep >>= 1;
        ++exponent;
    }
    /* keep < 2^P: exact in R; past R's range the conversion gives inf, as
     * rounding to nearest must */
    return ldexp((double)keep, exponent - layout::BIAS);
}

/* The sum held in limbs[0..LIMBS) (any signed values, carries unresolved)
 * and the non-finite flags, rounded once to R (to nearest, ties to even).
 * Overwrites limbs with the resolved digits. */
template <class R> __host__ __device__ inline R superaccumulator_round(long long *limbs, unsigned nonfinite)
{
    constexpr int LIMBS = superaccumulator_layout<R>::LIMBS;
    if (nonfinite)
        return superaccumulator_nonfinite<R>(nonfinite);
    int lo = -1, hi = -1;
    for (int i = 0; i < LIMBS; ++i)
        if (limbs[i] != 0) {
            if (lo < 0)
                lo = i;
            hi = i;
        }
    if (lo < 0)
        return R(0);
    bool negative = false;
    int h = superaccumulator_resolve(limbs, lo, hi, LIMBS, &negative) - 1;
    while (h >= lo && limbs[h] == 0)
        --h;
    if (h < lo)
        return R(0); /* an exact cancellation */
    const R r = (R)superaccumulator_round_digits<R>(limbs, lo, h);
    return negative ? -r : r;
}

/* The warp's share: every lane calls add() with the same value. */
template <class R> struct warp_superaccumulator {
    using layout = superaccumulator_layout<R>;
    static constexpr int PER_LANE = (layout::LIMBS + 31) / 32;
    long long limb[PER_LANE] = {};
    unsigned nonfinite = 0;

    __device__ __forceinline__ void add(double v)
    {
        const superaccumulator_term t = superaccumulator_split<layout::BIAS>(v);
        nonfinite |= t.nonfinite;
        const int lane = (int)(threadIdx.x % 32);
#pragma unroll
        for (int r = 0; r < PER_LANE; ++r)
            limb[r] += superaccumulator_piece(t, lane + 32 * r);
    }

    /* x * 2^base units, x the same signed integer on every lane (|x| < 2^127). */
    __device__ __forceinline__ void add_wide(__int128 x, int base)
    {
        const bool negative = x < 0;
        const unsigned __int128 magnitude = negative ? (unsigned __int128)0 - (unsigned __int128)x
                                                     : (unsigned __int128)x;
        const int lane = (int)(threadIdx.x % 32);
#pragma unroll
        for (int r = 0; r < PER_LANE; ++r)
            limb[r] += superaccumulator_wide_piece(magnitude, negative, base, lane + 32 * r);
    }

    /* Adds what a non-finite value adds: its flag. */
    __device__ __forceinline__ void add_nonfinite(unsigned flags) { nonfinite |= flags; }
};

#define SUPERACC_LIMBS_OFFSET 16

template <class R> constexpr size_t superaccumulator_workspace_bytes()
{
    return SUPERACC_LIMBS_OFFSET + sizeof(unsigned long long) * superaccumulator_layout<R>::LIMBS;
}

/* Call from every thread of every block, each warp with its accumulator:
 * the warps' limbs are added in shared memory, the blocks' in the workspace
 * (integer additions, in any order, all exact), and the last block to finish
 * (as in last_block_done.cuh) rounds the total into *out and leaves the
 * workspace zero. One block rounds its own total without the workspace. */
template <int THREADS, class R>
__device__ __forceinline__ void superaccumulator_grid_total(const warp_superaccumulator<R> &acc, R *out,
                                                            void *workspace)
{
    constexpr int LIMBS = superaccumulator_layout<R>::LIMBS;
    static_assert(THREADS >= LIMBS && THREADS % 32 == 0, "one thread per limb");
    __shared__ unsigned long long block_limbs[LIMBS];
    __shared__ unsigned block_flags;
    const int lane = (int)(threadIdx.x % 32);

    if (threadIdx.x < LIMBS)
        block_limbs[threadIdx.x] = 0;
    if (threadIdx.x == 0)
        block_flags = 0;
    __syncthreads();
#pragma unroll
    for (int r = 0; r < warp_superaccumulator<R>::PER_LANE; ++r)
        if (lane + 32 * r < LIMBS && acc.limb[r] != 0)
            atomicAdd(&block_limbs[lane + 32 * r], (unsigned long long)acc.limb[r]);
    if (lane == 0 && acc.nonfinite)
        atomicOr(&block_flags, acc.nonfinite);
    __syncthreads();

    if (gridDim.x == 1) {
        if (threadIdx.x == 0)
            *out = superaccumulator_round<R>((long long *)block_limbs, block_flags);
        return;
    }
    unsigned *blocks_done = (unsigned *)workspace;
    unsigned *flags = (unsigned *)workspace + 1;
    unsigned long long *limbs = (unsigned long long *)((char *)workspace + SUPERACC_LIMBS_OFFSET);
    if (threadIdx.x < LIMBS && block_limbs[threadIdx.x] != 0)
        atomicAdd(&limbs[threadIdx.x], block_limbs[threadIdx.x]);
    if (threadIdx.x == 0 && block_flags)
        atomicOr(flags, block_flags);
    /* Each thread's additions are ordered before thread 0's ticket by the
     * ticket's barrier, and its release covers them (last_block_done.cuh). */
    if (!draws_last_ticket(blocks_done, gridDim.x))
        return;
    /* Take the totals and leave zeros for the next call. */
    if (threadIdx.x < LIMBS)
        block_limbs[threadIdx.x] = atomicExch(&limbs[threadIdx.x], 0ull);
    if (threadIdx.x == 0)
        block_flags = atomicExch(flags, 0u);
    __syncthreads();
    if (threadIdx.x == 0) {
        *out = superaccumulator_round<R>((long long *)block_limbs, block_flags);
        *blocks_done = 0; /* nothing else touches it in this launch */
    }
}

#endif
