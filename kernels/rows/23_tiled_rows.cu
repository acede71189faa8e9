/* Step 23 - narrow rows staged through shared memory, a tile at a time.
 *
 * Idea: read narrow rows as the one flat stream they are. A block takes a
 * tile of whole consecutive rows (TILE_BYTES), loads the 16-byte vectors
 * that cover it - aligned on the input's own 16-byte grid, whatever the
 * width, so rows of 1, 3 or 33 floats are read with the same coalesced
 * vector loads as a whole-array sum, four in flight per thread - into
 * shared memory, and then reduces the staged rows there: a short row is one
 * thread's (each lane starting at its own column, so that a warp's reads
 * fall in different banks), a longer one a warp's (consecutive lanes,
 * consecutive words, then shuffles) - ONE_LANE_MAX_LENGTH says which; a
 * persistent grid walks the tiles. A vector that holds elements outside the
 * input (the array's first and last) is read element by element, so no byte
 * outside the n elements is touched. The rows per tile and LANES are set on
 * the host from the width - for segments from the mean length n / count,
 * the only length the host has without a sync: a tile of segments that
 * turns out larger than the buffer (a long segment) is reduced from global
 * memory, its short rows by the same threads or warps, its long ones by the
 * whole block (reduce_vectors, block_reduce): right, and slower only by
 * those rows.
 *
 * Fixes from group_per_row (step 22): a narrow row is no longer its own
 * load: at width 1 a thread has four 16-byte loads in flight, not one 4-byte
 * load, and a misaligned width (3, 33) costs no scalar heads and tails - only
 * the two vectors a tile straddles are read twice. The next tile's loads are
 * issued before this tile's rows are added (software pipelining), so the
 * barriers do not empty the block's loads in flight. Flaws: the registers
 * (ptxas -v: about 64 a thread, more in some instantiations) leave 3-4
 * blocks of 256 per SM, 48-64 KiB in flight, and some segment
 * instantiations spill; widths above a few hundred bytes fit few rows in a
 * tile - warp_per_row is simpler there.
 *
 * Expected cost (a prediction; measured in
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json): the bytes read and
 * written at the rate of a read-and-write stream, plus a launch - at width
 * 1 the results are as many bytes as the input, at width 32 a thirty-second
 * of them; width 1024: 4 rows a tile, 32 lanes a row, the same rule; width
 * 2^20: one row a tile, too long to stage, read by the whole block from
 * global memory, as block_per_row.
 *   bench_compare --cols 3 -m tiled_rows
 */
#include <cstring>

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "method.cuh"
#include "row_spans.cuh"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 256;
constexpr int LOADS = 4;
/* The staging buffer: LOADS 16-byte vectors per thread, 16 KiB. A tile's
 * elements straddle at most two vectors more than their own bytes. */
constexpr size_t TILE_VECTORS = BLOCK * LOADS;
constexpr size_t TILE_BYTES = (TILE_VECTORS - 2) * 16;
/* A tile too long to stage is read from global memory, FALLBACK_LOADS loads
 * in flight per lane (fewer than LOADS: fewer registers, for a path off the
 * common case): its rows of one batch of a group or less by the groups, its
 * longer rows one after another by the whole block. */
constexpr int FALLBACK_LOADS = 2;
/* Rows of up to ONE_LANE_MAX_LENGTH elements are each one thread's, read
 * from shared memory (reduce_staged_row); longer ones a warp's. The first
 * version gave a row the power of two lanes at or above its width (2, 4, 8,
 * 16): conflict-free, but a row then costs a group's shuffles and index
 * arithmetic for one or two elements a lane: instruction-bound at widths 2
 * and 3, well under what the bytes allow (bench/NOTES.md, session 6). */
constexpr size_t ONE_LANE_MAX_LENGTH = 64;
constexpr int MAX_LANES = 32;

/* Vector j of the 16-byte grid the input lies on, as raw bytes: elements
 * [j V - shift, (j + 1) V - shift) (shift: the input's misalignment in
 * elements). One 16-byte load when every element is one of the n inputs;
 * else those that are, one at a time, and zeros - never read, only staged. */
template <class T>
__device__ __forceinline__ uint4 load_grid_vector(const T *__restrict__ in, size_t n, size_t shift,
                                                  size_t j)
{
    constexpr size_t V = VECTOR_WIDTH<T>;
    if (j * V >= shift && j * V - shift + V <= n)
        return __ldg(reinterpret_cast<const uint4 *>(in + (j * V - shift)));
    T e[V];
    for (size_t i = 0; i < V; ++i) {
        const size_t position = j * V + i; /* the element's index + shift */
        e[i] = position >= shift && position - shift < n ? in[position - shift] : T{};
    }
    uint4 raw;
    memcpy(&raw, e, sizeof raw); /* a bit cast: stays in registers */
    return raw;
}

/* Which rows a tile holds and which vectors of the input's 16-byte grid
 * cover them; a tile too large for the buffer (a long segment) is not staged. */
struct tile_geometry {
    size_t first_row, rows, first_vector, vectors;
    bool is_staged;
};

