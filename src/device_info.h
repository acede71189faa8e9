/* What the bench needs to know about the GPU, read from the device. */
#ifndef DEVICE_INFO_H
#define DEVICE_INFO_H

#include <stddef.h>

#include "run_result.h"

/* Fills the device fields of ctx (name, SMs, L2, theoretical bandwidth,
 * driver/runtime/CCCL/cuBLAS versions) for the current device.
 * Returns 0 or a cudaError_t value; cudaErrorNoDevice when there is no GPU. */
int read_device_context(struct run_context *ctx);

/* Free device memory in bytes (cudaMemGetInfo). */
int device_free_bytes(size_t *free_bytes);

/* Versions of the vendor libraries (vendor_shims/). */
int cccl_version(void);
int cublas_version(int *version);

#endif
