#include "device_info.h"

#include <stdio.h>

#include "cuda_check.h"
#include "stats.h"

int read_device_context(struct run_context *ctx)
{
    int count = 0;
    const cudaError_t probe = cudaGetDeviceCount(&count);
    if (probe != cudaSuccess || count == 0)
        return cudaErrorNoDevice;

    int device = 0, clock_khz = 0, bus_bits = 0, l2 = 0;
    struct cudaDeviceProp prop;
    CUDA_TRY(cudaGetDevice(&device));
    CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    /* CUDA 13 removed memoryClockRate and memoryBusWidth from cudaDeviceProp. */
    CUDA_TRY(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
    CUDA_TRY(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
    CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    CUDA_TRY(cudaDeviceGetAttribute(&ctx->sm_count, cudaDevAttrMultiProcessorCount, device));
    CUDA_TRY(cudaDriverGetVersion(&ctx->driver_version));
    CUDA_TRY(cudaRuntimeGetVersion(&ctx->runtime_version));
    snprintf(ctx->device_name, sizeof ctx->device_name, "%.*s", (int)sizeof ctx->device_name - 1, prop.name);
    ctx->l2_bytes = (size_t)l2;
    ctx->peak_gbs = theoretical_bandwidth_gbs(clock_khz, bus_bits);
    ctx->cccl_version = cccl_version();
    return cublas_version(&ctx->cublas_version);
}

int device_free_bytes(size_t *free_bytes)
{
    size_t total = 0;
    CUDA_TRY(cudaMemGetInfo(free_bytes, &total));
    return 0;
}
