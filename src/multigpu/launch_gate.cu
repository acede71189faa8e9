#include "launch_gate.h"

#include <cuda/atomic>

#include "cuda_check.h"

namespace {

__device__ __forceinline__ unsigned long long globaltimer_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* One thread polls the host word (an acquire load over PCIe every ~100 ns
 * of sleep): epochs grow, so "not yet" is word - epoch < 0, wrap-safe. */
__global__ void gate_kernel(unsigned *word, unsigned epoch, unsigned *fault)
{
    cuda::atomic_ref<unsigned, cuda::thread_scope_system> w(*word);
    const unsigned long long start = globaltimer_ns();
    while ((int)(w.load(cuda::memory_order_acquire) - epoch) < 0) {
        if (globaltimer_ns() - start > GATE_TIMEOUT_S * 1000000000ull) {
            *fault |= FAULT_GATE_TIMEOUT;
            return;
        }
        __nanosleep(100);
    }
}

} // namespace

extern "C" int launch_gate_create(struct launch_gate *g, const int *devices, int count)
{
    *g = launch_gate{};
    if (count < 1 || count > MAX_GPUS)
        return (int)cudaErrorInvalidValue;
    int current = 0;
    CUDA_TRY(cudaGetDevice(&current));
    CUDA_TRY(cudaHostAlloc((void **)&g->host_word, sizeof *g->host_word,
                           cudaHostAllocMapped | cudaHostAllocPortable));
    *g->host_word = 0;
    g->count = count;
    for (int i = 0; i < count; ++i) {
        CUDA_TRY(cudaSetDevice(devices[i]));
        CUDA_TRY(cudaHostGetDevicePointer((void **)&g->device_word[i], g->host_word, 0));
    }
    CUDA_TRY(cudaSetDevice(current));
    return 0;
}

extern "C" void launch_gate_destroy(struct launch_gate *g)
{
    if (g->host_word)
        cudaFreeHost(g->host_word);
    *g = launch_gate{};
}

extern "C" int launch_gate_wait(const struct launch_gate *g, int lane, unsigned epoch,
                                unsigned *fault, cudaStream_t stream)
{
    gate_kernel<<<1, 1, 0, stream>>>(g->device_word[lane], epoch, fault);
    CUDA_TRY_LAUNCH();
    return 0;
}

extern "C" void launch_gate_open(const struct launch_gate *g, unsigned epoch)
{
    /* A release store: everything the host queued before is ordered before
     * the GPUs can see the word change. */
    __atomic_store_n(g->host_word, epoch, __ATOMIC_RELEASE);
}
