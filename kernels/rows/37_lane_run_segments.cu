/* Step 37 - lane runs: a fixed run of elements a lane, and a bit for each
 * segment that ends in it.
 *
 * Idea: cut the input, not the segments, into tiles of 32 runs (a run: 32
 * elements, 16 of 8-byte types) and give each warp a contiguous run of
 * tiles. A warp first loads the offsets of the segments that may end in
 * its tile, from where the last tile stopped, then issues the tile's copies
 * into shared memory - asynchronous 16-byte copies, coalesced, whatever the
 * lengths; while they fly it compares the ends 32 at a time (reading more
 * if the tile holds more), sets a bit in the word of the run that holds
 * each segment's last element, and keeps a word of which of the 32 are
 * empty segments. Then each lane takes its run into registers
 * and walks it: an element joins the running total, a set bit stores the
 * total in shared memory (the segment's slot: the closing ends before it
 * in the tile) and starts a new one. One segmented scan over the lanes
 * adds to each lane's first closed segment the runs before it that the
 * segment began in; the tile's results then leave in segment order, 32 at
 * a time, coalesced, a segment's slot found from the empty words, the
 * empty segments' identities with them.
 * A segment that crosses tiles leaves each tile's part, joined by the last
 * kernel of segment_carries.cuh.
 *
 * Fixes from merge-path segments (36): there a tile is a block's chain of
 * six barriers, and four tiles an SM do not keep the memory busy. Here a
 * tile is a warp's, with no barrier but the warp's own, the copies never
 * wait for the segments, and a segment end costs a bit, not a step of a
 * walk: an element is an add and a bit test whatever the lengths (an add
 * alone where no run of the warp holds an end).
 *
 * Cost: the input, the offsets and the results once each, plus a tile's
 * cross-tile parts (a few words) and the last kernel: about a tenth of the
 * step's time at means of 100 and 1000 floats on an H200, half of that its
 * wait for this kernel's grid to end
 * (bench/results/experiments/h200_combine_cost_a82f675.log,
 * h200_combine_launch_ed0c5f7.log). The bytes set the
 * pace only where tiles hold few ends: an end costs its offset's compare,
 * its bit, a store in the walk and one in the sweep, so a
 * tile with an end every few elements issues more than twice the
 * instructions of one with none, and 24 warps an SM (80 registers, for an
 * arg operator too: its totals take 33 KiB of shared memory a block) do not
 * hide their latency. At a mean of 2 floats a segment step 36 is as
 * fast, at 1 faster. The distribution sweep is
 * bench/results/h100_segment_sweep_11d92a3/;
 * the probes that shaped the step (copies straight into registers, a second
 * buffer, 64 registers, 32-bit end positions, even shares of tiles, the
 * slots' notes, the offsets' margin, a wider first search, the next tile's
 * copies issued before the walk, where empty segments are written, the
 * empty words, the offsets read without bound checks, tiles of two layers
 * of runs, the copies' addresses, the offsets read before the copies, the
 * first search's probes, the results' batches without a branch each way,
 * the marking's OR in every lane, other counts of warps an SM, the first
 * tile's copies during the search, shares of tiles weighed by their ends)
 * are in bench/NOTES.md, sessions 22 to 26, 34, 35, 68 to 70, 73, 74 and
 * 76.
 *   bench_compare --segments powerlaw:8 -m lane_run_segments
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

constexpr int BLOCK = 128;
constexpr int WARPS = BLOCK / 32;
/* 24 warps an SM: 80 registers a thread. 20, 22, 25 and 28 were slower
 * where tiles hold many ends
 * (bench/results/experiments/h200_lane_run_fewer_warps_0e650e8.log,
 * h200_lane_run_early_wide_0e650e8.log,
 * h200_lane_run_seven_blocks_c7fced2.log). */
constexpr int MIN_BLOCKS_PER_SM = 6;
/* Offsets read in one trip, in batches of 32: up to BATCHES, the first
 * trip READ_MARGIN times the ends a tile holds on average. A skewed array's
 * dense tiles hold several times the mean (lane_run_tiles.py in
 * bench/results/experiments counts them), and a second trip is a second
 * wait for memory. */