template <class T, class Spans>
__device__ __forceinline__ tile_geometry tile_at(Spans spans, size_t rows_per_tile, size_t shift,
                                                 size_t t)
{
    constexpr size_t V = VECTOR_WIDTH<T>;
    tile_geometry g;
    g.first_row = t * rows_per_tile;
    g.rows = min(rows_per_tile, spans.count - g.first_row);
    g.first_vector = (spans.begin(g.first_row) + shift) / V;
    g.vectors = (spans.end(g.first_row + g.rows - 1) + shift + V - 1) / V - g.first_vector;
    g.is_staged = g.vectors <= TILE_VECTORS;
    return g;
}

/* A row of an unstaged tile that one group's batch of loads does not cover. */
template <class T> __device__ __forceinline__ bool is_long(size_t length, unsigned lanes)
{
    return length * sizeof(T) > lanes * FALLBACK_LOADS * 16;
}

template <class T>
__device__ __forceinline__ void load_tile(uint4 (&v)[LOADS], const T *__restrict__ in, size_t n,
                                          size_t shift, const tile_geometry &g)
{
    if (!g.is_staged)
        return;
#pragma unroll
    for (int k = 0; k < LOADS; ++k)
        if (threadIdx.x + k * BLOCK < g.vectors)
            v[k] = load_grid_vector(in, n, shift, g.first_vector + threadIdx.x + k * BLOCK);
}

/* One thread's row of a staged tile, `length` elements. Each lane starts at
 * its own column (its lane number, modulo the length) and wraps around: the
 * threads of a warp read rows `length` words apart, and at a width that is a
 * multiple of 32 words all 32 would start in one bank - a 32-way conflict;
 * rotated, they start in 32 different banks. */
template <class Op, class T>
__device__ __forceinline__ result_t<T, Op> reduce_staged_row(const T *row, unsigned length)
{
    const Op op;
    result_t<T, Op> acc = identity<Op, result_t<T, Op>>();
    if (length == 0)
        return acc;
    const unsigned start = (threadIdx.x % 32) % length;
#pragma unroll 4
    for (unsigned c = start; c < length; ++c)
        acc = op(acc, lift<Op>(row[c], c));
#pragma unroll 4
    for (unsigned c = 0; c < start; ++c)
        acc = op(acc, lift<Op>(row[c], c));
    return acc;
}

/* The block's shared memory: the staged tile, as 16-byte vectors. */
struct tiled_rows_storage {
    uint4 tile[TILE_VECTORS];
};

/* The vectors load_tile brought into registers, into shared memory. */
__device__ __forceinline__ void store_tile(tiled_rows_storage &s, const uint4 (&v)[LOADS],
                                           const tile_geometry &g)
{
    if (!g.is_staged)
        return;
#pragma unroll
    for (int k = 0; k < LOADS; ++k)
        if (threadIdx.x + k * BLOCK < g.vectors)
            s.tile[threadIdx.x + k * BLOCK] = v[k];
}

/* The tile's rows, a batch of one a group at a time: from shared memory
 * when staged, else from global memory for rows one batch of loads covers
 * (the long ones are reduce_long_rows'). The loop's trip count is the
 * block's: every lane meets every shuffle. The thread's group and lane come
 * from the kernel, computed once: derived here, from threadIdx.x on every
 * tile, they cost registers (ptxas -v). */
template <int LANES, class Op, class T, class Spans>
__device__ __forceinline__ void reduce_group_rows(const tiled_rows_storage &s, unsigned group,
                                                  unsigned lane, const T *__restrict__ in,
                                                  Spans spans,
                                                  size_t shift, const tile_geometry &g,
                                                  result_t<T, Op> *__restrict__ out)
{
    using A = result_t<T, Op>;
    constexpr size_t V = VECTOR_WIDTH<T>;
    constexpr unsigned GROUPS = BLOCK / LANES;
    const Op op;
    const T *staged = reinterpret_cast<const T *>(s.tile);
    for (size_t first = 0; first < g.rows; first += GROUPS) {
        const size_t r = first + group;
        const size_t row = g.first_row + r;
        A acc = identity<Op, A>();
        bool is_group_row = false; /* the same for the group's lanes: one row */
        if (r < g.rows) {
            const size_t begin = spans.begin(row);
            const size_t length = spans.end(row) - begin;
            if (g.is_staged) {
                const T *staged_row = staged + (begin + shift - g.first_vector * V);
                if constexpr (LANES == 1)
                    acc = reduce_staged_row<Op>(staged_row, (unsigned)length);
                else
                    for (size_t c = lane; c < length; c += LANES)
                        acc = op(acc, lift<Op>(staged_row[c], c));
                is_group_row = true;
            } else if (!is_long<T>(length, LANES)) {
                acc = reduce_vectors<FALLBACK_LOADS, Op>(in + begin, length, lane, LANES);
                is_group_row = true;
            }
        }
        acc = group_reduce<LANES, Op>(acc);
        if (is_group_row && lane == 0)
            store_result(&out[row], acc);
    }
}

