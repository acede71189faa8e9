/* Step 28 - adaptive: the step that fits the width.
 *
 * Idea: no one row kernel wins at every width (issue 19's table: a plain
 * warp per row is best at 128-4096 floats and 30x too slow at 2^20), so pick
 * one from the mean row length in bytes - the width of rows; n / count for
 * segments - and call its launcher:
 *     rows of a width packed_rows packs (1-4, 8, 16)   packed_rows (27; its
 *                                              misaligned rows: tiled_rows)
 *     rows       segments
 *     <= 16 B    <= 16 B      tiled_rows      (23: tiles staged in shared memory)
 *     <= 512 B   <= 512 B     group_per_row   (22: 2-16 lanes, two vectors each)
 *     <= 32 KiB  <= 32 KiB    warp_per_row    (24)
 *     <= 128 KiB <= 128 KiB   block_per_row   (25)
 *     <= 512 KiB <= 512 KiB   tiled_rows      (23: each long row to the whole block)
 *     longer     longer       split_rows      (26: parts of ~32 KiB)
 * From the float width sweep on an H100 (64 MiB, cold, median of 30,
 * bench/results/h100_rows_sweep_052ac10.json), GB/s counting the results:
 * width 2 tiled 1397 / group 1157; width 3-4 group 1060-1496 / tiled
 * 950-1122; width 32 group 2575 / tiled 871; 4096 warp 2478 / block 2459;
 * 16384-32768 block 2551-2567 / tiled 2434-2457; 65536-131072 tiled
 * 2350-2527 / block 2150-2483 / split ~2090; from 262144 split 2087-2151.
 * The boundaries are bytes of the mean row, so other types follow the
 * float ones by size: a PREDICTION for them, and for this table as a whole
 * until a sweep runs it (the sweep above ran the boundaries before: tiled
 * up to 16 B, split from 128 KiB).
 * thread_per_row (21) is never the pick. For segments the choice is made
 * from count and n alone: the longest segment would need the offsets read
 * back to the host, a sync inside the timed call. So in a powerlaw array
 * whose mean is short, a few very long segments are read by the few lanes
 * sized for the mean - the known gap: it takes a device-side split of the
 * long ones (CUB's approach) to spread one over many blocks.
 *
 * Fixes from each step alone: every width gets the step that is (predicted)
 * best there. Flaws: the choice is by the mean; no step spreads one long
 * segment of a ragged array over many blocks unless the mean is long too.
 *
 * Expected cost, 64 MiB float on an H100 (a PREDICTION, not measured: bytes
 * read + written / ~3.0 TB/s achieved + ~3 us launch): width 1 (tiled):
 * 134 MB -> 44.7 + 3 = ~48 us; width 32 (group): 69.2 MB -> ~26 us; width
 * 1024 (warp per row): 67.2 MB -> ~25.5 us; width 2^20 (split rows, 128
 * parts each): ~27 us.
 *   bench_compare --cols 32 -m adaptive_rows
 */
#include "method.cuh"
#include "packed_rows.cuh"
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
    {512, 512, &method_group_per_row},
    {32768, 32768, &method_warp_per_row},
    {131072, 131072, &method_block_per_row},
    {524288, 524288, &method_tiled_rows},
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

int adaptive_rows_workspace(reduce_spec spec, reduce_shape shape, size_t n, size_t *bytes)
{
    const struct method *step = step_for(spec, shape, n);
    *bytes = 0;
    return step->workspace_shaped ? step->workspace_shaped(spec, shape, n, bytes) : 0;
}

int adaptive_rows_launch(reduce_spec spec, reduce_shape shape, const void *d_in, size_t n,
                         void *d_out, void *workspace, cudaStream_t stream)
{
    return step_for(spec, shape, n)->launch_shaped(spec, shape, d_in, n, d_out, workspace, stream);
}

} // namespace

DEFINE_METHOD(adaptive_rows, .family = FAMILY_ROWS, .source = "this suite (issue 19)",
              .idea = "picks packed, tiled, group, warp or block per row, or split rows, from the mean width",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .flags = METHOD_GRID_INDEPENDENT, /* the choice: shape and n; each step: independent */
              /* the loosest of its steps: a segment of any length may fall to
               * tiled_rows' lane chains when the mean is short */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS),
              .launch_shaped = adaptive_rows_launch,
              .workspace_shaped = adaptive_rows_workspace);
