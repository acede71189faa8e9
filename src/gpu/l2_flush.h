/* Evicting the input from L2 before each timed sample, without dirtying it.
 * A cudaMemset-based flush leaves dirty lines whose write-back steals
 * bandwidth from the next timed kernel; no flush lets part of a 64 MiB input
 * hit in the 50 MB L2. Reading a buffer of 4x the L2 size leaves L2 full of
 * clean lines that belong to nobody (docs/measuring.md, "Cold L2"). */
#ifndef L2_FLUSH_H
#define L2_FLUSH_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

struct l2_flusher {
    float *buffer;
    size_t count; /* floats in buffer */
    float *sink;  /* written only if the sum is impossible: keeps the reads live */
};

/* Allocates 4 x l2_bytes, fills it once and sweeps it once, so later sweeps
 * find nothing dirty. Returns 0 or a cudaError_t value. */
int l2_flusher_create(struct l2_flusher *f, size_t l2_bytes);
/* One sweep. Each sweep misses in L2 from start to end (reading the head
 * evicts the tail the previous sweep left), so its time also gives a
 * measured read-bandwidth ceiling (measure.h). */
int l2_flush(const struct l2_flusher *f, cudaStream_t stream);
void l2_flusher_destroy(struct l2_flusher *f);

/* An empty kernel: its event-timed cost is the floor no method gets under. */
int launch_empty_kernel(cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
