/* Step 27 - narrow rows packed in vectors: whole rows in each thread's
 * registers.
 *
 * Idea: rows of W elements tile the input's 16-byte grid in runs of
 * lcm(W, V) elements (V = 16 / sizeof(T) a vector): for floats, one vector
 * holds 4 rows of 1 or 2 of 2, three vectors 4 rows of 3, two vectors one
 * row of 8. When the input starts on a 16-byte boundary a thread loads such
 * a run, adds each of its rows in registers - no shuffles, no barrier - and
 * writes their accumulators together (16-byte stores where they fill one).
 * Arg results are 16 bytes each, so a thread's few of them lie far from the
 * next lane's: a warp stages its results in shared memory and writes them
 * in 512-byte runs (with each lane's own stores it was slower than
 * tiled_rows at 1-3 columns:
 * bench/results/experiments/h100_arg_results_written_whole_54a6f78.log;
 * staged, faster for floats:
 * bench/results/experiments/h100_packed_rows_warp_stores_c69baa7.log; with
 * each lane's slots rotated against bank conflicts, faster for half too:
 * bench/results/experiments/h100_packed_rotation_and_eight_block_argmax_32ab4e8_new.log). A
 * thread takes CHUNKS runs at a time (about four vectors in flight, as
 * step 17), a persistent grid walks the rest; the last rows
 * that fill no run are one thread's. The widths are compile-time
 * (packed_rows.cuh: 1-4, 8, 16); a warp's loads of one batch cover one
 * contiguous stretch, each vector read once from DRAM (the strided loads'
 * other halves hit in L1).
 *
 * Fixes from tiled_rows (step 23) and group_per_row (22): at widths 2-4 a
 * row there costs a staged store, a barrier share and a thread's index
 * arithmetic, which left tiled_rows at widths 2 and 3 well behind the whole
 * array, and group_per_row at width 8 behind CUB 3.5's fixed-size rows
 * (bench/results/h100_rows_sweep_cccl35_d3ac2a0.json). Here a row is a few
 * additions in registers. Flaws: only the packed widths, from a 16-byte
 * aligned input and result pointer; any other rows (or an input one element
 * off) are handed to tiled_rows.
 *
 * Expected cost: the bytes read and written at the rate of a read-and-write
 * stream, plus a launch - counting the results, above the whole array's
 * read-only rate at widths 1-4, where the results are a large share of the
 * bytes (bench/NOTES.md, session 7;
 * bench/results/h100_rows_sweep_cccl35_d3ac2a0.json).
 *   bench_compare --cols 3 -m packed_rows
 */
#include <cstring>

#include "cuda_check.h"
#include "grid_size.cuh"
#include "method.cuh"
#include "packed_rows.cuh"
#include "row_spans.cuh"
#include "vector_loads.cuh"

extern "C" const struct method method_tiled_rows;

