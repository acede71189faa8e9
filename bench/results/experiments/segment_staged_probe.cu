/* A probe, not a method: can a segmented float sum of short segments
 * (a mean of 2-16) read its bytes at the pace of segment_bytes_floor_probe
 * if each warp first copies a tile's elements into shared memory in
 * coalesced 16-byte pieces, and only then lets each lane sum its own
 * segments there?
 *
 * The suite's best at uniform:8 (a thread a segment, or step 40's lanes)
 * reads a lane's elements itself: neighbouring lanes read places a
 * segment's length apart, so one load instruction of a warp touches 32
 * lines and the L1 has to keep each line until its other pieces are read.
 * Here a warp takes 32 x S consecutive segments: it reads their offsets
 * into shared memory (coalesced), then copies the elements between the
 * first and last offset with cp.async, lane k taking 16-byte piece k,
 * k + 32, ... (each instruction whole lines), waits, and each lane sums
 * its S segments from shared memory and writes them as one S-float store.
 * A tile whose elements do not fit the warp's buffer is summed from global
 * memory, lane by lane (the count of such tiles is printed). `ahead`
 * builds issue the next tile's copies before summing this one (two
 * buffers a warp). `chunked` builds (added after the first run, for skewed
 * lengths) copy and walk any tile CAP elements at a time; a lane sums the
 * pieces of its segments up to LONG elements itself, and the whole warp
 * sums each longer piece. `runs` and `bit_runs` (after the chunked runs)
 * walk a chunk by element runs instead, a lane 64 consecutive elements
 * whatever their segments, joined by a segmented scan over the lanes. What
 * each run found: bench/NOTES.md, session 58, and the logs named in
 * segment_staged_probe.sh.
 *
 * Beside it in the same run: the values alone (16-byte loads, the whole
 * array's pace) and a thread a segment with four-byte loads (the suite's
 * thread_per_row reads 16-byte vectors masked to its row).
 * Lengths drawn as the suite's uniform:MEAN and powerlaw:MEAN; every
 * result checked against a double sum on the CPU. GB/s count what
 * bench_compare counts: the input, the offsets read, a result a segment.
 *
 * Build and run on the device machine (segment_staged_probe.sh), from the
 * repository root:
 *   nvcc -O3 -std=c++17 -arch=sm_90 -I src/gpu -o staged \
 *       bench/results/experiments/segment_staged_probe.cu src/gpu/cuda_check.c
 *   ./staged 16777216 u8 p8     (n, a multiple of 4; then uniform:8, powerlaw:8) */
#include <cuda_pipeline.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

constexpr int BLOCK = 128;
constexpr int WARPS = BLOCK / 32;

__device__ unsigned long long g_unstaged_tiles;

__global__ void values_alone(const float4 *values, size_t vectors, float *out)
{
    float acc = 0.0f;
    for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < vectors;
         v += (size_t)gridDim.x * blockDim.x) {
        const float4 x = values[v];
        acc += x.x + x.y + x.z + x.w;
    }
    if (acc == 1234.5f)
        *out = acc;
}

__global__ void thread_per_segment(const float *in, const uint64_t *offsets, size_t count, float *out)
{
    for (size_t s = blockIdx.x * (size_t)blockDim.x + threadIdx.x; s < count;
         s += (size_t)gridDim.x * blockDim.x) {
        float acc = 0.0f;
        for (uint64_t j = offsets[s]; j < offsets[s + 1]; ++j)
            acc += in[j];
        out[s] = acc;
    }
}

/* A warp's tile: its offsets (one spare, so the elements start on 16
 * bytes), and its elements from vector `first_vector` on. */
template <int S, int CAP> struct alignas(16) warp_tile {
    uint64_t offsets[32 * S + 2];
    float elements[CAP];
};

/* A tile's segments + 1 offsets from segment `first` on, into shared
 * memory (the caller syncs the warp). */
__device__ void load_offsets(uint64_t *tile_offsets, const uint64_t *offsets, size_t first, int segments, int lane)
{
    for (int k = lane; k <= segments; k += 32)
        tile_offsets[k] = offsets[first + k];
}

/* Reads tile `tile`'s offsets into t, then issues the copies of its
 * elements if they fit; returns whether they were issued. */
