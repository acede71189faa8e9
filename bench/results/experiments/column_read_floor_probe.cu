/* A probe, not a method: how fast can the GPU read a row-major matrix of
 * floats in the order a column sum reads it, at widths where the suite's
 * column steps and cuBLAS both fall short (1000 columns: 86.7% of the whole
 * array, bench/results/h200_cols_sweep_cd35b72.csv) and where they do not
 * (1024)?
 *
 * A block of k x (cols / 4) threads (k rows of 16-byte vectors, as many as
 * fit 1024 threads) and a grid of whole blocks: the grid's stride is whole
 * rows, so thread g always reads the same four columns, four vectors in
 * flight. Each block then adds its k rows of partial sums in shared memory
 * and writes cols floats: the first of a column sum's two passes, with
 * nothing else. Beside it, the same bytes read as a flat array (the values
 * alone), and (added after the first run) the whole column sum two ways:
 * that pass and a second kernel of many blocks adding the blocks' rows
 * (combine_rows), or the last block to finish adding them alone; and
 * (after the second run) a grid-wide barrier, then every block adding
 * its own few columns (column_pass_grid_sync, a cooperative launch); and
 * (after the third) each block's row added by atomic adds (meant as a
 * floor; it was slower: 132 blocks adding at once contend); and (after the
 * fourth) the read of split_columns' wide cut alone (tile_pass). Medians
 * of 100 cold samples (a 512 MiB read sweep before each). What each run
 * found: bench/NOTES.md, session 58, and the logs named in
 * column_read_floor_probe.sh.
 *
 * Build and run on the device machine (column_read_floor_probe.sh):
 *   nvcc -O3 -std=c++17 -arch=sm_90 -I src/gpu -o colfloor \
 *       bench/results/experiments/column_read_floor_probe.cu src/gpu/cuda_check.c
 *   ./colfloor 1000 1024      (widths, multiples of 4, at most 4096) */
#include <cooperative_groups.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

constexpr size_t TOTAL = 16u << 20; /* floats, before rounding to whole rows */

__global__ void values_alone(const float4 *values, size_t vectors, float *sink)
{
    float acc = 0.0f;
    for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < vectors;
         v += (size_t)gridDim.x * blockDim.x) {
        const float4 x = values[v];
        acc += x.x + x.y + x.z + x.w;
    }
    if (acc == 1234.5f)
        *sink = acc;
}

/* Thread g reads vectors g, g + S, ... (S the grid's threads, whole rows);
 * the block adds its rows of partial sums and writes one row of them. */
__device__ void column_pass_body(const float4 *values, size_t vectors, int row_vectors, float4 *block_rows,
                                 float4 *partial)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; v + 3 * stride < vectors; v += 4 * stride) {
        float4 x[4];
#pragma unroll
        for (int i = 0; i < 4; ++i)
            x[i] = values[v + i * stride];
#pragma unroll
        for (int i = 0; i < 4; ++i)
            acc.x += x[i].x, acc.y += x[i].y, acc.z += x[i].z, acc.w += x[i].w;
    }
    for (; v < vectors; v += stride) {
        const float4 x = values[v];
        acc.x += x.x, acc.y += x.y, acc.z += x.z, acc.w += x.w;
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    if ((int)threadIdx.x < row_vectors) {
        float4 sum = partial[threadIdx.x];
        for (int r = 1; r < (int)blockDim.x / row_vectors; ++r) {
            const float4 p = partial[r * row_vectors + threadIdx.x];
            sum.x += p.x, sum.y += p.y, sum.z += p.z, sum.w += p.w;
        }
        block_rows[blockIdx.x * (size_t)row_vectors + threadIdx.x] = sum;
    }
}

__global__ void column_pass(const float4 *values, size_t vectors, int row_vectors, float4 *block_rows)
{
    extern __shared__ float4 partial[];
    column_pass_body(values, vectors, row_vectors, block_rows, partial);
}

