/* What the kernels that cut segments by the input, not by the segments,
 * share (steps 29 and 36; step 37 the tiles' parts alone): a segment may
 * cross threads of a block and tiles of the grid, and its pieces are joined
 * here.
 *
 *   Across threads: each thread leaves one segment open at the end of its
 *   share (its carry: the segment's index as the key, the total so far as
 *   the value); a segmented scan over the block's carries adds each run of
 *   threads that leave the same segment open, so thread t's scanned carry is
 *   that segment's total over threads up to t (scan_block_carries).
 *   Across tiles: a tile keeps its part of the segment that enters it from
 *   an earlier tile (its head part) and of the segment that starts in it and
 *   leaves (its tail part); a last kernel adds a tail part and the heads of
 *   the tiles the segment enters (combine_tile_parts_kernel), in an order
 *   fixed by the tile indices: the same whatever grid ran the tiles. On
 *   Hopper and later it is a programmatic dependent launch: its blocks are
 *   placed while the tiles' last blocks still run (from when every block
 *   called allow_tile_parts_combine or ended) and wait at their first line
 *   for the whole tiles' kernel, so the launch gap between the two is gone. */
#ifndef SEGMENT_CARRIES_CUH
#define SEGMENT_CARRIES_CUH

#include <cstdint>

#include "cuda_check.h"
#include "element_traits.cuh"
#include "shape.h"

/* The threads a block of these kernels has. */
constexpr int SEGMENT_BLOCK = 256;

/* A thread's carry after the scan: the segment it leaves open (the segment
 * count: none) and the total of the run of neighbours up to it that leave
 * the same segment open. Key: the segment's index in the grid (size_t) or
 * in the tile (uint32_t: half the shuffles). */
template <class A, class Key = size_t> struct carry {
    Key key;
    A value;
};

/* The scan's shared memory; carry_key and carry_value hold every thread's
 * scanned carry once scan_block_carries returns (after a barrier). */
template <class A, class Key = size_t> struct carry_scan_storage {
    Key warp_first_key[SEGMENT_BLOCK / 32], warp_last_key[SEGMENT_BLOCK / 32];
    A warp_last_value[SEGMENT_BLOCK / 32];
    Key carry_key[SEGMENT_BLOCK];
    A carry_value[SEGMENT_BLOCK];
};

/* The segmented scan within a warp; lane 0 and lane 31 publish the warp's
 * first key and its last carry for add_earlier_warps. */
template <class Op, class A, class Key>
__device__ __forceinline__ A scan_warp_carries(carry_scan_storage<A, Key> &s, Key key, A value)
{
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const Key other_key = __shfl_up_sync(FULL_WARP_MASK, key, d);
        const A other = shuffle_up(value, d);
        if (lane >= (unsigned)d && other_key == key)
            value = Op{}(other, value);
    }
    if (lane == 0)
        s.warp_first_key[warp] = key;
    if (lane == 31) {
        s.warp_last_key[warp] = key;
        s.warp_last_value[warp] = value;
    }
    return value;
}

/* A thread still in its warp's first segment adds the earlier warps that
 * end in it, back to the first that began it. */
template <class Op, class A, class Key>
__device__ __forceinline__ A add_earlier_warps(const carry_scan_storage<A, Key> &s, Key key, A value)
{
    const unsigned warp = threadIdx.x / 32;
    if (key == s.warp_first_key[warp]) {
        unsigned from = warp;
        while (from > 0 && s.warp_last_key[from - 1] == key) {
            --from;
            if (s.warp_first_key[from] != key)
                break;
        }
        if (from < warp) {
            A before = s.warp_last_value[from];
            for (unsigned w = from + 1; w < warp; ++w)
                before = Op{}(before, s.warp_last_value[w]);
            value = Op{}(before, value);
        }
    }
    return value;
}

/* The carries' segmented scan over the block, published in carry_key and
 * carry_value; every thread of the block calls it. The caller puts a
 * barrier between this and any read of another thread's carry. */
template <class Op, class A, class Key>
__device__ __forceinline__ carry<A, Key> scan_block_carries(carry_scan_storage<A, Key> &s, Key key,
                                                            A value)
{
    value = scan_warp_carries<Op>(s, key, value);
    __syncthreads();
    value = add_earlier_warps<Op>(s, key, value);
    s.carry_key[threadIdx.x] = key;
    s.carry_value[threadIdx.x] = value;
    return {key, value};
}