constexpr int BATCHES = 8;
constexpr unsigned READ_MARGIN = 4;
/* An end past every tile: the offsets after the last segment. */
constexpr segment_offset NO_END = UINT64_MAX;
/* Words of empty-segment bits a tile keeps, one for each 32 of its ends;
 * a tile of more ends reads the later ones' emptiness again from the
 * offsets (only runs of empty segments make that many). */
constexpr int EMPTY_WORDS = 64;

template <class T> struct lane_run {
    static constexpr int W = VECTOR_WIDTH<T>;
    /* A lane's run: at most eight 16-byte loads and 32 elements (a bit each). */
    static constexpr int LOADS = 32 / W < 8 ? 32 / W : 8;
    static constexpr int RUN = LOADS * W;
    static constexpr int ELEMENTS = 32 * RUN; /* a tile */
};

/* A warp's shared memory: which of the tile's ends are empty segments (a
 * bit an end, 32 a word), and either the tile's elements as copied
 * (coalesced, a row of 32 vectors at a time) with a word of end bits a run
 * or, once each lane holds its run and its bits, the tile's totals by slot
 * (the tile's closing ends in order). An arg operator's totals (8 bytes and
 * more) cover the copies and the bits. The copies start on a 128-byte
 * boundary in every warp's storage, whatever the members' sizes: a row of
 * 32 vectors across two rows of banks takes more shared-memory wavefronts
 * and L2 sectors a copy (a struct 16 bytes longer, without this, did:
 * bench/results/experiments/h200_lane_run_warp_join_stalls_c69d4ca.log). */
template <class T, class Op> struct warp_storage {
    uint32_t empty_words[EMPTY_WORDS];
    union {
        struct {
            alignas(128) uint4 vectors[32 * lane_run<T>::LOADS];
            uint32_t end_bits[32];
        } marked;
        result_t<T, Op, int> totals[lane_run<T>::ELEMENTS];
    };
};

/* Where the tile's vector p sits in `vectors`: its 16 bytes' place in a
 * 128-byte row of banks moved by the row's index, so that a row of lanes
 * writing neighbouring vectors and a lane reading its run's neighbouring
 * vectors alike reach eight different places a quarter warp. */
__device__ __forceinline__ int swizzled(int p) { return p ^ ((p >> 3) & 7); }

/* Where a tile sits: tile positions count from a 16-byte boundary, so
 * position p is element p - lead (lead: the elements the input's pointer
 * sits past that boundary, 0 for cudaMalloc'd memory). */
struct tile_place {
    size_t tile, segment; /* the tile's index; the first segment that ends in it (or later) */
    long long first;      /* the element at position 0 (negative in tile 0 when lead > 0) */
    segment_offset begin; /* offsets[segment]: where that segment began */
};

/* The first segment that does not end at or before `element` (of n): the
 * count of ends offsets[k + 1] <= element. A warp's search: a first round of
 * 32 probes around where the mean length puts the element - lanes 8-23
 * `spacing` apart, lanes 0-7 and 24-31 at 4, 16, ... 4^8 times 8 spacings
 * below and above - then rounds of 32 probes that narrow the range 32 times
 * between the two probes that bracket the element. Every warp searches at
 * the kernel's start with nothing else in flight, so rounds are what it
 * costs: a near guess leaves a range of a spacing, a missed one a range
 * that grows with the miss, not the whole array. Against one even window
 * of probes around the guess, a window a quarter as wide was faster on
 * even lengths and slower on skewed ones
 * (bench/results/experiments/h200_lane_run_guess_bbb88af.log); the spread
 * probes were faster at each of the seven distributions timed
 * (h200_lane_run_lean_batches_8d4f5e0.log). */