/* The second pass: each column's grid partial sums added, 8 vectors of
 * columns a block, the blocks' rows cut into 32 slices, the slices then
 * added in shared memory. */
constexpr int COMBINE_VECTORS = 8, SLICES = 32;
__global__ void combine_rows(const float4 *block_rows, int rows, int row_vectors, float4 *out)
{
    __shared__ float4 part[SLICES][COMBINE_VECTORS];
    const int c = threadIdx.x % COMBINE_VECTORS, slice = threadIdx.x / COMBINE_VECTORS;
    const int column = blockIdx.x * COMBINE_VECTORS + c;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (column < row_vectors)
        for (int r = slice; r < rows; r += SLICES) {
            const float4 x = block_rows[(size_t)r * row_vectors + column];
            acc.x += x.x, acc.y += x.y, acc.z += x.z, acc.w += x.w;
        }
    part[slice][c] = acc;
    __syncthreads();
    if (slice == 0 && column < row_vectors) {
        for (int k = 1; k < SLICES; ++k)
            acc.x += part[k][c].x, acc.y += part[k][c].y, acc.z += part[k][c].z, acc.w += part[k][c].w;
        out[column] = acc;
    }
}

/* column_pass, then the last block to finish adds every block's row (its
 * threads cut into as many slices of the blocks as fit). */
