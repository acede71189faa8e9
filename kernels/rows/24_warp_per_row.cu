/* Step 24 - one warp per row: the textbook row kernel.
 *
 * Idea: the 32 lanes of a warp split one row - lane l reads the row's
 * vectors l, l + 32, ... with three 16-byte loads in flight (reduce_span:
 * the aligned vectors the row overlaps, the first and last masked to it, so
 * a misaligned row still gets vector loads) - and combine with five shuffles;
 * lane 0 writes the row. A persistent grid walks the rows, a warp at a time.
 * The kernel is row_lanes.cuh's with 32 lanes per row. argmax and argmin
 * take four loads a lane: a row of 2048 floats in four batches, not six,
 * each a trip to DRAM the next waits for
 * (bench/results/experiments/h100_argmax_row_probes_a24886c.log: faster from
 * 1024 floats on, slower at 256 and below, which group_per_row reads).
 *
 * Fixes from group_per_row and tiled_rows (steps 22-23), built for rows of
 * at most a few hundred bytes: a group of at most 16 lanes keeps at most
 * 16 x 3 loads in flight per row, and a tile holds few rows of a KiB; from
 * 512 bytes on a whole warp's coalesced loads cover a row, and rows of a few
 * KiB have 32 x 3 vectors in flight. Flaws: rows narrower than 512 bytes
 * leave lanes idle (width 32 floats: 8 of 32 lanes read), and a few very
 * long rows leave most warps without a row (16 rows of 2^20 floats: 16
 * warps for the whole GPU; both in bench/results/h100_rows_sweep_*.json).
 *
 * Expected cost (a prediction; measured in
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json): width 1: one 4-byte
 * load per warp in flight, 64 warps x 4 B per SM per DRAM latency -
 * latency-bound, far below the stream; width 32: 8 KB per SM in flight,
 * about half what hides the latency; width 1024: the bytes at the stream's
 * rate plus a launch; width 2^20: 16 warps, each with its loads in flight,
 * for the whole GPU.
 *   bench_compare --cols 1024 -m warp_per_row
 */
#include "method.cuh"
#include "row_lanes.cuh"

namespace {

constexpr int LANES = 32;

template <class T, class Op> struct warp_per_row_launch {
    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out, void *,
                   cudaStream_t stream)
    {
        constexpr int LOADS = is_arg_op_v<Op> ? WARP_ARG_LOADS : ROW_LANES_LOADS;
        return launch_lane_group_rows<LANES, T, Op, LOADS>(d_in, shape, n, d_out, stream);
    }
};

} // namespace

DEFINE_METHOD(warp_per_row, .family = FAMILY_ROWS, .source = "this suite: rows, step 24",
              .idea = "one warp per row, 3 16-byte loads in flight per lane (argmax: 4), shuffle combine",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<warp_per_row_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements alone */
              .order = lane_group_order(LANES),
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
