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
 * tile at a time: 60 registers leave 4 blocks an SM, 64 KiB in flight
 * where the chain, not the bytes, sets the pace. A thread's 64 contiguous
 * bytes are four loads 64 bytes apart (L1 merges their sectors).
 *
 * Expected cost, 64 MiB of floats on an H100: PREDICTED at the whole
 * array's ~2.4 TB/s + ~2 us (uniform:8 ~40 us, uniform:100 and powerlaw:100
 * ~30, uniform:10000 ~29); MEASURED (median of 100, cold) 82.9, 56.0, 64.4
 * and 49.3 us, where adaptive_rows took 55.0, 37.1, 65.2 and 27.9 in the
 * same run (bench/results/experiments/balanced_first_kernel_h100.log) and
 * cub_segmented ~2340, ~200, ~200 and ~30. Earlier versions: tickets
 * joining cross-tile segments in the kernel (a release fence and a trip to
 * L2 a tile) 98.9, 77.4, 79.1, 64.3; a second kernel instead 86.1, 61.3,
 * 67.0, 48.3 (cb68ae8); each tile searching the offsets for its first
 * segment (two or three rounds of a load and a barrier) until the first
 * kernel listed them. Forcing 6 blocks an SM (40 registers) spilled and was
 * slower; tiles of 8 or 16 vectors a thread did not help. Next: a
 * persistent block with two tiles in flight (bench/NOTES.md, session 9).
 *   bench_compare --segments powerlaw:100 -m balanced_segments
 */
#include "balanced_segments.cuh"
#include "method.cuh"

DEFINE_METHOD(balanced_segments, .family = FAMILY_ROWS, .source = "this suite",
              .idea = "equal 16 KiB tiles a block, segments closed as a thread walks its elements",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<balanced_segments_launch>,
              .workspace = workspace_any_pair<balanced_segments_launch>,
              .flags = METHOD_GRID_INDEPENDENT, /* tiles fixed by n and the alignment */
              .order = BALANCED_SEGMENTS_ORDER, .shapes = SHAPE_BIT(SHAPE_SEGMENTS));