__device__ unsigned blocks_done;
__global__ void column_pass_last_block(const float4 *values, size_t vectors, int row_vectors, float4 *block_rows,
                                       float4 *out)
{
    extern __shared__ float4 partial[];
    column_pass_body(values, vectors, row_vectors, block_rows, partial);
    __shared__ bool last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(&blocks_done, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    const int slices = blockDim.x / row_vectors;
    const int c = threadIdx.x % row_vectors, slice = threadIdx.x / row_vectors;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (slice < slices)
        for (int r = slice; r < (int)gridDim.x; r += slices) {
            const float4 x = block_rows[(size_t)r * row_vectors + c];
            acc.x += x.x, acc.y += x.y, acc.z += x.z, acc.w += x.w;
        }
    __syncthreads();
    partial[threadIdx.x] = acc;
    __syncthreads();
    if ((int)threadIdx.x < row_vectors) {
        for (int k = 1; k < slices; ++k) {
            const float4 p = partial[k * row_vectors + threadIdx.x];
            acc.x += p.x, acc.y += p.y, acc.z += p.z, acc.w += p.w;
        }
        out[threadIdx.x] = acc;
        if (threadIdx.x == 0)
            blocks_done = 0;
    }
}

/* column_pass, a grid-wide barrier (a cooperative launch: every block
 * resident), then each block adds every block's row for its own few
 * columns: no block adds them alone, and no second launch. */
constexpr int MOST_SLICES = 32;
__global__ void column_pass_grid_sync(const float4 *values, size_t vectors, int row_vectors, float4 *block_rows,
                                      float4 *out)
{
    extern __shared__ float4 partial[];
    column_pass_body(values, vectors, row_vectors, block_rows, partial);
    cooperative_groups::this_grid().sync();
    const int per_block = (row_vectors + gridDim.x - 1) / gridDim.x;
    const int slices = min(MOST_SLICES, (int)blockDim.x / per_block);
    const int c = blockIdx.x * per_block + threadIdx.x % per_block, slice = threadIdx.x / per_block;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (slice < slices && c < row_vectors)
        for (int r = slice; r < (int)gridDim.x; r += slices) {
            const float4 x = block_rows[(size_t)r * row_vectors + c];
            acc.x += x.x, acc.y += x.y, acc.z += x.z, acc.w += x.w;
        }
    __syncthreads();
    if (slice < slices)
        partial[threadIdx.x] = acc;
    __syncthreads();
    if (slice == 0 && c < row_vectors) {
        for (int k = 1; k < slices; ++k) {
            const float4 p = partial[k * per_block + threadIdx.x];
            acc.x += p.x, acc.y += p.y, acc.z += p.z, acc.w += p.w;
        }
        out[c] = acc;
    }
}

/* column_pass, then each block adds its row into the sums with atomic
 * adds (sums zeroed before the timed launch, to time the adds alone; not a
 * method - the order of the adds, and so a sum's last bits, changes from
 * run to run). */
__global__ void column_pass_atomic(const float4 *values, size_t vectors, int row_vectors, float4 *block_rows,
                                   float *sums)
{
    extern __shared__ float4 partial[];
    column_pass_body(values, vectors, row_vectors, block_rows, partial);
    if ((int)threadIdx.x < row_vectors) {
        const float4 mine = block_rows[blockIdx.x * (size_t)row_vectors + threadIdx.x];
        atomicAdd(&sums[4 * threadIdx.x], mine.x);
        atomicAdd(&sums[4 * threadIdx.x + 1], mine.y);
        atomicAdd(&sums[4 * threadIdx.x + 2], mine.z);
        atomicAdd(&sums[4 * threadIdx.x + 3], mine.w);
    }
}

/* The read of split_columns' wide cut, alone: a warp reads one row's piece
 * of a tile of 128 columns (32 lanes x 4 floats; the last tile's lanes past
 * the width idle), the same tile at every row it reads, four rows in
 * flight; nothing written (the sums kept alive by a test that never
 * holds). Each row's piece lies where the row's pitch puts it: on a line
 * at 1024 columns, 32 bytes into one at 1000. */
constexpr int TILE_COLS = 128;
__global__ void tile_pass(const float *values, size_t rows, int cols, float *sink)
{
    const int tiles = (cols + TILE_COLS - 1) / TILE_COLS, lane = threadIdx.x % 32;
    const size_t warp = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    const size_t warps = (size_t)gridDim.x * blockDim.x / 32;
    const int col = (int)(warp % tiles) * TILE_COLS + 4 * lane;
    const size_t row_step = warps / tiles;
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (col < cols) {
        size_t r = warp / tiles;
        for (; r + 3 * row_step < rows; r += 4 * row_step) {
            float4 x[4];
#pragma unroll
            for (int i = 0; i < 4; ++i)
                x[i] = *reinterpret_cast<const float4 *>(&values[(r + i * row_step) * cols + col]);
#pragma unroll
            for (int i = 0; i < 4; ++i)
                acc.x += x[i].x, acc.y += x[i].y, acc.z += x[i].z, acc.w += x[i].w;
        }
        for (; r < rows; r += row_step) {
            const float4 x = *reinterpret_cast<const float4 *>(&values[r * cols + col]);
            acc.x += x.x, acc.y += x.y, acc.z += x.z, acc.w += x.w;
        }
    }
    if (acc.x + acc.y + acc.z + acc.w == 1234.5f)
        *sink = acc.x;
}

struct buffers {
    float4 *values, *flush, *block_rows, *sums;
    float *sink;
    size_t flush_vectors;
    int sms;
};

template <class Launch> static int median_us(const buffers &b, Launch launch, double *median, size_t zero_sums = 0)
{
    cudaEvent_t start, stop;
    CUDA_TRY(cudaEventCreate(&start));
    CUDA_TRY(cudaEventCreate(&stop));
    std::vector<float> us;
    for (int s = 0; s < 105; ++s) {
        values_alone<<<b.sms * 8, 256>>>(b.flush, b.flush_vectors, b.sink);
        CUDA_TRY(cudaGetLastError());
        if (zero_sums)
            CUDA_TRY(cudaMemsetAsync(b.sums, 0, zero_sums));
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
    std::sort(us.begin(), us.end());
    *median = (us[49] + us[50]) / 2.0;
    CUDA_TRY(cudaEventDestroy(start));
    CUDA_TRY(cudaEventDestroy(stop));
    return 0;
}

/* Every value is the same float (memset), so each column sum is rows x it. */
static int check_sums(const buffers &b, int cols, size_t rows, const char *what)
{
    float one = 0.0f;
    const unsigned bits = 0x3c3c3c3cu;
    std::memcpy(&one, &bits, 4);
    std::vector<float> got(cols);
    CUDA_TRY(cudaMemcpy(got.data(), b.sums, cols * 4, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemset(b.sums, 0, cols * 4));
    for (int c = 0; c < cols; ++c)
        if (std::fabs(got[c] - one * rows) > 1e-4 * one * rows) {
            std::printf("  WRONG %s: column %d got %g want %g\n", what, c, got[c], one * rows);
            return 1;
        }
    return 0;
}

/* One width's matrix and the column pass's launch. */
struct width {
    int cols, row_vectors, threads, grid;
    size_t rows, vectors, shared;
};

static int describe_width(const buffers &b, int cols, width *w)
{
    w->cols = cols;
    w->row_vectors = cols / 4;
    w->rows = TOTAL / cols;
    w->vectors = w->rows * w->row_vectors;
    w->threads = 1024 / w->row_vectors * w->row_vectors;
    w->shared = w->threads * sizeof(float4);
    int per_sm = 0;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, column_pass, w->threads, w->shared));
    w->grid = per_sm * b.sms;
    return 0;
}

/* The column pass, then a second kernel (*two) or the last block (*last). */
static int time_pass_combines(const buffers &b, const width &w, double *pass, double *two, double *last)
{
    PROPAGATE(median_us(
        b, [&] { column_pass<<<w.grid, w.threads, w.shared>>>(b.values, w.vectors, w.row_vectors, b.block_rows); },
        pass));
    const int combine_grid = (w.row_vectors + COMBINE_VECTORS - 1) / COMBINE_VECTORS;
    PROPAGATE(median_us(b,
                        [&] {
                            column_pass<<<w.grid, w.threads, w.shared>>>(b.values, w.vectors, w.row_vectors,
                                                                         b.block_rows);
                            combine_rows<<<combine_grid, COMBINE_VECTORS * SLICES>>>(b.block_rows, w.grid,
                                                                                    w.row_vectors, b.sums);
                        },
                        two));
    PROPAGATE(check_sums(b, w.cols, w.rows, "two passes"));
    PROPAGATE(median_us(b,
                        [&] {
                            column_pass_last_block<<<w.grid, w.threads, w.shared>>>(b.values, w.vectors,
                                                                                   w.row_vectors, b.block_rows, b.sums);
                        },
                        last));
    return check_sums(b, w.cols, w.rows, "last block");
}

/* The grid barrier's column sums (a cooperative launch), then the atomic adds'. */
static int time_barrier_and_atomics(const buffers &b, const width &w, double *synced, double *atomic)
{
    int synced_per_sm = 0;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&synced_per_sm, column_pass_grid_sync, w.threads,
                                                           w.shared));
    const int synced_grid = synced_per_sm * b.sms;
    const float4 *values = b.values;
    size_t vectors = w.vectors;
    int row_vectors = w.row_vectors;
    float4 *block_rows = b.block_rows, *sums = b.sums;
    void *args[] = {&values, &vectors, &row_vectors, &block_rows, &sums};
    PROPAGATE(median_us(b,
                        [&] {
                            cudaLaunchCooperativeKernel((const void *)column_pass_grid_sync, synced_grid, w.threads,
                                                        args, w.shared, 0);
                        },
                        synced));
    PROPAGATE(check_sums(b, w.cols, w.rows, "grid sync"));
    PROPAGATE(median_us(b,
                        [&] {
                            column_pass_atomic<<<w.grid, w.threads, w.shared>>>(b.values, w.vectors, w.row_vectors,
                                                                               b.block_rows,
                                                                               reinterpret_cast<float *>(b.sums));
                        },
                        atomic, w.cols * sizeof(float)));
    return check_sums(b, w.cols, w.rows, "atomic");
}

