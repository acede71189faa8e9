/* Step 27 - rows narrower than a vector: several whole rows in each thread's
 * registers.
 *
 * Idea: at width W <= 4 elements, W 16-byte vectors hold exactly V whole
 * rows (V = 16 / sizeof(T) elements a vector: W x V elements either way), so
 * when the input starts on a 16-byte boundary a thread loads W vectors,
 * adds each of its V rows in registers - no shared memory, no shuffles, no
 * barrier - and writes the V accumulators with 16-byte stores. A thread
 * takes CHUNKS such groups of rows at a time (about four vectors in flight,
 * as step 17), a persistent grid walks the rest; the last rows % V rows are
 * one thread's. A warp's W loads of one batch cover one contiguous stretch,
 * each vector read once from DRAM (the stride-W pattern's other vectors hit
 * in L1).
 *
 * Fixes from tiled_rows (step 23): at widths 2-4 a row there costs a staged
 * store, a barrier share and a thread's index arithmetic per row; measured
 * on an H100 (64 MiB float, cold, median of 100) tiled_rows read widths 2
 * and 3 at 1912 and 1932 GB/s (counting the results) against the whole
 * array's 2433. Here a row is a few additions in registers. Flaws: only
 * rows of 1-4 elements from a 16-byte aligned input and result pointer; any
 * other rows (wider, or an input one element off) are handed to tiled_rows.
 *
 * Expected cost, 64 MiB float on an H100 (a PREDICTION, not measured: bytes
 * read + written / ~2.6 TB/s, a copy's rate, + ~3 us launch): width 1:
 * 134 MB -> 51.6 + 3 = ~55 us (as tiled_rows, which measured 2065 GB/s =
 * 65 us); width 2: 101 MB -> ~42 us (tiled: 52.6); width 3: 89.5 MB ->
 * ~37 us (tiled: 46.3); width 4: 83.9 MB -> ~35 us.
 *   bench_compare --cols 3 -m packed_rows
 */
#include <cstring>

#include "cuda_check.h"
#include "grid_size.cuh"
#include "method.cuh"
#include "row_spans.cuh"
#include "vector_loads.cuh"

extern "C" const struct method method_tiled_rows;

namespace {

constexpr int BLOCK = 256;
constexpr size_t MAX_WIDTH = 4;

/* Rows of W elements, V of them (one group) from W vectors: CHUNKS groups a
 * thread per batch, so that about four 16-byte loads are in flight. */
template <int W, class T, class Op>
__global__ __launch_bounds__(BLOCK) void packed_rows_kernel(const T *__restrict__ in, size_t rows,
                                                            acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    constexpr size_t V = VECTOR_WIDTH<T>;
    constexpr int CHUNKS = W >= 4 ? 1 : 4 / W;
    constexpr size_t STORES = V * sizeof(A) / 16; /* 16-byte stores of a group's results */
    const Op op;
    const uint4 *vectors = reinterpret_cast<const uint4 *>(in);
    const size_t groups = rows / V;
    const size_t threads = (size_t)gridDim.x * BLOCK;

    for (size_t first = blockIdx.x * (size_t)BLOCK + threadIdx.x; first < groups;
         first += threads * CHUNKS) {
        uint4 v[CHUNKS][W];
#pragma unroll
        for (int k = 0; k < CHUNKS; ++k)
            if (first + k * threads < groups)
#pragma unroll
                for (int j = 0; j < W; ++j)
                    v[k][j] = __ldg(&vectors[(first + k * threads) * W + j]);
#pragma unroll
        for (int k = 0; k < CHUNKS; ++k) {
            const size_t group = first + k * threads;
            if (group >= groups)
                break;
            T e[V * W];
            memcpy(e, v[k], sizeof e); /* a bit cast: stays in registers */
            A r[V];
#pragma unroll
            for (size_t i = 0; i < V; ++i) {
                r[i] = identity<Op, A>();
#pragma unroll
                for (int c = 0; c < W; ++c)
                    r[i] = op(r[i], widen(e[i * W + c]));
            }
            uint4 packed[STORES];
            memcpy(packed, r, sizeof packed);
            uint4 *dst = reinterpret_cast<uint4 *>(out + group * V);
#pragma unroll
            for (size_t s = 0; s < STORES; ++s)
                dst[s] = packed[s];
        }
    }
    /* The last rows % V rows: fewer than a group, one thread's. */
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (size_t row = groups * V; row < rows; ++row) {
            A acc = identity<Op, A>();
            for (int c = 0; c < W; ++c)
                acc = op(acc, widen(in[row * W + c]));
            out[row] = acc;
        }
}

template <class T, class Op> struct packed_rows_launch {
    template <int W>
    static int launch(const T *d_in, size_t rows, acc_t<T> *d_out, cudaStream_t stream)
    {
        const auto kernel = packed_rows_kernel<W, T, Op>;
        constexpr int CHUNKS = W >= 4 ? 1 : 4 / W;
        int grid = 0;
        PROPAGATE(capped_resident_grid((const void *)kernel, BLOCK, rows / VECTOR_WIDTH<T> + 1,
                                       (size_t)BLOCK * CHUNKS, &grid));
        kernel<<<grid, BLOCK, 0, stream>>>(d_in, rows, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }

    static int run(const T *d_in, reduce_shape shape, acc_t<T> *d_out, void *, cudaStream_t stream)
    {
        switch (shape.cols) {
        case 1: return launch<1>(d_in, shape.count, d_out, stream);
        case 2: return launch<2>(d_in, shape.count, d_out, stream);
        case 3: return launch<3>(d_in, shape.count, d_out, stream);
        default: return launch<4>(d_in, shape.count, d_out, stream);
        }
    }
};

/* Rows of 1-4 elements from and into 16-byte aligned buffers here; any
 * other shape to tiled_rows. */
int packed_rows_launch_shaped(reduce_spec spec, reduce_shape shape, const void *d_in, size_t n,
                              void *d_out, void *workspace, cudaStream_t stream)
{
    const bool aligned = (uintptr_t)d_in % 16 == 0 && (uintptr_t)d_out % 16 == 0;
    if (shape.kind != SHAPE_ROWS || shape.cols == 0 || shape.cols > MAX_WIDTH || !aligned)
        return method_tiled_rows.launch_shaped(spec, shape, d_in, n, d_out, workspace, stream);
    if (shape.count == 0)
        return 0;
    return launch_shaped_any_pair<packed_rows_launch>(spec, shape, d_in, n, d_out, workspace,
                                                      stream);
}

} // namespace

DEFINE_METHOD(packed_rows, .family = FAMILY_ROWS, .source = "this suite (issue 19)",
              .idea = "rows of 1-4 elements: 16-byte vectors hold whole rows, added in registers",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .flags = METHOD_GRID_INDEPENDENT, /* a row's bits: its elements in order */
              /* its rows' chains, or tiled_rows' (wider rows) */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_ROWS),
              .launch_shaped = packed_rows_launch_shaped);
