/* Hopper's bulk copies (the Tensor Memory Accelerator's cp.async.bulk): a
 * run of global memory copied into shared memory by the copy engine on its
 * own, its arrival counted in bytes on an mbarrier in shared memory. One
 * thread starts a copy; every thread that reads the buffer waits on the
 * barrier's phase. Steps 18 and 38 keep rings of such buffers.
 *
 * Needs code compiled for sm_90 (BULK_COPY_DEVICE_CODE is defined there and
 * in host code); a launcher checks the architecture its kernel was built for
 * (cudaFuncAttributes::ptxVersion >= 90) before it starts one. */
#ifndef BULK_COPY_CUH
#define BULK_COPY_CUH

#include <cstdint>

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define BULK_COPY_DEVICE_CODE 1
#endif

#ifdef BULK_COPY_DEVICE_CODE
__device__ __forceinline__ unsigned shared_address(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* One thread: barriers landed[0 .. count) ready for one copy a phase, and
 * their initialisation visible to the copy engine before a copy signals one.
 * The block's other threads wait on them only after a barrier of the block. */
__device__ __forceinline__ void init_landing(uint64_t *landed, int count)
{
    for (int s = 0; s < count; ++s)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(&landed[s]))
                     : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/* One thread: expect `bytes` on `landed`, and start the copy that delivers
 * them. `bytes` a multiple of 16, both addresses 16-byte aligned. */
__device__ __forceinline__ void fetch_bytes(void *buffer, const void *src, unsigned bytes,
                                            uint64_t *landed)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(shared_address(landed)), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(shared_address(buffer)), "l"(src), "r"(bytes), "r"(shared_address(landed))
                 : "memory");
}

/* One thread: complete the barrier's phase with no copy (a buffer with
 * nothing to copy, which fetch_bytes cannot start). */
__device__ __forceinline__ void arrive_without_copy(uint64_t *landed)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(landed))
                 : "memory");
}

/* Every thread: wait until the phase `parity` of `landed` has completed, i.e.
 * the copy's bytes are in shared memory and visible to this thread. */
__device__ __forceinline__ void wait_for_copy(uint64_t *landed, unsigned parity)
{
    asm volatile("{\n"
                 " .reg .pred done;\n"
                 "WAIT_%=:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 " @!done bra WAIT_%=;\n"
                 "}" :: "r"(shared_address(landed)), "r"(parity) : "memory");
}
#endif

#endif
