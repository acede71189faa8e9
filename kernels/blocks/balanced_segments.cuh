/* Segments reduced by equal tiles of the input, whatever their lengths: the
 * kernels of step 29 (balanced_segments).
 *
 * The input is cut into tiles of TILE_VECTORS 16-byte vectors (16 KiB), a
 * block a tile; thread t of a tile reads its TILE_LOADS consecutive vectors,
 * all in flight before anything else (the first thread also takes the
 * array's misaligned head, the last its tail). While they are on the way
 * the block reads the tile's first segment - found by a first kernel, in
 * which each segment names the tiles that begin inside it - and stages the
 * offsets that end in the tile in shared memory (the window). Each thread
 * walks its elements in order, closing a segment at each end it passes
 * (a whole vector at once where no end falls inside): a segment that starts
 * and ends inside one thread's run is written there; the fragment a thread
 * leaves open at its end (its carry) is combined with its neighbours' by a
 * segmented scan over the block's TILE_BLOCK carries (a thread's key is the
 * segment it leaves open). A segment that crosses a tile boundary has one
 * part per tile it touches - its first tile's tail, the others' heads -
 * which a last kernel adds (a lane a tile where a segment starts and
 * leaves; a segment that runs past the next tile takes the whole warp, up
 * to 128 tiles a round: segment_carries.cuh).
 *
 * Every tile costs about the same whatever the lengths: eight-element
 * segments, segments of thousands and empty ones leave no lane idle. The
 * bits of each segment depend on its elements, its place in the tiles and
 * nothing else: grid-independent.
 *
 * Workspace: a tile's first segment, and a head and a tail part a tile
 * (tile_parts, segment_carries.cuh, which also has the carries' scan). */
#ifndef BALANCED_SEGMENTS_CUH
#define BALANCED_SEGMENTS_CUH

#include <cstdint>

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "identity_fill.cuh"
#include "segment_carries.cuh"
#include "shape.h"
#include "summation_order.h"
#include "vector_loads.cuh"

constexpr int TILE_BLOCK = SEGMENT_BLOCK;
constexpr int TILE_LOADS = 4; /* consecutive vectors a thread */
constexpr size_t TILE_VECTORS = (size_t)TILE_BLOCK * TILE_LOADS;
/* Offsets staged a tile: up to this many rounds of one a thread (8 KiB);
 * ends past them are read from global memory (correct, slower: a tile of
 * over 1024 segments, mean under 4 floats). */
constexpr int WINDOW_ROUNDS = 4;
/* An offset past the last: no segment ends there. */
constexpr size_t NO_END = SIZE_MAX;

/* The tiles over in[0, n): tile b is elements [begin(b), begin(b + 1)). The
 * body's vectors (vector_loads.cuh) are cut every TILE_VECTORS; tile 0 also
 * takes the misaligned head, the last tile the tail. */
struct segment_tiles {
    size_t n, head, body_vectors, count;

    template <class T> static segment_tiles of(const T *in, size_t n)
    {
        const size_t head = misaligned_head(in, n);
        const size_t vectors = (n - head) / VECTOR_WIDTH<T>;
        const size_t count = ceil_div(vectors, TILE_VECTORS);
        return {n, head, vectors, count > 0 ? count : 1};
    }
    /* Tiles at most for n elements of `size` bytes, any alignment: the
     * workspace's size. */
    static size_t most(size_t n, size_t size) { return ceil_div(n * size, TILE_VECTORS * 16) + 1; }
    __device__ size_t body_end(size_t w) const { return head + body_vectors * w; }
    /* Where thread `thread` of the whole grid's tiles starts: the runs of the
     * tiles' threads cut [0, n) in order; threads past the body have empty
     * runs, but the very last one, which has the tail. */
    __device__ size_t run_begin(size_t thread, size_t w) const
    {
        if (thread == 0)
            return 0;
        if (thread >= count * TILE_BLOCK)
            return n;
        const size_t at = head + thread * TILE_LOADS * w;
        return at < body_end(w) ? at : body_end(w);
    }
    __device__ size_t begin(size_t tile, size_t w) const { return run_begin(tile * TILE_BLOCK, w); }
};

