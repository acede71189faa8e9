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
    ctx->device_index = device;
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

bool usable_gpu(char *buf, size_t len)
{
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count > 0)
        return true;
    snprintf(buf, len, "no usable CUDA device: %s",
             err != cudaSuccess ? cudaGetErrorString(err) : "the driver sees 0 devices");
    return false;
}

int select_device(int index, char *err, size_t err_len)
{
    int count = 0;
    if (!usable_gpu(err, err_len))
        return -1;
    if (cudaGetDeviceCount(&count) != cudaSuccess || index >= count) {
        snprintf(err, err_len, "device %d does not exist: %d CUDA device%s visible (--list-devices)",
                 index, count, count == 1 ? "" : "s");
        return -1;
    }
    const cudaError_t set = cudaSetDevice(index);
    if (set != cudaSuccess) {
        snprintf(err, err_len, "device %d: %s", index, cudaGetErrorString(set));
        return -1;
    }
    return 0;
}

int list_devices(FILE *out)
{
    int count = 0;
    CUDA_TRY(cudaGetDeviceCount(&count));
    for (int d = 0; d < count; ++d) {
        struct cudaDeviceProp prop;
        char bus[32] = "";
        CUDA_TRY(cudaGetDeviceProperties(&prop, d));
        CUDA_TRY(cudaDeviceGetPCIBusId(bus, (int)sizeof bus, d));
        fprintf(out, "%d  %s, %d SMs, %.1f GiB, compute capability %d.%d, PCI %s\n", d, prop.name,
                prop.multiProcessorCount, (double)prop.totalGlobalMem / (1 << 30), prop.major,
                prop.minor, bus);
    }
    return 0;
}
