/* Step 28 - adaptive: the step that fits the width.
 *
 * Idea: no one row kernel wins at every width (a plain warp per row is best
 * from a few hundred to a few thousand floats and far behind at 2^20:
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json), so pick one from the
 * mean row length in bytes - the width of rows; n / count for segments -
 * and call its launcher. Rows of a width packed_rows packs (27) go there,
 * rows of up to STAGED_MAX_ROW_BYTES that are not a whole number of 16-byte
 * vectors to staged_lane_rows (43); anything else takes the first row of a
 * table (VALUE_CHOICES below, or
 * INDEX_CHOICES for argmax and argmin) whose limit the mean does not pass,
 * a limit for rows and one for segments:
 * lane_segments (40, sum, max and min of segments of a mean of 1 float)
 * or merge_path_segments (36, argmax and argmin there) and
 * lane_run_segments (37, longer means up to 4 KiB), whose speed follows the
 * lengths least, tiled_rows (23, tiles staged in shared memory),
 * group_per_row (22), warp_per_row (24), block_per_row (25), tiled_rows
 * again (each long row to the whole block), split_rows (26, one wave of
 * parts). A limit sits where the float width sweep (same file) saw
 * the faster step change. The limits are bytes of the mean row, so other
 * types follow the float ones by size: a prediction for them, and for the
 * segments' block limits, which follow the rows'. Segments keep tiled_rows
 * to a longer mean than rows: at uniform:10000 block, tiled and split read
 * about alike (bench/results/h100_segments_cccl35_d3ac2a0.txt). thread_per_row
 * (21) is never the pick. For segments the choice is made from count and n
 * alone: the longest segment would need the offsets read back to the host,
 * a sync inside the timed call - which is why a short mean goes to steps 36
 * and 37: it cannot tell uniform lengths from skewed ones, and the lane
 * groups sized for the mean lost far more on skewed arrays than those steps
 * lose on uniform ones (bench/NOTES.md, sessions 12 and 22).
 *
 * Fixes from each step alone: every width gets the step measured best
 * there, and a ragged array's long segments do not hold up the short ones.
 * Flaws: the choice is by the mean; at a uniform short mean the lane groups
 * alone would be a little faster than step 36.
 *
 * Expected cost: the chosen step's (its file says why). argmax and argmin
 * have limits of their own: a row's result is then 16 bytes, not 4, and
 * their width sweep put the changes elsewhere.
 *   bench_compare --cols 32 -m adaptive_rows
 */
#include "method.cuh"
#include "packed_rows.cuh"
#include "row_spans.cuh"
#include "staged_rows.cuh"

extern "C" const struct method method_tiled_rows, method_group_per_row, method_warp_per_row,
    method_block_per_row, method_split_rows, method_packed_rows, method_merge_path_segments,
    method_lane_run_segments, method_lane_segments, method_staged_lane_rows;

