/* Step 29 - balanced segments: equal tiles of the input, whatever the
 * segments' lengths.
 *
 * Idea: cut the input, not the segments - a 256-thread block per 16 KiB tile,
 * each thread four consecutive 16-byte vectors - and let every thread walk
 * its elements, closing a segment at each offset it passes; fragments that
 * cross threads meet in a segmented scan of the block's carries, fragments
 * that cross tiles in a last kernel (balanced_segments.cuh has the
 * details).
 *
 * Fixes from the lane groups (steps 21-24) and adaptive_rows' long-segment
 * split (28): those give a segment lanes sized for the mean, so a ragged
 * array's long segments hold up their group and its short ones leave lanes
 * idle; here every block reads the same 16 KiB, all its loads in flight
 * before it has read an offset, and a segment's length changes nothing but
 * where its fragments meet. Flaws: each tile is a chain of dependent steps
 * - its first segment (a load from the first kernel's list), the window of
 * offsets (one more), the walk, the scan's barriers - and a block runs one
 * tile at a time: the registers (ptxas -v: about 60 a thread) leave 4 blocks
 * an SM, 64 KiB in flight, where the chain, not the bytes, sets the pace. A
 * thread's 64 contiguous bytes are four loads 64 bytes apart (L1 merges
 * their sectors).
 *
 * Expected cost: the whole array's time plus a little for the offsets, had
 * the bytes set the pace; measured, the chain above keeps it well behind
 * that and behind adaptive_rows everywhere but powerlaw:100, where the two
 * are level (bench/results/experiments/balanced_first_kernel_h100.log) -
 * and far ahead of cub_segmented where the mean is short (its times in
 * bench/results/h100_segments_cccl35_d3ac2a0.txt). Tried and dropped (bench/NOTES.md,
 * "Step 29, balanced segments"): tickets joining cross-tile segments in the
 * kernel (a release fence and a trip to L2 a tile), each tile searching the
 * offsets for its first segment (rounds of a load and a barrier), 6 blocks
 * an SM (spills), tiles of 8 or 16 vectors a thread. Next: a persistent
 * block with two tiles in flight (same section).
 *   bench_compare --segments powerlaw:100 -m balanced_segments
 */
#include "balanced_segments.cuh"
#include "method.cuh"

DEFINE_METHOD(balanced_segments, .family = FAMILY_ROWS, .source = "this suite: rows, step 29",
              .idea = "equal 16 KiB tiles a block, segments closed as a thread walks its elements",
              .types = ALL_TYPES, .ops = VALUE_OPS,
              .launch = launch_any_pair<balanced_segments_launch>,
              .workspace = workspace_any_pair<balanced_segments_launch>,
              .flags = METHOD_GRID_INDEPENDENT, /* tiles fixed by n and the alignment */
              .order = BALANCED_SEGMENTS_ORDER, .shapes = SHAPE_BIT(SHAPE_SEGMENTS));
