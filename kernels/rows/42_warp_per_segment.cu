/* Step 42 - one warp a segment, and no resident wave.
 *
 * Idea: warp_per_row's reading of a segment (step 24: the 32 lanes split it,
 * three 16-byte loads a lane in flight, argmax and argmin four; five
 * shuffles; lane 0 writes) on a grid of one warp per segment, in blocks of
 * two warps, as many blocks as it takes, instead of a resident wave whose
 * warps walk every warps-th segment. A block retires when its two segments
 * are read and the hardware starts the next block in its place, so a
 * warp's work is one segment, not a chain of them. (Past 2^30 blocks a
 * warp takes every grid-th segment.)
 *
 * Fixes from warp_per_row: on segments of random lengths each of its warps
 * had a few segments of different lengths dealt in turn, and the warps
 * with the longest chains ran on alone at the end. With the same segment
 * count, lengths of 500 and 1500 floats cost warp_per_row more than
 * lengths of exactly 1000, and uniform lengths of mean 1000 more still,
 * while this step reads all three at about the pace of the equal lengths
 * (bench/results/experiments/h200_segment_warp_chains_c9fbc2f.log,
 * h200_wave_free_segments_8566a3c.log; bench/NOTES.md, session 61).
 * Flaws: a segment is still one warp's, so a long one is read at one
 * warp's pace (powerlaw:1000, with segments of tens of thousands of floats,
 * falls far behind the whole array), and segments of a few vectors leave
 * lanes idle: skewed lengths and short means belong to steps 37 and 40.
 *
 * Expected cost: segments of 1-4 KiB at the bytes' rate, plus the start of
 * count / 2 blocks, which the hardware overlaps with the reading of the
 * blocks already running.
 *   bench_compare --segments uniform:1000 -m warp_per_segment,warp_per_row
 */
#include "method.cuh"
#include "row_lanes.cuh"

namespace {

/* Two warps a block: an SM takes at most 32 blocks, so blocks of two warps
 * can still fill it (its registers, not that limit, decide how many run),
 * and a block frees its place once its two segments are read. */
constexpr int BLOCK = 64;
constexpr int WARPS = BLOCK / 32;
/* Not MAX_GRID_BLOCKS (8192, where steps 25 and 26 stop adding blocks):
 * the point here is a block for every two segments, so the cap is only
 * what a grid's int count holds. */
constexpr size_t MAX_BLOCKS = (size_t)1 << 30;

template <int LOADS, class T, class Op>
__global__ __launch_bounds__(BLOCK) void warp_per_segment_kernel(const T *__restrict__ in, size_t n,
                                                                 offset_segments spans,
                                                                 result_t<T, Op> *__restrict__ out)
{
    const unsigned lane = threadIdx.x % 32;
    const size_t warps = (size_t)gridDim.x * WARPS;
    for (size_t s = blockIdx.x * (size_t)WARPS + threadIdx.x / 32; s < spans.count; s += warps) {
        const row_bounds here{spans.begin(s), spans.end(s)};
        const result_t<T, Op> v = reduce_row<32, LOADS, T, Op>(in, n, spans, here, true, lane);
        if (lane == 0)
            store_result(&out[s], v);
    }
}

template <class T, class Op> struct warp_per_segment_launch {
    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out, void *,
                   cudaStream_t stream)
    {
        if (shape.count == 0)
            return 0;
        constexpr int LOADS = is_arg_op_v<Op> ? WARP_ARG_LOADS : ROW_LANES_LOADS;
        const size_t blocks = ceil_div(shape.count, (size_t)WARPS);
        const int grid = launch_grid((int)(blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS));
        warp_per_segment_kernel<LOADS, T, Op>
            <<<grid, BLOCK, 0, stream>>>(d_in, n, offset_segments{shape.count, shape.offsets}, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

} // namespace

DEFINE_METHOD(warp_per_segment, .family = FAMILY_ROWS, .source = "this suite: rows, step 42",
              .idea = "one warp per segment, two warps a block, no resident wave: no warp has a chain of segments",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<warp_per_segment_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* a segment's bits: its elements alone */
              .order = lane_group_order(32),
              .shapes = SHAPE_BIT(SHAPE_SEGMENTS));
