/* Rows reduced by groups of LANES lanes of one warp: the kernel of steps
 * 21, 22 and 24, which differ only in LANES (1: a thread per row, 2-16: a
 * group per row, 32: a warp per row).
 *
 * A persistent grid (one resident wave, grid_size.cuh) walks the rows: each
 * warp takes 32 / LANES consecutive rows at a time, one per group, and the
 * group's lanes split the row with reduce_span (vector_loads.cuh): the
 * array's aligned 16-byte vectors that overlap the row, the first and last
 * masked to it - so a row that starts misaligned (width 33 floats) is read
 * with as few loads as an aligned one - a lane's batch in flight together.
 * The group's lanes then combine with shuffles (group_reduce) and its first
 * lane writes the row's accumulator.
 *
 * Each row's result depends on its elements, its alignment and LANES, never
 * on the grid: the methods built on this kernel are grid-independent. */
#ifndef ROW_LANES_CUH
#define ROW_LANES_CUH

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "method.cuh"
#include "row_spans.cuh"
#include "vector_loads.cuh"

/* 256 threads: 8 blocks of them fill an H100 SM (2048 threads), and a block
 * covers few enough rows that small shapes still spread over many SMs. */
constexpr int ROW_LANES_BLOCK = 256;
/* 16-byte loads in flight per lane and batch (the kernel's LOADS): only rows
 * of more than LANES x 16 bytes use more than the first. Three for a thread
 * or a warp per row (steps 21, 24) and for segments; group_per_row picks two
 * or three with the lanes (group_for). With four, ptxas -v gave 48 registers
 * a thread for every type with one lane per row (5 blocks of 256 per SM);
 * forcing 8 blocks (32 registers) spilled. */
constexpr int ROW_LANES_LOADS = 3;
/* Loads a lane for argmax and argmin where a whole warp reads a row or a
 * segment (steps 24 and 42): step 24's header says why four; eight were
 * slower at 2048 floats (77 registers: three blocks an SM). */
constexpr int WARP_ARG_LOADS = 4;

/* A row's first and one-past-last element. */
struct row_bounds {
    size_t begin, end;
};

/* argmax and argmin over a group's row (`here`; none when has_row is
 * false), carried with an int index from the row's start (span_result_t) -
 * through the lanes' scans and the group's shuffles - and widened when the
 * row's result is made. A warp with a row longer than INT_SPAN_ELEMENTS
 * takes the 64-bit index throughout (the choice is the whole warp's, so
 * every lane reaches the same group_reduce). */
template <int LANES, int LOADS, class Op, class T, class Spans>
__device__ __forceinline__ result_t<T, Op> reduce_arg_row(const T *__restrict__ in, size_t n,
                                                          const Spans &spans, row_bounds here,
                                                          bool has_row, unsigned lane_in_group)
{
    bool int_index;
    if constexpr (cuda::std::is_same_v<Spans, uniform_rows>)
        int_index = spans.cols <= INT_SPAN_ELEMENTS;
    else
        int_index = !__any_sync(FULL_WARP_MASK, has_row && here.end - here.begin > INT_SPAN_ELEMENTS);
    if (int_index) {
        span_result_t<T, Op> s = identity<Op, span_result_t<T, Op>>();
        if (has_row)
            s = reduce_span<LOADS, Op, T, int>(in, n, here.begin, here.end, lane_in_group, LANES);
        return widen_index(group_reduce<LANES, Op>(s));
    }
    result_t<T, Op> v = identity<Op, result_t<T, Op>>();
    if (has_row)
        v = reduce_span<LOADS, Op>(in, n, here.begin, here.end, lane_in_group, LANES);
    return group_reduce<LANES, Op>(v);
}

/* Op over a group's row (`here`; the identity where has_row is false),
 * the same in every lane of the group: the value operators' span read and
 * shuffles, or reduce_arg_row. */
template <int LANES, int LOADS, class T, class Op, class Spans>
__device__ __forceinline__ result_t<T, Op> reduce_row(const T *__restrict__ in, size_t n,
                                                     const Spans &spans, row_bounds here,
                                                     bool has_row, unsigned lane_in_group)
{
    if constexpr (is_arg_op_v<Op>) {
        return reduce_arg_row<LANES, LOADS, Op>(in, n, spans, here, has_row, lane_in_group);
    } else {
        result_t<T, Op> v = identity<Op, result_t<T, Op>>();
        if (has_row)
            v = reduce_span<LOADS, Op>(in, n, here.begin, here.end, lane_in_group, LANES);
        return group_reduce<LANES, Op>(v);
    }
}