/* Each tile's parts of the segments that cross tiles, written by every tile
 * on every call (the segment count where a tile has none), so nothing needs
 * zeroing. */
template <class A> struct tile_parts {
    size_t *head_segments; /* the segment that enters the tile, if it has elements here */
    size_t *tail_segments; /* the segment that starts in the tile and leaves it */
    A *heads, *tails;      /* their totals over the tile */

    static size_t bytes(size_t tiles) { return tiles * (2 * sizeof(size_t) + 2 * sizeof(A)); }
    static tile_parts at(void *workspace, size_t tiles)
    {
        size_t *segments = (size_t *)workspace;
        A *totals = (A *)(segments + 2 * tiles);
        return {segments, segments + tiles, totals, totals + tiles};
    }
    __device__ void store(size_t tile, size_t head_segment, A head, size_t tail_segment, A tail) const
    {
        head_segments[tile] = head_segment;
        tail_segments[tile] = tail_segment;
        store_result(&heads[tile], head);
        store_result(&tails[tile], tail);
    }
};

/* A segment's heads after its tail, for the last kernel: the first round
 * reads the next 32 tiles' heads, a lane each; later rounds
 * (a segment past 32 tiles) the next 32 x LOOKAHEAD, LOOKAHEAD consecutive
 * ones a lane, so a segment a thousand tiles long takes nine rounds, not a
 * thousand dependent reads. Four: with eight, sixteen or thirty-two the
 * distributions whose segments run past 32 tiles were slower, with two no
 * faster than eight (bench/NOTES.md, session 33). A round's heads are
 * folded in a fixed tree (each lane's chain, then the lanes by position),
 * which depends on the tile indices alone: the same bits whatever grid ran
 * the tiles. */
constexpr int LOOKAHEAD = 4;

/* One round: the heads of the `per_lane` x 32 tiles from `first` that
 * continue `segment` (a prefix of them), folded; `more` when every one did.
 * count_none: the segment count, which no segment has. */
template <class A, class Op>
__device__ __forceinline__ A fold_heads_round(const tile_parts<A> &parts, size_t tiles,
                                              size_t segment, size_t first, int per_lane,
                                              size_t count_none, bool *more)
{
    const combine_without_branch<Op> op;
    const unsigned lane = threadIdx.x % 32;
    size_t segments[LOOKAHEAD];
    A heads[LOOKAHEAD];
#pragma unroll
    for (int j = 0; j < LOOKAHEAD; ++j) { /* every read in flight before the first compare */
        const size_t tile = first + (size_t)lane * per_lane + j;
        segments[j] = count_none;
        if (j < per_lane && tile < tiles) {
            segments[j] = parts.head_segments[tile];
            heads[j] = parts.heads[tile];
        }
    }
    A lane_total = identity<Op, A>();
    int matched = 0;
#pragma unroll
    for (int j = 0; j < LOOKAHEAD; ++j)
        if (matched == j && segments[j] == segment) {
            lane_total = op(lane_total, heads[j]);
            matched = j + 1;
        }
    const unsigned whole = __ballot_sync(FULL_WARP_MASK, matched == per_lane);
    const unsigned last = whole == FULL_WARP_MASK ? 31 : (unsigned)__ffs(~whole) - 1;
    if (lane > last)
        lane_total = identity<Op, A>();
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        const A other = shuffle_xor(lane_total, offset);
        lane_total = (lane & offset) ? op(other, lane_total) : op(lane_total, other);
    }
    *more = whole == FULL_WARP_MASK;
    return lane_total;
}

/* Where a segment's last tile is, for a step whose tiles are fixed runs
 * of elements (step 37): the tile of element e is (e + lead) /
 * tile_elements. tile_elements 0: not given (steps 29 and 36, whose tiles
 * are cut otherwise), so a long segment's heads are found round by round. */
struct element_tiles {
    const segment_offset *offsets;
    size_t lead, tile_elements;
};

/* Reads at L2 a lane issues together in fold_known_heads. */
constexpr int KNOWN_HEADS_IN_FLIGHT = 16;

/* The heads of tiles [first, end), every one a part of the same segment,
 * folded by a warp in a fixed tree: lane l chains tiles first + l,
 * + 32, + 64, ..., KNOWN_HEADS_IN_FLIGHT reads in flight at once, then the
 * lanes meet by position. No read waits for a test of the one before, so a
 * segment a thousand tiles long takes, after its first round and the read
 * of its end, three trips to L2, not nine rounds. */