/* The first kernel: each segment that holds elements names itself the
 * first segment of every tile that begins inside it - the segments' one
 * pass over the offsets (coalesced), so a tile reads its first segment with
 * one load instead of searching for it. */
__global__ void find_tile_first_segments_kernel(segment_tiles tiles, size_t w,
                                                const segment_offset *__restrict__ offsets,
                                                size_t count, size_t *__restrict__ first_segments)
{
    const size_t elements = TILE_VECTORS * w;
    for (size_t s = blockIdx.x * (size_t)blockDim.x + threadIdx.x; s < count;
         s += (size_t)gridDim.x * blockDim.x) {
        const size_t begin = offsets[s], end = offsets[s + 1];
        /* the first tile that begins at or after `begin` (tile 0 begins at 0) */
        size_t tile = begin == 0                          ? 0
                      : begin <= tiles.head + elements ? 1
                                                       : (begin - tiles.head + elements - 1) / elements;
        for (; tile < tiles.count && tiles.begin(tile, w) < end; ++tile)
            first_segments[tile] = s;
    }
}

/* The block's shared memory: one tile's window of offsets and its scan. */
template <class A> struct balanced_segments_storage {
    segment_offset window[WINDOW_ROUNDS * TILE_BLOCK]; /* offsets[first + k] */
    carry_scan_storage<A> scan;
    size_t head_segment, tail_segment; /* the tile's cross-tile parts; count: none */
    A head_value, tail_value;
};

/* One thread's run [r0, r1) and the tile [tile_begin, tile_end) it lies in. */
struct tile_run {
    size_t thread, r0, r1, tile_begin, tile_end;

    __device__ __forceinline__ static tile_run at(const segment_tiles &tiles, size_t tile,
                                                  unsigned t, size_t w)
    {
        const size_t thread = tile * TILE_BLOCK + t;
        const size_t r0 = tiles.run_begin(thread, w), r1 = tiles.run_begin(thread + 1, w);
        const size_t tile_begin = tiles.begin(tile, w), tile_end = tiles.begin(tile + 1, w);
        return {thread, r0, r1, tile_begin, tile_end};
    }
};

/* offsets[s] for s >= first: from the window where staged, else from global
 * memory (a tile of more segments than the window holds). */
struct staged_offsets {
    const segment_offset *window;
    const segment_offset *__restrict__ offsets;
    size_t count, first, staged;

    __device__ __forceinline__ size_t operator()(size_t s) const
    {
        const size_t k = s - first;
        return k < staged ? (size_t)window[k] : s <= count ? (size_t)__ldg(&offsets[s]) : NO_END;
    }
};

/* Phase 1: this thread's vectors, in flight while the offsets are found. */
__device__ __forceinline__ void load_run(uint4 (&v)[TILE_LOADS], const uint4 *__restrict__ body,
                                         const segment_tiles &tiles, size_t thread)
{
#pragma unroll
    for (int k = 0; k < TILE_LOADS; ++k)
        if (thread * TILE_LOADS + k < tiles.body_vectors)
            v[k] = __ldg(&body[thread * TILE_LOADS + k]);
}

/* Phase 3: the thread's first segment, the last one starting at or before
 * r0 - a binary search of the window, then past it (rare). The grid's
 * thread 0 starts at segment 0, to close the empty ones at 0; a tile's
 * thread 0 at the tile's first. */
__device__ __forceinline__ size_t run_first_segment(const staged_offsets &offset_at,
                                                    size_t thread, unsigned t, size_t r0)
{
    size_t segment = offset_at.first;
    if (thread == 0) {
        segment = 0;
    } else if (t > 0) {
        size_t lo = 0, hi = offset_at.staged; /* offsets[first + lo] <= r0 */
        while (hi - lo > 1) {
            const size_t mid = (lo + hi) / 2;
            if (offset_at.window[mid] <= r0)
                lo = mid;
            else
                hi = mid;
        }
        segment = offset_at.first + lo;
        while (offset_at(segment + 1) <= r0)
            ++segment;
    }
    return segment;
}

