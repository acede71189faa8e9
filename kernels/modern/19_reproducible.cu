/* Step 19 - reproducible: the same bits on any grid, SM count or GPU.
 *
 * Idea: fixed tiles, an exact sum of the tiles. The input is cut into tiles
 * of 4 KiB as a function of n and its address's alignment alone
 * (fixed_tiles.cuh). Whichever warp takes a tile sums it the same way: each
 * lane adds its 8 vectors' elements in double in a fixed tree, then the warp
 * adds its lanes with a fixed butterfly of shuffles (every lane ends with the
 * same bits: IEEE addition is commutative). The tile sums - and the head and
 * tail elements - are then added exactly, as integers, into a long
 * accumulator spread over the warp's lanes (superaccumulator.cuh); blocks
 * add their warps' integers in shared memory, the grid adds the blocks' in
 * the workspace, and the last block done rounds the total once. Integer
 * addition is associative: which warp took which tile, how many blocks there
 * were and in what order they finished change no bit. The result depends on
 * the data, n and the input's offset from a 16-byte boundary only.
 * Accuracy: a tile's double sum (a tree 10 deep for floats, 11 for halves)
 * errs by at most 11 units of 2^-53 of its sum of |x|, and the total is
 * rounded once. For float data of one sign that is the correctly rounded sum
 * unless the true sum lies within that error of a rounding boundary (a few
 * in 10^8 sums); cancelling data can be off by more (step 20 is exact).
 * Doubles near the top of their range: a tile whose double sum overflows
 * makes the result infinite even if the total would not.
 *
 * Fixes from step 17 (one_pass_ilp): there, the partial each thread keeps
 * depends on the grid (thread i adds every grid-th vector), so another GPU
 * - another SM count, another resident grid - rounds differently. Here the
 * grid only decides who does a tile, not what a tile is.
 *
 * Types: floating-point sums (float, double, half and bfloat16, the last two
 * reduced in float as everywhere). Integer sums, max and min have the same
 * bits in any order already (step 17 gives them).
 *
 * Cost: memory-bound like step 17. Per 16 bytes each lane converts its
 * floats to double and adds them (F2F and DADD: Hopper's FP64 units have
 * room to spare at this rate); per 4 KiB tile the warp spends 5 shuffle rounds
 * and ~25 integer instructions per lane on the exact addition. Blocks of 512
 * threads, two per SM (64 registers each): 32 warps x 4 KiB = 128 KiB of loads
 * in flight per SM, eight a lane in the machine code too
 * (bench/results/experiments/sass_loads_in_flight_sm90_07f98d2.txt), twice
 * step 17's float sum (one block of 1024 an SM, four 16-byte loads a
 * thread). The end adds to step 17's last block
 * 11 limbs (69 for double) of integer atomics, then one thread resolves the
 * carries and rounds. Expected: close to step 17 at 64 MiB and 1 GiB, and
 * ahead of CUB's gpu_to_gpu mode, which allocates inside the call
 * (bench/results/h100_cubmodes_64mib.md, h100_cubmodes_1gib.md).
 *   bench_compare -m one_pass_ilp,reproducible,cub_reproducible [-t double]
 */
#include <cstring>

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "fixed_tiles.cuh"
#include "grid_size.cuh"
#include "method.cuh"
#include "superaccumulator.cuh"
#include "tile_launch.cuh"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 512;
constexpr int WARPS = BLOCK / 32;

template <class T> __device__ __forceinline__ double as_double(T x) { return (double)widen(x); }

/* A fixed tree over COUNT doubles: (a + b) + (c + d), ... */
template <int FIRST, int COUNT> __device__ __forceinline__ double tree_sum(const double *v)
{
    if constexpr (COUNT == 1)
        return v[FIRST];
    else
        return tree_sum<FIRST, COUNT / 2>(v) + tree_sum<FIRST + COUNT / 2, COUNT - COUNT / 2>(v);
}

