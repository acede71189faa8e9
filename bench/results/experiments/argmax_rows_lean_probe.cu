/* A probe, not a method: float argmax of rows of 2048-16384 floats with as
 * few instructions as a block a row can take, against CUB's segmented
 * ArgMax and a plain read of the same 64 MiB, in one program and one run.
 *
 * Question: CUB's segmented ArgMax reads rows of 2048 floats at about the
 * pace of a plain read, and the suite's block a row on CUB's very launch
 * shape took 1.24x its time with 1.48x its warp instructions (bench/NOTES.md,
 * session 63). Is the instruction count the whole difference? The kernel
 * here is a block of 256 threads a row (CUB's shape, eight blocks an SM),
 * every load of a batch issued first (VPT 16-byte vectors a thread), a
 * scan in index order that keeps the first of equal values with one
 * comparison an element and an int index from the row's start (no 64-bit
 * arithmetic, no masks: the rows are whole batches), then the suite's
 * block_reduce (REDUX by arg_order_key, the lowest index of ties).
 *
 * Checked: every row's value and index against a CPU scan on random data
 * with planted ties (the row's maximum written twice, at random places),
 * a NaN row and an all-equal row; CUB's results against the same but the
 * NaN row (CUB has its own rule for NaN).
 *
 * Build and run on the device machine, from the repository root
 * (argmax_rows_lean_probe.sh):
 *   nvcc -O3 -std=c++20 -arch=sm_90 -I kernels/blocks -I src/gpu -I src/host -o lean \
 *       bench/results/experiments/argmax_rows_lean_probe.cu src/gpu/cuda_check.c
 *   ./lean 2048 4096 8192 16384
 * Each line: the width, then for the plain read, the lean kernel and CUB the
 * median of 100 cold samples (L2 flushed by a read sweep of 512 MiB before
 * each) and the min, in us. */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <cub/device/device_segmented_reduce.cuh>

#include "block_reduce.cuh"
#include "cuda_check.h"

constexpr int THREADS = 256;
constexpr size_t N = (size_t)1 << 24; /* 64 MiB of floats */

/* Rows of `row_vectors` 16-byte vectors, BATCHES batches of VPT vectors a
 * thread: thread t's vectors are t, t + 256, ... (coalesced), so its
 * elements in (batch, vector, element) order are in index order. */
template <int VPT, int BATCHES>
__global__ __launch_bounds__(THREADS, 8) void lean_argmax_rows(const float4 *__restrict__ in,
                                                               arg_pair<float, long long> *out)
{
    constexpr int ROW_VECTORS = THREADS * VPT * BATCHES;
    const float4 *row = in + (size_t)blockIdx.x * ROW_VECTORS + threadIdx.x;
    float best = 0.0f;
    int place = 0; /* the winner's (batch x VPT + vector) x 4 + element */
#pragma unroll
    for (int b = 0; b < BATCHES; ++b) {
        float4 v[VPT];
#pragma unroll
        for (int k = 0; k < VPT; ++k)
            v[k] = __ldg(row + (b * VPT + k) * THREADS);
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const float e[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int p = (b * VPT + k) * 4 + j;
                if (p == 0) {
                    best = e[j];
                } else {
                    const bool wins = arg_beats_without_branch<true>(e[j], best);
                    best = wins ? e[j] : best;
                    place = wins ? p : place;
                }
            }
        }
    }
    /* place p: vector p / 4 of the thread, i.e. row vector threadIdx.x + 256 (p / 4) */
    const int index = (threadIdx.x + THREADS * (place >> 2)) * 4 + (place & 3);
    const arg_pair<float, int> r = block_reduce<THREADS, op_argmax>(arg_pair<float, int>{best, index});
    if (threadIdx.x == 0)
        store_result(&out[blockIdx.x], arg_pair<float, long long>{r.value, (long long)r.index});
}