template <int S, int CAP>
__device__ bool stage(warp_tile<S, CAP> &t, const float *in, const uint64_t *offsets, size_t count,
                      size_t tile, int lane)
{
    const size_t first = tile * 32 * S;
    const int segments = (int)min((size_t)(32 * S), count - first);
    load_offsets(t.offsets, offsets, first, segments, lane);
    __syncwarp();
    const uint64_t first_vector = t.offsets[0] / 4, end_vector = (t.offsets[segments] + 3) / 4;
    if ((end_vector - first_vector) * 4 > (uint64_t)CAP)
        return false;
    for (uint64_t v = first_vector + lane; v < end_vector; v += 32)
        __pipeline_memcpy_async(&t.elements[(v - first_vector) * 4], &in[v * 4], 16);
    return true;
}

/* Lane `lane`'s S segments of tile `tile`, summed from t (or from global
 * memory where the tile was not staged), written as one store. */
template <int S, int CAP>
__device__ void walk(const warp_tile<S, CAP> &t, bool staged, const float *in, size_t count, size_t tile,
                     int lane, float *out)
{
    const size_t first = tile * 32 * S;
    const int segments = (int)min((size_t)(32 * S), count - first);
    const int mine = min(S, segments - lane * S);
    if (mine <= 0)
        return;
    const uint64_t base = t.offsets[0] / 4 * 4;
    float r[S];
    uint64_t j = t.offsets[lane * S];
#pragma unroll
    for (int s = 0; s < S; ++s) {
        float acc = 0.0f;
        if (s < mine) {
            const uint64_t end = t.offsets[lane * S + s + 1];
            if (staged)
                for (unsigned k = (unsigned)(j - base); k < (unsigned)(end - base); ++k)
                    acc += t.elements[k];
            else
                for (uint64_t k = j; k < end; ++k)
                    acc += in[k];
            j = end;
        }
        r[s] = acc;
    }
    float *dst = out + first + lane * S;
    if (mine == S && S % 4 == 0) {
#pragma unroll
        for (int q = 0; q < S / 4; ++q)
            reinterpret_cast<float4 *>(dst)[q] = make_float4(r[4 * q], r[4 * q + 1], r[4 * q + 2], r[4 * q + 3]);
    } else if (mine == S && S == 2) {
        *reinterpret_cast<float2 *>(dst) = make_float2(r[0], r[1]);
    } else {
#pragma unroll
        for (int s = 0; s < S; ++s)
            if (s < mine)
                dst[s] = r[s];
    }
}