__device__ size_t first_segment_after(const segment_offset *__restrict__ offsets, size_t count,
                                      long long element, size_t n)
{
    const unsigned lane = threadIdx.x % 32;
    const long long guess = (long long)((double)element * (double)count / (double)n);
    const long long spacing = (long long)sqrtf((float)count) / 8 + 1;
    const long long away = lane < 8    ? -((8 * spacing) << (2 * (8 - lane)))
                           : lane < 24 ? ((long long)lane - 16) * spacing
                                       : (8 * spacing) << (2 * (lane - 23));
    const size_t probe = guess + away > 0 ? (size_t)(guess + away) : 0;
    const bool probe_before = probe < count && offsets[probe + 1] <= (segment_offset)element;
    const unsigned probes_before = __popc(__ballot_sync(FULL_WARP_MASK, probe_before));
    const size_t next_probe = __shfl_sync(FULL_WARP_MASK, probe, probes_before % 32);
    const size_t last_before = __shfl_sync(FULL_WARP_MASK, probe, (probes_before + 31) % 32);
    size_t lo = 0, hi = __shfl_sync(FULL_WARP_MASK, probe, 0);
    if (probes_before > 0) {
        lo = last_before + 1;
        hi = probes_before < 32 && next_probe < count ? next_probe : count;
    }
    while (lo < hi) {
        const size_t step = (hi - lo + 31) / 32, k = lo + lane * step;
        const bool ends_before = k < hi && offsets[k + 1] <= (segment_offset)element;
        const unsigned before = __popc(__ballot_sync(FULL_WARP_MASK, ends_before));
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

/* A result over the tile's positions as the segment's: the index moved from
 * the tile's position 0 to the segment's first element (`shift` =
 * first - begin, negative for a segment that begins inside the tile: the
 * sum is modular, and never negative). */
template <class RO, class R> __device__ __forceinline__ RO from_tile(R r, long long shift)
{
    return widen_index(r, (size_t)shift);
}

/* What a tile writes: its closed and empty segments' results, and the
 * parts of the segment that entered it from an earlier tile (head) and of
 * the one it leaves open (tail), for the last kernel. */
template <class T, class Op> struct tile_writer {
    using R = result_t<T, Op, int>;
    using RO = result_t<T, Op>;
    const segment_offset *offsets;
    RO *out;
    tile_parts<RO> parts;

    /* The segment that entered the tile and closed in it with `total`: its
     * head part. */
    __device__ void head(const tile_place &place, R total) const
    {
        parts.head_segments[place.tile] = place.segment;
        store_result(&parts.heads[place.tile], from_tile<RO>(total, place.first - (long long)place.begin));
    }

    /* Segment place.segment + rel, begun in the tile (or at its start):
     * the identity if it is empty, else its result, closed with `total`. */
    __device__ void segment(const tile_place &place, size_t rel, bool empty, R total) const
    {
        const size_t index = place.segment + rel;
        RO result = identity<Op, RO>();
        if (!empty) {
            segment_offset begin = place.begin;
            if constexpr (is_arg_op_v<Op>)
                if (rel > 0)
                    begin = offsets[index]; /* an index counts from its segment's start */
            result = from_tile<RO>(total, place.first - (long long)begin);
        }
        store_result(&out[index], result);
    }
};

/* The ends of segments first .. first + 32 x batches - 1 into end[] (a
 * lane every 32nd, from first + lane), NO_END past the last segment: every
 * read in flight before the first compare, unchecked when the whole trip
 * lies inside the offsets (a load at a fixed distance, not a bound check
 * and a branch each). */
__device__ __forceinline__ void read_ends(segment_offset (&end)[BATCHES],
                                          const segment_offset *__restrict__ offsets, size_t first,
                                          unsigned batches, size_t count)
{
    const unsigned lane = threadIdx.x % 32;
    if (first + batches * 32 <= count) {
        const segment_offset *from = offsets + first + lane + 1;
#pragma unroll
        for (int b = 0; b < BATCHES; ++b)
            if (b < (int)batches)
                end[b] = from[b * 32];
        return;
    }
#pragma unroll
    for (int b = 0; b < BATCHES; ++b)
        if (b < (int)batches) {
            const size_t k = first + b * 32 + lane;
            end[b] = k < count ? offsets[k + 1] : NO_END;
        }
}

/* Reads the ends of the segments from place.segment on that fall in the
 * tile (end <= last_end), in trips of up to BATCHES batches of 32: the first
 * trip's `batches` are in end[] (read by the caller), later trips twice as
 * many while every end read was inside. Sets a non-empty segment's bit, and
 * keeps which ends are empty segments in empty_words. Returns the ends
 * found; *open_begin gets the last (where the segment left open begins),
 * place.begin if none. The ends are compared as 64-bit offsets: as 32-bit
 * positions in the tile they measured slower (bench/NOTES.md, session 23). */
template <class T>
__device__ __forceinline__ unsigned mark_ends(uint32_t *end_bits, uint32_t *empty_words,
                                              const tile_place &place, long long last_end,
                                              const segment_offset *__restrict__ offsets,
                                              size_t count, unsigned batches,
                                              segment_offset (&end)[BATCHES],
                                              segment_offset *open_begin)
{
    constexpr int RUN = lane_run<T>::RUN;
    const unsigned lane = threadIdx.x % 32;
    unsigned ends = 0;
    segment_offset before = place.begin; /* offsets[place.segment + ends] */
    for (bool full = true; full;) {
#pragma unroll
        for (int b = 0; b < BATCHES; ++b) {
            if (b >= (int)batches || !full)
                break;
            const bool inside = end[b] <= (segment_offset)last_end;
            segment_offset previous = __shfl_up_sync(FULL_WARP_MASK, end[b], 1);
            if (lane == 0)
                previous = before;
            const bool closing = inside && end[b] > previous;
            /* Every lane ORs: a closing end its bit, the others nothing
             * into their own word - no branch around the atomic. */
            const unsigned position = (unsigned)((long long)end[b] - 1 - place.first);
            atomicOr(&end_bits[closing ? position / RUN : lane], closing ? 1u << (position % RUN) : 0u);
            const unsigned empty = __ballot_sync(FULL_WARP_MASK, inside && !closing);
            if (lane == 0 && ends / 32 < EMPTY_WORDS) /* ends: a multiple of 32 here */
                empty_words[ends / 32] = empty;
            const unsigned found = __popc(__ballot_sync(FULL_WARP_MASK, inside));
            if (found > 0)
                before = __shfl_sync(FULL_WARP_MASK, end[b], found - 1);
            ends += found;
            full = found == 32;
        }
        if (full) {
            batches = 2 * batches < BATCHES ? 2 * batches : BATCHES;
            read_ends(end, offsets, place.segment + ends, batches, count);
        }
    }
    *open_begin = before;
    return ends;
}

/* The tile's elements into `vectors`, a row of 32 vectors at a time
 * (coalesced): asynchronous 16-byte copies that hold no registers while they
 * fly, or, at either end of the input, loads checked element by element.
 * Row r's vector of this lane, swizzled(32 r + lane), is 32 r plus
 * swizzled(lane) (even rows) or that XOR 4 (odd rows), so the copies are
 * addressed from one pointer and two bases at fixed distances, not by a
 * 64-bit sum each (what that arithmetic cost and what its removal saved:
 * bench/results/experiments/h200_lane_run_source_counters_accd221.log,
 * h200_lane_run_lean_copies_801d992.log). */
template <class T, bool CHECKED>
__device__ __forceinline__ void copy_tile(const T *__restrict__ in, size_t n, long long first,
                                          uint4 *vectors)
{
    using Run = lane_run<T>;
    const int lane = (int)(threadIdx.x % 32);
    if (CHECKED) {
#pragma unroll
        for (int r = 0; r < Run::LOADS; ++r) {
            const int p = r * 32 + lane;
            vectors[swizzled(p)] = load_checked_vector(in, n, first + p * Run::W);
        }
    } else {
        const T *from = in + first + lane * Run::W;
        uint4 *even = vectors + swizzled(lane), *odd = vectors + (swizzled(lane) ^ 4);
#pragma unroll
        for (int r = 0; r < Run::LOADS; ++r)
            __pipeline_memcpy_async((r % 2 ? odd : even) + r * 32, from + r * 32 * Run::W, 16);
    }
    __pipeline_commit();
}

/* The lanes before this one: the sum of `count` over them. */
__device__ __forceinline__ unsigned sum_of_lanes_before(unsigned count)
{
    const unsigned lane = threadIdx.x % 32;
    unsigned inclusive = count;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const unsigned other = __shfl_up_sync(FULL_WARP_MASK, inclusive, d);
        if (lane >= (unsigned)d)
            inclusive += other;
    }
    return inclusive - count;
}

/* The segmented scan over the lanes: returns what precedes this lane's
 * first closing in its segment (the runs since the last lane that closed a
 * segment, that lane's tail on); *tile_tail gets the total since the
 * tile's last closing (the whole tile if none). */
template <class Op, class R>
__device__ __forceinline__ R join_lanes(bool closes, R tail, R *tile_tail)
{
    const unsigned lane = threadIdx.x % 32;
    bool closed = closes;
    R since = tail;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const R other = shuffle_up(since, d);
        const bool other_closed = __shfl_up_sync(FULL_WARP_MASK, closed, d);
        if (lane >= (unsigned)d && !closed)
            since = combine_later<Op>(other, since);
        if (lane >= (unsigned)d)
            closed |= other_closed;
    }
    R before = shuffle_up(since, 1);
    if (lane == 0)
        before = identity<Op, R>();
    *tile_tail = shuffle_from(since, 31);
    return before;
}

