/* Step 36 - merge-path segments: equal shares of elements and segment ends.
 *
 * Idea: count a segment's end as an item beside its elements, and give every
 * thread the same number of items (K: 21 floats' worth): the merge path of
 * Merrill and Garland (SC 2016) over the offsets and the element indices.
 * A block takes a tile of 256 K items; where the tile starts is found by a
 * search once a block, and each next tile starts where the last one
 * stopped, as a block runs a contiguous run of tiles. A tile stages its
 * elements in shared memory with asynchronous 16-byte copies (no registers
 * held while they fly) and, at the same time, the ends that fall in it
 * (local 32-bit offsets: twice the ends a tile holds on average read at
 * once, so that a tile denser than the mean rarely waits for a second trip
 * to memory, and counted with one barrier); each thread finds its first
 * item by a binary search of those ends while the copies fly, walks its K
 * items - an element joins the running total, an end closes the segment -
 * and leaves the segment it ends in open (its carry). A segmented scan of the carries
 * (segment_carries.cuh) joins segments that cross threads; a thread's first
 * closed segment takes the carry of the thread before it. Results go to
 * shared memory over their segments' ends and leave the block in one
 * coalesced sweep; a segment that crosses tiles is joined by a last kernel,
 * placed while the last tiles still run (segment_carries.cuh).
 *
 * Fixes from balanced segments (29): there a thread walks a fixed number of
 * elements, so a run of empty segments is work nobody was given, and a tile
 * is a chain - its first segment from a first kernel's list, then the
 * window of offsets, then the walk - that a block runs one tile at a time
 * with 60 registers. Here the first kernel is gone (a search a block, not a
 * pass over every offset), the elements and the ends are read at once, the
 * walk runs on shared memory in 32-bit indices and the elements need no
 * registers while in flight. Every tile holds the same number of items
 * whatever the lengths, and its results are written as whole sectors, not
 * a store a segment.
 *
 * Cost: had the memory set the pace, the input, the offsets and the results
 * once each (a tile also reads up to its item count of elements, some of
 * them the next tile's: L2 hits). It does not: each tile is a chain - its
 * ends read, its search, the wait for its copies, the walk, the scan and
 * six barriers - and the tiles an SM has in flight at once, four, do not
 * keep the memory busy, at any distribution of lengths (the sweep in
 * bench/results/h100_segment_sweep_28a1351/; the ncu readings and what each
 * change bought in bench/NOTES.md, sessions 12-15). Bigger tiles in fewer
 * blocks an SM, the next tile's copies in a second buffer during this one's
 * walk (three blocks an SM) and an L2 prefetch during the start search all
 * measured slower; half-size blocks were faster only where tiles hold few
 * ends. argmax and argmin take fewer items a thread (their results are 16
 * bytes).
 *   bench_compare --segments powerlaw:100 -m merge_path_segments
 *   bench/gpu_check.sh segment_sweep (every distribution, every segment method)
 */
#include <cuda_pipeline.h>

#include <cstdint>

#include "grid_size.cuh"
#include "identity_fill.cuh"
#include "method.cuh"
#include "segment_carries.cuh"
#include "shape.h"
#include "summation_order.h"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = SEGMENT_BLOCK;
/* Shared memory a thread: its items' elements and a slot each for their
 * ends - as many items as 48 KiB of static shared memory a block holds, as
 * a tile's fixed costs (its search, loads, scan and barriers) are shared by
 * its items. */
constexpr int TILE_BYTES_PER_THREAD = 176;
/* Offsets read in one trip to memory, in rounds of one a thread: up to
 * ROUNDS, or DENSE_ROUNDS in a second build of the kernel for inputs whose
 * first trip would need more (float sums: segments of under about four
 * elements on average). A round holds a register pair a thread while the
 * loads fly, so the sparser inputs keep the smaller build, which measured
 * faster for them. Never more rounds than a tile holds ends. */