template <int S, int CAP>
__global__ __launch_bounds__(BLOCK) void staged(const float *in, const uint64_t *offsets, size_t count, float *out)
{
    extern __shared__ __align__(16) unsigned char shared[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    warp_tile<S, CAP> &t = reinterpret_cast<warp_tile<S, CAP> *>(shared)[warp];
    const size_t tile_count = (count + 32 * S - 1) / (32 * S);
    for (size_t tile = blockIdx.x * (size_t)WARPS + warp; tile < tile_count; tile += (size_t)gridDim.x * WARPS) {
        const bool was_staged = stage(t, in, offsets, count, tile, lane);
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncwarp();
        if (!was_staged && lane == 0)
            atomicAdd(&g_unstaged_tiles, 1ull);
        walk(t, was_staged, in, count, tile, lane, out);
        __syncwarp();
    }
}

template <int S, int CAP>
__global__ __launch_bounds__(BLOCK) void staged_ahead(const float *in, const uint64_t *offsets, size_t count,
                                                      float *out)
{
    extern __shared__ __align__(16) unsigned char shared[];
    warp_tile<S, CAP>(*tiles)[2] = reinterpret_cast<warp_tile<S, CAP>(*)[2]>(shared);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const size_t tile_count = (count + 32 * S - 1) / (32 * S);
    const size_t step = (size_t)gridDim.x * WARPS;
    size_t tile = blockIdx.x * (size_t)WARPS + warp;
    if (tile >= tile_count)
        return;
    int b = 0;
    bool was_staged = stage(tiles[warp][b], in, offsets, count, tile, lane);
    __pipeline_commit();
    for (; tile < tile_count; tile += step, b ^= 1) {
        bool next_staged = false;
        if (tile + step < tile_count)
            next_staged = stage(tiles[warp][b ^ 1], in, offsets, count, tile + step, lane);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncwarp();
        if (!was_staged && lane == 0)
            atomicAdd(&g_unstaged_tiles, 1ull);
        walk(tiles[warp][b], was_staged, in, count, tile, lane, out);
        __syncwarp();
        was_staged = next_staged;
    }
}

/* The sum of elements [a, z) of a staged chunk (from c0), by the whole
 * warp: each lane a strided share, then shuffles. */
__device__ float warp_sum_staged(const float *elements, uint64_t c0, uint64_t a, uint64_t z, int lane)
{
    float part = 0.0f;
    for (uint64_t k = a + lane; k < z; k += 32)
        part += elements[k - c0];
    for (int d = 16; d > 0; d /= 2)
        part += __shfl_xor_sync(~0u, part, d);
    return part;
}

/* A lane's walk of one staged chunk [c0, c1): it sums its segments' pieces
 * up to LONG elements itself (32 in the first chunked run), storing each segment's total in `totals` as
 * it ends; a longer piece stops it, and the whole warp sums that piece, one
 * lane's at a time, before the lanes go on. */
template <int S, int LONG>
__device__ void walk_chunk(const float *elements, const uint64_t *o, uint64_t c0, uint64_t c1, int lane, int mine,
                           int &s, uint64_t &j, float &acc, float *totals)
{
    for (;;) {
        bool wants_warp = false;
        uint64_t piece_end = 0;
        while (s < mine) {
            const uint64_t end = o[lane * S + s + 1];
            const uint64_t stop = min(end, c1);
            if (j < stop && stop - j > (uint64_t)LONG) {
                wants_warp = true;
                piece_end = stop;
                break;
            }
            for (uint64_t k = j; k < stop; ++k)
                acc += elements[k - c0];
            j = max(j, stop);
            if (stop != end)
                break;
            totals[lane * S + s] = acc;
            acc = 0.0f;
            ++s;
        }
        unsigned mask = __ballot_sync(~0u, wants_warp);
        if (!mask)
            return;
        while (mask) {
            const int owner = __ffs(mask) - 1;
            mask &= mask - 1;
            const uint64_t a = __shfl_sync(~0u, j, owner), z = __shfl_sync(~0u, piece_end, owner);
            const float piece = warp_sum_staged(elements, c0, a, z, lane);
            if (lane == owner) {
                acc += piece;
                j = z;
            }
        }
    }
}

/* Tiles of 32 x S segments as in `staged`, their elements copied and
 * walked CAP elements at a time (walk_chunk), so a tile of any length is
 * read from shared memory with whole lines, and long pieces by the warp. */
/* Tiles claimed in turn from a counter (DYNAMIC), not a grid stride: a
 * warp held up by a long tile then takes fewer. The last warp to find the
 * counter past the end sets both counters back to 0 for the next launch. */
__device__ unsigned long long g_next_tile, g_warps_done;

__device__ size_t claim_tile(int lane)
{
    unsigned long long tile = 0;
    if (lane == 0)
        tile = atomicAdd(&g_next_tile, 1ull);
    return __shfl_sync(~0u, tile, 0);
}

__device__ void finish_claims(int lane, unsigned long long warps)
{
    if (lane == 0 && atomicAdd(&g_warps_done, 1ull) == warps - 1) {
        g_next_tile = 0;
        g_warps_done = 0;
    }
}

template <int S, int CAP, int LONG, bool DYNAMIC>
__global__ __launch_bounds__(BLOCK) void chunked(const float *in, const uint64_t *offsets, size_t count, float *out)
{
    extern __shared__ __align__(16) unsigned char shared[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    struct alignas(16) tile_space {
        uint64_t offsets[32 * S + 2];
        float totals[32 * S];
        float elements[CAP];
    };
    tile_space &t = reinterpret_cast<tile_space *>(shared)[warp];
    const size_t tile_count = (count + 32 * S - 1) / (32 * S);
    for (size_t tile = DYNAMIC ? claim_tile(lane) : blockIdx.x * (size_t)WARPS + warp; tile < tile_count;
         tile = DYNAMIC ? claim_tile(lane) : tile + (size_t)gridDim.x * WARPS) {
        const size_t first = tile * 32 * S;
        const int segments = (int)min((size_t)(32 * S), count - first);
        load_offsets(t.offsets, offsets, first, segments, lane);
        __syncwarp();
        const int mine = max(0, min(S, segments - lane * S));
        int s = 0;
        uint64_t j = mine ? t.offsets[lane * S] : 0;
        float acc = 0.0f;
        const uint64_t tile_end = t.offsets[segments];
        for (uint64_t c0 = t.offsets[0] / 4 * 4;; c0 += CAP) {
            const uint64_t end_vector = min(c0 + CAP, (tile_end + 3) / 4 * 4) / 4;
            for (uint64_t v = c0 / 4 + lane; v < end_vector; v += 32)
                __pipeline_memcpy_async(&t.elements[v * 4 - c0], &in[v * 4], 16);
            __pipeline_commit();
            __pipeline_wait_prior(0);
            __syncwarp();
            const uint64_t c1 = min(c0 + CAP, tile_end);
            walk_chunk<S, LONG>(t.elements, t.offsets, c0, c1, lane, mine, s, j, acc, t.totals);
            __syncwarp();
            if (c1 == tile_end)
                break;
        }
        for (int k = lane; k < segments; k += 32)
            out[first + k] = t.totals[k];
        __syncwarp();
    }
    if (DYNAMIC)
        finish_claims(lane, (unsigned long long)gridDim.x * WARPS);
}

/* Runs: a tile's chunk walked by element runs, not by segment owners.
 * Each lane takes CAP / 32 consecutive elements of the chunk, whatever
 * segments they belong to, so every lane has the same work at any lengths.
 * The chunk is staged with its 16-byte pieces swizzled within each lane's
 * run, so that a lane reading its run in order and its neighbours reading
 * theirs hit different banks. A lane finds the segment its run starts in
 * by a binary search of the tile's offsets, adds its elements, and at each
 * segment end stores the total of a segment that began in its run (the
 * first end's total waits for what came before the run); one segmented
 * scan over the lanes then gives each lane the total carried into its run
 * (from the lanes before it, and from the chunk before), which completes
 * the segment of its first end. Empty segments keep the identity written
 * first. */
template <int VPL> __device__ __forceinline__ unsigned swizzled(unsigned v)
{
    return (v & ~(unsigned)(VPL - 1)) | ((v & (VPL - 1)) ^ ((v / VPL) & (VPL - 1)));
}

/* The non-empty segment holding element r0 of a tile: the last i with
 * offsets[i] <= r0 (offsets[0] <= r0 < offsets[segments]). */
__device__ int segment_holding(const uint64_t *offsets, int segments, uint64_t r0)
{
    int lo = 0, hi = segments;
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (offsets[mid] <= r0)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* What the lanes before lane L carry into its run: c(L) = acc(L-1) +
 * (has_end(L-1) ? 0 : c(L-1)), c(0) = chunk_carry - a segmented scan. */
__device__ float carried_in(float acc, bool has_end, float chunk_carry, int lane)
{
    float v = __shfl_up_sync(~0u, acc, 1);
    bool restart = __shfl_up_sync(~0u, has_end, 1);
    if (lane == 0) {
        v = chunk_carry;
        restart = true;
    }
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const float up = __shfl_up_sync(~0u, v, d);
        const bool up_restart = __shfl_up_sync(~0u, restart, d);
        if (lane >= d && !restart) {
            v += up;
            restart = up_restart;
        }
    }
    return v;
}

/* The chunk's vectors from element c0 (a multiple of 4) to end_vector,
 * copied swizzled (each lane's run of VPL vectors rotated by its lane) and
 * waited for. */
template <int VPL>
__device__ void copy_swizzled(float4 *vectors, const float *in, uint64_t c0, uint64_t end_vector, int lane)
{
    for (uint64_t v = c0 / 4 + lane; v < end_vector; v += 32)
        __pipeline_memcpy_async(&vectors[swizzled<VPL>((unsigned)(v - c0 / 4))], &in[v * 4], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncwarp();
}

template <int S, int CAP>
__global__ __launch_bounds__(BLOCK) void runs(const float *in, const uint64_t *offsets, size_t count, float *out)
{
    constexpr int RUN = CAP / 32, VPL = RUN / 4;
    extern __shared__ __align__(16) unsigned char shared[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    struct alignas(16) tile_space {
        uint64_t offsets[32 * S + 2];
        float totals[32 * S];
        float4 vectors[CAP / 4];
    };
    tile_space &t = reinterpret_cast<tile_space *>(shared)[warp];
    const size_t tile_count = (count + 32 * S - 1) / (32 * S);
    for (size_t tile = blockIdx.x * (size_t)WARPS + warp; tile < tile_count; tile += (size_t)gridDim.x * WARPS) {
        const size_t first = tile * 32 * S;
        const int segments = (int)min((size_t)(32 * S), count - first);
        load_offsets(t.offsets, offsets, first, segments, lane);
        for (int k = lane; k < segments; k += 32)
            t.totals[k] = 0.0f;
        __syncwarp();
        const uint64_t tile_begin = t.offsets[0], tile_end = t.offsets[segments];
        float chunk_carry = 0.0f;
        for (uint64_t c0 = tile_begin / 4 * 4; c0 < tile_end; c0 += CAP) {
            copy_swizzled<VPL>(t.vectors, in, c0, min(c0 + CAP, (tile_end + 3) / 4 * 4) / 4, lane);
            const uint64_t c1 = min(c0 + CAP, tile_end);
            const uint64_t window = c0 + (uint64_t)RUN * lane;
            const uint64_t r0 = max(window, tile_begin), r1 = min(window + RUN, c1);
            float acc = 0.0f, head = 0.0f;
            bool has_end = false;
            int first_end_segment = 0;
            if (r0 < r1) {
                const int lo = segment_holding(t.offsets, segments, r0);
                int seg = lo;
                uint64_t next_end = t.offsets[seg + 1];
                /* not unrolled: unrolled, the kernel's code outgrew the
                 * instruction cache (h200_segment_staged_runs_6e69614.log) */
#pragma unroll 1
                for (int q = 0; q < VPL; ++q) {
                    const float4 x4 = t.vectors[lane * VPL + (q ^ (lane & (VPL - 1)))];
                    const float x[4] = {x4.x, x4.y, x4.z, x4.w};
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const uint64_t k = window + 4 * q + e;
                        if (k >= r0 && k < r1) {
                            acc += x[e];
                            if (k + 1 == next_end) {
                                if (!has_end) {
                                    head = acc;
                                    first_end_segment = seg;
                                    has_end = true;
                                } else {
                                    t.totals[seg] = acc;
                                }
                                acc = 0.0f;
                                do
                                    ++seg;
                                while (seg < segments && t.offsets[seg + 1] == k + 1);
                                next_end = seg < segments ? t.offsets[seg + 1] : ~0ull;
                            }
                        }
                    }
                }
            }
            const float v = carried_in(acc, has_end, chunk_carry, lane);
            if (has_end)
                t.totals[first_end_segment] = v + head;
            chunk_carry = __shfl_sync(~0u, has_end ? acc : acc + v, 31);
            __syncwarp();
        }
        for (int k = lane; k < segments; k += 32)
            out[first + k] = t.totals[k];
        __syncwarp();
    }
}

/* Bit runs: the element-run walk with no branch an element. Before its
 * walk a lane marks the places in its run where segments end (a bit each,
 * from the tile's offsets: a short loop over the ends in its run); each
 * non-empty segment has a rank among the tile's non-empty segments
 * (a ballot a 32 segments), so a lane's k-th end is the total of rank
 * first_rank + k. The walk then adds each element, and at a set bit stores
 * the total by its rank (a predicated store) and starts again; the
 * first end's total waits for the scan, as in `runs`. The tile's results
 * leave from the ranks, the identity for empty segments. CAP 2048: a run
 * of 64 elements, its ends one 64-bit word. */
template <int S>
__global__ __launch_bounds__(BLOCK) void bit_runs(const float *in, const uint64_t *offsets, size_t count, float *out)
{
    constexpr int CAP = 2048, RUN = CAP / 32, VPL = RUN / 4;
    extern __shared__ __align__(16) unsigned char shared[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    struct alignas(16) tile_space {
        float4 vectors[CAP / 4];
        uint64_t offsets[32 * S + 2];
        float by_rank[32 * S];
        unsigned short rank[32 * S];
    };
    tile_space &t = reinterpret_cast<tile_space *>(shared)[warp];
    const size_t tile_count = (count + 32 * S - 1) / (32 * S);
    for (size_t tile = blockIdx.x * (size_t)WARPS + warp; tile < tile_count; tile += (size_t)gridDim.x * WARPS) {
        const size_t first = tile * 32 * S;
        const int segments = (int)min((size_t)(32 * S), count - first);
        load_offsets(t.offsets, offsets, first, segments, lane);
        __syncwarp();
        unsigned ranked = 0;
        for (int g = 0; g < segments; g += 32) {
            const int i = g + lane;
            const bool filled = i < segments && t.offsets[i] < t.offsets[i + 1];
            const unsigned ballot = __ballot_sync(~0u, filled);
            if (i < segments)
                t.rank[i] = (unsigned short)(ranked + __popc(ballot & ((1u << lane) - 1)));
            ranked += __popc(ballot);
        }
        __syncwarp();
        const uint64_t tile_begin = t.offsets[0], tile_end = t.offsets[segments];
        float chunk_carry = 0.0f;
        for (uint64_t c0 = tile_begin / 4 * 4; c0 < tile_end; c0 += CAP) {
            copy_swizzled<VPL>(t.vectors, in, c0, min(c0 + CAP, (tile_end + 3) / 4 * 4) / 4, lane);
            const uint64_t c1 = min(c0 + CAP, tile_end);
            const uint64_t window = c0 + (uint64_t)RUN * lane;
            const uint64_t r0 = max(window, tile_begin), r1 = min(window + RUN, c1);
            float acc = 0.0f, head = 0.0f;
            unsigned ends = 0, first_rank = 0;
            if (r0 < r1) {
                const int lo = segment_holding(t.offsets, segments, r0);
                first_rank = t.rank[lo];
                uint64_t end_bits = 0;
                for (int j = lo + 1; j <= segments && t.offsets[j] <= r1; ++j)
                    end_bits |= 1ull << (unsigned)(t.offsets[j] - 1 - window);
                const unsigned a = (unsigned)(r0 - window), b = (unsigned)(r1 - window);
                uint64_t inside = (b == 64 ? ~0ull : (1ull << b) - 1) & ~((1ull << a) - 1);
#pragma unroll 1
                for (int q = 0; q < VPL; ++q) {
                    const float4 x4 = t.vectors[lane * VPL + (q ^ (lane & (VPL - 1)))];
                    const float x[4] = {x4.x, x4.y, x4.z, x4.w};
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        acc += (inside >> e) & 1 ? x[e] : 0.0f;
                        const bool end = (end_bits >> e) & 1;
                        head = end && ends == 0 ? acc : head;
                        if (end && ends != 0)
                            t.by_rank[first_rank + ends] = acc;
                        ends += end;
                        acc = end ? 0.0f : acc;
                    }
                    inside >>= 4;
                    end_bits >>= 4;
                }
            }
            const bool has_end = ends != 0;
            const float v = carried_in(acc, has_end, chunk_carry, lane);
            if (has_end)
                t.by_rank[first_rank] = v + head;
            chunk_carry = __shfl_sync(~0u, has_end ? acc : acc + v, 31);
            __syncwarp();
        }
        for (int k = lane; k < segments; k += 32)
            out[first + k] = t.offsets[k] < t.offsets[k + 1] ? t.by_rank[t.rank[k]] : 0.0f;
        __syncwarp();
    }
}

struct buffers {
    float *values, *results, *flush, *sink;
    uint64_t *offsets;
    size_t n, count, flush_floats;
    int sms;
};

/* Median of 100 cold samples of launch(); checks the results when `check`. */
template <class Launch>
static int time_kernel(const char *name, const buffers &b, size_t mean, Launch launch,
                       const std::vector<double> *want)
{
    cudaEvent_t start, stop;
    CUDA_TRY(cudaEventCreate(&start));
    CUDA_TRY(cudaEventCreate(&stop));
    std::vector<float> us;
    unsigned long long zero = 0, unstaged = 0;
    CUDA_TRY(cudaMemcpyToSymbol(g_unstaged_tiles, &zero, sizeof zero));
    for (int s = 0; s < 105; ++s) {
        values_alone<<<b.sms * 8, 256>>>(reinterpret_cast<const float4 *>(b.flush), b.flush_floats / 4, b.sink);
        CUDA_TRY(cudaGetLastError());
        CUDA_TRY(cudaEventRecord(start));
        launch();
        CUDA_TRY(cudaGetLastError());
        CUDA_TRY(cudaEventRecord(stop));
        CUDA_TRY(cudaEventSynchronize(stop));
        float ms = 0.0f;
        CUDA_TRY(cudaEventElapsedTime(&ms, start, stop));
        if (s >= 5)
            us.push_back(ms * 1000.0f);
    }
    CUDA_TRY(cudaMemcpyFromSymbol(&unstaged, g_unstaged_tiles, sizeof unstaged));
    int wrong = 0;
    if (want) {
        std::vector<float> got(b.count);
        CUDA_TRY(cudaMemcpy(got.data(), b.results, b.count * 4, cudaMemcpyDeviceToHost));
        for (size_t s = 0; s < b.count; ++s)
            if (std::fabs(got[s] - (*want)[s]) > 1e-4 * (1.0 + std::fabs((*want)[s])) && wrong++ < 3)
                std::printf("  WRONG %s segment %zu: got %.7g want %.7g\n", name, s, got[s], (*want)[s]);
    }
    std::sort(us.begin(), us.end());
    const double median = (us[49] + us[50]) / 2.0;
    const double bytes = 4.0 * b.n + (mean ? 8.0 * (b.count + 1) + 4.0 * b.count : 0.0);
    std::printf("mean %-3zu %-22s median_us %8.2f min_us %8.2f GB/s %8.1f%s", mean, name, median, us[0],
                bytes / (median * 1e3), want ? (wrong ? "  FAIL" : "  ok") : "");
    if (unstaged)
        std::printf("  (%llu tiles not staged, over 100 runs)", unstaged / 105);
    std::printf("\n");
    CUDA_TRY(cudaEventDestroy(start));
    CUDA_TRY(cudaEventDestroy(stop));
    return wrong ? 1 : 0;
}

/* Grid: every resident block of `kernel` with `shared` bytes, on every SM. */
template <class Kernel> static int resident_grid(Kernel kernel, int threads, size_t shared, int sms, int *grid)
{
    int blocks = 0;
    CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared));
    *grid = blocks * sms;
    return blocks > 0 ? 0 : 1;
}

template <int S, int CAP> static int time_staged(const buffers &b, size_t mean, const std::vector<double> &want)
{
    char name[64];
    const size_t shared = WARPS * sizeof(warp_tile<S, CAP>);
    int grid = 0, grid_ahead = 0;
    PROPAGATE(resident_grid(staged<S, CAP>, BLOCK, shared, b.sms, &grid));
    PROPAGATE(resident_grid(staged_ahead<S, CAP>, BLOCK, 2 * shared, b.sms, &grid_ahead));
    std::snprintf(name, sizeof name, "staged S%d cap%d g%d", S, CAP, grid / b.sms);
    int bad = time_kernel(name, b, mean,
                          [&] { staged<S, CAP><<<grid, BLOCK, shared>>>(b.values, b.offsets, b.count, b.results); },
                          &want);
    std::snprintf(name, sizeof name, "ahead S%d cap%d g%d", S, CAP, grid_ahead / b.sms);
    bad |= time_kernel(name, b, mean,
                       [&] { staged_ahead<S, CAP><<<grid_ahead, BLOCK, 2 * shared>>>(b.values, b.offsets, b.count, b.results); },
                       &want);
    return bad;
}

template <int S, int CAP, int LONG = 32, bool DYNAMIC = false>
static int time_chunked(const buffers &b, size_t mean, const std::vector<double> &want)
{
    char name[64];
    const size_t shared = WARPS * (8 * (32 * S + 2) + 4 * 32 * S + 4 * CAP);
    int grid = 0;
    PROPAGATE(resident_grid(chunked<S, CAP, LONG, DYNAMIC>, BLOCK, shared, b.sms, &grid));
    std::snprintf(name, sizeof name, "chunked S%d cap%d L%d%s g%d", S, CAP, LONG, DYNAMIC ? " dyn" : "",
                  grid / b.sms);
    return time_kernel(name, b, mean,
                       [&] { chunked<S, CAP, LONG, DYNAMIC><<<grid, BLOCK, shared>>>(b.values, b.offsets, b.count, b.results); },
                       &want);
}

template <int S, int CAP> static int time_runs(const buffers &b, size_t mean, const std::vector<double> &want)
{
    char name[64];
    const size_t shared = WARPS * (8 * (32 * S + 2) + 4 * 32 * S + 4 * CAP);
    int grid = 0;
    PROPAGATE(resident_grid(runs<S, CAP>, BLOCK, shared, b.sms, &grid));
    std::snprintf(name, sizeof name, "runs S%d cap%d g%d", S, CAP, grid / b.sms);
    return time_kernel(name, b, mean,
                       [&] { runs<S, CAP><<<grid, BLOCK, shared>>>(b.values, b.offsets, b.count, b.results); }, &want);
}

template <int S> static int time_bit_runs(const buffers &b, size_t mean, const std::vector<double> &want)
{
    char name[64];
    const size_t shared = WARPS * (2048 * 4 + 8 * (32 * S + 2) + 4 * 32 * S + 2 * 32 * S + 15) / 16 * 16;
    int grid = 0;
    PROPAGATE(resident_grid(bit_runs<S>, BLOCK, shared, b.sms, &grid));
    std::snprintf(name, sizeof name, "bit_runs S%d g%d", S, grid / b.sms);
    return time_kernel(name, b, mean,
                       [&] { bit_runs<S><<<grid, BLOCK, shared>>>(b.values, b.offsets, b.count, b.results); }, &want);
}

/* Lengths as the suite draws them (xorshift here): uniform:MEAN, uniform in
 * 0 .. 2 x MEAN; powerlaw:MEAN, floor((MEAN + 1/2) (1/sqrt(u) - 1)) for u
 * uniform in (0, 1]; as many as fill n. */
static std::vector<uint64_t> draw_offsets(size_t n, bool powerlaw, size_t mean, uint64_t seed)
{
    std::vector<uint64_t> o{0};
    uint64_t x = seed;
    while (o.back() < n) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const double u = ((x >> 11) + 1) * (1.0 / 9007199254740992.0);
        const uint64_t length = powerlaw ? (uint64_t)std::min(1e15, std::floor((mean + 0.5) * (1.0 / std::sqrt(u) - 1.0)))
                                         : x % (2 * mean + 1);
        o.push_back(std::min<uint64_t>(n, o.back() + length));
    }
    return o;
}

