/* Step 40 - lane segments: a fixed run of segments a lane.
 *
 * Idea: where segments are a few elements long, give each lane eight
 * consecutive segments, not a share of the elements. The lane reads its
 * nine offsets as 16-byte loads; its segments' elements are then one
 * contiguous range, which it reads a window at a time, each window one
 * batch of 16-byte loads (neighbouring lanes read neighbouring ranges, so a
 * warp's loads cover whole lines), and walks in registers: a bit for each
 * segment start resets the running total, a bit for each end leaves it in
 * shared memory. The eight results then leave in segment order as whole
 * 16-byte stores. A lane whose range takes more than a few windows (a
 * long segment), or holds the array's first or last elements short of a
 * vector, is read by its whole warp afterwards, a segment at a time, as
 * warp_per_row reads a row (row_lanes.cuh). No segment crosses lanes, so
 * there are no carries to join and no last kernel.
 *
 * Fixes from merge-path and lane-run segments (36, 37): there a segment
 * end costs its share of a search, a walk and a segmented scan over the
 * lanes, some five instructions an element at a mean length of 1, so the
 * densest arrays are bound by instructions, not bytes (bench/NOTES.md,
 * the segments' ncu readings). Here an element costs a few instructions
 * and a segment a few more.
 *
 * Cost: the input, the offsets and the results once each, in two
 * dependent trips to memory a tile (its offsets, then its elements) and a
 * trip a window after the first. Flaws: a lane's long segments are read by
 * one warp, a segment at a time, so a few long segments among many short
 * ones (powerlaw:2) cost more than in step 37. argmax and argmin, whose
 * walk keeps an index and whose results are 16 bytes, stage a tile's
 * results in shared memory to write whole lines; even so they pass step
 * 36 only where every segment is short (uniform:1 of floats and doubles,
 * not halves, not powerlaw:1). adaptive_rows sends it the sum, max and
 * min of the shortest means (its table says where). Measured against
 * steps 36 and 37 in
 * bench/results/experiments/h200_lane_segments_windows_b118634.log and
 * bench/results/experiments/h200_lane_segments_staged_arg_d1a1dae.log.
 *   bench_compare --segments uniform:1 -m lane_segments
 *   bench/gpu_check.sh segment_sweep (every distribution, every segment method)
 */
#include <cstdint>
#include <cstring>

#include "grid_size.cuh"
#include "lane_windows.cuh"
#include "method.cuh"
#include "row_lanes.cuh"
#include "row_spans.cuh"
#include "shape.h"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 128;
constexpr int WARPS = BLOCK / 32;
/* A warp's tile of segments, SEGMENTS a lane (lane_windows.cuh). */
constexpr size_t TILE_SEGMENTS = 32 * SEGMENTS;

/* Offsets first + 0 .. first + SEGMENTS of a lane with `k` segments (the last
 * lanes of the array hold fewer: their missing segments are empty). */
__device__ __forceinline__ void load_offsets(const segment_offset *__restrict__ offsets, size_t first,
                                             unsigned k, bool vector_offsets, size_t (&o)[SEGMENTS + 1])
{
    if (k == SEGMENTS && vector_offsets) {
        const uint4 *at = reinterpret_cast<const uint4 *>(offsets + first);
#pragma unroll
        for (unsigned j = 0; j < SEGMENTS / 2; ++j) {
            const uint4 v = __ldg(&at[j]);
            memcpy(&o[2 * j], &v, sizeof v);
        }
        o[SEGMENTS] = __ldg(&offsets[first + SEGMENTS]);
        return;
    }
#pragma unroll
    for (unsigned j = 0; j <= SEGMENTS; ++j)
        o[j] = __ldg(&offsets[first + (j < k ? j : k)]);
}

/* The lane's segments walked over its range, a window of WINDOW elements (a
 * batch of WINDOW_VECTORS loads) at a time: a start bit resets the running
 * total, an end bit leaves it in `ends` (shared memory, this lane's row),
 * the k-th segment that is not empty in ends[k]. Elements outside the
 * range hold no start or end: what they add is reset at the first start
 * and never left. argmax and argmin count the index from the segment's
 * start, as an int within the window. */
