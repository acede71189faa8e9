#include "l2_flush.h"

#include "cuda_check.h"

constexpr int FLUSH_BLOCK = 512;
constexpr int FLUSH_GRID = 1024;

__global__ void read_sweep(const float4 *__restrict__ buffer, size_t count4, float *sink)
{
    float acc = 0.0f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count4;
         i += (size_t)gridDim.x * blockDim.x) {
        const float4 v = buffer[i];
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == -1.0f) /* the buffer holds zeros: never true, but the compiler cannot know */
        *sink = acc;
}

extern "C" int l2_flush(const struct l2_flusher *f, cudaStream_t stream)
{
    read_sweep<<<FLUSH_GRID, FLUSH_BLOCK, 0, stream>>>((const float4 *)f->buffer, f->count / 4,
                                                        f->sink);
    CUDA_TRY_LAUNCH();
    return 0;
}

extern "C" int l2_flusher_create(struct l2_flusher *f, size_t l2_bytes)
{
    f->count = 4 * l2_bytes / sizeof(float) / 4 * 4;
    f->buffer = nullptr;
    f->sink = nullptr;
    CUDA_TRY(cudaMalloc(&f->buffer, f->count * sizeof(float)));
    CUDA_TRY(cudaMalloc(&f->sink, sizeof(float)));
    CUDA_TRY(cudaMemset(f->buffer, 0, f->count * sizeof(float)));
    PROPAGATE(l2_flush(f, 0));
    CUDA_TRY(cudaDeviceSynchronize());
    return 0;
}

extern "C" void l2_flusher_destroy(struct l2_flusher *f)
{
    cudaFree(f->buffer);
    cudaFree(f->sink);
    f->buffer = nullptr;
    f->sink = nullptr;
}
