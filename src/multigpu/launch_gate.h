/* A start line for several GPUs: every GPU's stream first runs a one-thread
 * kernel that waits for a word in pinned host memory, so the host can queue
 * a whole multi-GPU sample - flushes, reductions, combines, events, on every
 * GPU - before any of it starts, and then let all GPUs go at once. Without
 * it the GPUs would start one after another as the host reaches them (a few
 * microseconds of launch calls per GPU), and the time on GPU 0 would include
 * that skew. nvbench holds its GPU the same way ("blocking kernel").
 *   launch_gate_wait(gate, lane, epoch, fault, stream) on each GPU, queue the
 *   sample, launch_gate_open(gate, epoch).
 * The host must open the gate after every wait it queued, also on an error
 * path; a kernel left waiting gives up after GATE_TIMEOUT_S and sets
 * FAULT_GATE_TIMEOUT in its fault word, so a bug cannot hang the GPU. */
#ifndef LAUNCH_GATE_H
#define LAUNCH_GATE_H

#include <cuda_runtime_api.h>

#include "shard_partition.h" /* MAX_GPUS */

#ifdef __cplusplus
extern "C" {
#endif

/* Far beyond the host's time to queue a sample (well under a millisecond)
 * and a GPU's to reduce its shard (~25 ms for 100 GiB on an H200). */
#define GATE_TIMEOUT_S 2
/* Bits of a GPU's fault word (device memory, zeroed before each sample). */
#define FAULT_GATE_TIMEOUT 1u /* the host never opened the gate */
#define FAULT_P2P_TIMEOUT 2u  /* GPU 0 never saw another GPU's partial (combine.h) */

struct launch_gate {
    unsigned *host_word;                       /* pinned, mapped into every device */
    unsigned *device_word[MAX_GPUS];   /* its address on each lane's device */
    int count;
};

/* Pinned, portable, mapped memory for the word, seen from each of the count
 * devices. Returns 0 or a cudaError_t value; the current device is left as
 * it was. */
int launch_gate_create(struct launch_gate *g, const int *devices, int count);
void launch_gate_destroy(struct launch_gate *g);

/* Queues the wait on `stream`, which belongs to lane `lane`'s device (the
 * current device): the stream's later work starts once the host opened the
 * gate for `epoch` (epochs grow by one per sample; the word starts at 0). */
int launch_gate_wait(const struct launch_gate *g, int lane, unsigned epoch, unsigned *fault,
                     cudaStream_t stream);

/* Lets every wait for epoch (and earlier) go. */
void launch_gate_open(const struct launch_gate *g, unsigned epoch);

#ifdef __cplusplus
}
#endif

#endif