template <class T, class Op>
__device__ __forceinline__ void walk_range(const T *__restrict__ in, const lane_range &r, size_t lead,
                                           span_result_t<T, Op> *ends)
{
    using R = span_result_t<T, Op>;
    constexpr int W = VECTOR_WIDTH<T>, V = WINDOW_VECTORS<T>;
    const uint4 *__restrict__ vectors = reinterpret_cast<const uint4 *>(in - lead);
    R total = identity<Op, R>();
    int segment_start = 0; /* from the window's first element */
    unsigned closed = 0;
    uint64_t start_bits = r.start_bits, end_bits = r.end_bits;
    for (size_t first = r.first_vector; first < r.end_vector;
         first += V, segment_start -= V * W, start_bits >>= V * W, end_bits >>= V * W) {
        T x[V * W];
#pragma unroll
        for (int m = 0; m < V; ++m) {
            uint4 v = make_uint4(0, 0, 0, 0);
            if (first + m < r.end_vector)
                v = __ldg(&vectors[first + m]);
            memcpy(&x[m * W], &v, sizeof v);
        }
        const uint32_t starts = (uint32_t)start_bits, ends_here = (uint32_t)end_bits;
#pragma unroll
        for (int i = 0; i < V * W; ++i) {
            if (starts >> i & 1u) {
                total = identity<Op, R>();
                segment_start = i;
            }
            total = combine_later<Op>(total, lift<Op, T, int>(x[i], (size_t)(i - segment_start)));
            if (ends_here >> i & 1u)
                ends[closed++] = total;
        }
    }
}

/* The lane's results, in segment order: the next of `ends` for a segment
 * that is not empty, the identity for one that is; written as whole 16-byte
 * stores where the lane holds SEGMENTS segments of a value operator and
 * `out` allows it. */
template <class T, class Op>
__device__ __forceinline__ void write_lane(unsigned filled, const span_result_t<T, Op> *ends,
                                           result_t<T, Op> *__restrict__ out, unsigned k)
{
    using RO = result_t<T, Op>;
    RO results[SEGMENTS];
    unsigned closed = 0;
#pragma unroll
    for (unsigned s = 0; s < SEGMENTS; ++s)
        results[s] = filled >> s & 1u ? widen_index(ends[closed++]) : identity<Op, RO>();
    constexpr bool WHOLE_STORES = !is_arg_pair_v<RO> && sizeof results % 16 == 0;
    if (WHOLE_STORES && k == SEGMENTS && (uintptr_t)out % 16 == 0) {
#pragma unroll
        for (unsigned j = 0; j < sizeof results / 16; ++j) {
            uint4 v;
            memcpy(&v, reinterpret_cast<const char *>(results) + 16 * j, sizeof v);
            reinterpret_cast<uint4 *>(out)[j] = v;
        }
        return;
    }
#pragma unroll
    for (unsigned s = 0; s < SEGMENTS; ++s)
        if (s < k)
            store_result(&out[s], results[s]);
}

/* The segments of the lanes in `lanes` (those that do not walk their
 * range), read by the whole warp one segment at a time, into `results`
 * (the tile's, from its first segment). */
template <class T, class Op>
__device__ __forceinline__ void warp_reads_lanes(const T *__restrict__ in, size_t n,
                                                 const offset_segments &spans, size_t tile_first,
                                                 uint32_t lanes, result_t<T, Op> *results)
{
    const unsigned lane = threadIdx.x % 32;
    for (; lanes != 0; lanes &= lanes - 1) {
        const unsigned first = SEGMENTS * (unsigned)(__ffs(lanes) - 1);
        for (unsigned s = first; s < first + SEGMENTS && tile_first + s < spans.count; ++s) {
            const row_bounds here{spans.begin(tile_first + s), spans.end(tile_first + s)};
            const result_t<T, Op> v = reduce_row<32, ROW_LANES_LOADS, T, Op>(in, n, spans, here, true, lane);
            if (lane == 0)
                store_result(&results[s], v);
        }
    }
}

/* A tile's results staged in shared memory leave in order, a lane a
 * result, so that a warp's stores cover whole lines. */
template <class A>
__device__ __forceinline__ void write_staged(const A *staged, A *__restrict__ out, size_t count)
{
    __syncwarp(); /* every lane's results are staged */
    for (unsigned i = threadIdx.x % 32; i < count; i += 32)
        store_result(&out[i], staged[i]);
    __syncwarp(); /* and read before the next tile's are */
}

