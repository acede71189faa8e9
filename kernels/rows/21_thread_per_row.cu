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
 * Expected cost (a prediction; the measured widths are in
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json): bytes read and
 * written at the rate of a read-and-write stream, plus a launch, when
 * enough is in flight. Width 1 writes as much as it reads, and one 4-byte
 * load per thread in flight (8 KB per SM) is about half what hides DRAM
 * latency: about twice the stream's time. Width 32: uncoalesced 128-byte
 * rows, about twice a coalesced read. Width 1024: 4 KB per thread thrash
 * L1. Width 2^20: 16 threads for the whole input - a serial read.
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

DEFINE_METHOD(thread_per_row, .family = FAMILY_ROWS, .source = "this suite: rows, step 21",
              .idea = "one thread per row, persistent grid, aligned 16-byte loads masked to the row",
              .types = ALL_TYPES, .ops = VALUE_OPS,
              .launch = launch_any_pair<thread_per_row_launch>,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements alone */
              /* a tree of at most n - 1 levels, as any order: the chain is the
               * tighter declaration for one lane */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