/* The tile's parts for the last kernel, by lane 0: the head part (unless
 * the segment that entered closed in the tile: the closed sweep stored it)
 * and the tail part - every field on every call, so nothing needs zeroing. */
template <class T, class Op>
__device__ __forceinline__ void store_parts(const tile_place &place, unsigned ends,
                                            segment_offset open_begin, result_t<T, Op, int> carry,
                                            size_t count, const tile_parts<result_t<T, Op>> &parts)
{
    using RO = result_t<T, Op>;
    const bool began_before = (long long)place.begin < place.first;
    const long long last_end = place.first + lane_run<T>::ELEMENTS;
    const size_t open = place.segment + ends;
    size_t head_segment = count, tail_segment = count;
    RO head = identity<Op, RO>(), tail = identity<Op, RO>();
    if (ends == 0 && began_before) { /* the tile lies inside one segment */
        head_segment = place.segment;
        head = from_tile<RO>(carry, place.first - (long long)place.begin);
    } else if (open < count && (long long)open_begin < last_end) {
        tail_segment = open;
        tail = from_tile<RO>(carry, place.first - (long long)open_begin);
    }
    if (!(ends > 0 && began_before)) {
        parts.head_segments[place.tile] = head_segment;
        store_result(&parts.heads[place.tile], head);
    }
    parts.tail_segments[place.tile] = tail_segment;
    store_result(&parts.tails[place.tile], tail);
}

