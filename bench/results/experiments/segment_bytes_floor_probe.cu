/* A probe, not a method: how fast the GPU moves the bytes a segmented sum
 * moves - n floats and count + 1 8-byte offsets read, count 4-byte results
 * written - with none of a segmented sum's dependences: every byte in
 * 16-byte vectors, in one grid-stride pass, the offsets and the results
 * interleaved with the values at their share (mean m floats a segment, a
 * power of two: an offset vector every m / 2 value vectors, a result
 * vector every m, found by masks, not divisions). The
 * values alone (no offsets, no results) in the same run are the whole
 * array's pace. GB/s are counted as bench_compare counts a segment shape:
 * the input, the offsets read, one result a segment written.
 *
 * Build and run on the device machine (segment_bytes_floor_probe.sh), from
 * the repository root, with the suite's CUDA_TRY (src/gpu/cuda_check.h):
 *   nvcc -O3 -std=c++17 -arch=sm_90 -I src/gpu -o floor \
 *       bench/results/experiments/segment_bytes_floor_probe.cu src/gpu/cuda_check.c
 *   ./floor 16777216 8 16 128     (n, then the means: powers of two, at least 2)
 * Each line: the mean, the median of 100 cold samples (L2 flushed by a read
 * sweep of 512 MiB before each), min, and GB/s. */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"

/* Values, and at their share offsets read and results written; `sink`
 * keeps the reads alive (written only if a sum is exactly 1234.5). */
__global__ void move_bytes(const float4 *values, size_t value_vectors, const ulonglong2 *offsets,
                           unsigned offset_shift, float4 *results, unsigned result_shift, bool segments,
                           float *sink)
{
    float acc = 0.0f;
    for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < value_vectors;
         v += (size_t)gridDim.x * blockDim.x) {
        const float4 x = values[v];
        acc += x.x + x.y + x.z + x.w;
        if (segments && (v & ((1ull << offset_shift) - 1)) == 0) {
            const ulonglong2 o = offsets[v >> offset_shift];
            acc += (float)(o.x ^ o.y);
        }
        if (segments && (v & ((1ull << result_shift) - 1)) == 0)
            results[v >> result_shift] = make_float4(acc, acc, acc, acc);
    }
    if (acc == 1234.5f)
        *sink = acc;
}

__global__ void read_sweep(const float4 *buffer, size_t vectors, float *sink)
{
    float acc = 0.0f;
    for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < vectors;
         v += (size_t)gridDim.x * blockDim.x)
        acc += buffer[v].x;
    if (acc == 1234.5f)
        *sink = acc;
}

struct buffers {
    float4 *values, *results, *flush;
    ulonglong2 *offsets;
    float *sink;
    size_t flush_vectors;
};

/* Median and min of 100 cold samples of one mean (0: the values alone). */
static int time_mean(const buffers &b, size_t n, size_t mean, int grid)
{
    const size_t value_vectors = n / 4;
    unsigned result_shift = 0;
    while (mean && (1ull << result_shift) < mean)
        ++result_shift;
    const unsigned offset_shift = result_shift ? result_shift - 1 : 0;
    cudaEvent_t start, stop;
    CUDA_TRY(cudaEventCreate(&start));
    CUDA_TRY(cudaEventCreate(&stop));
    std::vector<float> us;
    for (int s = 0; s < 105; ++s) {
        read_sweep<<<grid, 256>>>(b.flush, b.flush_vectors, b.sink);
        CUDA_TRY(cudaGetLastError());
        CUDA_TRY(cudaEventRecord(start));
        move_bytes<<<grid, 256>>>(b.values, value_vectors, b.offsets, offset_shift, b.results,
                                  result_shift, mean != 0, b.sink);
        CUDA_TRY(cudaGetLastError());
        CUDA_TRY(cudaEventRecord(stop));
        CUDA_TRY(cudaEventSynchronize(stop));
        float ms = 0.0f;
        CUDA_TRY(cudaEventElapsedTime(&ms, start, stop));
        if (s >= 5) /* five warm-ups */
            us.push_back(ms * 1000.0f);
    }
    std::sort(us.begin(), us.end());
    const size_t count = mean ? n / mean : 0;
    const double bytes = 4.0 * n + (mean ? 8.0 * (count + 1) + 4.0 * count : 0.0);
    const double median = (us[49] + us[50]) / 2.0;
    std::printf("mean %-6zu median_us %8.2f min_us %8.2f GB/s %8.1f\n", mean, median, us[0],
                bytes / (median * 1e3));
    CUDA_TRY(cudaEventDestroy(start));
    CUDA_TRY(cudaEventDestroy(stop));
    return 0;
}

/* The buffers for n floats, then every mean in turn, the values alone
 * before and after. */
static int time_means(size_t n, std::vector<size_t> means)
{
    buffers b{};
    b.flush_vectors = (512ull << 20) / 16;
    CUDA_TRY(cudaMalloc(&b.values, n * sizeof(float)));
    CUDA_TRY(cudaMalloc(&b.offsets, (n / 2 + 2) * 8));   /* room for a mean of 2 */
    CUDA_TRY(cudaMalloc(&b.results, (n / 2 + 4) * 4));
    CUDA_TRY(cudaMalloc(&b.flush, b.flush_vectors * 16));
    CUDA_TRY(cudaMalloc(&b.sink, sizeof(float)));
    CUDA_TRY(cudaMemset(b.values, 0x3f, n * sizeof(float))); /* 0.75 each */
    CUDA_TRY(cudaMemset(b.offsets, 0x11, (n / 2 + 2) * 8));
    CUDA_TRY(cudaMemset(b.flush, 0x3f, b.flush_vectors * 16));
    int sms = 0, blocks = 0;
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, move_bytes, 256, 0));
    const int grid = sms * blocks;
    std::printf("n %zu, grid %d (%d SMs x %d blocks of 256)\n", n, grid, sms, blocks);
    means.insert(means.begin(), 0); /* the values alone, before and after */
    means.push_back(0);
    for (const size_t mean : means)
        if (time_mean(b, n, mean, grid) != 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s N MEAN... (N a multiple of 4; each MEAN a power of two, >= 2)\n",
                     argv[0]);
        return 2;
    }
    const size_t n = std::strtoull(argv[1], nullptr, 10);
    if (n == 0 || n % 4 != 0) {
        std::fprintf(stderr, "N must be a positive multiple of 4\n");
        return 2;
    }
    std::vector<size_t> means;
    for (int a = 2; a < argc; ++a) {
        const size_t mean = std::strtoull(argv[a], nullptr, 10);
        if (mean < 2 || (mean & (mean - 1)) != 0) {
            std::fprintf(stderr, "mean %s: a power of two, at least 2\n", argv[a]);
            return 2;
        }
        means.push_back(mean);
    }
    return time_means(n, means) == 0 ? 0 : 1;
}