template <int LANES, int LOADS, class T, class Op, class Spans>
__global__ __launch_bounds__(ROW_LANES_BLOCK) void lane_group_rows_kernel(const T *__restrict__ in,
                                                                          size_t n, Spans spans,
                                                                          result_t<T, Op> *__restrict__ out)
{
    constexpr unsigned GROUPS_PER_WARP = 32 / LANES;
    const unsigned lane = threadIdx.x % 32;
    const unsigned lane_in_group = lane % LANES;
    const size_t warp = (blockIdx.x * (size_t)ROW_LANES_BLOCK + threadIdx.x) / 32;
    const size_t warps = (size_t)gridDim.x * (ROW_LANES_BLOCK / 32);

    const size_t stride = warps * GROUPS_PER_WARP;
    /* A row's bounds, read one trip ahead: a segment's offsets are a load
     * from memory, and loading them in the trip that reads the segment put
     * two dependent trips to DRAM in every trip of a short-segment loop. */
    const auto bounds_of = [&](size_t row) {
        return row < spans.count ? row_bounds{spans.begin(row), spans.end(row)} : row_bounds{0, 0};
    };
    row_bounds next = bounds_of(warp * GROUPS_PER_WARP + lane / LANES);

    /* The loop's trip count is the same for the whole warp (it steps by
     * warps, not groups), so every lane reaches every group_reduce: its
     * shuffles name all 32 lanes. Groups past the last row carry the identity. */
    for (size_t first = warp * GROUPS_PER_WARP; first < spans.count; first += stride) {
        const size_t row = first + lane / LANES;
        const row_bounds here = next;
        next = bounds_of(row + stride);
        const result_t<T, Op> v =
            reduce_row<LANES, LOADS, T, Op>(in, n, spans, here, row < spans.count, lane_in_group);
        if (row < spans.count && lane_in_group == 0)
            store_result(&out[row], v);
    }
}

/* A resident wave, but no block without a row for each of its groups to start
 * on (and at least one) - or the grid a test forces (launch_grid). */
