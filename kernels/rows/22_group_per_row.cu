/* Step 22 - a group of 2-16 lanes per row, for short rows.
 *
 * Idea: size the team to the row. A row of cols elements is ceil(cols / V)
 * 16-byte vectors (V = 4 floats, 2 doubles, 8 halves); give it the smallest
 * power-of-two group of lanes, 2 to 16, that covers it with two vectors each
 * (argmax and argmin rows of 8 vectors or more: four, five or eight each,
 * as row_lanes.cuh's group_for says why), so a warp reduces 32 / LANES rows side
 * by side: lane l of a group reads the
 * row's vectors l, l + LANES, ... (reduce_span: the aligned vectors the row
 * overlaps, the first and last masked to it), the group combines with
 * log2(LANES) shuffles that stay inside it (group_reduce), its first lane
 * writes. The
 * kernel is row_lanes.cuh's; the group size is chosen on the host from the
 * width - for segments from the mean length n / count, the only length the
 * host knows without reading the offsets back (a sync in the timed call).
 *
 * Fixes from thread_per_row (step 21): neighbouring lanes read neighbouring
 * vectors of one row, so a warp's loads are one contiguous stretch
 * (coalesced): at width 32 floats a warp reads 4 rows, 512 bytes, every lane
 * busy with one 16-byte load - the pattern a plain warp per row reads at
 * the whole array's pace at width 128. A row of 33 floats overlaps 9
 * vectors: 4 lanes of three loads take it in one batch (the first version
 * loaded misaligned heads and tails an element at a time with 8 lanes of
 * two loads, well behind the whole array: bench/NOTES.md, session 8).
 * Flaws: widths 1-2 get groups of 2
 * lanes with 1-2 elements and idle lanes; rows much longer than the mean
 * (powerlaw segments) are read by the few lanes sized for the mean.
 *
 * Expected cost (a prediction; measured in
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json): width 32, 4 lanes a
 * row: the bytes read and the results written at the stream's rate, plus a
 * launch; width 1: 2 lanes a row, one busy - half of thread_per_row's lanes
 * read; width 1024: 16 lanes of 16 vectors, near the stream again; width
 * 2^20: 16 rows of 16 lanes, half of warp_per_row's lanes - latency-bound.
 *   bench_compare --cols 32 -m group_per_row
 */
#include "method.cuh"
#include "row_lanes.cuh"

namespace {

template <class T, class Op> struct group_per_row_launch {
    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out, void *,
                   cudaStream_t stream)
    {
        return launch_lane_groups_for<T, Op>(mean_span_length(shape, n), d_in, shape, n, d_out,
                                             stream);
    }
};

} // namespace

DEFINE_METHOD(group_per_row, .family = FAMILY_ROWS, .source = "this suite: rows, step 22",
              .idea = "2-16 lanes per row, sized to the width: a warp reads several short rows",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<group_per_row_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements and the width */
              .order = lane_group_order(GROUP_MIN_LANES), /* the loosest of its group sizes */
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
