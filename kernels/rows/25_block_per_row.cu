/* Step 25 - one block per row, for rows of a few KiB and up.
 *
 * Idea: a block of 256 threads splits one row - thread t reads the row's
 * vectors t, t + 256, ... with four 16-byte loads in flight (reduce_vectors:
 * scalar head to the row's 16-byte boundary, vectors, scalar tail) - and
 * block_reduce combines them (shuffles, one shared slot per warp); thread 0
 * writes the row. One block per row (up to 8192 blocks; past that a block
 * takes every grid-th row), so the hardware hands rows to SMs as they free
 * up. The kernel is row_parts.cuh's with one part per row.
 *
 * Fixes from warp_per_row (step 24): a row has 256 x 4 vectors in flight (16
 * KiB), not 32 x 2, so rows of tens of KiB stream at full speed and a few
 * hundred rows still fill the GPU (width 32768 floats, 512 rows: one block
 * each; a warp per row measured 38.2 us there). Flaws: narrow rows leave most
 * of the block idle and pay a barrier per row (width 32: the plain kernel
 * measured 405 us); fewer rows than resident blocks (132 x 6 on an H100)
 * leave SMs idle: 16 rows of 2^20 floats are 16 blocks (124 us measured).
 * The first version was a persistent grid walking the rows: 27.4 us at 4096
 * floats on an H100, where CUB's block per segment took 25.1; a block a row
 * measured 24.91-25.38 there (CUB 3.0.1 24.90-24.96) and 19.0 on an H200
 * (CUB 3.5 18.6-19.0).
 *
 * Expected cost, 64 MiB float on an H100 (a PREDICTION, not measured: bytes
 * read + written / ~3.0 TB/s achieved + ~3 us launch): width 1: one busy
 * thread per block and two barriers per row, 2^24 rows over ~1056 resident
 * blocks, ~1 us each: ~15 ms; width 32: ~400 us
 * (as the plain kernel); width 1024: 67.2 MB -> 22.4 + 3 = ~25.5 us; width
 * 2^20: 16 blocks with 16 KiB in flight each, ~0.25 MB in flight in all:
 * ~250 us.
 *   bench_compare --cols 4096 -m block_per_row
 */
#include "method.cuh"
#include "row_parts.cuh"

namespace {

template <class T, class Op> struct block_per_row_launch {
    static int run(const T *d_in, reduce_shape shape, acc_t<T> *d_out, void *workspace,
                   cudaStream_t stream)
    {
        return launch_row_items<T, Op, false>(d_in, shape, 1, d_out, workspace, stream);
    }
};

} // namespace

DEFINE_METHOD(block_per_row, .family = FAMILY_ROWS, .source = "this suite",
              .idea = "one 256-thread block per row, 4 16-byte loads in flight per thread",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<block_per_row_launch>,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements alone */
              .order = ROW_PARTS_ORDER,
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