/* The lane's walk over its run in registers: each set bit stores the total
 * so far in the next slot (from totals[slot] on) and starts a new one.
 * Returns the total after the last set bit (the whole run if none). The
 * next slot is a pointer, not an index: ptxas then turns seven bits at a
 * time into predicates and an end into a predicated store and a pointer
 * step, about five instructions an element where the index took eight
 * (bench/NOTES.md, session 34). */
template <class T, class Op, bool CHECKED>
__device__ __forceinline__ result_t<T, Op, int> walk_run(const uint4 (&raw)[lane_run<T>::LOADS],
                                                         uint32_t bits, unsigned slot,
                                                         result_t<T, Op, int> *totals,
                                                         const tile_place &place, size_t n)
{
    using R = result_t<T, Op, int>;
    using Run = lane_run<T>;
    const int start = (int)(threadIdx.x % 32) * Run::RUN; /* the run's first position */
    R total = identity<Op, R>();
    R *next_slot = totals + slot;
#pragma unroll
    for (int v = 0; v < Run::LOADS; ++v) {
        T x[Run::W];
        memcpy(x, &raw[v], sizeof raw[v]);
#pragma unroll
        for (int i = 0; i < Run::W; ++i) {
            const int j = v * Run::W + i, position = start + j;
            if (!CHECKED || (place.first + position >= 0 && place.first + position < (long long)n))
                total = combine_later<Op>(total, lift<Op, T, int>(x[i], position));
            if (bits & (1u << j)) {
                *next_slot++ = total;
                total = identity<Op, R>();
            }
        }
    }
    return total;
}