template <int LANES, class T, class Op, int LOADS = ROW_LANES_LOADS>
int launch_lane_group_rows(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out,
                           cudaStream_t stream)
{
    if (shape.count == 0)
        return 0;
    const auto launch = [&](auto spans) {
        const auto kernel = lane_group_rows_kernel<LANES, LOADS, T, Op, decltype(spans)>;
        int grid = 0;
        PROPAGATE(capped_resident_grid((const void *)kernel, ROW_LANES_BLOCK, spans.count,
                                       ROW_LANES_BLOCK / LANES, &grid));
        kernel<<<grid, ROW_LANES_BLOCK, 0, stream>>>(d_in, n, spans, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    };
    return with_spans(shape, launch);
}

/* Lanes per row, and loads a lane, for group_per_row (step 22) and
 * adaptive_rows' segments, from the vectors a row of `length` elements
 * overlaps (a width that is not a whole number of vectors overlaps up to
 * ceil((length + W - 1) / W): 33 floats, 9):
 *   rows: the fewest lanes, 2 to 16, that take the row in one batch of two
 *         loads - or half as many with three loads when that still covers it
 *         (33 floats: 4 lanes of three, 8 rows a warp, where 8 lanes of two
 *         left a warp half the bytes in flight) - and 16 lanes of three past
 *         32 vectors. Three loads where two cover the row were slower on
 *         an H200 at widths 16-128, so two cover it there
 *         (bench/results/experiments/rows_h200_loads.txt);
 *   argmax and argmin rows of ARG_MIN_VECTORS or more: the fewest lanes
 *         that take the row in one batch of four loads, or of eight where
 *         the width is not a whole number of vectors (33 floats: 2 lanes)
 *         and where eight still leave the group under GROUP_MAX_LANES
 *         lanes (64-511 floats: half the lanes, twice the rows a warp).
 *         Their scan costs more an element than a sum's, and the sum's
 *         groups (two loads a lane) left rows of 64 and 128 floats well
 *         behind the whole array's argmax; fewer lanes with more loads
 *         each read 32-256 floats and 64 halves at or near the whole
 *         array's pace (bench/results/experiments/h100_argmax_group_loads_eebf1ef.log);
 *         on an H200 eight loads were faster at 64-256 floats and slower
 *         from 512, where both give 16 lanes, and four for 33 floats were
 *         slower (bench/results/experiments/h200_argmax_group_eight_loads_a30a4e4.log,
 *         h200_argmax_group_loads_window_eefdd8c.log). A width that is
 *         not a whole number of vectors then takes five loads a lane where
 *         five still cover it with the lanes eight chose: faster on an
 *         H200 at 33, 37, 63, 127 and 255 floats and 33 doubles, slower
 *         where five would have doubled the lanes (50 floats) or could not
 *         cover the row (1001 floats)
 *         (bench/results/experiments/h200_argmax_uneven_five_loads_311f45a.log);
 *   segments: the fewest lanes of three loads that cover the mean: a
 *         uniform segment is up to twice as long.
 * One vector a lane (the first version) kept too few bytes in flight, well
 * behind the whole array at width 32 floats (bench/NOTES.md, session 6). */
constexpr unsigned GROUP_MIN_LANES = 2;
constexpr unsigned GROUP_MAX_LANES = 16;
/* 8 vectors: 32 floats, 64 halves. Narrower argmax rows keep the sum's
 * groups (four loads for a row of 4 vectors were slower; adaptive_rows
 * sends rows of 4-16 floats to packed_rows anyway). */
constexpr size_t ARG_MIN_VECTORS = 8;
/* Eight loads a lane for argmax rows of whole vectors from this many
 * vectors (64 floats) up to, not including, the next constant (512). */
constexpr size_t ARG_EIGHT_LOADS_FROM = 16;
constexpr size_t ARG_EIGHT_LOADS_BELOW = 128;
/* Loads a lane for argmax rows that are not a whole number of vectors:
 * eight choose the lanes, then a lane takes five where five still cover
 * the row with those lanes - the same loads in flight, 64 registers a
 * thread for floats against eight loads' 77 (four blocks of 256 an SM, not
 * three). */
constexpr unsigned ARG_UNEVEN_LOADS = 8;
constexpr unsigned ARG_UNEVEN_FEWER_LOADS = 5;

struct lane_group {
    unsigned lanes, loads;
};

/* The fewest lanes, GROUP_MIN_LANES up to GROUP_MAX_LANES, whose `loads`
 * each cover `vectors`. */
inline unsigned lanes_covering(size_t vectors, unsigned loads)
{
    unsigned lanes = GROUP_MIN_LANES;
    while (lanes < GROUP_MAX_LANES && lanes * loads < vectors)
        lanes *= 2;
    return lanes;
}

/* The value operators' rows: two loads a lane, or three with half the lanes. */
inline lane_group value_row_group(size_t vectors)
{
    if (vectors > 2 * GROUP_MAX_LANES)
        return {GROUP_MAX_LANES, 3};
    const unsigned lanes = lanes_covering(vectors, 2);
    if (lanes > GROUP_MIN_LANES && lanes / 2 * 3 >= vectors)
        return {lanes / 2, 3};
    return {lanes, 2};
}

/* argmax and argmin rows of ARG_MIN_VECTORS or more; `uneven`: the width is
 * not a whole number of vectors. */
inline lane_group arg_row_group(size_t vectors, bool uneven)
{
    const bool eight = vectors >= ARG_EIGHT_LOADS_FROM && vectors < ARG_EIGHT_LOADS_BELOW;
    const unsigned loads = uneven ? ARG_UNEVEN_LOADS : eight ? 8 : 4;
    const unsigned lanes = lanes_covering(vectors, loads);
    if (uneven && lanes * ARG_UNEVEN_FEWER_LOADS >= vectors)
        return {lanes, ARG_UNEVEN_FEWER_LOADS};
    return {lanes, loads};
}

template <class T, class Op> lane_group group_for(size_t length, enum shape_kind kind)
{
    constexpr size_t W = VECTOR_WIDTH<T>;
    const bool uneven = length % W != 0;
    const size_t vectors = ceil_div(uneven ? length + W - 1 : length, W);
    if (kind != SHAPE_ROWS) /* segments */
        return {lanes_covering(vectors, 3), 3};
    if (is_arg_op_v<Op> && vectors >= ARG_MIN_VECTORS)
        return arg_row_group(vectors, uneven);
    return value_row_group(vectors);
}

/* Calls launch_lane_group_rows with the group group_for gives `length`
 * (loads of four, five or eight: argmax and argmin rows alone). */
template <class T, class Op>
int launch_lane_groups_for(size_t length, const T *d_in, reduce_shape shape, size_t n,
                           result_t<T, Op> *d_out, cudaStream_t stream)
{
    const lane_group g = group_for<T, Op>(length, shape.kind);
    const auto with_loads = [&](auto loads) {
        constexpr int LOADS = decltype(loads)::value;
        switch (g.lanes) {
        case 2: return launch_lane_group_rows<2, T, Op, LOADS>(d_in, shape, n, d_out, stream);
        case 4: return launch_lane_group_rows<4, T, Op, LOADS>(d_in, shape, n, d_out, stream);
        case 8: return launch_lane_group_rows<8, T, Op, LOADS>(d_in, shape, n, d_out, stream);
        default:
            return launch_lane_group_rows<GROUP_MAX_LANES, T, Op, LOADS>(d_in, shape, n, d_out,
                                                                         stream);
        }
    };
    if constexpr (is_arg_op_v<Op>) {
        if (g.loads == 4)
            return with_loads(cuda::std::integral_constant<int, 4>{});
        if (g.loads == 8)
            return with_loads(cuda::std::integral_constant<int, 8>{});
        if (g.loads == ARG_UNEVEN_FEWER_LOADS)
            return with_loads(cuda::std::integral_constant<int, ARG_UNEVEN_FEWER_LOADS>{});
    }
    if (g.loads == 2)
        return with_loads(cuda::std::integral_constant<int, 2>{});
    return with_loads(cuda::std::integral_constant<int, 3>{});
}

/* The order within one row of LANES lanes (summation_order.h): each lane
 * chains at most ceil(length / LANES) + 2 terms (a vector is one term of the
 * chain, folded as a tree, and holds at least one element of the row; the
 * array's unaligned first and last elements are terms of their own), the
 * group's shuffles add log2(LANES) levels; ORDER_THREAD_CHAINS' allowance
 * for a grid's combine, unused here, covers the + 2. */
constexpr summation_order lane_group_order(unsigned lanes)
{
    return {.kind = ORDER_THREAD_CHAINS, .width = lanes,
            .depth = VECTOR_LOADS_DEPTH + tree_depth(lanes)};
}

#endif