__global__ void read_sweep(const float4 *buffer, size_t vectors, float *sink)
{
    float acc = 0.0f;
    for (size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < vectors;
         v += (size_t)gridDim.x * blockDim.x) {
        const float4 x = buffer[v];
        acc += x.x + x.y + x.z + x.w;
    }
    if (acc == 1234.5f)
        *sink = acc;
}

struct buffers {
    float *values, *flush, *sink;
    size_t flush_vectors;
    int *offsets;
    arg_pair<float, long long> *lean;
    cub::KeyValuePair<int, float> *cub_out;
    void *cub_temp;
    size_t cub_temp_bytes;
    int read_grid;
};

/* Median and min, us, of 100 cold samples of `launch` (five warm-ups). */
template <class F> static int time_cold(const buffers &b, F launch, float *median, float *min)
{
    cudaEvent_t start, stop;
    CUDA_TRY(cudaEventCreate(&start));
    CUDA_TRY(cudaEventCreate(&stop));
    std::vector<float> us;
    for (int s = 0; s < 105; ++s) {
        read_sweep<<<b.read_grid, 256>>>((const float4 *)b.flush, b.flush_vectors, b.sink);
        CUDA_TRY(cudaGetLastError());
        CUDA_TRY(cudaEventRecord(start));
        if (launch() != 0)
            return 1;
        CUDA_TRY(cudaEventRecord(stop));
        CUDA_TRY(cudaEventSynchronize(stop));
        float ms = 0.0f;
        CUDA_TRY(cudaEventElapsedTime(&ms, start, stop));
        if (s >= 5)
            us.push_back(ms * 1000.0f);
    }
    std::sort(us.begin(), us.end());
    *median = (us[49] + us[50]) / 2.0f;
    *min = us[0];
    CUDA_TRY(cudaEventDestroy(start));
    CUDA_TRY(cudaEventDestroy(stop));
    return 0;
}

/* Random values in [-1, 1) with each row's maximum planted twice (a tie:
 * the first must win); row 1 all equal, row 2 a NaN after a larger value. */
static void fill(std::vector<float> &h, size_t cols)
{
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto &x : h)
        x = u(rng);
    const size_t rows = h.size() / cols;
    for (size_t r = 0; r < rows; ++r) {
        const size_t a = rng() % cols, c = rng() % cols;
        h[r * cols + a] = h[r * cols + c] = 2.0f;
    }
    std::fill(h.begin() + cols, h.begin() + 2 * cols, 0.5f);
    h[2 * cols + 3] = 7.0f;
    h[2 * cols + cols / 2] = NAN;
    h[2 * cols + cols - 1] = NAN;
}

/* The first index of each row's maximum (a NaN first) and the value there. */
static bool check_row(const std::vector<float> &h, size_t cols, size_t r, long long index, float value,
                      const char *who)
{
    size_t best = 0;
    for (size_t j = 1; j < cols; ++j) {
        const float x = h[r * cols + j], m = h[r * cols + best];
        if (m == m && (x != x || x > m))
            best = j;
    }
    const float want = h[r * cols + best];
    const bool same_value = (want != want) ? (value != value) : (value == want);
    if ((size_t)index == best && same_value)
        return true;
    std::printf("  FAIL %s cols %zu row %zu: index %lld value %g, want %zu %g\n", who, cols, r, index,
                value, best, want);
    return false;
}

