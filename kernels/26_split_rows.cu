/* Step 26 - several blocks per row, for a few long rows.
 *
 * Idea: cut each row into parts of ~32 KiB and let a block take each part:
 * a persistent grid walks the (row, part) items, each block reduces its part
 * with four 16-byte loads in flight per thread and block_reduce, stores the
 * part's total in the workspace and draws a ticket from the row's counter;
 * the row's last part done adds the row's totals in part order and writes
 * the row (last_part_writes_total, last_block_done.cuh: bitwise the same
 * whichever block finishes last, and the counters are back to 0 after the
 * launch). The parts per row are set on the host from the width - for
 * segments from the mean length n / count (reading the offsets back would be
 * a host sync in the timed call) - so a row's bits never depend on the grid.
 * Rows of 32 KiB or less are one part: block_per_row (step 25), no workspace.
 *
 * Fixes from block_per_row: 16 rows of 2^20 floats were 16 blocks; here they
 * are 16 x 128 parts, more than one resident wave, and the cost is the read
 * plus one combine per row, overlapped with other rows' reads. Flaws: the
 * parts are sized for the mean, so in a powerlaw distribution a segment far
 * longer than the mean is still read by only `parts` blocks; rows just over
 * 32 KiB run in two parts and pay a combine (~1.5 us for the last of them).
 *
 * Expected cost, 64 MiB float on an H100 (a PREDICTION, not measured: bytes
 * read + written / ~3.0 TB/s achieved + ~3 us launch): width 2^20: 128 parts
 * per row, 2048 items, 67.1 MB -> 22.4 + 3 + ~1.5 (the last rows' combine) =
 * ~27 us; width 2^24 (one row, 2048 parts): ~27 us; width 1024 and 32 and 1:
 * one part, as block_per_row (~25.5 us, ~400 us, ~15 ms).
 *   bench_compare --cols 1048576 -m split_rows
 */
#include "method.cuh"
#include "row_parts.cuh"

namespace {

/* 8 batches of ROW_PARTS_BLOCK x ROW_PARTS_LOADS 16-byte loads: long enough
 * that a part's start and its ticket are a small share of its time (a
 * prediction), short enough that 16 rows of 4 MiB fill an H100 twice over. */
constexpr size_t PART_BYTES = 32768;

template <class T> unsigned parts_for(size_t length)
{
    const size_t parts = ceil_div(length * sizeof(T), PART_BYTES);
    return parts < 1 ? 1 : parts > MAX_GRID_BLOCKS ? MAX_GRID_BLOCKS : (unsigned)parts;
}

template <class T, class Op> struct split_rows_launch {
    static int workspace(reduce_shape shape, size_t n, size_t *bytes)
    {
        *bytes = row_parts_workspace_bytes(shape.count, parts_for<T>(mean_span_length(shape, n)));
        return 0;
    }

    static int run(const T *d_in, reduce_shape shape, size_t n, acc_t<T> *d_out, void *workspace,
                   cudaStream_t stream)
    {
        return launch_row_parts<T, Op>(d_in, shape, parts_for<T>(mean_span_length(shape, n)),
                                       d_out, workspace, stream);
    }
};

} // namespace

DEFINE_METHOD(split_rows, .family = FAMILY_ROWS, .source = "this suite (issue 19)",
              .idea = "rows cut into ~32 KiB parts, a block each; the row's last part adds them in order",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .flags = METHOD_GRID_INDEPENDENT, /* parts from the shape and n, never the grid */
              .order = ROW_PARTS_ORDER,
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS),
              .launch_shaped = launch_shaped_any_pair<split_rows_launch>,
              .workspace_shaped = workspace_shaped_any_pair<split_rows_launch>);