constexpr int ROUNDS = 8;
constexpr int DENSE_ROUNDS = 12;
/* A tile's first trip reads this many times the ends a tile holds on
 * average, in whole rounds, as a tile with more waits for a second trip. */
constexpr unsigned READ_MARGIN = 2;
/* Blocks an SM: what the shared memory allows (45 KiB a block of floats),
 * the registers capped to match. */
constexpr int MIN_BLOCKS_PER_SM = 4;
/* The slot past a tile's last end: no end comes before it. */
constexpr uint32_t NO_MORE_ENDS = UINT32_MAX;

/* A segment's end while the tile is read, its result once the walk closed it. */
template <class R> union end_slot {
    uint32_t end; /* offsets[segment + 1], counted from the tile's first element */
    R result;
};

/* What stage_ends publishes for the whole block, and its counting space. */
struct tile_ends {
    size_t first_begin;     /* offsets[first segment]: where the tile's first segment began */
    unsigned count;         /* segment ends in the tile */
    bool open_has_elements; /* the segment open at the tile's end has elements in it */
    /* each warp's last end found inside, plus one, by a trip's parity */
    unsigned found_by_warp[2][BLOCK / 32];
};

template <class T, class Op> struct merge_tile {
    using R = result_t<T, Op>;
    static constexpr int W = VECTOR_WIDTH<T>;
    /* Items a thread: what the budget holds, made odd - the lanes of a warp
     * read elements K apart, which an even K puts on the same banks of
     * shared memory (16 floats a thread: 16 lanes on each of 2 banks). */
    static constexpr int K = (TILE_BYTES_PER_THREAD / (sizeof(T) + sizeof(end_slot<R>)) - 1) | 1;
    static constexpr int ITEMS = K * BLOCK;

    struct storage {
        alignas(16) unsigned char element_bytes[(ITEMS + 2 * W) * sizeof(T)];
        end_slot<R> slots[ITEMS + 1];
        carry_scan_storage<R, uint32_t> scan; /* keys: the segment's index in the tile */
        tile_ends ends;
    };
};

/* Where diagonal d of the merge path crosses: the number of segment ends
 * among the first d items, #{k < count : k + offsets[k + 1] < d} (an end
 * comes after its segment's elements). A search of the whole block: each
 * round 256 probes, counted with one barrier, narrow the range 256 times. */
__device__ size_t find_diagonal(const segment_offset *__restrict__ offsets, size_t count, size_t n,
                                size_t d)
{
    size_t lo = d > n ? d - n : 0, hi = d < count ? d : count; /* the answer is in [lo, hi] */
    while (lo < hi) {
        const size_t step = (hi - lo + BLOCK - 1) / BLOCK, k = lo + threadIdx.x * step;
        const int before = __syncthreads_count(k < hi && k + offsets[k + 1] < d);
        if (before == 0) {
            hi = lo;
        } else {
            const size_t next_lo = lo + (before - 1) * step + 1;
            hi = lo + before * step < hi ? lo + before * step : hi;
            lo = next_lo;
        }
    }
    return lo;
}

/* The input as 16-byte vectors (vector_loads.cuh): its misaligned head,
 * body and tail, worked out once a block. */
