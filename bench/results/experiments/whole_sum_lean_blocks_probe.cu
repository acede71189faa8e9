/* A probe, not a method: the whole-array float sum of 64 MiB by blocks that
 * each read one fixed chunk with every load issued first and retire, the
 * shape that read argmax rows of 2048 floats faster than a plain read
 * (h200_argmax_rows_lean_0da0f46.log), with four ways to join the blocks'
 * partials, beside a plain grid-stride read of the same bytes.
 *
 * Question: is the shape's pace kept once the blocks must be joined? The
 * suite's one_pass_ilp (a resident grid, a last-block combine) takes about
 * 20.5 us on an H200 (bench/NOTES.md, session 64).
 *   atomic_8k:  8 KiB a block (256 threads x 2 vectors), 8192 blocks, each
 *               block's total atomically added to one float (order not fixed)
 *   kernel_8k:  the same blocks write their totals; a second kernel of one
 *               block adds the 8192 totals
 *   ticket_16k: 16 KiB a block (4 vectors a thread), 4096 blocks; the last
 *               block done (a fence and a ticket) adds the totals in order
 *   ticket_32k: 32 KiB a block (8 vectors), 2048 blocks, the same ending
 * Every result is checked against the exact sum of small integers.
 *
 * Build and run on the device machine, from the repository root
 * (whole_sum_lean_blocks_probe.sh):
 *   nvcc -O3 -std=c++20 -arch=sm_90 -I kernels/blocks -I src/gpu -I src/host -o wsum \
 *       bench/results/experiments/whole_sum_lean_blocks_probe.cu src/gpu/cuda_check.c
 *   ./wsum
 * Each line: the variant, the median of 100 cold samples (L2 flushed by a
 * read sweep of 512 MiB before each), the min, in us, and the result. */
#include <algorithm>
#include <cstdio>
#include <vector>

#include "block_reduce.cuh"
#include "cuda_check.h"

constexpr int THREADS = 256;
constexpr size_t N = (size_t)1 << 24;

__device__ unsigned done_blocks;

template <int VPT> __device__ __forceinline__ float chunk_total(const float4 *__restrict__ in)
{
    const float4 *chunk = in + (size_t)blockIdx.x * THREADS * VPT + threadIdx.x;
    float4 v[VPT];
#pragma unroll
    for (int k = 0; k < VPT; ++k)
        v[k] = __ldg(chunk + k * THREADS);
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < VPT; ++k)
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    return block_reduce<THREADS, op_sum>(s);
}

__global__ __launch_bounds__(THREADS, 8) void atomic_8k(const float4 *__restrict__ in, float *out)
{
    const float t = chunk_total<2>(in);
    if (threadIdx.x == 0)
        atomicAdd(out, t);
}

__global__ __launch_bounds__(THREADS, 8) void partials_8k(const float4 *__restrict__ in, float *partials)
{
    const float t = chunk_total<2>(in);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = t;
}

/* One block of 1024 adds `count` partials in a fixed order. */
__global__ __launch_bounds__(1024) void add_partials(const float *partials, int count, float *out)
{
    float s = 0.0f;
    for (int i = threadIdx.x; i < count; i += 1024)
        s += partials[i];
    s = block_reduce<1024, op_sum>(s);
    if (threadIdx.x == 0)
        *out = s;
}

template <int VPT>
__global__ __launch_bounds__(THREADS, 8) void ticket(const float4 *__restrict__ in, float *partials, float *out)
{
    __shared__ bool last;
    const float t = chunk_total<VPT>(in);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = t;
        __threadfence();
        last = atomicAdd(&done_blocks, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    float s = 0.0f;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += THREADS)
        s += __ldcg(&partials[i]);
    s = block_reduce<THREADS, op_sum>(s);
    if (threadIdx.x == 0) {
        *out = s;
        done_blocks = 0;
    }
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
    float *values, *flush, *sink, *partials, *out;
    size_t flush_vectors;
    int read_grid;
};

template <class F> static int time_cold(const char *name, const buffers &b, F launch, double exact)
{
    cudaEvent_t start, stop;
    CUDA_TRY(cudaEventCreate(&start));
    CUDA_TRY(cudaEventCreate(&stop));
    std::vector<float> us;
    for (int s = 0; s < 105; ++s) {
        read_sweep<<<b.read_grid, 256>>>((const float4 *)b.flush, b.flush_vectors, b.sink);
        CUDA_TRY(cudaMemsetAsync(b.out, 0, sizeof(float)));
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
    float result = 0.0f;
    CUDA_TRY(cudaMemcpy(&result, b.out, sizeof result, cudaMemcpyDeviceToHost));
    std::printf("%-12s median_us %7.2f min_us %7.2f result %.1f %s\n", name, (us[49] + us[50]) / 2.0f, us[0],
                result, exact < 0 ? "" : (result == (float)exact ? "right" : "WRONG"));
    CUDA_TRY(cudaEventDestroy(start));
    CUDA_TRY(cudaEventDestroy(stop));
    return 0;
}

int main()
{
    buffers b{};
    b.flush_vectors = (512ull << 20) / 16;
    CUDA_TRY(cudaMalloc(&b.values, N * sizeof(float)));
    CUDA_TRY(cudaMalloc(&b.flush, b.flush_vectors * 16));
    CUDA_TRY(cudaMalloc(&b.sink, sizeof(float)));
    CUDA_TRY(cudaMalloc(&b.partials, 8192 * sizeof(float)));
    CUDA_TRY(cudaMalloc(&b.out, sizeof(float)));
    CUDA_TRY(cudaMemset(b.flush, 0x3f, b.flush_vectors * 16));
    /* zeros and ones: every partial and the total (about 2^23) are exact
     * in a float, so every order of adds gives the same bits */
    std::vector<float> h(N);
    double exact = 0.0;
    for (size_t i = 0; i < N; ++i) {
        h[i] = (float)((i * 2654435761u >> 7) % 2); /* 0 or 1: the total fits a float exactly */
        exact += h[i];
    }
    CUDA_TRY(cudaMemcpy(b.values, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    int sms = 0, blocks = 0;
    CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, read_sweep, 256, 0));
    b.read_grid = sms * blocks;
    const float4 *in = (const float4 *)b.values;
    for (int round = 0; round < 2; ++round) {
        time_cold("plain_read", b, [&] { read_sweep<<<b.read_grid, 256>>>(in, N / 4, b.sink); }, -1.0);
        time_cold("atomic_8k", b, [&] { atomic_8k<<<8192, THREADS>>>(in, b.out); }, exact);
        time_cold("kernel_8k", b, [&] {
            partials_8k<<<8192, THREADS>>>(in, b.partials);
            add_partials<<<1, 1024>>>(b.partials, 8192, b.out);
        }, exact);
        time_cold("ticket_16k", b, [&] { ticket<4><<<4096, THREADS>>>(in, b.partials, b.out); }, exact);
        time_cold("ticket_32k", b, [&] { ticket<8><<<2048, THREADS>>>(in, b.partials, b.out); }, exact);
    }
    return 0;
}