/* Which of the tile's ends base .. base + 31 are empty segments, read
 * again from the offsets (a tile of more ends than empty_words keeps). */
__device__ __forceinline__ uint32_t empty_ends_again(const segment_offset *__restrict__ offsets,
                                                     const tile_place &place, unsigned base,
                                                     unsigned ends)
{
    const unsigned lane = threadIdx.x % 32;
    const size_t k = place.segment + base + lane;
    const bool empty = base + lane < ends && offsets[k + 1] == offsets[k];
    return __ballot_sync(FULL_WARP_MASK, empty);
}

/* The results of the tile's ends base .. base + 31 from `start` on (this
 * lane's: e): `empty` their empty bits, `empties` the empty ends before
 * base. A closed segment's slot is its end's place less the empty ones
 * before it. Where the batch holds empty ends, a lane's empty bit chooses
 * its value (a branch each way ran both ways in most batches); a batch
 * without them skips that count: without this path the Zipf group-by
 * (never empty) ran slower (bench/results/experiments/h200_lean_ends_9a27685.log,
 * h200_lane_run_lean_batches_8d4f5e0.log). */
template <class T, class Op>
__device__ __forceinline__ void write_batch(const warp_storage<T, Op> &s, unsigned base,
                                            unsigned start, unsigned ends, uint32_t empty,
                                            unsigned empties, const tile_place &place,
                                            const tile_writer<T, Op> &writer)
{
    using R = result_t<T, Op, int>;
    const unsigned lane = threadIdx.x % 32, e = base + lane;
    if (e < start || e >= ends)
        return;
    if (empty == 0) {
        writer.segment(place, e, false, s.totals[e - empties]);
        return;
    }
    const bool is_empty = empty & (1u << lane);
    R total = identity<Op, R>();
    if (!is_empty)
        total = s.totals[e - empties - __popc(empty & ((1u << lane) - 1))];
    writer.segment(place, e, is_empty, total);
}

/* The tile's results in segment order, 32 at a time, the empty segments'
 * identities with them; first the head part of a segment that entered from
 * an earlier tile and closed in this one. One store a segment: a loop over
 * the slots with an inner loop for the empty segments before each took
 * more instructions (bench/results/experiments/h200_lean_ends_9cb7026.log). */
template <class T, class Op>
__device__ __forceinline__ void write_results(const warp_storage<T, Op> &s, unsigned ends,
                                              const tile_place &place, const tile_writer<T, Op> &writer)
{
    const unsigned lane = threadIdx.x % 32;
    const bool head = ends > 0 && (long long)place.begin < place.first;
    if (head && lane == 0)
        writer.head(place, s.totals[0]);
    /* The batches whose empty words the tile kept, then the rest: two
     * loops, not a test a batch for where its word is. Rolled: unrolled,
     * the step's code grows and the int64 argmax spills. */
    const unsigned kept = ends < 32 * EMPTY_WORDS ? ends : 32 * EMPTY_WORDS;
    unsigned empties = 0, base = 0; /* the empty ends before base */
#pragma unroll 1
    for (; base < kept; base += 32) {
        const uint32_t empty = s.empty_words[base / 32];
        write_batch(s, base, head ? 1 : 0, ends, empty, empties, place, writer);
        empties += __popc(empty);
    }
#pragma unroll 1
    for (; base < ends; base += 32) {
        const uint32_t empty = empty_ends_again(writer.offsets, place, base, ends);
        write_batch(s, base, head ? 1 : 0, ends, empty, empties, place, writer);
        empties += __popc(empty);
    }
}

/* One tile: its loads, its ends, its runs, its parts. Returns the ends it
 * held (the next tile's first segment is place.segment + that); *open_begin
 * gets where the segment it leaves open began. `checked`: the tile reaches
 * past either end of the input, so its loads and adds check each element.
 * A flag and not a second inlined copy of the tile: the kernel's code is
 * then much smaller, and was faster at every mean
 * (bench/results/experiments/h200_lean_ends_9cb7026.log). */
