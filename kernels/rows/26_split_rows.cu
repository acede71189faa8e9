/* Step 26 - several blocks per row, for a few long rows.
 *
 * Idea: cut each row into as many parts as give every resident block one
 * part (rows x parts = one wave; no part under 16 KiB) and let a block take
 * each part: a persistent grid walks the (row, part) items, each block reduces its part
 * with four 16-byte loads in flight per thread and block_reduce, stores the
 * part's total in the workspace and draws a ticket from the row's counter;
 * the row's last part done adds the row's totals in part order and writes
 * the row (last_part_writes_total, last_block_done.cuh: bitwise the same
 * whichever block finishes last, and the counters are back to 0 after the
 * launch). The parts per row are set on the host from the width and the
 * GPU's resident block count - for segments from the mean length n / count
 * (reading the offsets back would be a host sync in the timed call) - so a
 * row's bits depend on the GPU model (its SMs and occupancy) but not on the
 * grid a launch runs: not METHOD_GRID_INDEPENDENT, whose bits must survive
 * a move to another GPU. As many rows as resident blocks, or more, are one
 * part each: block_per_row (step 25), no workspace.
 *
 * Fixes from block_per_row: 16 rows of 2^20 floats were 16 blocks; here they
 * are 16 x 66 parts on a 132-SM GPU (8 blocks of 256 per SM), one resident
 * wave, and the cost is the read plus one combine per row, overlapped with
 * other rows' reads. The first version cut fixed 32 KiB parts: two waves or
 * more of short items, each paying its block_reduce and ticket, clearly
 * behind the whole array from 2^18 columns (bench/NOTES.md, session 6).
 * Flaws: the parts are sized for the mean, so in
 * a powerlaw distribution a segment far longer than the mean is still read
 * by only `parts` blocks.
 *
 * Expected cost (a prediction; measured in
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json): width 2^18 and up,
 * 16-1056 parts per row in one wave: the bytes at the whole array's rate
 * plus the last rows' combine, a few L2 round trips; width 1024, 32 and 1:
 * one part, so block_per_row's cost.
 *   bench_compare --cols 1048576 -m split_rows
 */
#include "method.cuh"
#include "row_parts.cuh"

namespace {

/* A part is never smaller than one batch of the block's loads
 * (ROW_PARTS_BLOCK x ROW_PARTS_LOADS x 16 bytes). */
constexpr size_t MIN_PART_BYTES = (size_t)ROW_PARTS_BLOCK * ROW_PARTS_LOADS * 16;

/* Parts per row: as many as give every resident block one part of the rows
 * (rows x parts <= one wave), so that each block streams one long stretch
 * as step 17's blocks do, but no part under MIN_PART_BYTES. The resident
 * count is the occupancy calculator's, never a forced grid's: a row's bits
 * depend on the shape, n and the GPU model. */
template <class T, class Op> int parts_for(reduce_shape shape, size_t n, unsigned *parts)
{
    int resident = 0;
    const void *kernel =
        (const void *)row_parts_kernel<T, Op, uniform_rows, true, false, ROW_PARTS_BLOCK>;
    PROPAGATE(resident_grid_size(kernel, ROW_PARTS_BLOCK, 0, &resident));
    const size_t rows = shape.count > 0 ? shape.count : 1;
    const size_t wave = (size_t)resident / rows;
    const size_t most = ceil_div(mean_span_length(shape, n) * sizeof(T), MIN_PART_BYTES);
    size_t chosen = wave < most ? wave : most;
    chosen = chosen < 1 ? 1 : chosen > MAX_GRID_BLOCKS ? MAX_GRID_BLOCKS : chosen;
    *parts = (unsigned)chosen;
    return 0;
}

template <class T, class Op> struct split_rows_launch {
    static int workspace(reduce_shape shape, size_t n, size_t *bytes)
    {
        unsigned parts = 1;
        PROPAGATE((parts_for<T, Op>(shape, n, &parts)));
        *bytes = row_parts_workspace_bytes(shape.count, parts);
        return 0;
    }

    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out, void *workspace,
                   cudaStream_t stream)
    {
        unsigned parts = 1;
        PROPAGATE((parts_for<T, Op>(shape, n, &parts)));
        return launch_row_parts<T, Op>(d_in, shape, n, parts, d_out, workspace, stream);
    }
};

} // namespace

DEFINE_METHOD(split_rows, .family = FAMILY_ROWS, .source = "this suite: rows, step 26",
              .idea = "rows cut into one resident wave of parts, a block each; the row's last part adds them in order",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<split_rows_launch, ALL_OPS>,
              .workspace = workspace_any_pair<split_rows_launch, ALL_OPS>,
              /* no METHOD_GRID_INDEPENDENT: the parts follow the GPU's resident blocks */
              .order = ROW_PARTS_ORDER,
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