namespace {

constexpr int BLOCK = 256;

/* Rows of W elements on the 16-byte grid: the smallest run of whole vectors
 * that holds whole rows - lcm(W, V) elements, VECTORS loads - and the ROWS
 * rows in it; CHUNKS such runs a thread per batch, so that four 16-byte
 * loads are in flight, eight for runs of 4-7 vectors (width 16 floats, a
 * run of four, fell behind CUB 3.5's fixed-size rows with one run a batch:
 * bench/NOTES.md, session 7). */
template <int W, class T> struct packing {
    static constexpr size_t V = VECTOR_WIDTH<T>;
    static constexpr size_t ELEMENTS = lcm(W, V);
    static constexpr size_t VECTORS = ELEMENTS / V;
    static constexpr size_t ROWS = ELEMENTS / W;
    static constexpr int CHUNKS = VECTORS >= 8 ? 1 : VECTORS >= 4 ? 2 : 4 / (int)VECTORS;
};

/* A group's ROWS results, stored 16, 8 or 4 bytes at a time: whatever their
 * size divides (a group's results start at a multiple of their size). */
template <size_t ROWS, class A> __device__ __forceinline__ void store_results(A *dst, const A (&r)[ROWS])
{
    constexpr size_t BYTES = ROWS * sizeof(A);
    if constexpr (is_arg_pair_v<A>) {
#pragma unroll
        for (size_t s = 0; s < ROWS; ++s)
            store_result(&dst[s], r[s]);
    } else if constexpr (BYTES % 16 == 0) {
        uint4 packed[BYTES / 16];
        memcpy(packed, r, BYTES);
#pragma unroll
        for (size_t s = 0; s < BYTES / 16; ++s)
            reinterpret_cast<uint4 *>(dst)[s] = packed[s];
    } else if constexpr (BYTES % 8 == 0) {
        uint2 packed[BYTES / 8];
        memcpy(packed, r, BYTES);
#pragma unroll
        for (size_t s = 0; s < BYTES / 8; ++s)
            reinterpret_cast<uint2 *>(dst)[s] = packed[s];
    } else {
#pragma unroll
        for (size_t s = 0; s < ROWS; ++s)
            dst[s] = r[s];
    }
}

/* A whole warp's results, 32 x ROWS of them in a row from warp_dst: arg
 * results are 16 bytes, so each lane's ROWS lie 16 x ROWS bytes from the
 * next lane's, and a store instruction would write a few bytes of many
 * lines. Staged in shared memory, they leave in ROWS stores of 512
 * consecutive bytes a warp. A lane's results sit in its ROWS slots rotated
 * by the lane (slot i ^ lane % ROWS): written lane by lane 16 x ROWS bytes
 * apart, the eight lanes of a 16-byte access would otherwise meet in the
 * same four banks - eight ways for the eight results a lane of half rows. */
template <size_t ROWS, class A> __device__ __forceinline__ void store_warp_results(A *warp_dst, const A (&r)[ROWS])
{
    static_assert(sizeof(A) == sizeof(uint4), "16-byte results");
    static_assert((ROWS & (ROWS - 1)) == 0, "a power of two results a lane");
    __shared__ uint4 stage[BLOCK / 32][32 * ROWS];
    uint4 *warp_stage = stage[threadIdx.x / 32];
    const unsigned lane = threadIdx.x % 32;
    const auto slot = [](size_t owner, size_t i) { return owner * ROWS + (i ^ (owner % ROWS)); };
#pragma unroll
    for (size_t i = 0; i < ROWS; ++i)
        store_result(reinterpret_cast<A *>(&warp_stage[slot(lane, i)]), r[i]);
    __syncwarp();
#pragma unroll
    for (size_t s = 0; s < ROWS; ++s) {
        const size_t result = s * 32 + lane;
        reinterpret_cast<uint4 *>(warp_dst)[result] = warp_stage[slot(result / ROWS, result % ROWS)];
    }
    __syncwarp(); /* read before the next batch writes the stage again */
}

/* The ROWS results of group `group` of `groups`: arg results a warp at a
 * time where all 32 of the warp's groups exist (its groups are consecutive,
 * so the last tells), any other results or groups the thread's own. */
template <size_t ROWS, class A>
__device__ __forceinline__ void store_group(A *out, size_t group, size_t groups, const A (&r)[ROWS])
{
    if constexpr (is_arg_pair_v<A> && ROWS > 1) {
        const size_t warp_first = group - threadIdx.x % 32;
        if (warp_first + 32 <= groups) {
            store_warp_results<ROWS>(out + warp_first * ROWS, r);
            return;
        }
    }
    store_results<ROWS>(out + group * ROWS, r);
}

template <int W, class T, class Op>
__global__ __launch_bounds__(BLOCK) void packed_rows_kernel(const T *__restrict__ in, size_t rows,
                                                            result_t<T, Op> *__restrict__ out)
{
    using A = result_t<T, Op>;
    using P = packing<W, T>;
    const Op op;
    const uint4 *vectors = reinterpret_cast<const uint4 *>(in);
    const size_t groups = rows / P::ROWS;
    const size_t threads = (size_t)gridDim.x * BLOCK;

    for (size_t first = blockIdx.x * (size_t)BLOCK + threadIdx.x; first < groups;
         first += threads * P::CHUNKS) {
        uint4 v[P::CHUNKS][P::VECTORS];
#pragma unroll
        for (int k = 0; k < P::CHUNKS; ++k)
            if (first + k * threads < groups)
#pragma unroll
                for (size_t j = 0; j < P::VECTORS; ++j)
                    v[k][j] = __ldg(&vectors[(first + k * threads) * P::VECTORS + j]);
#pragma unroll
        for (int k = 0; k < P::CHUNKS; ++k) {
            const size_t group = first + k * threads;
            if (group >= groups)
                break;
            T e[P::ELEMENTS];
            memcpy(e, v[k], sizeof e); /* a bit cast: stays in registers */
            A r[P::ROWS];
#pragma unroll
            for (size_t i = 0; i < P::ROWS; ++i) {
                r[i] = identity<Op, A>();
#pragma unroll
                for (int c = 0; c < W; ++c)
                    r[i] = op(r[i], lift<Op>(e[i * W + c], c));
            }
            store_group<P::ROWS>(out, group, groups, r);
        }
    }
    /* The last rows % ROWS rows: fewer than a group, one thread's. */
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (size_t row = groups * P::ROWS; row < rows; ++row) {
            A acc = identity<Op, A>();
            for (int c = 0; c < W; ++c)
                acc = op(acc, lift<Op>(in[row * W + c], c));
            store_result(&out[row], acc);
        }
}

template <class T, class Op> struct packed_rows_launch {
    template <int W>
    static int launch(const T *d_in, size_t rows, result_t<T, Op> *d_out, cudaStream_t stream)
    {
        using P = packing<W, T>;
        const auto kernel = packed_rows_kernel<W, T, Op>;
        int grid = 0;
        PROPAGATE(capped_resident_grid((const void *)kernel, BLOCK, rows / P::ROWS + 1,
                                       (size_t)BLOCK * P::CHUNKS, &grid));
        kernel<<<grid, BLOCK, 0, stream>>>(d_in, rows, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }

    static int run(const T *d_in, reduce_shape shape, result_t<T, Op> *d_out, void *,
                   cudaStream_t stream)
    {
        switch (shape.cols) {
        case 1: return launch<1>(d_in, shape.count, d_out, stream);
        case 2: return launch<2>(d_in, shape.count, d_out, stream);
        case 3: return launch<3>(d_in, shape.count, d_out, stream);
        case 4: return launch<4>(d_in, shape.count, d_out, stream);
        case 8: return launch<8>(d_in, shape.count, d_out, stream);
        default: return launch<16>(d_in, shape.count, d_out, stream);
        }
    }
};

/* Rows of a packed width (packed_rows.cuh) from and into 16-byte aligned
 * buffers here; any other shape to tiled_rows. */
int packed_or_tiled_rows(reduce_spec spec, reduce_shape shape, const void *d_in, size_t n,
                          void *d_out, void *workspace, cudaStream_t stream)
{
    const bool aligned = (uintptr_t)d_in % 16 == 0 && (uintptr_t)d_out % 16 == 0;
    if (shape.kind != SHAPE_ROWS || !packs_width(shape.cols) || !aligned)
        return method_tiled_rows.launch(spec, shape, d_in, n, d_out, workspace, stream);
    if (shape.count == 0)
        return 0;
    return launch_any_pair<packed_rows_launch, ALL_OPS>(spec, shape, d_in, n, d_out, workspace,
                                                        stream);
}

} // namespace

DEFINE_METHOD(packed_rows, .family = FAMILY_ROWS, .source = "this suite: rows, step 27",
              .idea = "rows of 1-4 elements: 16-byte vectors hold whole rows, added in registers",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = packed_or_tiled_rows,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements in order */
              /* its rows' chains, or tiled_rows' (wider rows) */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS));
