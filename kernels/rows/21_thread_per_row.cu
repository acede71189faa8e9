/* Step 21 - one thread per row: the first row kernel, and the obvious one.
 *
 * Idea: many reductions at once (the rows of a matrix, the segments of a
 * ragged array: row_spans.cuh) and one thread for each. A persistent grid
 * walks the rows; each thread reads its own row with 16-byte loads
 * (reduce_span: the aligned vectors the row overlaps, the first and last
 * masked to it; three loads in flight) and writes its accumulator. No shuffles, no shared
 * memory, no barrier. The kernel is row_lanes.cuh's with one lane per row.
 *
 * Fixes from the whole-array kernels: they give one result; a [rows, cols]
 * matrix needs one per row. Flaws: neighbouring threads read rows cols
 * elements apart, so past a few columns a warp's load touches 32 far-apart
 * lines and uses 16 bytes of each (uncoalesced; the rest waits in L1, or is
 * read again); and at widths 1-2 a thread has one 4-8-byte load in flight,
 * too little to keep HBM busy. Long rows are serial in one thread.
 *
 * Expected cost, 64 MiB float on an H100 (a PREDICTION, not measured: bytes
 * read + written / ~3.0 TB/s achieved + ~3 us launch): width 1 reads 67.1 MB
 * and writes 67.1 MB: 44.7 + 3 = 48 us at full bandwidth, but one 4-byte
 * load per thread in flight (8 KB per SM) is about half what hides DRAM
 * latency: ~100 us. Width 32: 67.1 + 2.1 MB, 26 us if coalesced; uncoalesced
 * 128-byte rows: ~50 us. Width 1024: ~80 us (4 KB per thread, L1 thrashed).
 * Width 2^20: 16 threads for 64 MiB, 1/32 of warp_per_row's lanes: ~10 ms.
 *   bench_compare --cols 1 -m thread_per_row
 */
#include "method.cuh"
#include "row_lanes.cuh"

namespace {

template <class T, class Op> struct thread_per_row_launch {
    static int run(const T *d_in, reduce_shape shape, size_t n, acc_t<T> *d_out, void *,
                   cudaStream_t stream)
    {
        return launch_lane_group_rows<1, T, Op>(d_in, shape, n, d_out, stream);
    }
};

} // namespace

DEFINE_METHOD(thread_per_row, .family = FAMILY_ROWS, .source = "this suite",
              .idea = "one thread per row, persistent grid, aligned 16-byte loads masked to the row",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<thread_per_row_launch>,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements alone */
              /* a tree of at most n - 1 levels, as any order: the chain is the
               * tighter declaration for one lane */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
