/* Step 43 - narrow rows staged by each warp, a row a lane.
 *
 * Idea: a warp takes 32 consecutive rows at a time and copies the 16-byte
 * vectors that cover them - aligned on the input's own 16-byte grid,
 * whatever the width - into its own shared memory with asynchronous copies
 * (coalesced, no registers held while they fly); then each lane reduces one
 * whole row from there, one element a step, and writes it: no shuffles, no
 * masked vectors, no barrier but the warp's own. A row of an odd width of
 * 4-byte elements starts one bank after its neighbour's, so the 32 lanes'
 * reads meet in 32 different banks; at an even width each lane starts at
 * its own column and wraps around (rows 32 words apart would all start in
 * one bank), and then adds its row in that rotated order. Rows of up to
 * STAGED_MAX_ROW_BYTES (staged_rows.cuh); wider rows go to tiled_rows (23).
 *
 * Fixes from group_per_row (22) and tiled_rows (23): at widths that are
 * not a whole number of vectors (33 floats overlap 9) a group's lanes
 * read a row's first and last vectors masked, fold them element by
 * element, join with shuffles and leave some load slots empty; tiled_rows
 * stages whole rows too, but in a block's tile with barriers, and at 33
 * floats a tile of 123 rows leaves half its 256 threads idle. Here every
 * lane has a row and a warp's only wait is for its own copies.
 *
 * Cost: the bytes read and the results written once each; a warp's chain
 * is its copies' trip, then a lane's walk of its row (a dependent add or
 * compare an element). Its buffer is 32 rows and up to 256 bytes of slack,
 * so that each chunk lands at its own place in a 128-byte row of banks
 * (buffer_vectors): 12 blocks of four warps an SM at rows of 33 floats
 * (228 KiB of shared memory), 3 at 128. Where a row is a whole number of vectors the lane
 * groups and packed_rows read it without masks, and each step was ahead at
 * some widths (this one at 12, 40 and 48 floats, the lane groups at 32
 * floats and for argmax from 64, packed_rows at its widths); adaptive_rows sends this step the rows of up to
 * STAGED_MAX_ROW_BYTES that are not a whole number of vectors, where it was
 * ahead at every width measured but argmax of 63 doubles and of 255 halves.
 * Measured on an H200 against adaptive_rows' earlier picks in
 * bench/results/experiments/h200_staged_lane_rows_e31a2a9.log (the first
 * version, odd widths), h200_staged_lane_rows_widths_12a5a28.log and
 * h200_staged_lane_rows_even_863fb75.log (widths 2-128).
 *   bench_compare --cols 33 -m staged_lane_rows
 */
#include <cuda_pipeline.h>

#include <cstdint>

#include "grid_size.cuh"
#include "method.cuh"
#include "shape.h"
#include "staged_rows.cuh"
#include "vector_loads.cuh"

extern "C" const struct method method_tiled_rows;