template <class T> struct tile_input {
    static constexpr unsigned W = VECTOR_WIDTH<T>;
    const T *in;
    const uint4 *body;
    size_t n, head, vectors, body_end;

    __device__ static tile_input of(const T *in, size_t n)
    {
        const size_t head = misaligned_head(in, n), vectors = (n - head) / W;
        return {in, reinterpret_cast<const uint4 *>(in + head), n, head, vectors, head + vectors * W};
    }

    /* The elements [element, element + items) clipped to n, into shared
     * memory at index e - element + lead (lead puts the vectors on 16-byte
     * slots): the vectors by asynchronous copies, the head and the tail
     * (fewer than a vector each) by plain loads. Returns lead; the copies
     * land after __pipeline_wait_prior. Some may be the next tile's
     * elements: a tile has at most `items` elements, often fewer. ITEMS:
     * the most items a tile has, which bounds the copies a thread makes. */
    template <int ITEMS>
    __device__ __forceinline__ unsigned stage(T *staged, size_t element, unsigned items) const
    {
        constexpr int TRIPS = (ITEMS / W + 2 + BLOCK - 1) / BLOCK;
        const unsigned t = threadIdx.x;
        const size_t end = element + items < n ? element + items : n;
        const unsigned lead = (unsigned)((element + W - head) % W);
        const size_t first = element <= head ? 0 : (element - head) / W;
        const size_t last_needed = end > head ? (end - head + W - 1) / W : 0;
        /* at least first; at most ITEMS / W + 2 past it */
        const unsigned copies = (unsigned)((last_needed < vectors ? last_needed : vectors) - first);
        const uint4 *src = body + first;
        T *dst = staged + (head + first * W - element + lead);
#pragma unroll
        for (int trip = 0; trip < TRIPS; ++trip) {
            const unsigned v = trip * BLOCK + t;
            if (v < copies)
                __pipeline_memcpy_async(dst + v * W, src + v, 16);
        }
        __pipeline_commit();
        if (t < W) {
            const size_t h = element + t, tail = (element > body_end ? element : body_end) + t;
            if (h < head && h < end)
                staged[h - element + lead] = in[h];
            if (tail < end)
                staged[tail - element + lead] = in[tail];
        }
        return lead;
    }
};

/* The ends of segments `segment` on that fall in the tile, into the slots
 * (local offsets), in trips of up to TRIP_ROUNDS rounds of one a thread: the
 * first trip as many as the host expects (`reads`), then more while every
 * end read was still inside. The ends inside are a prefix of those read (an
 * end's item index, k + its offset, grows with k), so a trip counts them by
 * the last one inside: one barrier a trip, whatever its rounds. Returns the
 * count, known to every thread; publishes it, the sentinel after the last
 * end, the first segment's beginning and whether the segment left open has
 * elements here, which the caller's next barrier makes visible. */
template <int TRIP_ROUNDS, class R>
__device__ __forceinline__ unsigned stage_ends(end_slot<R> *slots, tile_ends &published,
                                               const segment_offset *__restrict__ offsets,
                                               size_t count, size_t segment, size_t element,
                                               unsigned items, unsigned reads)
{
    constexpr segment_offset NOT_READ = (segment_offset)-1;
    const unsigned t = threadIdx.x;
    const size_t begin = t == 0 ? offsets[segment] : 0;
    unsigned ends = 0;
    for (unsigned trip = 0;; ++trip) {
        /* offsets[segment + 1 + ends + i] for i < reads, but none past offsets[count] */
        const segment_offset *next = offsets + segment + 1 + ends;
        const size_t left = count - segment - ends;
        const unsigned valid = reads < left ? reads : (unsigned)left;
        const unsigned rounds = (reads + BLOCK - 1) / BLOCK;
        segment_offset o[TRIP_ROUNDS];
#pragma unroll
        for (unsigned r = 0; r < TRIP_ROUNDS; ++r)
            if (r < rounds)
                o[r] = r * BLOCK + t < valid ? next[r * BLOCK + t] : NOT_READ;
        unsigned found_end = ends; /* past the last end inside */
#pragma unroll
        for (unsigned r = 0; r < TRIP_ROUNDS; ++r)
            if (r < rounds) {
                /* end k is in the tile if k + its local offset < items */
                const unsigned k = ends + r * BLOCK + t;
                if (o[r] != NOT_READ && k < items && o[r] - element < items - k) {
                    slots[k].end = (uint32_t)(o[r] - element);
                    found_end = k + 1;
                }
            }
        unsigned *by_warp = published.found_by_warp[trip % 2];
        found_end = __reduce_max_sync(FULL_WARP_MASK, found_end);
        if (t % 32 == 0)
            by_warp[t / 32] = found_end;
        __syncthreads();
#pragma unroll
        for (int w = 0; w < BLOCK / 32; ++w)
            found_end = by_warp[w] > found_end ? by_warp[w] : found_end;
        const unsigned found = found_end - ends;
        ends = found_end;
        if (found < reads || ends >= items || ends >= count - segment)
            break;
        reads = 2 * reads < TRIP_ROUNDS * BLOCK ? 2 * reads : TRIP_ROUNDS * BLOCK;
    }
    if (t == 0) {
        const unsigned elements = items - ends;
        published.count = ends;
        published.first_begin = begin;
        published.open_has_elements = ends == 0 ? elements > 0 : slots[ends - 1].end < elements;
        slots[ends].end = NO_MORE_ENDS;
    }
    return ends;
}