namespace {

struct width_choice {
    size_t max_mean_bytes_rows, max_mean_bytes_segments;
    const struct method *step;
};

/* Where the steps change, for one kind of result: rows of a width
 * packed_rows packs go there; any other width or segment array takes the
 * first step whose limit its mean does not pass (a limit of 0: never for
 * that kind). Each table ends with a limit no mean passes. */

/* Sum, max and min, from the float sum's width sweep. Segments of a mean up
 * to 4 KiB go to the steps whose time follows the lengths least: the mean
 * cannot tell a uniform array from a skewed one, and the lane steps lost far
 * more on the skewed ones than these on the uniform ones (bench/NOTES.md,
 * session 12). A mean of up to 4 bytes a segment (1 float; the mean is a
 * whole number of elements), lane_segments (40): on an H200 far faster
 * than step 36 at uniform:1 and a little slower at powerlaw:1
 * (bench/results/experiments/h200_lane_segments_windows_b118634.log); a
 * mean of 2 floats stays with step 37, which lost less on powerlaw:2 than
 * step 40 gained on uniform:2 (same file). From 2, lane_run_segments (37),
 * level with step 36 at uniform:2 and faster from uniform:3 and powerlaw:3
 * on (bench/results/experiments/h100_lane_run_crossover_03d7667.log).
 * argmax and argmin keep merge_path_segments (36) for the shortest means:
 * step 40, its results staged, is ahead of it at uniform:1 of floats and
 * doubles but behind at powerlaw:1 and for halves
 * (bench/results/experiments/h200_lane_segments_staged_arg_d1a1dae.log).
 * Rows of 128-256 KiB stay with tiled_rows: block_per_row read 65536
 * floats faster there on an H200, but 131072 halves slower, by more
 * (bench/results/experiments/h200_adaptive_256k_rows_481aab4.log). */
const width_choice VALUE_CHOICES[] = {{0, 4, &method_lane_segments},
                                      {0, 4096, &method_lane_run_segments},
                                      {16, 0, &method_tiled_rows},
                                      {2048, 0, &method_group_per_row},
                                      {4096, 0, &method_warp_per_row},
                                      {131072, 131072, &method_block_per_row},
                                      {262144, 524288, &method_tiled_rows},
                                      {SIZE_MAX, SIZE_MAX, &method_split_rows}};

/* argmax and argmin, from their own width sweeps with every row step: a
 * block a row stays ahead to 256 KiB
 * (bench/results/h100_argmax_rows_sweep_every_method_63e6abe.csv), and
 * groups of lanes, with four loads a lane since that sweep, to just under 8
 * KiB, where a warp a row was level with them on the H100 then and is
 * slower on the H200 now (bench/results/h200_argmax_rows_sweep_every_method_9d7b324.csv);
 * rows of 8 KiB (2048 floats) go to block_per_row, whose rows of whole 8
 * KiB batches read faster than the groups' on an H200
 * (bench/results/experiments/h200_whole_batch_rows_aabaebc.log);
 * segments as the sum's, not measured apart. Rows of 1-3 elements are
 * packed since packed_rows writes a warp's arg results together, each
 * lane's slots rotated against bank conflicts: faster than tiled_rows for
 * float rows of 1 and 3, half rows of 1 and 3 and bfloat16 rows of 2
 * (bench/results/experiments/h100_packed_rotation_and_eight_block_argmax_32ab4e8_new.log). */
const width_choice INDEX_CHOICES[] = {{0, 4, &method_merge_path_segments},
                                      {0, 4096, &method_lane_run_segments},
                                      {16, 0, &method_tiled_rows},
                                      {8191, 0, &method_group_per_row},
                                      {262144, 131072, &method_block_per_row},
                                      {0, 524288, &method_tiled_rows},
                                      {SIZE_MAX, SIZE_MAX, &method_split_rows}};

/* Rows that are not a whole number of 16-byte vectors, up to
 * STAGED_MAX_ROW_BYTES, go to staged_lane_rows: on an H200 it was ahead of
 * the tables' picks at every such width measured (5-127 floats, 5-63
 * doubles and 5-255 halves, the sum and argmax) but argmax of 63 doubles
 * and of 255 halves, by a little; rows of whole vectors stay with the
 * tables, where each was
 * ahead at some widths (bench/results/experiments/h200_staged_lane_rows_widths_12a5a28.log,
 * h200_staged_lane_rows_even_863fb75.log). */
bool stages_row(reduce_shape shape, size_t row_bytes)
{
    return shape.kind == SHAPE_ROWS && row_bytes % 16 != 0 && row_bytes <= STAGED_MAX_ROW_BYTES;
}

const struct method *step_for(reduce_spec spec, reduce_shape shape, size_t n)
{
    const width_choice *choices = is_arg_op(spec.op) ? INDEX_CHOICES : VALUE_CHOICES;
    const bool rows = shape.kind == SHAPE_ROWS;
    if (rows && packs_width(shape.cols))
        return &method_packed_rows;
    if (stages_row(shape, shape.cols * element_size(spec.type)))
        return &method_staged_lane_rows;
    const size_t mean_bytes = mean_span_length(shape, n) * element_size(spec.type);
    size_t i = 0;
    while (mean_bytes > (rows ? choices[i].max_mean_bytes_rows
                              : choices[i].max_mean_bytes_segments))
        ++i;
    return choices[i].step;
}

int adaptive_rows_workspace(reduce_spec spec, reduce_shape shape, size_t n, size_t *bytes)
{
    const struct method *step = step_for(spec, shape, n);
    *bytes = 0;
    return step->workspace ? step->workspace(spec, shape, n, bytes) : 0;
}

int adaptive_rows_launch(reduce_spec spec, reduce_shape shape, const void *d_in, size_t n,
                         void *d_out, void *workspace, cudaStream_t stream)
{
    return step_for(spec, shape, n)->launch(spec, shape, d_in, n, d_out, workspace, stream);
}

} // namespace

DEFINE_METHOD(adaptive_rows, .family = FAMILY_ROWS, .source = "this suite: rows, step 28",
              .idea = "picks packed, staged, tiled, group, warp or block per row, or split rows, from the "
                      "mean width",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = adaptive_rows_launch, .workspace = adaptive_rows_workspace,
              /* no METHOD_GRID_INDEPENDENT: past 256 KiB rows it runs split_rows,
               * whose parts follow the GPU's resident blocks */
              /* the loosest of its steps: a segment of any length may fall to
               * tiled_rows' lane chains when the mean is short */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS),
              .chosen_step = step_for);