template <int VPT, int BATCHES> static int run_width(buffers &b, size_t cols)
{
    const int rows = (int)(N / cols);
    std::vector<float> h(N);
    fill(h, cols);
    CUDA_TRY(cudaMemcpy(b.values, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    std::vector<int> offsets(rows + 1);
    for (int r = 0; r <= rows; ++r)
        offsets[r] = (int)(r * cols);
    CUDA_TRY(cudaMemcpy(b.offsets, offsets.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));

    const auto lean = [&] {
        lean_argmax_rows<VPT, BATCHES><<<rows, THREADS>>>((const float4 *)b.values, b.lean);
        CUDA_TRY(cudaGetLastError());
        return 0;
    };
    const auto cub_call = [&] {
        CUDA_TRY(cub::DeviceSegmentedReduce::ArgMax(b.cub_temp, b.cub_temp_bytes, b.values, b.cub_out, rows,
                                                    b.offsets, b.offsets + 1));
        return 0;
    };
    const auto plain = [&] {
        read_sweep<<<b.read_grid, 256>>>((const float4 *)b.values, N / 4, b.sink);
        CUDA_TRY(cudaGetLastError());
        return 0;
    };
    float m[3], lo[3];
    if (time_cold(b, plain, &m[0], &lo[0]) || time_cold(b, lean, &m[1], &lo[1]) ||
        time_cold(b, cub_call, &m[2], &lo[2]))
        return 1;

    std::vector<arg_pair<float, long long>> got(rows);
    std::vector<cub::KeyValuePair<int, float>> cub_got(rows);
    CUDA_TRY(cudaMemcpy(got.data(), b.lean, rows * sizeof got[0], cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(cub_got.data(), b.cub_out, rows * sizeof cub_got[0], cudaMemcpyDeviceToHost));
    int wrong = 0, cub_wrong = 0;
    for (int r = 0; r < rows; ++r) {
        wrong += !check_row(h, cols, r, got[r].index, got[r].value, "lean");
        if (r != 2) /* CUB ranks a NaN by its own rule */
            cub_wrong += !check_row(h, cols, r, cub_got[r].key, cub_got[r].value, "cub");
        if (wrong + cub_wrong > 10)
            break;
    }
    std::printf("cols %-6zu plain %7.2f (%7.2f)  lean %7.2f (%7.2f)  cub %7.2f (%7.2f)  lean/cub %.3f"
                "  rows right: lean %s, cub %s\n",
                cols, m[0], lo[0], m[1], lo[1], m[2], lo[2], m[1] / m[2], wrong ? "NO" : "all",
                cub_wrong ? "NO" : "all");
    return 0;
}

int main(int argc, char **argv)
{
    buffers b{};
    b.flush_vectors = (512ull << 20) / 16;
    CUDA_TRY(cudaMalloc(&b.values, N * sizeof(float)));
    CUDA_TRY(cudaMalloc(&b.flush, b.flush_vectors * 16));
    CUDA_TRY(cudaMalloc(&b.sink, sizeof(float)));
    CUDA_TRY(cudaMalloc(&b.offsets, (N / 2048 + 1) * sizeof(int)));
    CUDA_TRY(cudaMalloc(&b.lean, N / 2048 * sizeof(arg_pair<float, long long>)));
    CUDA_TRY(cudaMalloc(&b.cub_out, N / 2048 * sizeof(cub::KeyValuePair<int, float>)));
    CUDA_TRY(cudaMemset(b.flush, 0x3f, b.flush_vectors * 16));
    CUDA_TRY(cub::DeviceSegmentedReduce::ArgMax(nullptr, b.cub_temp_bytes, b.values, b.cub_out,
                                                (int)(N / 2048), b.offsets, b.offsets + 1));
    CUDA_TRY(cudaMalloc(&b.cub_temp, b.cub_temp_bytes + 1));
    int sms = 0, blocks = 0;
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_sweep, 256, 0));
    b.read_grid = sms * blocks;
    for (int a = 1; a < argc; ++a) {
        const size_t cols = std::strtoull(argv[a], nullptr, 10);
        int rc = 0;
        if (cols == 2048)
            rc = run_width<2, 1>(b, cols);
        else if (cols == 4096)
            rc = run_width<4, 1>(b, cols);
        else if (cols == 8192)
            rc = run_width<4, 2>(b, cols);
        else if (cols == 16384)
            rc = run_width<4, 4>(b, cols);
        else
            std::fprintf(stderr, "cols %s: one of 2048, 4096, 8192, 16384\n", argv[a]);
        if (rc != 0)
            return 1;
    }
    return 0;
}
