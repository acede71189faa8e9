/* Step 28 - adaptive: the step that fits the width.
 *
 * Idea: no one row kernel wins at every width (a plain warp per row is best
 * from a few hundred to a few thousand floats and far behind at 2^20:
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json), so pick one from the
 * mean row length in bytes - the width of rows; n / count for segments -
 * and call its launcher. Rows of a width packed_rows packs (27) go there;
 * anything else takes the first row of CHOICES (below) whose limit the mean
 * does not pass, a limit for rows and one for segments: tiled_rows (23,
 * tiles staged in shared memory), group_per_row (22; segments: long ones
 * split, below), warp_per_row (24), block_per_row (25), tiled_rows again
 * (each long row to the whole block), split_rows (26, one wave of parts).
 * A limit sits where the float width sweep (same file) saw the faster step
 * change. The limits are bytes of the mean row, so other types follow the
 * float ones by size: a prediction for them, and for the segments' warp and
 * block limits, which follow the rows'. Segments keep tiled_rows to a
 * longer mean than rows: at uniform:10000 block, tiled and split read about
 * alike (bench/results/h100_segments_cccl35_d3ac2a0.txt); longer means are
 * not measured. thread_per_row (21) is never the pick. For segments the
 * choice is made from count and n alone: the longest segment would need the
 * offsets read back to the host, a sync inside the timed call. So where the
 * mean is short, the lane groups list every segment over
 * LONG_SEGMENT_BYTES on the device and a second kernel splits those over
 * the grid (long_segments.cuh):
 * in a powerlaw array, whose longest segments are hundreds of times the
 * mean, the groups alone were slower than CUB (bench/NOTES.md, session 6).
 *
 * Fixes from each step alone: every width gets the step measured best
 * there, and a ragged array's long segments do not hold up the short ones.
 * Flaws: the choice is by the mean; the ragged path costs more than the lane
 * groups alone at uniform:100 and uniform:8 when no segment is long
 * (bench/NOTES.md, session 7) - not explained: ncu times its lane kernel
 * slower than group_per_row's, whose SASS issues the same loads in the same
 * order.
 *
 * Expected cost: the chosen step's (its file says why). powerlaw:100: the
 * short segments' bytes by the groups, the rest split, plus the second
 * kernel's launch - well ahead of CUB's block a segment, but slower than
 * that sum predicts on an H100 and an H200
 * (bench/results/h100_segments_cccl35_d3ac2a0.txt,
 * h200_segments_cccl35_cbd8c2b.txt).
 * argmax and argmin take the same steps at the same limits, which were set
 * on the float sum: a row's result is then 16 bytes, not 4, and narrow rows
 * write four times the bytes (bench/NOTES.md, session 11).
 *   bench_compare --cols 32 -m adaptive_rows
 */
#include "long_segments.cuh"
#include "method.cuh"
#include "packed_rows.cuh"
#include "row_lanes.cuh"
#include "row_spans.cuh"

extern "C" const struct method method_tiled_rows, method_group_per_row, method_warp_per_row,
    method_block_per_row, method_split_rows, method_packed_rows;

namespace {

struct width_choice {
    size_t max_mean_bytes_rows, max_mean_bytes_segments;
    const struct method *step;
};

const width_choice CHOICES[] = {
    {16, 16, &method_tiled_rows},
    {2048, 512, &method_group_per_row},
    {4096, 4096, &method_warp_per_row},
    {131072, 131072, &method_block_per_row},
    {262144, 524288, &method_tiled_rows},
    {SIZE_MAX, SIZE_MAX, &method_split_rows},
};

const struct method *step_for(reduce_spec spec, reduce_shape shape, size_t n)
{
    if (shape.kind == SHAPE_ROWS && packs_width(shape.cols))
        return &method_packed_rows;
    const size_t mean_bytes = mean_span_length(shape, n) * element_size(spec.type);
    const bool rows = shape.kind == SHAPE_ROWS;
    size_t i = 0;
    while (mean_bytes > (rows ? CHOICES[i].max_mean_bytes_rows : CHOICES[i].max_mean_bytes_segments))
        ++i;
    return CHOICES[i].step;
}

/* Segments whose mean the lane groups take: the groups reduce the short
 * ones and list the long ones, which a second kernel splits over the grid
 * (long_segments.cuh) - in a powerlaw array a few segments a hundred times
 * the mean are otherwise read by the few lanes sized for the mean. */
template <class T, class Op> struct ragged_segments_launch {
    static int workspace(reduce_shape, size_t n, size_t *bytes)
    {
        *bytes = long_segment_list::bytes(n, sizeof(T));
        return 0;
    }

    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out,
                   void *workspace, cudaStream_t stream)
    {
        if (shape.count == 0)
            return 0;
        const defer_long_segments<T> defer{long_segment_list::at(workspace, n, sizeof(T))};
        PROPAGATE((launch_lane_groups_for<T, Op>(mean_span_length(shape, n), d_in, shape, n, d_out,
                                                 stream, defer)));
        return launch_long_segments<T, Op>(d_in, n, shape, d_out, workspace, stream);
    }
};

bool is_ragged(reduce_spec spec, reduce_shape shape, size_t n)
{
    return shape.kind == SHAPE_SEGMENTS && step_for(spec, shape, n) == &method_group_per_row;
}

int adaptive_rows_workspace(reduce_spec spec, reduce_shape shape, size_t n, size_t *bytes)
{
    if (is_ragged(spec, shape, n))
        return workspace_any_pair<ragged_segments_launch, ALL_OPS>(spec, shape, n, bytes);
    const struct method *step = step_for(spec, shape, n);
    *bytes = 0;
    return step->workspace ? step->workspace(spec, shape, n, bytes) : 0;
}

int adaptive_rows_launch(reduce_spec spec, reduce_shape shape, const void *d_in, size_t n,
                         void *d_out, void *workspace, cudaStream_t stream)
{
    if (is_ragged(spec, shape, n))
        return launch_any_pair<ragged_segments_launch, ALL_OPS>(spec, shape, d_in, n, d_out,
                                                                workspace, stream);
    return step_for(spec, shape, n)->launch(spec, shape, d_in, n, d_out, workspace, stream);
}

} // namespace

DEFINE_METHOD(adaptive_rows, .family = FAMILY_ROWS, .source = "this suite: rows, step 28",
              .idea = "picks packed, tiled, group, warp or block per row, or split rows, from the mean width",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = adaptive_rows_launch, .workspace = adaptive_rows_workspace,
              /* no METHOD_GRID_INDEPENDENT: past 256 KiB rows it runs split_rows,
               * whose parts follow the GPU's resident blocks */
              /* the loosest of its steps: a segment of any length may fall to
               * tiled_rows' lane chains when the mean is short */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
