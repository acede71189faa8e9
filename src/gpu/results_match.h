/* Whether a call's results, still on the GPU, are the bits of a first call's
 * results kept there. The sample loop (measure.c) checks every call; a call
 * bit-identical to the first, which was read back and checked row by row, is
 * right by that check. Comparing on the GPU spares the copy back, the
 * clearing of padding and the comparison on the host, which for the 2^24
 * results of a 64 MiB array of one column took most of a sweep's time. */
#ifndef RESULTS_MATCH_H
#define RESULTS_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compares `bytes` (a multiple of 4) at d_results and d_first, 4 bytes at a
 * time, leaving out the padding of arg results when skip_padding (the second
 * 4 bytes of every 16: element_type.h). *same: whether every other word is
 * equal. d_flag: 4 bytes of device memory the call overwrites. Waits for the
 * stream. Returns 0 or a cudaError_t value. */
int results_match(const void *d_results, const void *d_first, size_t bytes, bool skip_padding,
                  unsigned *d_flag, cudaStream_t stream, bool *same);

#ifdef __cplusplus
}
#endif

#endif