/* split_columns' wide cut's read alone: 8 warps a block, whole tiles' worth
 * of warps at these widths. */
static int time_tile_pass(const buffers &b, const width &w, double *tiled)
{
    int tile_per_sm = 0;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&tile_per_sm, tile_pass, 256, 0));
    const int tile_grid = tile_per_sm * b.sms;
    return median_us(
        b,
        [&] { tile_pass<<<tile_grid, 256>>>(reinterpret_cast<const float *>(b.values), w.rows, w.cols, b.sink); },
        tiled);
}

static int time_width(const buffers &b, int cols)
{
    width w{};
    PROPAGATE(describe_width(b, cols, &w));
    double alone = 0.0, pass = 0.0, two = 0.0, last = 0.0, synced = 0.0, atomic = 0.0, tiled = 0.0;
    PROPAGATE(median_us(b, [&] { values_alone<<<b.sms * 8, 256>>>(b.values, w.vectors, b.sink); }, &alone));
    PROPAGATE(time_pass_combines(b, w, &pass, &two, &last));
    PROPAGATE(time_barrier_and_atomics(b, w, &synced, &atomic));
    PROPAGATE(time_tile_pass(b, w, &tiled));
    const double bytes = 16.0 * w.vectors;
    std::printf("cols %-5d   split_columns' wide cut's read alone (tile_pass) %6.2f us (%.1f%%)\n", cols, tiled,
                100.0 * alone / tiled);
    std::printf("cols %-5d rows %-8zu block %-4d grid %-4d values_alone %6.2f us %7.1f GB/s   column_pass %6.2f us "
                "%7.1f GB/s  (%.1f%% of values_alone)\n",
                cols, w.rows, w.threads, w.grid, alone, bytes / (alone * 1e3), pass, bytes / (pass * 1e3),
                100.0 * alone / pass);
    std::printf("cols %-5d   + combine_rows (a second kernel) %6.2f us (%.1f%%)   last block's combine %6.2f us "
                "(%.1f%%)\n",
                cols, two, 100.0 * alone / two, last, 100.0 * alone / last);
    std::printf("cols %-5d   grid barrier, then every block its columns %6.2f us (%.1f%%)   atomic adds %6.2f us "
                "(%.1f%%)\n",
                cols, synced, 100.0 * alone / synced, atomic, 100.0 * alone / atomic);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s COLS... (multiples of 4, 4 .. 4096)\n", argv[0]);
        return 2;
    }
    buffers b{};
    b.flush_vectors = (512ull << 20) / 16;
    CUDA_TRY(cudaDeviceGetAttribute(&b.sms, cudaDevAttrMultiProcessorCount, 0));
    CUDA_TRY(cudaMalloc(&b.values, TOTAL * 4));
    CUDA_TRY(cudaMalloc(&b.flush, b.flush_vectors * 16));
    CUDA_TRY(cudaMalloc(&b.block_rows, (size_t)b.sms * 32 * 1024 * 16));
    CUDA_TRY(cudaMalloc(&b.sink, 4));
    CUDA_TRY(cudaMalloc(&b.sums, 4096 * 4));
    CUDA_TRY(cudaMemset(b.values, 0x3c, TOTAL * 4));
    CUDA_TRY(cudaMemset(b.flush, 0x3c, b.flush_vectors * 16));
    for (int a = 1; a < argc; ++a) {
        const int cols = std::atoi(argv[a]);
        if (cols < 4 || cols > 4096 || cols % 4 != 0) {
            std::fprintf(stderr, "%s: a multiple of 4, 4 .. 4096\n", argv[a]);
            return 2;
        }
        PROPAGATE(time_width(b, cols));
    }
    return 0;
}
