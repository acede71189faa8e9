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
 * alone). Medians of 100 cold samples (a 512 MiB read sweep before each).
 *
 * Build and run on the device machine (column_read_floor_probe.sh):
 *   nvcc -O3 -std=c++17 -arch=sm_90 -I src/gpu -o colfloor \
 *       bench/results/experiments/column_read_floor_probe.cu src/gpu/cuda_check.c
 *   ./colfloor 1000 1024      (widths, multiples of 4, at most 4096) */
#include <algorithm>
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
__global__ void column_pass(const float4 *values, size_t vectors, int row_vectors, float4 *block_rows)
{
    extern __shared__ float4 partial[];
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

struct buffers {
    float4 *values, *flush, *block_rows;
    float *sink;
    size_t flush_vectors;
    int sms;
};

template <class Launch> static int median_us(const buffers &b, Launch launch, double *median)
{
    cudaEvent_t start, stop;
    CUDA_TRY(cudaEventCreate(&start));
    CUDA_TRY(cudaEventCreate(&stop));
    std::vector<float> us;
    for (int s = 0; s < 105; ++s) {
        values_alone<<<b.sms * 8, 256>>>(b.flush, b.flush_vectors, b.sink);
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
    std::sort(us.begin(), us.end());
    *median = (us[49] + us[50]) / 2.0;
    CUDA_TRY(cudaEventDestroy(start));
    CUDA_TRY(cudaEventDestroy(stop));
    return 0;
}

static int time_width(const buffers &b, int cols)
{
    const int row_vectors = cols / 4;
    const size_t rows = TOTAL / cols, vectors = rows * row_vectors;
    const int threads = 1024 / row_vectors * row_vectors;
    const size_t shared = threads * sizeof(float4);
    int per_sm = 0;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, column_pass, threads, shared));
    const int grid = per_sm * b.sms;
    double alone = 0.0, pass = 0.0;
    PROPAGATE(median_us(b, [&] { values_alone<<<b.sms * 8, 256>>>(b.values, vectors, b.sink); }, &alone));
    PROPAGATE(median_us(
        b, [&] { column_pass<<<grid, threads, shared>>>(b.values, vectors, row_vectors, b.block_rows); }, &pass));
    const double bytes = 16.0 * vectors;
    std::printf("cols %-5d rows %-8zu block %-4d grid %-4d values_alone %6.2f us %7.1f GB/s   column_pass %6.2f us "
                "%7.1f GB/s  (%.1f%% of values_alone)\n",
                cols, rows, threads, grid, alone, bytes / (alone * 1e3), pass, bytes / (pass * 1e3),
                100.0 * alone / pass);
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