template <class A, class Op>
__device__ __forceinline__ A fold_known_heads(const tile_parts<A> &parts, size_t first, size_t end)
{
    const combine_without_branch<Op> op;
    const unsigned lane = threadIdx.x % 32;
    A total = identity<Op, A>();
    for (size_t tile = first + lane; tile < end; tile += 32 * KNOWN_HEADS_IN_FLIGHT) {
        A heads[KNOWN_HEADS_IN_FLIGHT];
#pragma unroll
        for (int j = 0; j < KNOWN_HEADS_IN_FLIGHT; ++j)
            heads[j] = tile + 32 * j < end ? parts.heads[tile + 32 * j] : identity<Op, A>();
#pragma unroll
        for (int j = 0; j < KNOWN_HEADS_IN_FLIGHT; ++j)
            total = op(total, heads[j]);
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        const A other = shuffle_xor(total, offset);
        total = (lane & offset) ? op(other, total) : op(total, other);
    }
    return total;
}

/* Called by a tiles' kernel block once it starts its last tile: the last
 * kernel may then be placed (it waits for this whole kernel to finish). */
__device__ __forceinline__ void allow_tile_parts_combine()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;");
#endif
}

/* A segment that runs on past the tile after `from`, by the whole warp:
 * its tail part `long_total` joined with its heads' rounds - the first 32
 * tiles, then, where `where` gives its last tile, all the others at once
 * (fold_known_heads), else round by round. */
template <class A, class Op>
__device__ __forceinline__ A fold_long_segment(const tile_parts<A> &parts, size_t tiles, size_t count,
                                               element_tiles where, size_t long_segment, size_t from,
                                               A long_total)
{
    const combine_without_branch<Op> op;
    /* The first round ends most segments; only those it does not read
     * their end, a trip to DRAM (the values' stream has evicted the
     * offsets from L2). Read before the first round or beside it, it
     * cost powerlaw:100 and powerlaw:1000 up to a microsecond; after it,
     * still a third of one at powerlaw:1000, whose long segments a
     * second round would end
     * (bench/results/experiments/h200_segments_known_heads_624a228.log,
     * bench/results/experiments/h200_segments_first_round_then_known_heads_378ef01.log,
     * bench/results/experiments/h200_segments_first_round_then_known_heads_b83b757.log;
     * the end written by each tile instead cost the tiles' kernel more:
     * bench/results/experiments/h200_segments_first_round_then_known_heads_735dd2d.log). */
    bool more = true;
    long_total =
        op(long_total, fold_heads_round<A, Op>(parts, tiles, long_segment, from + 1, 1, count, &more));
    if (more && where.tile_elements > 0) {
        const size_t last = (where.offsets[long_segment + 1] - 1 + where.lead) / where.tile_elements;
        long_total = op(long_total, fold_known_heads<A, Op>(parts, from + 33, last + 1));
    } else {
        for (size_t first = from + 33; more; first += 32 * LOOKAHEAD)
            long_total = op(long_total, fold_heads_round<A, Op>(parts, tiles, long_segment, first,
                                                                LOOKAHEAD, count, &more));
    }
    return long_total;
}

/* The last kernel's threads a block, and the tiles a warp takes: a lane
 * each, four lanes of 32, so that a warp meets at most two segments that
 * run past the next tile (each one's rounds take the whole warp, one
 * segment after another) and the 16384 tiles of 64 MiB of floats are about
 * one wave of blocks. */
constexpr int COMBINE_BLOCK = 128;
constexpr unsigned COMBINE_TILES_A_WARP = 4;

/* The last kernel: a lane a tile where a segment starts and leaves. A
 * segment that ends in the next tile - any segment shorter than a tile -
 * is its lane's alone: the tile's tail and the next tile's head, every
 * read in flight at once, one trip to L2. A segment that runs on past the
 * next tile is taken by the whole warp, one after another, in the rounds of
 * fold_heads_round: the first 32 tiles, then, where `where` gives its last
 * tile, all the others at once (fold_known_heads), else round by round.
 * Each gives the tail joined with a tree over the heads, and for one head
 * the same bits as the short path: one head's tree is its lane's total
 * (the identity, then the head) joined with identities, each join after
 * the first a no-op, which is what the short path adds. Its joins chain
 * one after another, so
 * argmax and argmin compare their pairs with no branch
 * (combine_without_branch), which measured faster wherever segments cross
 * many tiles and the same elsewhere
 * (bench/results/experiments/h200_segments_last_kernel_and_block_int_index_484ba40.log). */
