/* Step 20 - exact: the exactly rounded sum, one rounding of the true sum.
 *
 * Idea: step 19's tiles and long accumulator, with each tile summed without
 * any rounding. A warp holds its tile (1024 floats, or 2048 halves) in
 * registers and finds the tile's largest magnitude M = m 2^e. Every element
 * with |x| >= 2^(e - K) is a whole number of 2^(e - K - 23) units and below
 * 2^(e + 1): 1024 of them add up to less than 2^53 units, so their sum in
 * double is exact in any order (K = 19 for float tiles, 18 for the 2048 of a
 * half tile). That window's sum goes exactly into the long accumulator; the
 * elements below it, if any lane has one, get another window under the
 * first, and so on. The accumulator rounds the total once (ties to even):
 * the correctly rounded sum, for any data - ill-conditioned, cancelling or
 * spread over every exponent - and the same bits on any grid and GPU, and
 * at any offset (no partial sum is ever rounded, so how the input is cut
 * does not matter). Infinities and NaN give what IEEE addition would.
 *
 * Fixes from step 19: there, each tile's sum is rounded in double (10 units
 * of 2^-53 of its sum of |x|), so a sum that cancels to far below its terms
 * can be off in its last bits; here nothing is rounded before the end.
 *
 * Types: float sums, and half and bfloat16 (widened to float, exactly). A
 * double's 53-bit significand leaves no room for such windows in a double:
 * an exact double sum needs 128-bit integer windows - not written, refused.
 *
 * Cost: per element, a max, a compare, two selects, F2F and DADD in the first
 * window - ~7 instructions where step 17 has ~1, still well under the ~40 per
 * element that the SM issues while the DRAM delivers one (H100: ~3 floats per
 * SM per clock). Data spread over more than 2^20 in magnitude within a tile
 * takes one more window per 2^20 (the suite's wide-range data: ~2-3 windows).
 * Expected: memory-bound, about step 19's time on uniform data; goal
 * <= 1.5x our fastest float sum at 1 GiB.
 *   bench_compare -m one_pass_ilp,reproducible,exact -d wide-range
 */
#include <cstring>

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "fixed_tiles.cuh"
#include "grid_size.cuh"
#include "method.cuh"
#include "superaccumulator.cuh"
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

/* K: a window takes the exponents e - K .. e under its largest element's e.
 * 2^(K + 24) units times the tile's element count must stay within 2^53. */
template <class T> constexpr int window_exponents()
{
    constexpr size_t count = 32 * TILE_LOADS * VECTOR_WIDTH<T>;
    int log2_count = 0;
    while (((size_t)1 << log2_count) < count)
        ++log2_count;
    return 29 - log2_count;
}
template <class T> inline constexpr int WINDOW_EXPONENTS = window_exponents<T>();

/* The smallest magnitude the window under max (>= 0) takes: 2^(e - K), or 0
 * when the whole range below max is narrower than the window (subnormals
 * included); +inf when max is: then the window takes only inf and NaN. */
template <int K> __device__ __forceinline__ float window_floor(float max)
{
    const int field = __float_as_int(max) >> 23;
    if (field == 255)
        return __int_as_float(0x7f800000);
    return field > K ? __int_as_float((field - K) << 23) : 0.0f;
}

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
            const float x = element<T>(v[k], i), a = fabsf(x);
            const bool under = a < floor;
            sum += (double)((FIRST || a < ceiling) && !under ? x : 0.0f);
            left = fmaxf(left, under ? a : 0.0f);
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
    constexpr int K = WINDOW_EXPONENTS<T>;
    float floor, below;
    {
        uint4 v[TILE_LOADS];
        load_tile(body, first, body_vectors, v);
        floor = window_floor<K>(warp_max(largest_magnitude<T>(v)));
        const double sum = window_sum<T, true>(v, floor, 0.0f, &below);
        acc.add(warp_sum(sum));
    }
    while (__any_sync(FULL_WARP_MASK, below > 0.0f)) {
        const float ceiling = floor;
        floor = window_floor<K>(warp_max(below));
        uint4 v[TILE_LOADS];
        load_tile(body, first, body_vectors, v);
        const double sum = window_sum<T, false>(v, floor, ceiling, &below);
        acc.add(warp_sum(sum));
    }
}

template <class T>
__global__ __launch_bounds__(BLOCK, 2) void exact_kernel(const T *__restrict__ in, size_t n, float *__restrict__ out,
                                                         void *workspace)
{
    const tile_plan plan = plan_tiles((cuda::std::uintptr_t)in, n, sizeof(T));
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in + plan.head);
    const unsigned lane = threadIdx.x % 32;
    const size_t warp = blockIdx.x * (size_t)WARPS + threadIdx.x / 32;
    const size_t warps = (size_t)gridDim.x * WARPS;

    warp_superaccumulator<float> acc;
    for (size_t tile = warp; tile < plan.tiles; tile += warps) {
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

template <class T, class Op> struct exact_launch {
    static constexpr bool SUPPORTED = cuda::std::is_same_v<Op, op_sum> && cuda::std::is_same_v<acc_t<T>, float> &&
                                      !cuda::std::is_integral_v<T>;

    static int workspace(size_t, size_t *bytes)
    {
        *bytes = SUPPORTED ? superaccumulator_workspace_bytes<float>() : 0;
        return 0;
    }

    static int run(const T *d_in, size_t n, acc_t<T> *d_out, void *workspace, cudaStream_t stream)
    {
        if constexpr (!SUPPORTED) {
            return (int)cudaErrorNotSupported; /* refused by the descriptor */
        } else {
            /* One resident wave, but no warp without a tile; any grid gives the same bits. */
            int grid = 0;
            PROPAGATE(capped_resident_grid((const void *)exact_kernel<T>, BLOCK, n,
                                           WARPS * TILE_VECTORS * VECTOR_WIDTH<T>, &grid));
            exact_kernel<T><<<grid, BLOCK, 0, stream>>>(d_in, n, d_out, workspace);
            CUDA_TRY_LAUNCH();
            return 0;
        }
    }
};

} // namespace

DEFINE_METHOD(exact, .family = FAMILY_MODERN, .source = "this suite (issue 12; Kulisch, ExBLAS)",
              .idea = "tile windows summed exactly in double, then an exact long accumulator: the sum rounded once",
              .types = TYPE_BIT(TYPE_FLOAT) | TYPE_BIT(TYPE_HALF) | TYPE_BIT(TYPE_BFLOAT16), .ops = OP_BIT(OP_SUM),
              .unsupported_why = "float, half and bfloat16 sums only: an exact double sum needs 128-bit windows "
                                 "(not written); integer sums, max and min are exact already",
              .launch = launch_any_pair<exact_launch>, .workspace = workspace_any_pair<exact_launch>,
              .flags = METHOD_GRID_INDEPENDENT);
