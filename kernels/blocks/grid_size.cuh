/* Launch configuration derived from the device, not hard-coded for one GPU.
 * A launcher that chooses its grid ends its choice with launch_grid
 * (grid_override.h), so a test can force another grid - another GPU's -
 * on it; capped_resident_grid does that for the shared launchers. */
#ifndef GRID_SIZE_CUH
#define GRID_SIZE_CUH

#include <cuda_runtime.h>

#include "cuda_check.h"
#include "grid_override.h"

/* The current device's SMs, asked of the driver once per device and kept,
 * so that a launcher may call this inside the timed region. */
static inline int device_sm_count(int *sms)
{
    enum { DEVICES = 64 };
    static int known[DEVICES];
    int device = 0;
    CUDA_TRY(cudaGetDevice(&device));
    if (device < DEVICES && known[device] > 0) {
        *sms = known[device];
        return 0;
    }
    CUDA_TRY(cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device));
    if (device < DEVICES)
        known[device] = *sms;
    return 0;
}

/* Blocks of `kernel` the whole GPU keeps resident at once: SMs x blocks per
 * SM at this block size (the occupancy calculator). A grid-stride kernel
 * launched with this many blocks fills the GPU in a single wave.
 * The answer is cached per kernel, block size, shared memory and device
 * (bench_compare --gpus drives several, which need not be the same model;
 * step 43's shared memory follows the width), so launchers may call this
 * inside the timed region: only the first call on each device (a warm-up)
 * asks the driver; cudaGetDevice is a host-side read. */
static inline int resident_grid_size(const void *kernel, int block_threads, size_t dynamic_smem,
                                     int *grid)
{
    enum { CACHE_SLOTS = 2048 }; /* every (type, operator) instantiation of every kernel, x GPUs */
    static struct {
        const void *kernel;
        int block_threads, device, grid;
        size_t dynamic_smem;
    } cache[CACHE_SLOTS];
    int device = 0, sms = 0, per_sm = 0;
    CUDA_TRY(cudaGetDevice(&device));
    for (int i = 0; i < CACHE_SLOTS && cache[i].kernel; ++i)
        if (cache[i].kernel == kernel && cache[i].block_threads == block_threads &&
            cache[i].dynamic_smem == dynamic_smem && cache[i].device == device) {
            *grid = cache[i].grid;
            return 0;
        }
    PROPAGATE(device_sm_count(&sms));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads,
                                                           dynamic_smem));
    *grid = sms * (per_sm > 0 ? per_sm : 1);
    for (int i = 0; i < CACHE_SLOTS; ++i)
        if (!cache[i].kernel) {
            cache[i].kernel = kernel;
            cache[i].block_threads = block_threads;
            cache[i].dynamic_smem = dynamic_smem;
            cache[i].device = device;
            cache[i].grid = *grid;
            break;
        }
    return 0;
}

/* What a kernel that sizes its own shared memory (a ring of buffers) asks
 * of the current device: its SMs, the shared memory a block may opt into,
 * and the kernel's attributes (its static shared memory, the architecture
 * its code was built for: ptxVersion, __CUDA_ARCH__ / 10). */
struct kernel_room {
    int sms;
    size_t smem_optin;
    cudaFuncAttributes attributes;
};

static inline int ask_kernel_room(const void *kernel, kernel_room *room)
{
    int device = 0, sms = 0, smem_optin = 0;
    CUDA_TRY(cudaGetDevice(&device));
    PROPAGATE(device_sm_count(&sms));
    CUDA_TRY(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    *room = kernel_room{.sms = sms, .smem_optin = (size_t)smem_optin, .attributes = {}};
    CUDA_TRY(cudaFuncGetAttributes(&room->attributes, kernel));
    return 0;
}

/* For a kernel of `threads` threads a block that asks for `dynamic_smem`
 * bytes of shared memory (steps 39 and 41): whether the current device
 * gives them beside its static shared memory and, where it does, the
 * opt-in set and the kernel's resident grid. */
static inline int fit_dynamic_smem(const void *kernel, int threads, size_t dynamic_smem,
                                   bool *fits, int *resident)
{
    kernel_room room;
    PROPAGATE(ask_kernel_room(kernel, &room));
    *fits = room.attributes.sharedSizeBytes + dynamic_smem <= room.smem_optin;
    if (*fits) {
        CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)dynamic_smem));
        PROPAGATE(resident_grid_size(kernel, threads, dynamic_smem, resident));
    }
    return 0;
}

/* `ask(&config)` once per device, its answer kept for the calls after: a
 * launcher may be called inside the timed region, where only the first
 * (warm-up) call on each device should ask the driver. Per device, because
 * bench_compare --gpus drives several and a kernel's shared-memory attribute
 * is set in each device's context. One cache per Key: the launcher, whose
 * every (type, operator) has a kernel of its own. */
template <class Key, class Config, class Ask> int once_per_device(Config *out, Ask ask)
{
    constexpr int DEVICES = 64;
    static Config cached[DEVICES];
    static bool known[DEVICES] = {};
    int device = 0;
    CUDA_TRY(cudaGetDevice(&device));
    if (device < 0 || device >= DEVICES)
        return (int)cudaErrorInvalidDevice;
    if (!known[device]) {
        PROPAGATE(ask(&cached[device]));
        known[device] = true;
    }
    *out = cached[device];
    return 0;
}

/* One resident wave of `kernel` (blocks asking `dynamic_smem` bytes of
 * shared memory), but no block without `items_per_block`
 * inputs to start on, and at least one block - unless a test forces another
 * grid (launch_grid). The same answer for the workspace query and the launch. */
static inline int capped_resident_grid(const void *kernel, int block_threads, size_t n,
                                       size_t items_per_block, int *grid, size_t dynamic_smem = 0)
{
    PROPAGATE(resident_grid_size(kernel, block_threads, dynamic_smem, grid));
    const size_t wanted = ceil_div(n, items_per_block);
    if (wanted < (size_t)*grid)
        *grid = wanted > 0 ? (int)wanted : 1;
    *grid = launch_grid(*grid);
    return 0;
}

/* Worker `index` of `workers`' contiguous share [*first, *last) of `items`
 * (tiles, say): the shares differ by one item at most. Rounding every share
 * up instead leaves the last workers idle and some SMs a round of items more
 * than others. */
__device__ __forceinline__ void even_share(size_t items, size_t workers, size_t index, size_t *first,
                                           size_t *last)
{
    const size_t share = items / workers, extra = items % workers;
    *first = index * share + (index < extra ? index : extra);
    *last = *first + share + (index < extra ? 1 : 0);
}

#endif