/* The first item of a thread starting at diagonal d of the tile: how many
 * of the tile's `ends` come before it (k + end_k < d). */
template <class R>
__device__ __forceinline__ unsigned ends_before(const end_slot<R> *slots, unsigned ends,
                                                unsigned elements, unsigned d)
{
    unsigned lo = d > elements ? d - elements : 0, hi = d < ends ? d : ends;
    while (lo < hi) {
        const unsigned mid = (lo + hi) / 2;
        if (mid + slots[mid].end < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One thread's share of a tile: where it starts and the items it has. */
struct thread_items {
    unsigned first_end, first_element, count;
    size_t first_begin; /* where its first segment began (argmax, argmin: indices) */
};

/* What a thread's walk leaves: its first closed segment's part (if `closed`),
 * the segment it ends in and that segment's total so far. */
template <class R> struct walk_result {
    R first, acc;
    unsigned open_end;
    bool closed;
};

/* The walk over a thread's items: an element joins the total, an end writes
 * the total over its slot (the thread's first end waits for the carries
 * before it) and starts the next segment. Without an end among the items,
 * the elements alone, in one chain. */
template <class T, class Op>
__device__ __forceinline__ walk_result<result_t<T, Op>>
walk_items(const T *staged, end_slot<result_t<T, Op>> *slots, const thread_items &items,
           size_t element)
{
    using R = result_t<T, Op>;
    constexpr int K = merge_tile<T, Op>::K;
    walk_result<R> w{identity<Op, R>(), identity<Op, R>(), items.first_end, false};
    unsigned e = items.first_element, next_end = slots[w.open_end].end;
    size_t begin = items.first_begin;
    if (next_end >= e + items.count) {
#pragma unroll
        for (int i = 0; i < K; ++i)
            if (i < (int)items.count)
                w.acc = combine_later<Op>(w.acc, lift<Op>(staged[e + i], element + e + i - begin));
        return w;
    }
#pragma unroll
    for (int i = 0; i < K; ++i) {
        if (i >= (int)items.count)
            break;
        if (next_end <= e) {
            if (w.closed)
                slots[w.open_end].result = w.acc;
            else
                w.first = w.acc;
            w.closed = true;
            w.acc = identity<Op, R>();
            next_end = slots[++w.open_end].end;
            begin = element + e;
        } else {
            w.acc = combine_later<Op>(w.acc, lift<Op>(staged[e], element + e - begin));
            ++e;
        }
    }
    return w;
}

/* After the walk: each thread's first closed segment gets the carry of the
 * thread before it, then the tile's results leave in one coalesced sweep -
 * but the segment that began in an earlier tile, kept as the tile's head
 * part - and the last thread stores the tile's cross-tile parts. */
template <class T, class Op>
__device__ __forceinline__ void finish_tile(typename merge_tile<T, Op>::storage &s,
                                            const walk_result<result_t<T, Op>> &w,
                                            const thread_items &items, size_t segment,
                                            size_t element, size_t count, size_t tile,
                                            result_t<T, Op> *__restrict__ out,
                                            tile_parts<result_t<T, Op>> parts)
{
    using R = result_t<T, Op>;
    const unsigned t = threadIdx.x;
    const carry<R, uint32_t> c = scan_block_carries<Op>(s.scan, w.open_end, w.acc);
    __syncthreads();
    if (w.closed) {
        R total = w.first;
        if (t > 0 && s.scan.carry_key[t - 1] == items.first_end)
            total = Op{}(s.scan.carry_value[t - 1], w.first);
        s.slots[items.first_end].result = total;
    }
    __syncthreads();
    const unsigned ends = s.ends.count;
    const bool began_before = s.ends.first_begin < element;
    for (unsigned k = t; k < ends; k += BLOCK)
        if (k > 0 || !began_before)
            store_result(&out[segment + k], s.slots[k].result);
    if (t == BLOCK - 1) {
        size_t head_segment = count, tail_segment = count;
        R head = identity<Op, R>(), tail = identity<Op, R>();
        if (ends > 0 && began_before) {
            head_segment = segment;
            head = s.slots[0].result;
        }
        if (segment + ends < count && s.ends.open_has_elements) {
            if (ends == 0 && began_before) {
                head_segment = segment;
                head = c.value;
            } else {
                tail_segment = segment + ends;
                tail = c.value;
            }
        }
        parts.store(tile, head_segment, head, tail_segment, tail);
    }
}

/* A thread's share of a tile whose ends are staged: its binary search, run
 * while the tile's elements are still on their way. Where its first segment
 * began is left for after the barrier when that is the tile's first one
 * (first_begin, published by stage_ends' thread 0). */
template <int K, class R>
__device__ __forceinline__ thread_items find_thread_items(const end_slot<R> *slots, unsigned items,
                                                          unsigned ends, size_t element)
{
    const unsigned elements = items - ends, d = threadIdx.x * K;
    thread_items mine{ends, elements, 0, 0};
    if (d < items) {
        mine.first_end = ends_before(slots, ends, elements, d);
        mine.first_element = d - mine.first_end;
        mine.count = items - d < (unsigned)K ? items - d : K;
        if (mine.first_end > 0)
            mine.first_begin = element + slots[mine.first_end - 1].end;
    }
    return mine;
}

/* A block a contiguous run of tiles, an even share of them: a search for
 * the first, then each tile starts where the last one stopped. */
template <class T, class Op, int TRIP_ROUNDS>
__global__ __launch_bounds__(BLOCK, MIN_BLOCKS_PER_SM) void merge_path_segments_kernel(
    const T *__restrict__ in, size_t n, const segment_offset *__restrict__ offsets, size_t count,
    size_t tiles, unsigned reads, result_t<T, Op> *__restrict__ out,
    tile_parts<result_t<T, Op>> parts)
{
    constexpr size_t ITEMS = merge_tile<T, Op>::ITEMS;
    constexpr int K = merge_tile<T, Op>::K;
    __shared__ typename merge_tile<T, Op>::storage s;
    size_t first_tile, last_tile;
    even_share(tiles, gridDim.x, blockIdx.x, &first_tile, &last_tile);
    if (first_tile == last_tile)
        return;
    T *staged = reinterpret_cast<T *>(s.element_bytes);
    const tile_input<T> input = tile_input<T>::of(in, n);
    size_t segment = find_diagonal(offsets, count, n, first_tile * ITEMS);
    size_t element = first_tile * ITEMS - segment;
    for (size_t tile = first_tile; tile < last_tile; ++tile) {
        if (tile + 1 == last_tile)
            allow_tile_parts_combine();
        const size_t left = n + count - tile * ITEMS;
        const unsigned items = (unsigned)(left < ITEMS ? left : ITEMS);
        const unsigned lead = input.template stage<(int)ITEMS>(staged, element, items);
        const unsigned ends = stage_ends<TRIP_ROUNDS>(s.slots, s.ends, offsets, count, segment,
                                                      element, items, reads);
        thread_items mine = find_thread_items<K>(s.slots, items, ends, element);
        __pipeline_wait_prior(0);
        __syncthreads(); /* the elements have landed; every search is done before the walks
                            write results over ends */
        if (mine.first_end == 0)
            mine.first_begin = s.ends.first_begin;
        const walk_result<result_t<T, Op>> w = walk_items<T, Op>(staged + lead, s.slots, mine, element);
        finish_tile<T, Op>(s, w, mine, segment, element, count, tile, out, parts);
        __syncthreads(); /* the slots and the elements are the next tile's */
        segment += ends;
        element += items - ends;
    }
}

template <class T, class Op> struct merge_path_segments_launch {
    using R = result_t<T, Op>;
    static constexpr size_t ITEMS = merge_tile<T, Op>::ITEMS;
    static constexpr int K = merge_tile<T, Op>::K;
    /* The rounds of a trip of the two builds: never more than a tile holds. */
    static constexpr int FEW = K < ROUNDS ? K : ROUNDS, MANY = K < DENSE_ROUNDS ? K : DENSE_ROUNDS;

    static int workspace(reduce_shape shape, size_t n, size_t *bytes)
    {
        *bytes = tile_parts<R>::bytes(ceil_div(n + shape.count, ITEMS));
        return 0;
    }

    /* One resident wave, each block a contiguous run of tiles, or the grid a
     * test forces. */
    static int run(const T *d_in, reduce_shape shape, size_t n, R *d_out, void *workspace,
                   cudaStream_t stream)
    {
        if (shape.count == 0)
            return 0;
        if (n == 0) /* every segment empty */
            return fill_identity<Op>(d_out, shape.count, stream);
        const size_t tiles = ceil_div(n + shape.count, ITEMS);
        const size_t expected = ITEMS * shape.count / (n + shape.count);
        const size_t reads = ceil_div(READ_MARGIN * expected + 32, BLOCK) * BLOCK;
        const tile_parts<R> parts = tile_parts<R>::at(workspace, tiles);
        if constexpr (MANY > FEW) /* a tile may hold more ends than FEW rounds read */
            if (reads > FEW * BLOCK)
                return launch_tiles<MANY>(d_in, shape, n, tiles, reads, d_out, parts, stream);
        return launch_tiles<FEW>(d_in, shape, n, tiles, reads, d_out, parts, stream);
    }

    /* The tiles' kernel of TRIP_ROUNDS rounds a trip, then the last kernel. */
    template <int TRIP_ROUNDS>
    static int launch_tiles(const T *d_in, reduce_shape shape, size_t n, size_t tiles, size_t reads,
                            R *d_out, tile_parts<R> parts, cudaStream_t stream)
    {
        const auto kernel = merge_path_segments_kernel<T, Op, TRIP_ROUNDS>;
        int grid = 0;
        PROPAGATE(resident_grid_size((const void *)kernel, BLOCK, 0, &grid));
        grid = launch_grid(tiles < (size_t)grid ? (int)tiles : grid);
        const size_t most = TRIP_ROUNDS * BLOCK;
        kernel<<<grid, BLOCK, 0, stream>>>(d_in, n, shape.offsets, shape.count, tiles,
                                           (unsigned)(reads < most ? reads : most),
                                           d_out, parts);
        CUDA_TRY_LAUNCH();
        return combine_tile_parts<R, Op>(parts, tiles, shape.count, d_out, stream);
    }
};

} // namespace

/* The order within one segment: a thread chains at most K items (21
 * halves), the scan adds 5 shuffle levels, up to 7 earlier warps and the
 * carry before a thread's first end, the tiles' combine a chain of rounds
 * (fewer than the length / 256), each 8 parts a lane and 5 levels of lanes:
 * within ORDER_THREAD_CHAINS' ceil(L / 256) + 32 + 2 depth. */
DEFINE_METHOD(merge_path_segments, .family = FAMILY_ROWS, .source = "this suite: rows, step 36",
              .idea = "equal shares of elements and segment ends a thread (the merge path)",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<merge_path_segments_launch, ALL_OPS>,
              .workspace = workspace_any_pair<merge_path_segments_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* tiles fixed by n and the count */
              .order = {.kind = ORDER_THREAD_CHAINS, .width = BLOCK, .depth = 40},
              .shapes = SHAPE_BIT(SHAPE_SEGMENTS));