/* The long rows of an unstaged tile (a long segment is what made it too
 * large to stage), each by the whole block: 256 threads' loads in flight
 * instead of one group's. Every thread reads the same offsets, so the loop
 * and its barriers are the block's. */
template <int LANES, class Op, class T, class Spans>
__device__ __forceinline__ void reduce_long_rows(const T *__restrict__ in, Spans spans,
                                                 const tile_geometry &g, result_t<T, Op> *__restrict__ out)
{
    using A = result_t<T, Op>;
    for (size_t r = 0; r < g.rows; ++r) {
        const size_t row = g.first_row + r;
        const size_t begin = spans.begin(row);
        const size_t length = spans.end(row) - begin;
        if (!is_long<T>(length, LANES))
            continue;
        A acc = reduce_vectors<FALLBACK_LOADS, Op>(in + begin, length, threadIdx.x, BLOCK);
        acc = block_reduce<BLOCK, Op>(acc);
        if (threadIdx.x == 0)
            store_result(&out[row], acc);
        __syncthreads(); /* block_reduce's slots are written again by the next row */
    }
}

template <int LANES, class T, class Op, class Spans>
__global__ __launch_bounds__(BLOCK) void tiled_rows_kernel(const T *__restrict__ in, size_t n,
                                                           Spans spans, size_t rows_per_tile,
                                                           result_t<T, Op> *__restrict__ out)
{
    __shared__ tiled_rows_storage s;
    const size_t shift = ((uintptr_t)in & 15) / sizeof(T);
    const unsigned group = threadIdx.x / LANES;
    const unsigned lane = threadIdx.x % LANES;
    const size_t tiles = (spans.count + rows_per_tile - 1) / rows_per_tile;

    /* Software pipelined: the next tile's loads are issued before this
     * tile's rows are reduced from shared memory, so a block has its 16 KiB
     * in flight while it adds, not only between barriers. The loop's trip
     * count is the block's: every thread meets every barrier. */
    size_t t = blockIdx.x;
    if (t >= tiles)
        return;
    tile_geometry current = tile_at<T>(spans, rows_per_tile, shift, t);
    uint4 v[LOADS];
    load_tile(v, in, n, shift, current);
    for (; t < tiles; t += gridDim.x) {
        store_tile(s, v, current);
        __syncthreads();
        tile_geometry next = current;
        if (t + gridDim.x < tiles) {
            next = tile_at<T>(spans, rows_per_tile, shift, t + gridDim.x);
            load_tile(v, in, n, shift, next);
        }
        reduce_group_rows<LANES, Op>(s, group, lane, in, spans, shift, current, out);
        if (!current.is_staged)
            reduce_long_rows<LANES, Op>(in, spans, current, out);
        __syncthreads(); /* every row read before the next tile is stored */
        current = next;
    }
}

template <class T, class Op> struct tiled_rows_launch {
    /* Rows of the mean length that fill a tile's bytes; for segments half
     * that, so that a tile of uniform lengths (0 to twice the mean) still
     * fits, most of the time. */
    static size_t rows_per_tile(reduce_shape shape, size_t mean_length)
    {
        const size_t slack = shape.kind == SHAPE_ROWS ? 1 : 2;
        const size_t bytes_per_row = slack * mean_length * sizeof(T);
        const size_t rows = bytes_per_row > 0 ? TILE_BYTES / bytes_per_row : TILE_BYTES / sizeof(T);
        return rows > 0 ? rows : 1;
    }

    template <int LANES>
    static int launch(const T *d_in, size_t n, reduce_shape shape, size_t rows_per_tile,
                      result_t<T, Op> *d_out, cudaStream_t stream)
    {
        return with_spans(shape, [&](auto spans) {
            const auto kernel = tiled_rows_kernel<LANES, T, Op, decltype(spans)>;
            int grid = 0;
            PROPAGATE(capped_resident_grid((const void *)kernel, BLOCK,
                                           ceil_div(spans.count, rows_per_tile), 1, &grid));
            kernel<<<grid, BLOCK, 0, stream>>>(d_in, n, spans, rows_per_tile, d_out);
            CUDA_TRY_LAUNCH();
            return 0;
        });
    }

    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out, void *,
                   cudaStream_t stream)
    {
        if (shape.count == 0)
            return 0;
        const size_t mean_length = mean_span_length(shape, n);
        const size_t rows = rows_per_tile(shape, mean_length);
        if (mean_length <= ONE_LANE_MAX_LENGTH)
            return launch<1>(d_in, n, shape, rows, d_out, stream);
        return launch<MAX_LANES>(d_in, n, shape, rows, d_out, stream);
    }
};

} // namespace

DEFINE_METHOD(tiled_rows, .family = FAMILY_ROWS, .source = "this suite: rows, step 23",
              .idea = "tiles of whole rows staged with aligned 16-byte loads, reduced from shared memory",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<tiled_rows_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements and the mean width */
              /* a lane's chain over the row then LANES' shuffles, LANES from 1:
               * any tree over n terms is at most n - 1 deep */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