static int time_spec(buffers &b, const std::vector<float> &host, bool powerlaw, size_t mean)
{
    const std::vector<uint64_t> o = draw_offsets(b.n, powerlaw, mean, 0x9e3779b97f4a7c15ull + mean);
    b.count = o.size() - 1;
    uint64_t longest = 0;
    for (size_t s = 0; s < b.count; ++s)
        longest = std::max<uint64_t>(longest, o[s + 1] - o[s]);
    std::printf("-- %s:%zu, %zu segments, the longest %llu\n", powerlaw ? "powerlaw" : "uniform", mean, b.count,
                (unsigned long long)longest);
    CUDA_TRY(cudaMemcpy(b.offsets, o.data(), o.size() * 8, cudaMemcpyHostToDevice));
    std::vector<double> want(b.count);
    for (size_t s = 0; s < b.count; ++s)
        for (uint64_t j = o[s]; j < o[s + 1]; ++j)
            want[s] += host[j];
    const int grid = b.sms * 16;
    int bad = time_kernel("thread_per_segment", b, mean,
                          [&] { thread_per_segment<<<grid, 256>>>(b.values, b.offsets, b.count, b.results); }, &want);
    if (!powerlaw)
        bad |= time_staged<2, 1024>(b, mean, want);
    bad |= time_chunked<2, 2048>(b, mean, want);
    bad |= time_runs<8, 2048>(b, mean, want);
    bad |= time_bit_runs<2>(b, mean, want);
    bad |= time_bit_runs<8>(b, mean, want);
    bad |= time_bit_runs<16>(b, mean, want);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s N SPEC... (N a multiple of 4; SPEC uMEAN or pMEAN, MEAN 2 .. 1000)\n", argv[0]);
        return 2;
    }
    buffers b{};
    b.n = std::strtoull(argv[1], nullptr, 10);
    if (b.n == 0 || b.n % 4 != 0) {
        std::fprintf(stderr, "N must be a positive multiple of 4\n");
        return 2;
    }
    b.flush_floats = (512ull << 20) / 4;
    CUDA_TRY(cudaDeviceGetAttribute(&b.sms, cudaDevAttrMultiProcessorCount, 0));
    CUDA_TRY(cudaMalloc(&b.values, b.n * 4));
    CUDA_TRY(cudaMalloc(&b.offsets, (b.n + 2) * 8));
    CUDA_TRY(cudaMalloc(&b.results, (b.n + 4) * 4));
    CUDA_TRY(cudaMalloc(&b.flush, b.flush_floats * 4));
    CUDA_TRY(cudaMalloc(&b.sink, 4));
    CUDA_TRY(cudaMemset(b.flush, 0x3f, b.flush_floats * 4));
    std::vector<float> host(b.n);
    uint64_t x = 88172645463325252ull;
    for (float &v : host) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        v = (float)(x % 1000) / 1000.0f;
    }
    CUDA_TRY(cudaMemcpy(b.values, host.data(), b.n * 4, cudaMemcpyHostToDevice));
    int bad = time_kernel("values alone", b, 0,
                          [&] { values_alone<<<b.sms * 8, 256>>>(reinterpret_cast<const float4 *>(b.values), b.n / 4, b.sink); },
                          nullptr);
    for (int a = 2; a < argc; ++a) {
        const bool powerlaw = argv[a][0] == 'p';
        const size_t mean = std::strtoull(argv[a] + 1, nullptr, 10);
        if ((argv[a][0] != 'u' && !powerlaw) || mean < 2 || mean > 1000) {
            std::fprintf(stderr, "%s: uMEAN or pMEAN (uniform, powerlaw), MEAN 2 .. 1000\n", argv[a]);
            return 2;
        }
        bad |= time_spec(b, host, powerlaw, mean);
    }
    bad |= time_kernel("values alone", b, 0,
                       [&] { values_alone<<<b.sms * 8, 256>>>(reinterpret_cast<const float4 *>(b.values), b.n / 4, b.sink); },
                       nullptr);
    return bad;
}