/* What a thread's walk leaves: the segment it is in and its total so far
 * (its carry), and the part of a segment that began before its run
 * (head_seg, count: none), which waits for the carries before it. */
template <class A> struct walk_end {
    size_t segment;
    A acc;
    size_t head_seg;
    A head_total;
};

/* Phase 4: one thread's walk over its run - the array's head (the grid's
 * first thread), its vectors, the array's tail (the grid's last thread) -
 * closing a segment at each end it passes: written where it began in this
 * run. A whole vector is added as a tree where no end falls inside it, else
 * element by element, the next end as a 32-bit distance from its first
 * element. The steps are lambdas over the walk's locals, not a struct's
 * members: nvcc compiles the struct form to other code, which ran slower
 * on an H100 with the same results. */
template <class T, class Op>
__device__ __forceinline__ walk_end<acc_t<T>>
walk_run(const T *__restrict__ in, const uint4 (&v)[TILE_LOADS], const segment_tiles &tiles,
         size_t body_end, const tile_run &run, size_t segment, const staged_offsets &offset_at,
         acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    constexpr size_t W = VECTOR_WIDTH<T>;
    const Op op;
    size_t next_end = offset_at(segment + 1);
    bool head_open = offset_at(segment) < run.r0; /* began in an earlier run */
    size_t head_seg = offset_at.count;
    A acc = identity<Op, A>(), head_total = acc;
    const auto close = [&]() {
        if (head_open) {
            head_seg = segment;
            head_total = acc;
            head_open = false;
        } else {
            store_result(&out[segment], acc);
        }
        ++segment;
        next_end = offset_at(segment + 1);
        acc = identity<Op, A>();
    };
    const auto add = [&](size_t e, A x) {
        while (next_end <= e)
            close();
        acc = op(acc, x);
    };
    for (size_t e = run.r0; e < tiles.head && e < run.r1; ++e)
        add(e, widen(in[e]));
#pragma unroll
    for (int k = 0; k < TILE_LOADS; ++k) {
        const size_t vector = run.thread * TILE_LOADS + k;
        if (vector >= tiles.body_vectors)
            continue;
        const size_t e0 = tiles.head + vector * W;
        if (next_end >= e0 + W) {
            acc = op(acc, fold_vector<Op, T>(v[k]));
            continue;
        }
        const auto distance = [&]() { return (unsigned)(next_end - e0 < W ? next_end - e0 : W); };
        T x[W];
        memcpy(x, &v[k], sizeof v[k]);
        unsigned until = distance();
#pragma unroll
        for (unsigned j = 0; j < W; ++j) {
            while (until <= j) {
                close();
                until = distance();
            }
            acc = op(acc, widen(x[j]));
        }
    }
    for (size_t e = run.r0 > body_end ? run.r0 : body_end; e < run.r1; ++e)
        add(e, widen(in[e]));
    while (next_end <= run.r1)
        close();
    return {segment, acc, head_seg, head_total};
}

/* Phase 5: the carries' segmented scan over the block (segment_carries.cuh);
 * the tile's cross-tile parts start empty. */
template <class Op, class A>
__device__ __forceinline__ carry<A> scan_carries(balanced_segments_storage<A> &s, size_t segment,
                                                 A acc, size_t count)
{
    const carry<A> c = scan_block_carries<Op>(s.scan, segment < count ? segment : count, acc);
    if (threadIdx.x == 0) {
        s.head_segment = s.tail_segment = count;
        s.head_value = s.tail_value = identity<Op, A>();
    }
    __syncthreads();
    return c;
}

/* Phase 6a: a segment this thread closed that began before its run: the
 * carries before it are its earlier part in this tile. Written if it began
 * in this tile, else kept as the tile's head part. */