/* Each warp a tile of TILE_SEGMENTS segments at a time, tiles strided by
 * the grid's warps; each lane SEGMENTS of the tile's. Sums, max and min
 * leave from the lanes as whole 16-byte stores; argmax and argmin
 * results, 16 bytes each, are staged (lanes writing their own eight left
 * most of their L2 sectors written in part:
 * bench/results/experiments/h200_ncu_lane_segments_uniform_1_argmax_9e0d265.txt). */
template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void lane_segments_kernel(const T *__restrict__ in, size_t n,
                                                              offset_segments spans, size_t tiles,
                                                              result_t<T, Op> *__restrict__ out)
{
    using R = span_result_t<T, Op>;
    using RO = result_t<T, Op>;
    constexpr bool STAGED = is_arg_pair_v<RO>;
    __shared__ R ends[BLOCK][SEGMENTS + 1]; /* + 1: lanes' rows start in different banks */
    __shared__ RO staged[STAGED ? WARPS : 1][STAGED ? TILE_SEGMENTS : 1];
    const unsigned lane = threadIdx.x % 32;
    const size_t lead = ((uintptr_t)in % 16) / sizeof(T);
    const bool vector_offsets = (uintptr_t)spans.offsets % 16 == 0;
    const size_t warps = (size_t)gridDim.x * WARPS;
    for (size_t tile = (blockIdx.x * (size_t)BLOCK + threadIdx.x) / 32; tile < tiles; tile += warps) {
        const size_t tile_first = tile * TILE_SEGMENTS, first = tile_first + SEGMENTS * lane;
        RO *results = STAGED ? staged[threadIdx.x / 32] : out + tile_first;
        const unsigned k = first >= spans.count ? 0
                           : spans.count - first < SEGMENTS ? (unsigned)(spans.count - first)
                                                            : SEGMENTS;
        bool walks = true;
        if (k > 0) {
            size_t o[SEGMENTS + 1];
            load_offsets(spans.offsets, first, k, vector_offsets, o);
            lane_range r = place_range<T>(o, lead);
            walks = lane_walks<T>(r, n, lead);
            if (walks) {
                mark_segments<T>(r, o, lead);
                walk_range<T, Op>(in, r, lead, ends[threadIdx.x]);
                write_lane<T, Op>(r.filled, ends[threadIdx.x], results + SEGMENTS * lane, k);
            }
        }
        warp_reads_lanes<T, Op>(in, n, spans, tile_first, __ballot_sync(FULL_WARP_MASK, !walks), results);
        if constexpr (STAGED)
            write_staged(staged[threadIdx.x / 32], out + tile_first,
                         spans.count - tile_first < TILE_SEGMENTS ? spans.count - tile_first : TILE_SEGMENTS);
    }
}

template <class T, class Op> struct lane_segments_launch {
    /* One resident wave, but no warp without a tile to start on - or the
     * grid a test forces. */
    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out, void *,
                   cudaStream_t stream)
    {
        if (shape.count == 0)
            return 0;
        const auto kernel = lane_segments_kernel<T, Op>;
        const size_t tiles = ceil_div(shape.count, TILE_SEGMENTS);
        int grid = 0;
        PROPAGATE(capped_resident_grid((const void *)kernel, BLOCK, tiles, WARPS, &grid));
        kernel<<<grid, BLOCK, 0, stream>>>(d_in, n, offset_segments{shape.count, shape.offsets}, tiles,
                                           d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

} // namespace

/* The order within one segment: a lane's chain of at most MOST_WINDOWS x
 * WINDOW elements (60 floats), or a warp's (lane chains and five shuffle
 * levels) for a lane's segments it does not walk: lane_group_order(32)
 * bounds both (its allowance for a grid's combine alone passes 60). */
DEFINE_METHOD(lane_segments, .family = FAMILY_ROWS, .source = "this suite: rows, step 40",
              .idea = "eight segments a lane: their offsets and their elements as 16-byte loads, "
                      "walked in registers; a lane's long segments read by its warp",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<lane_segments_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* a segment's bits: its elements and the window's place */
              .order = lane_group_order(32),
              .shapes = SHAPE_BIT(SHAPE_SEGMENTS));
