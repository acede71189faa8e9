/* The hand-written multi-GPU combine (bench_compare --gpus N --combine p2p):
 * G partials, one per GPU, into one value on GPU 0, over NVLink with peer
 * access and no library.
 *
 * Idea: GPU 0's memory holds a slot and a flag per GPU. Once GPU r has
 * reduced its shard, a one-thread kernel on GPU r stores its partial into
 * slot r on GPU 0 (a store over NVLink) and then raises flag r to this
 * sample's epoch with a system-scope release; on GPU 0, after its own
 * shard, a one-thread kernel polls the flags with acquire loads (local
 * memory: cheap) and adds partial 0, slot 1, ..., slot G-1 in rank order -
 * the same order every sample, so the result's bits repeat. No event, no
 * host and no copy engine sits between the GPUs: the cost over the slowest
 * GPU's reduction is one small kernel on each side and one NVLink store's
 * latency, where a cross-GPU event wait or a 4-byte cudaMemcpyPeerAsync
 * adds a trip through the host or a copy engine.
 * Epochs grow by one per sample, so flags are never reset.
 * Measured on two H200s: the combine alone about half as long as NCCL's
 * all-reduce of one value (the "combine us" column of
 * bench/results/h200x2_multigpu_4gib.txt). Its result is on GPU 0 only;
 * NCCL's is on every GPU.
 *   bench_compare --gpus 2 --combine p2p -n 268435456 */
#include <cuda/atomic>
#include <stdio.h>

#include "combine.h"
#include "cuda_check.h"
#include "element_traits.cuh"
#include "launch_gate.h"

namespace {

__device__ __forceinline__ unsigned long long globaltimer_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

template <class A>
__global__ void publish_kernel(const A *partial, A *slot, unsigned *flag, unsigned epoch)
{
    *slot = *partial; /* into GPU 0's memory */
    /* The release orders the slot's store before the flag's, for any
     * thread in the system that acquires the flag. */
    cuda::atomic_ref<unsigned, cuda::thread_scope_system>(*flag).store(epoch,
                                                                        cuda::memory_order_release);
}

template <class A, class Op>
__global__ void finish_kernel(const A *partial, const A *slots, unsigned *flags, int count,
                              unsigned epoch, A *result, unsigned *fault)
{
    A total = *partial;
    const unsigned long long start = globaltimer_ns();
    for (int r = 1; r < count; ++r) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_system> flag(flags[r]);
        while ((int)(flag.load(cuda::memory_order_acquire) - epoch) < 0)
            if (globaltimer_ns() - start > GATE_TIMEOUT_S * 1000000000ull) {
                *fault |= FAULT_P2P_TIMEOUT;
                return; /* the result keeps its poison: the sample fails */
            }
        total = Op{}(total, slots[r]); /* after the acquire: rank r's store is visible */
    }
    *result = total;
}

} // namespace

extern "C" int p2p_combine_create(struct p2p_combine *c, const int *devices, int count,
                                  char *err, size_t err_len)
{
    *c = p2p_combine{};
    if (count < 1 || count > MAX_GPUS) {
        snprintf(err, err_len, "p2p: %d GPUs (1 to %d)", count, MAX_GPUS);
        return -1;
    }
    int current = 0;
    CUDA_TRY(cudaGetDevice(&current));
    for (int r = 1; r < count; ++r) {
        int can = 0;
        CUDA_TRY(cudaDeviceCanAccessPeer(&can, devices[r], devices[0]));
        if (!can) {
            snprintf(err, err_len,
                     "p2p: GPU %d cannot access GPU %d's memory (no peer path: NVLink or PCIe "
                     "peer-to-peer)", devices[r], devices[0]);
            return -1;
        }
        CUDA_TRY(cudaSetDevice(devices[r]));
        const cudaError_t enabled = cudaDeviceEnablePeerAccess(devices[0], 0);
        if (enabled == cudaErrorPeerAccessAlreadyEnabled)
            (void)cudaGetLastError(); /* fine: clear the error it leaves */
        else
            CUDA_TRY(enabled);
    }
    CUDA_TRY(cudaSetDevice(devices[0]));
    CUDA_TRY(cudaMalloc(&c->slots, (size_t)count * MAX_RESULT_BYTES));
    CUDA_TRY(cudaMalloc((void **)&c->flags, (size_t)count * sizeof *c->flags));
    CUDA_TRY(cudaMemset(c->flags, 0, (size_t)count * sizeof *c->flags));
    CUDA_TRY(cudaDeviceSynchronize());
    CUDA_TRY(cudaSetDevice(current));
    c->count = count;
    for (int r = 0; r < count; ++r)
        c->devices[r] = devices[r];
    return 0;
}

extern "C" void p2p_combine_destroy(struct p2p_combine *c)
{
    int current = 0;
    if (c->count > 0 && cudaGetDevice(&current) == cudaSuccess &&
        cudaSetDevice(c->devices[0]) == cudaSuccess) {
        cudaFree(c->slots);
        cudaFree(c->flags);
        cudaSetDevice(current);
    }
    *c = p2p_combine{};
}

extern "C" int p2p_publish(const struct p2p_combine *c, int rank, struct reduce_spec spec,
                           const void *d_partial, unsigned epoch, cudaStream_t stream)
{
    if (rank < 1 || rank >= c->count)
        return (int)cudaErrorInvalidValue;
    return with_pair(spec, [&](auto type, auto) {
        using A = acc_t<typename decltype(type)::type>;
        publish_kernel<A><<<1, 1, 0, stream>>>(static_cast<const A *>(d_partial),
                                               static_cast<A *>(c->slots) + rank,
                                               c->flags + rank, epoch);
        CUDA_TRY_LAUNCH();
        return 0;
    });
}

extern "C" int p2p_finish(const struct p2p_combine *c, struct reduce_spec spec,
                          const void *d_partial, void *d_result, unsigned epoch, unsigned *fault,
                          cudaStream_t stream)
{
    return with_pair(spec, [&](auto type, auto op) {
        using A = acc_t<typename decltype(type)::type>;
        finish_kernel<A, decltype(op)><<<1, 1, 0, stream>>>(
            static_cast<const A *>(d_partial), static_cast<const A *>(c->slots), c->flags,
            c->count, epoch, static_cast<A *>(d_result), fault);
        CUDA_TRY_LAUNCH();
        return 0;
    });
}
