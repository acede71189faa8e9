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
 * segmented scan over the block's 256 carries (a thread's key is the
 * segment it leaves open). A segment that crosses a tile boundary has one
 * part per tile it touches - its first tile's tail, the others' heads -
 * which a last kernel adds in tile order (a thread a tile where a segment
 * starts and leaves: segments tens of tiles long are not this kernel's).
 *
 * Every tile costs about the same whatever the lengths: eight-element
 * segments, segments of thousands and empty ones leave no lane idle. The
 * bits of each segment depend on its elements, its place in the tiles and
 * nothing else: grid-independent.
 *
 * Workspace: a tile's first segment, and a head and a tail part a tile
 * (tile_parts). */
#ifndef BALANCED_SEGMENTS_CUH
#define BALANCED_SEGMENTS_CUH

#include <cstdint>

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "identity_fill.cuh"
#include "shape.h"
#include "summation_order.h"
#include "vector_loads.cuh"

constexpr int TILE_BLOCK = 256;
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

/* The workspace: each tile's first segment, written by the first kernel,
 * and its parts of the segments that cross tiles, written by every tile
 * on every call (count: none), so nothing needs zeroing. */
template <class A> struct tile_parts {
    size_t *first_segments; /* the segment that holds the tile's first element */
    size_t *head_segments;  /* the segment that enters the tile, if it has elements here */
    size_t *tail_segments;  /* the segment that starts in the tile and leaves it */
    A *heads, *tails;       /* their totals over the tile */

    static size_t bytes(size_t tiles) { return tiles * (3 * sizeof(size_t) + 2 * sizeof(A)); }
    static tile_parts at(void *workspace, size_t tiles)
    {
        size_t *segments = (size_t *)workspace;
        A *totals = (A *)(segments + 3 * tiles);
        return {segments, segments + tiles, segments + 2 * tiles, totals, totals + tiles};
    }
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

template <class T, class Op>
__global__ __launch_bounds__(TILE_BLOCK) void balanced_segments_kernel(
    const T *__restrict__ in, segment_tiles tiles, const segment_offset *__restrict__ offsets,
    size_t count, int first_rounds, acc_t<T> *__restrict__ out, tile_parts<acc_t<T>> parts)
{
    using A = acc_t<T>;
    constexpr size_t W = VECTOR_WIDTH<T>;
    const Op op;
    const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in + tiles.head);
    const size_t body_end = tiles.body_end(W);

    __shared__ segment_offset window[WINDOW_ROUNDS * TILE_BLOCK];
    __shared__ size_t warp_first_key[TILE_BLOCK / 32], warp_last_key[TILE_BLOCK / 32];
    __shared__ A warp_last_value[TILE_BLOCK / 32];
    __shared__ size_t carry_key[TILE_BLOCK];
    __shared__ A carry_value[TILE_BLOCK];
    __shared__ size_t head_segment, tail_segment; /* the tile's cross-tile parts; count: none */
    __shared__ A head_value, tail_value;

    /* The trip count is the block's: every thread meets every barrier. */
    for (size_t tile = blockIdx.x; tile < tiles.count; tile += gridDim.x) {
        const size_t thread = tile * TILE_BLOCK + t;
        const size_t r0 = tiles.run_begin(thread, W), r1 = tiles.run_begin(thread + 1, W);
        const size_t tile_begin = tiles.begin(tile, W), tile_end = tiles.begin(tile + 1, W);

        /* 1. This thread's vectors, in flight while the offsets are found. */
        uint4 v[TILE_LOADS];
#pragma unroll
        for (int k = 0; k < TILE_LOADS; ++k)
            if (thread * TILE_LOADS + k < tiles.body_vectors)
                v[k] = __ldg(&body[thread * TILE_LOADS + k]);

        /* 2. The tile's first segment (the first kernel's), and the offsets
         * from it on that end in the tile: window[k] = offsets[first + k]. */
        const size_t first = tile == 0 ? 0 : parts.first_segments[tile];
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
                    window[(round + r) * TILE_BLOCK + t] = o[r];
                    last = o[r];
                }
            round += rounds;
            staged = (size_t)round * TILE_BLOCK;
            /* more while the last staged offset is still inside the tile */
            if (!__syncthreads_or(t == TILE_BLOCK - 1 && last <= tile_end))
                break;
        }
        const auto offset_at = [&](size_t s) -> size_t { /* offsets[s], s >= first */
            const size_t k = s - first;
            return k < staged ? (size_t)window[k] : s <= count ? (size_t)__ldg(&offsets[s]) : NO_END;
        };

        /* 3. This thread's first segment: the last one starting at or before
         * r0 (thread 0 of the grid: segment 0, to close the empty ones at 0). */
        size_t segment = first;
        if (thread == 0) {
            segment = 0;
        } else if (t > 0) {
            size_t lo = 0, hi = staged; /* offsets[first + lo] <= r0 */
            while (hi - lo > 1) {
                const size_t mid = (lo + hi) / 2;
                if (window[mid] <= r0)
                    lo = mid;
                else
                    hi = mid;
            }
            segment = first + lo;
            while (offset_at(segment + 1) <= r0) /* past the window: rare */
                ++segment;
        }

        /* 4. The walk. */
        size_t next_end = offset_at(segment + 1);
        bool head_open = offset_at(segment) < r0; /* began in an earlier run */
        size_t head_seg = count;
        A acc = identity<Op, A>(), head_total = acc;
        const auto close = [&]() {
            if (head_open) {
                head_seg = segment;
                head_total = acc;
                head_open = false;
            } else {
                out[segment] = acc;
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
        for (size_t e = r0; e < tiles.head && e < r1; ++e) /* the grid's first thread */
            add(e, widen(in[e]));
#pragma unroll
        for (int k = 0; k < TILE_LOADS; ++k) {
            const size_t vector = thread * TILE_LOADS + k;
            if (vector >= tiles.body_vectors)
                continue;
            const size_t e0 = tiles.head + vector * W;
            if (next_end >= e0 + W) { /* no end inside: the whole vector, as a tree */
                acc = op(acc, fold_vector<Op, T>(v[k]));
                continue;
            }
            /* an end inside: element by element, the next end as a 32-bit
             * distance from the vector's first element */
            const auto distance = [&]() {
                return (unsigned)(next_end - e0 < W ? next_end - e0 : W);
            };
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
        for (size_t e = r0 > body_end ? r0 : body_end; e < r1; ++e) /* the grid's last thread */
            add(e, widen(in[e]));
        while (next_end <= r1)
            close();

        /* 5. The carries' segmented scan: a thread ends with the total of the
         * run of neighbours up to it that leave the same segment open. */
        size_t key = segment < count ? segment : count;
        A value = acc;
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
            const size_t other_key = __shfl_up_sync(FULL_WARP_MASK, key, d);
            const A other = __shfl_up_sync(FULL_WARP_MASK, value, d);
            if (lane >= (unsigned)d && other_key == key)
                value = op(other, value);
        }
        if (lane == 0)
            warp_first_key[warp] = key;
        if (lane == 31) {
            warp_last_key[warp] = key;
            warp_last_value[warp] = value;
        }
        __syncthreads();
        if (key == warp_first_key[warp]) { /* the earlier warps ending in this segment */
            unsigned from = warp;
            while (from > 0 && warp_last_key[from - 1] == key) {
                --from;
                if (warp_first_key[from] != key)
                    break;
            }
            if (from < warp) {
                A before = warp_last_value[from];
                for (unsigned w = from + 1; w < warp; ++w)
                    before = op(before, warp_last_value[w]);
                value = op(before, value);
            }
        }
        carry_key[t] = key;
        carry_value[t] = value;
        if (t == 0) {
            head_segment = tail_segment = count;
            head_value = tail_value = identity<Op, A>();
        }
        __syncthreads();

        /* 6. A segment this thread closed that began before its run: the
         * carries before it are its earlier part in this tile. */
        if (head_seg < count) {
            A total = head_total;
            if (t > 0 && carry_key[t - 1] == head_seg)
                total = op(carry_value[t - 1], head_total);
            if (offset_at(head_seg) >= tile_begin) {
                out[head_seg] = total;
            } else { /* began in an earlier tile: this tile's part of it */
                head_segment = head_seg;
                head_value = total;
            }
        }
        /* The segment the tile leaves open, if it has elements here. */
        if (t == TILE_BLOCK - 1 && key < count && offset_at(key) < tile_end) {
            if (offset_at(key) < tile_begin) { /* crosses the whole tile */
                head_segment = key;
                head_value = value;
            } else {
                tail_segment = key;
                tail_value = value;
            }
        }
        __syncthreads();

        /* 7. The tile's parts of segments that cross tiles, for the last kernel. */
        if (t == 0) {
            parts.head_segments[tile] = head_segment;
            parts.tail_segments[tile] = tail_segment;
            parts.heads[tile] = head_value;
            parts.tails[tile] = tail_value;
        }
        __syncthreads(); /* shared memory is the next tile's */
    }
}

/* The last kernel: a thread a tile where a segment starts and leaves
 * adds that tile's tail and the heads of the tiles it enters, in order. */
template <class A, class Op>
__global__ void combine_tile_parts_kernel(tile_parts<A> parts, size_t tiles, size_t count,
                                          A *__restrict__ out)
{
    const size_t tile = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (tile >= tiles)
        return;
    const size_t segment = parts.tail_segments[tile];
    if (segment >= count)
        return;
    A total = parts.tails[tile];
    for (size_t next = tile + 1; next < tiles && parts.head_segments[next] == segment; ++next)
        total = Op{}(total, parts.heads[next]);
    out[segment] = total;
}

template <class T, class Op> struct balanced_segments_launch {
    static int workspace(reduce_shape, size_t n, size_t *bytes)
    {
        *bytes = tile_parts<acc_t<T>>::bytes(segment_tiles::most(n, sizeof(T)));
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
        const tile_parts<acc_t<T>> parts = tile_parts<acc_t<T>>::at(workspace, tiles.count);
        const size_t blocks = ceil_div(shape.count, 256);
        find_tile_first_segments_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(
            tiles, VECTOR_WIDTH<T>, shape.offsets, shape.count, parts.first_segments);
        CUDA_TRY_LAUNCH();
        balanced_segments_kernel<T, Op><<<grid, TILE_BLOCK, 0, stream>>>(
            d_in, tiles, shape.offsets, shape.count, first_rounds, d_out, parts);
        CUDA_TRY_LAUNCH();
        combine_tile_parts_kernel<acc_t<T>, Op>
            <<<(unsigned)ceil_div(tiles.count, 256), 256, 0, stream>>>(parts, tiles.count,
                                                                       shape.count, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

/* The order within one segment: a thread chains at most its run (4 vectors,
 * plus the array's head or tail: 46 halves), the scan adds 5 shuffle levels
 * and up to 7 earlier warps, the head's closing 1, the tiles' combine a
 * chain over every 256th part and block_reduce. ORDER_THREAD_CHAINS with
 * 256 threads counts ceil(L / 256) + 32 + 2 depth: depth 40 covers it. */
constexpr summation_order BALANCED_SEGMENTS_ORDER = {.kind = ORDER_THREAD_CHAINS,
                                                     .width = TILE_BLOCK, .depth = 40};

#endif