/* One 16-byte vector's elements, in double, in a fixed tree. */
template <class T> __device__ __forceinline__ double vector_sum(uint4 raw)
{
    constexpr int W = VECTOR_WIDTH<T>;
    T e[W];
    memcpy(e, &raw, sizeof raw); /* a bit cast: stays in registers */
    double d[W];
#pragma unroll
    for (int i = 0; i < W; ++i)
        d[i] = as_double(e[i]);
    return tree_sum<0, W>(d);
}

/* The warp's total on every lane: a butterfly, the same additions in the
 * same order on every GPU (a + b == b + a bit for bit). */
__device__ __forceinline__ double warp_sum(double v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(FULL_WARP_MASK, v, offset);
    return v;
}

template <class T>
__global__ __launch_bounds__(BLOCK, 2) void reproducible_kernel(const T *__restrict__ in, size_t n,
                                                                acc_t<T> *__restrict__ out, void *workspace)
{
    using R = acc_t<T>;
    const tile_plan plan = plan_tiles((cuda::std::uintptr_t)in, n, sizeof(T));
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in + plan.head);
    const unsigned lane = threadIdx.x % 32;
    const size_t warp = blockIdx.x * (size_t)WARPS + threadIdx.x / 32;
    const size_t warps = (size_t)gridDim.x * WARPS;

    warp_superaccumulator<R> acc;
    for (size_t tile = warp; tile < plan.tiles; tile += warps) {
        const size_t first = tile * TILE_VECTORS + lane;
        double lane_sums[TILE_LOADS];
        if (first + 32 * (TILE_LOADS - 1) < plan.body_vectors) {
            uint4 v[TILE_LOADS]; /* every load issued before the first use */
#pragma unroll
            for (int k = 0; k < TILE_LOADS; ++k)
                v[k] = __ldg(&body[first + 32 * k]);
#pragma unroll
            for (int k = 0; k < TILE_LOADS; ++k)
                lane_sums[k] = vector_sum<T>(v[k]);
        } else { /* the last, short tile: missing vectors count as 0 */
#pragma unroll
            for (int k = 0; k < TILE_LOADS; ++k)
                lane_sums[k] = first + 32 * k < plan.body_vectors ? vector_sum<T>(__ldg(&body[first + 32 * k]))
                                                                  : 0.0;
        }
        acc.add(warp_sum(tree_sum<0, TILE_LOADS>(lane_sums)));
    }
    if (warp == 0) { /* head and tail: at most 2 x 7 elements, each added exactly */
        for (size_t i = 0; i < plan.head; ++i)
            acc.add(as_double(in[i]));
        for (size_t i = plan.tail_start; i < n; ++i)
            acc.add(as_double(in[i]));
    }
    superaccumulator_grid_total<BLOCK>(acc, out, workspace);
}

struct reproducible_kernels {
    template <class T> static constexpr auto of() { return reproducible_kernel<T>; }
};
template <class T, class Op> using reproducible_launch = tile_sum_launch<T, Op, reproducible_kernels, BLOCK>;

} // namespace

DEFINE_METHOD(reproducible, .family = FAMILY_MODERN, .source = "this suite: whole array, step 19 (after ExBLAS, ReproBLAS)",
              .idea = "fixed 4 KiB tiles summed in double, tile sums added exactly as integers: any grid, same bits",
              .types = TYPE_BIT(TYPE_FLOAT) | TYPE_BIT(TYPE_DOUBLE) | TYPE_BIT(TYPE_HALF) | TYPE_BIT(TYPE_BFLOAT16),
              .ops = OP_BIT(OP_SUM),
              .unsupported_why = "floating-point sums only: integer sums, max and min are the same bits in any order "
                                 "(one_pass_ilp)",
              .launch = launch_any_pair<reproducible_launch>, .workspace = workspace_any_pair<reproducible_launch>,
              /* a tile's double tree (at most 11 deep, for halves), then the exact tile
                 sums and one rounding: 12 roundings at most for any n */
              .flags = METHOD_GRID_INDEPENDENT, .order = {.kind = ORDER_FIXED_DEPTH, .depth = 12});
