/* Step 20 - exact: the exactly rounded sum, one rounding of the true sum.
 *
 * Idea: step 19's tiles and long accumulator, with each tile summed without
 * any rounding, in windows of binades (exact_windows.cuh). A warp holds its
 * tile (1024 floats, 2048 halves, 512 doubles) in registers and finds the
 * tile's largest magnitude, 2^e and up. Floats: every element at or above
 * 2^(e - 19) is a whole number of 2^(e - 42) and below 2^(e + 1), so 1024 of
 * them add up to under 2^53 units: their double sum is exact in any order.
 * Doubles: the 65 binades under the largest, as 128-bit integers. That
 * window's sum goes exactly into the long accumulator; the elements below
 * it, if any lane has one, get another window under the first, and so on.
 * The accumulator rounds the total once (ties to even): the correctly
 * rounded sum for any data - ill-conditioned, cancelling, spread over every
 * exponent - with the same bits on any grid and GPU and at any offset (no
 * partial sum is ever rounded, so how the input is cut does not matter).
 * Infinities and NaN give what IEEE addition in any order would.
 *
 * Fixes from step 19: there, each tile's sum is rounded in double (10 units
 * of 2^-53 of its sum of |x|), so a sum that cancels to far below its terms
 * can be off in its last bits; here nothing is rounded before the end.
 *
 * Types: float, double, half and bfloat16 sums (half and bfloat16 widened
 * to float, exactly). Integer sums, max and min are exact already.
 *
 * Cost (SASS): ~9 instructions per float in the first window (a max on the
 * bits, a compare, two selects, F2F, DADD) where step 17 has ~1 - about a
 * third of what the SM can issue while the DRAM delivers the floats on an
 * H200, so still memory-bound; ~50 per double (128-bit shifts and adds),
 * which may make doubles compute-bound on an H200. A tile spread over more
 * than one window's binades pays one more pass per window (the suite's
 * wide-range data, 2^-20..2^20: two or three for floats).
 * Expected: floats about step 19's time on uniform data; the goal is at
 * most half again our fastest float sum's time at 1 GiB.
 *   bench_compare -m one_pass_ilp,reproducible,exact -d wide-range [-t double]
 */
#include <cstring>

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "exact_windows.cuh"
#include "fixed_tiles.cuh"
#include "grid_size.cuh"
#include "method.cuh"
#include "superaccumulator.cuh"
#include "tile_launch.cuh"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 512;
constexpr int WARPS = BLOCK / 32;

/* Element i of a 16-byte vector of T, as a float (exact for half and bfloat16). */
template <class T> __device__ __forceinline__ float element(const uint4 &raw, int i)
{
    T e[VECTOR_WIDTH<T>];
    memcpy(e, &raw, sizeof raw); /* a bit cast: stays in registers */
    return widen(e[i]);
}

/* K of a float tile's windows: 19 for 1024 floats, 18 for 2048 halves. */
template <class T>
inline constexpr int WINDOW_BINADES = float_window_binades(32 * TILE_LOADS * VECTOR_WIDTH<T>);
static_assert(WINDOW_BINADES<float> == 19 && WINDOW_BINADES<__half> == 18);

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL_WARP_MASK, v, offset));
    return v;
}

/* Exact here: every window's sum is a whole number of units below 2^53. */
__device__ __forceinline__ double warp_sum(double v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(FULL_WARP_MASK, v, offset);
    return v;
}

/* The lane's largest |x|, found on the bits: without the sign, IEEE
 * magnitudes order as unsigned integers (a NaN above inf, so the first
 * window then takes only inf and NaN). Two halves at a time with one
 * __vmaxu2: no conversions, and no widened copy of the tile for the
 * compiler to keep in registers until the sums. */
template <class T> __device__ __forceinline__ float largest_magnitude(const uint4 (&v)[TILE_LOADS])
{
    unsigned m = 0;
#pragma unroll
    for (int k = 0; k < TILE_LOADS; ++k) {
        const unsigned words[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            if constexpr (sizeof(T) == 4)
                m = max(m, words[j] & 0x7fffffffu);
            else
                m = __vmaxu2(m, words[j] & 0x7fff7fffu);
        }
    }
    if constexpr (sizeof(T) == 4) {
        return __uint_as_float(m);
    } else {
        const unsigned short bits = (unsigned short)max(m & 0xffffu, m >> 16);
        T largest;
        memcpy(&largest, &bits, sizeof bits);
        return widen(largest);
    }
}