template <class Op, class A>
__device__ __forceinline__ void finish_head_segment(balanced_segments_storage<A> &s,
                                                    const walk_end<A> &walk,
                                                    const staged_offsets &offset_at,
                                                    size_t tile_begin, A *__restrict__ out)
{
    const unsigned t = threadIdx.x;
    if (walk.head_seg < offset_at.count) {
        A total = walk.head_total;
        if (t > 0 && s.scan.carry_key[t - 1] == walk.head_seg)
            total = Op{}(s.scan.carry_value[t - 1], walk.head_total);
        if (offset_at(walk.head_seg) >= tile_begin) {
            store_result(&out[walk.head_seg], total);
        } else { /* began in an earlier tile: this tile's part of it */
            s.head_segment = walk.head_seg;
            s.head_value = total;
        }
    }
}

/* Phase 6b: the segment the tile leaves open, if it has elements here: the
 * head part if it crosses the whole tile, else the tail part. */
template <class A>
__device__ __forceinline__ void keep_open_segment(balanced_segments_storage<A> &s, carry<A> c,
                                                  const staged_offsets &offset_at,
                                                  const tile_run &run)
{
    if (threadIdx.x == TILE_BLOCK - 1 && c.key < offset_at.count &&
        offset_at(c.key) < run.tile_end) {
        if (offset_at(c.key) < run.tile_begin) {
            s.head_segment = c.key;
            s.head_value = c.value;
        } else {
            s.tail_segment = c.key;
            s.tail_value = c.value;
        }
    }
}

/* Phase 7: the tile's parts of segments that cross tiles, for the last kernel. */
template <class A>
__device__ __forceinline__ void store_tile_parts(const balanced_segments_storage<A> &s,
                                                 tile_parts<A> parts, size_t tile)
{
    if (threadIdx.x == 0)
        parts.store(tile, s.head_segment, s.head_value, s.tail_segment, s.tail_value);
}

template <class T, class Op>
__global__ __launch_bounds__(TILE_BLOCK) void balanced_segments_kernel(
    const T *__restrict__ in, segment_tiles tiles, const segment_offset *__restrict__ offsets,
    size_t count, int first_rounds, acc_t<T> *__restrict__ out,
    const size_t *__restrict__ first_segments, tile_parts<acc_t<T>> parts)
{
    using A = acc_t<T>;
    constexpr size_t W = VECTOR_WIDTH<T>;
    const unsigned t = threadIdx.x;
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in + tiles.head);
    const size_t body_end = tiles.body_end(W);
    __shared__ balanced_segments_storage<A> s;

    /* The trip count is the block's: every thread meets every barrier. */
    for (size_t tile = blockIdx.x; tile < tiles.count; tile += gridDim.x) {
        const tile_run run = tile_run::at(tiles, tile, t, W);
        uint4 v[TILE_LOADS];
        load_run(v, body, tiles, run.thread);
        /* Phase 2: the offsets from the tile's first segment on that end in
         * the tile, staged in the window: first_rounds rounds at once (the
         * host's guess from the mean), then one a round while the last
         * staged offset is still inside the tile. Here, not in a function of
         * its own: moved out of the kernel, the loop compiles to other code
         * (stores' addresses recomputed in each branch), which ran slower
         * on an H100 with the same results. */
        const size_t first = tile == 0 ? 0 : first_segments[tile];
        size_t staged = 0;
        for (int round = 0; round < WINDOW_ROUNDS;) {
            const int rounds = round == 0 ? first_rounds : 1;
            segment_offset o[WINDOW_ROUNDS], last = 0;
#pragma unroll
            for (int r = 0; r < WINDOW_ROUNDS; ++r) {
                const size_t j = first + (size_t)(round + r) * TILE_BLOCK + t;
                if (r < rounds)
                    o[r] = j <= count ? __ldg(&offsets[j]) : NO_END;
            }
#pragma unroll
            for (int r = 0; r < WINDOW_ROUNDS; ++r)
                if (r < rounds) {
                    s.window[(round + r) * TILE_BLOCK + t] = o[r];
                    last = o[r];
                }
            round += rounds;
            staged = (size_t)round * TILE_BLOCK;
            if (!__syncthreads_or(t == TILE_BLOCK - 1 && last <= run.tile_end))
                break;
        }
        const staged_offsets offset_at{s.window, offsets, count, first, staged};
        const size_t first_segment = run_first_segment(offset_at, run.thread, t, run.r0);
        const walk_end<A> walk =
            walk_run<T, Op>(in, v, tiles, body_end, run, first_segment, offset_at, out);
        const carry<A> c = scan_carries<Op>(s, walk.segment, walk.acc, count);
        finish_head_segment<Op>(s, walk, offset_at, run.tile_begin, out);
        keep_open_segment(s, c, offset_at, run);
        __syncthreads();
        store_tile_parts(s, parts, tile);
        __syncthreads(); /* shared memory is the next tile's */
    }
}

