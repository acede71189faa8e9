/* Step 25 - one block per row, for rows of a few KiB and up.
 *
 * Idea: a block of 256 threads splits one row - thread t reads the row's
 * vectors t, t + 256, ... with four 16-byte loads in flight (reduce_vectors:
 * scalar head to the row's 16-byte boundary, vectors, scalar tail) - and
 * block_reduce combines them (shuffles, one shared slot per warp); thread 0
 * writes the row. (The machine code keeps three in flight for the 8-byte
 * sums and int64 max and min. The argmax and argmin of int32 and uint32 keep
 * four only because ptxas is told to fit five blocks an SM,
 * ROW_PARTS_MIN_BLOCKS; left free it kept two, and those rows were slower
 * on an H200: bench/results/experiments/h200_loads_in_flight_probes_1f9c8a8.log;
 * every kernel's count: bench/results/experiments/sass_loads_in_flight_sm90_07f98d2.txt.)
 * One block per row (up to 8192 blocks; past that a block
 * takes every grid-th row), so the hardware hands rows to SMs as they free
 * up. The kernel is row_parts.cuh's with one part per row. Argmax and
 * argmin rows of float and of 2-byte elements carry an int index from the
 * row's start through the block's combine (two words a shuffle, not three)
 * and widen it once (ROW_INT_INDEX); the 2-byte ones through their loads'
 * loop too: with eight elements a vector, a 64-bit index's compares, not
 * the bytes, set their pace. Float argmax and argmin rows of up to 8192
 * elements run on blocks of 128 threads with eight loads each: the same 16
 * KiB a block, more blocks an SM (ROW_NARROW_BLOCK in row_parts.cuh).
 * Rows of whole 8 KiB batches (2048 floats, 4096 halves, 1024 doubles and
 * their multiples up to 64 KiB) from an aligned array need none of that
 * generality: whole_batch_rows.cuh reads them with no mask and no head or
 * tail, argmax and argmin with no 64-bit index and one comparison an
 * element.
 *
 * Fixes from warp_per_row (step 24): a row has 256 x 4 vectors in flight (16
 * KiB), not 32 x 2, so rows of tens of KiB stream at full speed and a few
 * hundred rows still fill the GPU (width 32768 floats, 512 rows: one block
 * each, where a warp per row falls behind). Flaws: narrow rows leave most
 * of the block idle and pay a barrier per row; fewer rows than resident
 * blocks (132 x 6 on an H100) leave SMs idle: 16 rows of 2^20 floats are 16
 * blocks. The first version was a persistent grid walking the rows, behind
 * CUB's block per segment at 4096 floats; a block a row is level with it
 * on an H100 and an H200 (bench/NOTES.md, session 8).
 *
 * Expected cost (a prediction; measured in
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json): width 1: one busy
 * thread a block and two barriers a row, 2^24 rows over ~1056 resident
 * blocks - bound by the blocks' turnover, not the bytes; width 32 the same,
 * less so; width 1024: the bytes at the stream's rate plus a launch; width
 * 2^20: 16 blocks with 16 KiB in flight each, a fraction of what hides DRAM
 * latency.
 *   bench_compare --cols 4096 -m block_per_row
 */
#include "method.cuh"
#include "row_parts.cuh"

namespace {

template <class T, class Op> struct block_per_row_launch {
    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out,
                   void *workspace, cudaStream_t stream)
    {
        return launch_row_items<T, Op, false>(d_in, shape, n, 1, d_out, workspace, stream);
    }
};

} // namespace

DEFINE_METHOD(block_per_row, .family = FAMILY_ROWS, .source = "this suite: rows, step 25",
              .idea = "one 256-thread block per row, 4 16-byte loads in flight per thread",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<block_per_row_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements alone */
              .order = ROW_PARTS_ORDER,
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