/* The lane's vectors of tile `first` (first = tile * TILE_VECTORS + lane);
 * those past the body, in the last, short tile, are zero. */
__device__ __forceinline__ void load_tile(const uint4 *__restrict__ body, size_t first, size_t body_vectors,
                                          uint4 (&v)[TILE_LOADS])
{
    if (first + 32 * (TILE_LOADS - 1) < body_vectors) {
#pragma unroll
        for (int k = 0; k < TILE_LOADS; ++k)
            v[k] = __ldg(&body[first + 32 * k]);
    } else {
#pragma unroll
        for (int k = 0; k < TILE_LOADS; ++k)
            v[k] = first + 32 * k < body_vectors ? __ldg(&body[first + 32 * k]) : make_uint4(0, 0, 0, 0);
    }
}

/* One window: the lane's sum (exact) of its elements in [floor, ceiling) -
 * the first window takes everything from floor up, inf and NaN included (NaN
 * fails every comparison) - and the largest magnitude left under floor. */
template <class T, bool FIRST>
__device__ __forceinline__ double window_sum(const uint4 (&v)[TILE_LOADS], float floor, float ceiling, float *below)
{
    double sum = 0.0;
    float left = 0.0f;
#pragma unroll
    for (int k = 0; k < TILE_LOADS; ++k)
#pragma unroll
        for (int i = 0; i < VECTOR_WIDTH<T>; ++i) {
            float under;
            sum += (double)float_window_term<FIRST>(element<T>(v[k], i), floor, ceiling, &under);
            left = fmaxf(left, under);
        }
    *below = left;
    return sum;
}

/* Adds one tile exactly to acc. The tile stays in registers for the first
 * window only: a tile spread wider than one window (rare) is read again per
 * further window - from L1 or L2, it was just read - so that the registers
 * the common case needs stay few (64: two blocks of 512 per SM). */
template <class T>
__device__ __forceinline__ void add_tile_exactly(const uint4 *__restrict__ body, size_t first, size_t body_vectors,
                                                 warp_superaccumulator<float> &acc)
{
    constexpr int K = WINDOW_BINADES<T>;
    float floor, below;
    {
        uint4 v[TILE_LOADS];
        load_tile(body, first, body_vectors, v);
        floor = float_window_floor(warp_max(largest_magnitude<T>(v)), K);
        const double sum = window_sum<T, true>(v, floor, 0.0f, &below);
        acc.add(warp_sum(sum));
    }
    while (__any_sync(FULL_WARP_MASK, below > 0.0f)) {
        const float ceiling = floor;
        floor = float_window_floor(warp_max(below), K);
        uint4 v[TILE_LOADS];
        load_tile(body, first, body_vectors, v);
        const double sum = window_sum<T, false>(v, floor, ceiling, &below);
        acc.add(warp_sum(sum));
    }
}

/* Doubles: the same windows, as integers (exact_windows.cuh). A double is
 * m 2^(f - 1075) with m < 2^53 (f the biased exponent field; subnormals:
 * f = 1, no hidden bit). A window takes the binades floor .. floor + 64
 * under the tile's largest: each element there is m << (f - floor) units of
 * 2^(floor - 1075), below 2^117, and 512 of them below 2^126 - a signed
 * 128-bit sum, exact in any order - which goes into the long accumulator as
 * a 127-bit integer times 2^(floor - 1) units. */
__device__ __forceinline__ __int128 warp_sum(__int128 v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        const unsigned long long lo = (unsigned long long)v, hi = (unsigned long long)(v >> 64);
        const unsigned long long other_lo = __shfl_xor_sync(FULL_WARP_MASK, lo, offset);
        const unsigned long long other_hi = __shfl_xor_sync(FULL_WARP_MASK, hi, offset);
        v += (__int128)(((unsigned __int128)other_hi << 64) | other_lo);
    }
    return v;
}

/* The lane's sum of its doubles in binades [floor, ceiling) (the first
 * window: from floor up), and the largest high word (sign cleared, a tiny
 * subnormal counted as 1) of those under floor. Tiles with inf or NaN never
 * get here. */
template <bool FIRST>
__device__ __forceinline__ __int128 double_window_sum(const uint4 (&v)[TILE_LOADS], int floor, int ceiling,
                                                      unsigned *below)
{
    __int128 sum = 0;
    unsigned left = 0;
#pragma unroll
    for (int k = 0; k < TILE_LOADS; ++k) {
        unsigned under0, under1;
        sum += double_window_term<FIRST>(v[k].x, v[k].y, floor, ceiling, &under0);
        sum += double_window_term<FIRST>(v[k].z, v[k].w, floor, ceiling, &under1);
        left = max(left, max(under0, under1));
    }
    *below = left;
    return sum;
}

