/* The combines of bench_compare --gpus: each GPU has reduced its shard to
 * one partial (the accumulator type, in its own memory); a combine turns
 * the G partials into the one result.
 *
 *   p2p   src/multigpu/p2p_combine.cu, no library: every other GPU stores its
 *         partial into a slot in GPU 0's memory over peer access and raises
 *         a flag there; GPU 0 adds the slots in rank order once it sees the
 *         flags. The result is on GPU 0.
 *   nccl  vendor_shims/nccl_combine.cu: ncclAllReduce of one value per GPU,
 *         one communicator per GPU created once (ncclCommInitAll), the calls
 *         grouped (ncclGroupStart/End). The result is on every GPU.
 * Both are queued on the GPUs' streams like any other work, so the harness
 * (multi_gpu.h) times them between its events. */
#ifndef COMBINE_H
#define COMBINE_H

#include <stdbool.h>
#include <stddef.h>
#include <cuda_runtime_api.h>

#include "element_type.h"
#include "shard_partition.h" /* MAX_GPUS */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- p2p: src/multigpu/p2p_combine.cu */

struct p2p_combine {
    int count;
    int devices[MAX_GPUS]; /* rank -> CUDA device; rank 0 holds the slots */
    void *slots;                   /* on rank 0: count x MAX_RESULT_BYTES */
    unsigned *flags;               /* on rank 0: the epoch each rank last published */
};

/* Enables peer access from every rank to rank 0's memory (already enabled
 * is fine) and allocates the slots and flags there. Returns 0, or -1 with
 * the reason in err (a pair of GPUs without peer access: no NVLink or PCIe
 * peer path) or a cudaError_t value. The current device is left as it was. */
int p2p_combine_create(struct p2p_combine *c, const int *devices, int count, char *err,
                       size_t err_len);
void p2p_combine_destroy(struct p2p_combine *c);

/* On rank >= 1's stream (its device current): stores *d_partial into its
 * slot on rank 0, then raises its flag to epoch. One one-thread kernel. */
int p2p_publish(const struct p2p_combine *c, int rank, struct reduce_spec spec,
                const void *d_partial, unsigned epoch, cudaStream_t stream);

/* On rank 0's stream (its device current): waits for every other rank's
 * flag to reach epoch, then writes partial 0 op slot 1 op ... op slot G-1 to
 * d_result. After GATE_TIMEOUT_S without a flag it gives up and sets
 * FAULT_P2P_TIMEOUT (launch_gate.h) in *fault. One one-thread kernel. */
int p2p_finish(const struct p2p_combine *c, struct reduce_spec spec, const void *d_partial,
               void *d_result, unsigned epoch, unsigned *fault, cudaStream_t stream);

/* ---- nccl: vendor_shims/nccl_combine.cu */

struct nccl_combine; /* the communicators */

/* Whether this build has NCCL (CMake found it): without it, create fails
 * with "built without NCCL: ..." and the nccl rows are refused. */
bool nccl_built(void);

/* "2.28.9 (built with 2.28.9)", or why there is none. */
void nccl_describe(char *buf, size_t len);

/* One communicator per device, in rank order, with NVLink multicast (NVLS)
 * off unless the environment already says otherwise: NCCL_NVLS_ENABLE=0 is
 * set, not overwritten, before NCCL reads its environment. Returns 0, or -1
 * with the reason in err. The current device is left as it was. */
int nccl_combine_create(struct nccl_combine **c, const int *devices, int count, char *err,
                        size_t err_len);
void nccl_combine_destroy(struct nccl_combine *c);

/* d_results[r] = op over every rank of *d_partials[r] (one accumulator-type
 * value each), queued on streams[r]; returns 0 or a nonzero code (reported
 * on stderr). */
int nccl_combine_run(struct nccl_combine *c, struct reduce_spec spec, void *const *d_partials,
                     void *const *d_results, const cudaStream_t *streams);

#ifdef __cplusplus
}
#endif

#endif