namespace {

constexpr int BLOCK = 128;
constexpr int WARPS = BLOCK / 32;
constexpr size_t ROWS_PER_WARP = 32;

/* The 16-byte vectors of a warp's buffer: its 32 rows, a vector more at
 * either end (the first row may start inside a vector, the last end inside
 * one), up to seven more for where stage_rows places them, and a multiple
 * of eight, so that every warp's buffer starts a 128-byte row of banks. */
template <class T> constexpr size_t buffer_vectors(size_t cols)
{
    return ((ROWS_PER_WARP * cols * sizeof(T) + 15) / 16 + 2 + 7 + 7) & ~(size_t)7;
}

/* The vectors that cover elements [begin, end) into `buffer`, a lane every
 * 32nd: asynchronous 16-byte copies, or checked loads at the input's ends.
 * The first lands `shift` vectors in, at its place in a 128-byte row of the
 * input, so 32 copies fill one row of banks and read whole L2 sectors, as
 * in global memory. Placed from the buffer's start instead, at 33 floats
 * warps 1-3's chunks began 32, 64 and 96 bytes into a row, and the float
 * sum and argmax of 33 floats were slower
 * (bench/results/experiments/h200_staged_lane_aligned_18aca15.log).
 * Returns the element at the buffer's start (negative near the input's
 * start). */
template <class T>
__device__ __forceinline__ long long stage_rows(const T *__restrict__ in, size_t n, long long lead,
                                                size_t begin, size_t end, uint4 *buffer)
{
    constexpr int W = VECTOR_WIDTH<T>;
    const unsigned lane = threadIdx.x % 32;
    const long long first_vector = ((long long)begin + lead) / W;
    const long long vectors = ((long long)end + lead + W - 1) / W - first_vector;
    const uintptr_t grid_start = (uintptr_t)in - (uintptr_t)lead * sizeof(T); /* 16-byte aligned */
    const unsigned shift = (unsigned)((grid_start / 16 + (unsigned long long)first_vector) % 8);
    buffer += shift;
    for (long long j = lane; j < vectors; j += 32) {
        const long long element = (first_vector + j) * W - lead;
        if (element >= 0 && element + W <= (long long)n)
            __pipeline_memcpy_async(&buffer[j], in + element, 16);
        else
            buffer[j] = load_checked_vector(in, n, element);
    }
    __pipeline_commit();
    return (first_vector - shift) * W - lead;
}

/* Op over a staged row of `cols` elements, in order, or from column
 * `start` round to `start - 1` (ROTATED: index ties then need Op's own
 * rule, not combine_later's). One loop of `cols` steps either way: two
 * loops, [start, cols) then [0, start), would take the warp through both
 * loops' longest trips, about twice the steps. */
template <bool ROTATED, class T, class Op>
__device__ __forceinline__ result_t<T, Op, int> reduce_staged_row(const T *row, unsigned cols,
                                                                  unsigned start)
{
    using R = result_t<T, Op, int>;
    R acc = identity<Op, R>();
    if constexpr (ROTATED) {
        const Op op;
#pragma unroll 4
        for (unsigned i = 0; i < cols; ++i) {
            const unsigned c = start + i < cols ? start + i : start + i - cols;
            acc = op(acc, lift<Op, T, int>(row[c], c));
        }
    } else {
#pragma unroll 4
        for (unsigned c = 0; c < cols; ++c)
            acc = combine_later<Op>(acc, lift<Op, T, int>(row[c], c));
    }
    return acc;
}

/* A persistent grid of warps, each taking 32 rows at a time: stage them,
 * wait for its own copies, a row a lane. */
template <bool ROTATED, class T, class Op>
__global__ __launch_bounds__(BLOCK) void staged_lane_rows_kernel(const T *__restrict__ in, size_t n,
                                                                 size_t rows, unsigned cols,
                                                                 unsigned vectors_per_warp,
                                                                 result_t<T, Op> *__restrict__ out)
{
    extern __shared__ __align__(128) uint4 buffers[];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    uint4 *buffer = buffers + (size_t)warp * vectors_per_warp;
    const T *staged = reinterpret_cast<const T *>(buffer);
    const long long lead = (long long)(((uintptr_t)in % 16) / sizeof(T));
    const size_t chunks = (rows + ROWS_PER_WARP - 1) / ROWS_PER_WARP, warps = (size_t)gridDim.x * WARPS;
    for (size_t chunk = blockIdx.x * (size_t)WARPS + warp; chunk < chunks; chunk += warps) {
        const size_t first_row = chunk * ROWS_PER_WARP;
        const size_t end_row = first_row + ROWS_PER_WARP < rows ? first_row + ROWS_PER_WARP : rows;
        const long long first_staged =
            stage_rows(in, n, lead, first_row * cols, end_row * cols, buffer);
        __pipeline_wait_prior(0);
        __syncwarp(); /* every lane's copies have landed */
        const size_t row = first_row + lane;
        if (row < end_row) {
            const T *staged_row = staged + ((long long)(row * cols) - first_staged);
            store_result(&out[row],
                         widen_index(reduce_staged_row<ROTATED, T, Op>(staged_row, cols, lane % cols)));
        }
        __syncwarp(); /* every row is read before the next chunk's copies */
    }
}

/* A block's shared memory at the widest row: the opt-in asked of each
 * device once. */
constexpr size_t MAX_BLOCK_SMEM = WARPS * 16 * buffer_vectors<char>(STAGED_MAX_ROW_BYTES);

template <bool ROTATED, class T, class Op> struct staged_lane_rows_kernel_launch {
    /* A resident wave for this width's buffers (capped at the warps' share
     * of the rows), or the grid a test forces. */
    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out,
                   cudaStream_t stream)
    {
        const auto kernel = staged_lane_rows_kernel<ROTATED, T, Op>;
        bool fits = false;
        PROPAGATE(once_per_device<staged_lane_rows_kernel_launch>(&fits, [&](bool *usable) {
            int resident = 0;
            return fit_dynamic_smem((const void *)kernel, BLOCK, MAX_BLOCK_SMEM, usable, &resident);
        }));
        if (!fits)
            return (int)cudaErrorInvalidConfiguration; /* 64 KiB a block: any GPU since Volta */
        const size_t vectors = buffer_vectors<T>(shape.cols), smem = vectors * 16 * WARPS;
        int grid = 0;
        PROPAGATE(capped_resident_grid((const void *)kernel, BLOCK, shape.count,
                                       ROWS_PER_WARP * WARPS, &grid, smem));
        kernel<<<grid, BLOCK, smem, stream>>>(d_in, n, shape.count, (unsigned)shape.cols,
                                              (unsigned)vectors, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

template <class T, class Op> struct staged_lane_rows_launch {
    /* Straight where neighbouring rows start in different banks (an odd
     * width), rotated where they would not. */
    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out, void *,
                   cudaStream_t stream)
    {
        return shape.cols % 2 == 1
                   ? staged_lane_rows_kernel_launch<false, T, Op>::run(d_in, shape, n, d_out, stream)
                   : staged_lane_rows_kernel_launch<true, T, Op>::run(d_in, shape, n, d_out, stream);
    }
};

} // namespace

/* Rows of up to STAGED_MAX_ROW_BYTES here; wider ones to tiled_rows. */
static int staged_or_tiled_rows(reduce_spec spec, reduce_shape shape, const void *d_in, size_t n,
                                void *d_out, void *workspace, cudaStream_t stream)
{
    if (shape.cols * element_size(spec.type) > STAGED_MAX_ROW_BYTES)
        return method_tiled_rows.launch(spec, shape, d_in, n, d_out, workspace, stream);
    if (shape.count == 0)
        return 0;
    return launch_any_pair<staged_lane_rows_launch, ALL_OPS>(spec, shape, d_in, n, d_out, workspace,
                                                             stream);
}

DEFINE_METHOD(staged_lane_rows, .family = FAMILY_ROWS, .source = "this suite: rows, step 43",
              .idea = "a warp stages 32 narrow rows by asynchronous copies, then a lane reduces a row",
              .types = ALL_TYPES, .ops = ALL_OPS, .launch = staged_or_tiled_rows,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements, width and place mod 32 */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS));