/* The flags of a tile's infinities and NaN (its sum is then not finite). */
__device__ __forceinline__ unsigned nonfinite_flags(const uint4 (&v)[TILE_LOADS])
{
    unsigned flags = 0;
#pragma unroll
    for (int k = 0; k < TILE_LOADS; ++k)
        flags |= double_nonfinite_flag(v[k].x, v[k].y) | double_nonfinite_flag(v[k].z, v[k].w);
    return __reduce_or_sync(FULL_WARP_MASK, flags);
}

__device__ __forceinline__ void add_double_tile_exactly(const uint4 *__restrict__ body, size_t first,
                                                        size_t body_vectors, warp_superaccumulator<double> &acc)
{
    int floor;
    unsigned below;
    {
        uint4 v[TILE_LOADS];
        load_tile(body, first, body_vectors, v);
        unsigned top = 0;
#pragma unroll
        for (int k = 0; k < TILE_LOADS; ++k)
            top = max(top, max(v[k].y & 0x7fffffffu, v[k].w & 0x7fffffffu));
        top = __reduce_max_sync(FULL_WARP_MASK, top);
        if ((top >> 20) == 0x7ff) {
            acc.add_nonfinite(nonfinite_flags(v));
            return;
        }
        floor = double_window_floor(top);
        const __int128 sum = double_window_sum<true>(v, floor, 0, &below);
        acc.add_wide(warp_sum(sum), floor - 1);
    }
    while (__any_sync(FULL_WARP_MASK, below != 0)) {
        const int ceiling = floor;
        floor = double_window_floor(__reduce_max_sync(FULL_WARP_MASK, below));
        uint4 v[TILE_LOADS];
        load_tile(body, first, body_vectors, v);
        const __int128 sum = double_window_sum<false>(v, floor, ceiling, &below);
        acc.add_wide(warp_sum(sum), floor - 1);
    }
}

template <class T>
__global__ __launch_bounds__(BLOCK, 2) void exact_kernel(const T *__restrict__ in, size_t n,
                                                         acc_t<T> *__restrict__ out, void *workspace)
{
    const tile_plan plan = plan_tiles((cuda::std::uintptr_t)in, n, sizeof(T));
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in + plan.head);
    const unsigned lane = threadIdx.x % 32;
    const size_t warp = blockIdx.x * (size_t)WARPS + threadIdx.x / 32;
    const size_t warps = (size_t)gridDim.x * WARPS;

    warp_superaccumulator<acc_t<T>> acc;
    for (size_t tile = warp; tile < plan.tiles; tile += warps) {
        if constexpr (cuda::std::is_same_v<T, double>)
            add_double_tile_exactly(body, tile * TILE_VECTORS + lane, plan.body_vectors, acc);
        else
            add_tile_exactly<T>(body, tile * TILE_VECTORS + lane, plan.body_vectors, acc);
    }
    if (warp == 0) { /* head and tail: at most 2 x 7 elements, each added exactly */
        for (size_t i = 0; i < plan.head; ++i)
            acc.add((double)widen(in[i]));
        for (size_t i = plan.tail_start; i < n; ++i)
            acc.add((double)widen(in[i]));
    }
    superaccumulator_grid_total<BLOCK>(acc, out, workspace);
}

struct exact_kernels {
    template <class T> static constexpr auto of() { return exact_kernel<T>; }
};
template <class T, class Op> using exact_launch = tile_sum_launch<T, Op, exact_kernels, BLOCK>;

} // namespace

DEFINE_METHOD(exact, .family = FAMILY_MODERN, .source = "this suite: whole array, step 20 (after Kulisch, ExBLAS)",
              .idea = "tiles summed without rounding in windows of binades, into an exact long accumulator: one rounding",
              .types = TYPE_BIT(TYPE_FLOAT) | TYPE_BIT(TYPE_DOUBLE) | TYPE_BIT(TYPE_HALF) | TYPE_BIT(TYPE_BFLOAT16),
              .ops = OP_BIT(OP_SUM),
              .unsupported_why = "floating-point sums only: integer sums, max and min are exact in any order already",
              .launch = launch_any_pair<exact_launch>, .workspace = workspace_any_pair<exact_launch>,
              .flags = METHOD_GRID_INDEPENDENT,
              .order = {.kind = ORDER_FIXED_DEPTH, .depth = 1}); /* one rounding: the exact sum's */