template <class T, class Op> struct balanced_segments_launch {
    /* Each tile's first segment, then its parts of the segments that cross tiles. */
    static int workspace(reduce_shape, size_t n, size_t *bytes)
    {
        const size_t tiles = segment_tiles::most(n, sizeof(T));
        *bytes = tiles * sizeof(size_t) + tile_parts<acc_t<T>>::bytes(tiles);
        return 0;
    }

    /* A block a tile up to MAX_GRID_BLOCKS, or the grid a test forces. */
    static int run(const T *d_in, reduce_shape shape, size_t n, acc_t<T> *d_out, void *workspace,
                   cudaStream_t stream)
    {
        if (shape.count == 0)
            return 0;
        if (n == 0) /* every segment empty */
            return fill_identity<Op>(d_out, shape.count, stream);
        const segment_tiles tiles = segment_tiles::of(d_in, n);
        /* the offsets a tile is expected to stage, with a quarter to spare */
        const size_t per_tile = TILE_VECTORS * VECTOR_WIDTH<T> * shape.count / n;
        const size_t rounds = ceil_div(per_tile + per_tile / 4 + 2, TILE_BLOCK);
        const int first_rounds = rounds < WINDOW_ROUNDS ? (int)rounds : WINDOW_ROUNDS;
        const int grid = launch_grid(tiles.count < MAX_GRID_BLOCKS ? (int)tiles.count
                                                                   : MAX_GRID_BLOCKS);
        size_t *first_segments = (size_t *)workspace;
        const tile_parts<acc_t<T>> parts =
            tile_parts<acc_t<T>>::at(first_segments + tiles.count, tiles.count);
        const size_t blocks = ceil_div(shape.count, 256);
        find_tile_first_segments_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(
            tiles, VECTOR_WIDTH<T>, shape.offsets, shape.count, first_segments);
        CUDA_TRY_LAUNCH();
        balanced_segments_kernel<T, Op><<<grid, TILE_BLOCK, 0, stream>>>(
            d_in, tiles, shape.offsets, shape.count, first_rounds, d_out, first_segments, parts);
        CUDA_TRY_LAUNCH();
        return combine_tile_parts<acc_t<T>, Op>(parts, tiles.count, shape.count, d_out, stream);
    }
};

/* The order within one segment: a thread chains at most its run (4 vectors,
 * plus the array's head or tail: 46 halves), the scan adds 5 shuffle levels
 * and up to 7 earlier warps, the head's closing 1, the tiles' combine a
 * chain of rounds (fewer than L / 256), each 8 parts a lane and 5 levels of
 * lanes. ORDER_THREAD_CHAINS with 256 threads counts ceil(L / 256) + 32 +
 * 2 depth: depth 40 covers it. */
constexpr summation_order BALANCED_SEGMENTS_ORDER = {.kind = ORDER_THREAD_CHAINS,
                                                     .width = TILE_BLOCK, .depth = 40};

#endif