template <class T, class Op>
__device__ __forceinline__ unsigned reduce_tile(const T *__restrict__ in, size_t n,
                                                warp_storage<T, Op> &s, const tile_place &place,
                                                size_t count, unsigned batches,
                                                const tile_writer<T, Op> &writer,
                                                segment_offset *open_begin, bool checked)
{
    using R = result_t<T, Op, int>;
    using Run = lane_run<T>;
    const unsigned lane = threadIdx.x % 32;
    s.marked.end_bits[lane] = 0;
    __syncwarp(); /* the bits are clear before any lane marks an end */
    /* The first trip's offsets, read before the copies: issued after them,
     * their loads waited behind them (bench/results/experiments/
     * h200_lane_run_offsets_first_933cd2f.log). */
    segment_offset end[BATCHES];
    read_ends(end, writer.offsets, place.segment, batches, count);
    if (checked)
        copy_tile<T, true>(in, n, place.first, s.marked.vectors);
    else
        copy_tile<T, false>(in, n, place.first, s.marked.vectors);
    const unsigned ends = mark_ends<T>(s.marked.end_bits, s.empty_words, place,
                                       place.first + Run::ELEMENTS, writer.offsets, count, batches,
                                       end, open_begin);
    __pipeline_wait_prior(0);
    __syncwarp(); /* the copies have landed and the bits are set */
    uint4 raw[Run::LOADS];
    /* The run's vectors p = lane x LOADS + v all move by its first one's
     * (p >> 3) & 7: each sits at that one's place XOR v. */
    const int run_place = swizzled((int)lane * Run::LOADS);
#pragma unroll
    for (int v = 0; v < Run::LOADS; ++v)
        raw[v] = s.marked.vectors[run_place ^ v];
    const uint32_t bits = s.marked.end_bits[lane];
    __syncwarp(); /* every run and its bits are read before the totals take their place */
    const unsigned first_slot = sum_of_lanes_before(__popc(bits));
    const bool any_end = __any_sync(FULL_WARP_MASK, bits != 0);
    const R tail = checked   ? walk_run<T, Op, true>(raw, bits, first_slot, s.totals, place, n)
                   : any_end ? walk_run<T, Op, false>(raw, bits, first_slot, s.totals, place, n)
                             : walk_run<T, Op, false>(raw, 0u, first_slot, s.totals, place, n); /* adds alone */
    R tile_tail;
    const R before = join_lanes<Op>(bits != 0, tail, &tile_tail);
    if (bits != 0)
        s.totals[first_slot] = combine_later<Op>(before, s.totals[first_slot]);
    __syncwarp(); /* the totals are final */
    write_results(s, ends, place, writer);
    if (lane == 0)
        store_parts<T, Op>(place, ends, *open_begin, tile_tail, count, writer.parts);
    __syncwarp(); /* the totals are read before the next tile's copies and bits */
    return ends;
}

/* A warp a contiguous run of tiles, an even share of them: a search for the
 * first, then each tile starts at the segment where the last one stopped. */
template <class T, class Op>
__global__ __launch_bounds__(BLOCK, MIN_BLOCKS_PER_SM) void lane_run_segments_kernel(
    const T *__restrict__ in, size_t n, const segment_offset *__restrict__ offsets, size_t count,
    size_t tiles, unsigned batches, tile_writer<T, Op> writer)
{
    constexpr int ELEMENTS = lane_run<T>::ELEMENTS;
    __shared__ warp_storage<T, Op> storage[WARPS];
    const unsigned warp = threadIdx.x / 32;
    size_t first_tile, last_tile;
    even_share(tiles, (size_t)gridDim.x * WARPS, blockIdx.x * (size_t)WARPS + warp, &first_tile,
               &last_tile);
    if (first_tile == last_tile) {
        allow_tile_parts_combine();
        return;
    }
    warp_storage<T, Op> &s = storage[warp];
    const long long lead = (long long)(((uintptr_t)in % 16) / sizeof(T));
    tile_place place;
    place.first = (long long)(first_tile * ELEMENTS) - lead;
    /* The search before the first tile's copies: with the copies issued
     * first, for the search's reads to overlap, every distribution was
     * slower (bench/results/experiments/h200_lane_run_early_wide_0e650e8.log). */
    place.segment = first_tile == 0 ? 0 : first_segment_after(offsets, count, place.first, n);
    place.begin = offsets[place.segment];
    for (place.tile = first_tile; place.tile < last_tile; ++place.tile) {
        if (place.tile + 1 == last_tile)
            allow_tile_parts_combine();
        const bool inside = place.first >= 0 && place.first + ELEMENTS <= (long long)n;
        segment_offset open_begin;
        const unsigned ends =
            reduce_tile<T, Op>(in, n, s, place, count, batches, writer, &open_begin, !inside);
        place.first += ELEMENTS;
        place.segment += ends;
        place.begin = open_begin;
    }
}