template <class A, class Op>
__global__ __launch_bounds__(COMBINE_BLOCK) void combine_tile_parts_kernel(tile_parts<A> parts,
                                                                            size_t tiles, size_t count,
                                                                            element_tiles where,
                                                                            A *__restrict__ out)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory"); /* the tiles' kernel has finished */
#endif
    const combine_without_branch<Op> op;
    const unsigned lane = threadIdx.x % 32;
    const size_t warp = (blockIdx.x * (size_t)COMBINE_BLOCK + threadIdx.x) / 32;
    const size_t tile = lane < COMBINE_TILES_A_WARP ? warp * COMBINE_TILES_A_WARP + lane : tiles;
    size_t segment = count, next = count, after = count; /* the count: no segment */
    A total = identity<Op, A>(), head = identity<Op, A>();
    if (tile < tiles) {
        segment = parts.tail_segments[tile];
        total = parts.tails[tile];
    }
    if (tile + 1 < tiles) {
        next = parts.head_segments[tile + 1];
        head = parts.heads[tile + 1];
    }
    if (tile + 2 < tiles)
        after = parts.head_segments[tile + 2];
    const bool leaves = segment < count;
    const bool runs_on = leaves && next == segment && after == segment;
    if (leaves && !runs_on) {
        const A lane_total = op(identity<Op, A>(), next == segment ? head : identity<Op, A>());
        const A folded = op(lane_total, identity<Op, A>());
        store_result(&out[segment], op(total, folded));
    }
    for (unsigned lanes = __ballot_sync(FULL_WARP_MASK, runs_on); lanes != 0; lanes &= lanes - 1) {
        const int owner = __ffs(lanes) - 1;
        const size_t long_segment = __shfl_sync(FULL_WARP_MASK, segment, owner);
        const A long_total = fold_long_segment<A, Op>(parts, tiles, count, where, long_segment,
                                                      __shfl_sync(FULL_WARP_MASK, tile, owner),
                                                      shuffle_from(total, owner));
        if (lane == (unsigned)owner)
            store_result(&out[long_segment], long_total);
    }
}

/* Whether combine_tile_parts_kernel as loaded on this device waits for the
 * kernel before it: built for Hopper or later. A build for an older GPU, or
 * its PTX compiled for a newer one, has no wait. Asked once a device, as
 * launchers call this in the timed region (cudaGetDevice is a host-side
 * read). */
template <class A, class Op> int combine_waits_for_tiles(bool *waits)
{
    enum { DEVICES = 64 };
    static signed char known[DEVICES]; /* 0: not asked yet; 1: no wait; 2: waits */
    int device = 0;
    CUDA_TRY(cudaGetDevice(&device));
    if (device < DEVICES && known[device]) {
        *waits = known[device] == 2;
        return 0;
    }
    cudaFuncAttributes built = {};
    CUDA_TRY(cudaFuncGetAttributes(&built, combine_tile_parts_kernel<A, Op>));
    *waits = built.ptxVersion >= 90;
    if (device < DEVICES)
        known[device] = *waits ? 2 : 1;
    return 0;
}

/* Launches combine_tile_parts_kernel over `tiles` tiles, as a programmatic
 * dependent launch where the kernel waits for the one before it; `where`
 * finds a long segment's last tile where the tiles are fixed runs of
 * elements. */
template <class A, class Op>
int combine_tile_parts(tile_parts<A> parts, size_t tiles, size_t count, A *out, cudaStream_t stream,
                       element_tiles where = {})
{
    bool waits = false;
    PROPAGATE((combine_waits_for_tiles<A, Op>(&waits)));
    cudaLaunchAttribute overlap = {};
    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    overlap.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned)ceil_div(tiles, COMBINE_TILES_A_WARP * (COMBINE_BLOCK / 32)));
    config.blockDim = dim3(COMBINE_BLOCK);
    config.stream = stream;
    config.attrs = &overlap;
    config.numAttrs = waits ? 1 : 0;
    CUDA_TRY(cudaLaunchKernelEx(&config, combine_tile_parts_kernel<A, Op>, parts, tiles, count, where,
                                  out));
    return 0;
}

#endif