template <class T, class Op> struct lane_run_segments_launch {
    using RO = result_t<T, Op>;
    static constexpr size_t ELEMENTS = lane_run<T>::ELEMENTS;

    /* The tiles of n elements from a pointer `lead` elements past a 16-byte
     * boundary; the workspace holds the most any pointer needs. */
    static size_t tile_count(size_t n, size_t lead) { return ceil_div(n + lead, ELEMENTS); }

    static int workspace(reduce_shape, size_t n, size_t *bytes)
    {
        *bytes = tile_parts<RO>::bytes(tile_count(n, VECTOR_WIDTH<T> - 1));
        return 0;
    }

    /* One resident wave, each warp a contiguous run of tiles, or the grid a
     * test forces; then the last kernel. */
    static int run(const T *d_in, reduce_shape shape, size_t n, RO *d_out, void *workspace,
                   cudaStream_t stream)
    {
        if (shape.count == 0)
            return 0;
        if (n == 0) /* every segment empty */
            return fill_identity<Op>(d_out, shape.count, stream);
        const size_t lead = ((uintptr_t)d_in % 16) / sizeof(T), tiles = tile_count(n, lead);
        const size_t expected = ELEMENTS * shape.count / n; /* ends a tile, on average */
        const size_t batches = ceil_div(READ_MARGIN * expected + 1, 32);
        const tile_parts<RO> parts = tile_parts<RO>::at(workspace, tiles);
        const auto kernel = lane_run_segments_kernel<T, Op>;
        int grid = 0;
        PROPAGATE(capped_resident_grid((const void *)kernel, BLOCK, tiles, WARPS, &grid));
        kernel<<<grid, BLOCK, 0, stream>>>(d_in, n, shape.offsets, shape.count, tiles,
                                           (unsigned)(batches < BATCHES ? batches : BATCHES),
                                           tile_writer<T, Op>{shape.offsets, d_out, parts});
        CUDA_TRY_LAUNCH();
        return combine_tile_parts<RO, Op>(parts, tiles, shape.count, d_out, stream,
                                          element_tiles{shape.offsets, lead, ELEMENTS});
    }
};

} // namespace

/* The order within one segment: a lane chains up to 32 elements, 5 shuffle
 * levels join the lanes; the tiles' combine joins the tail, a tree of the
 * next 32 tiles' heads (5 levels) and one of the rest (a lane chains every
 * 32nd, fewer than L / 32768 + 1 parts, then 5 levels): within
 * ORDER_THREAD_CHAINS' ceil(L / 256) + 32 + 2 x 40. */
DEFINE_METHOD(lane_run_segments, .family = FAMILY_ROWS, .source = "this suite: rows, step 37",
              .idea = "a fixed run of elements a lane, loaded into registers; a bit for each "
                      "segment end in it, the lanes joined by one segmented scan a tile",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<lane_run_segments_launch, ALL_OPS>,
              .workspace = workspace_any_pair<lane_run_segments_launch, ALL_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* tiles fixed by n and the pointer's alignment */
              .order = {.kind = ORDER_THREAD_CHAINS, .width = 256, .depth = 40},
              .shapes = SHAPE_BIT(SHAPE_SEGMENTS));
