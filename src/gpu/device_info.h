/* What the bench needs to know about the GPU, read from the device. */
#ifndef DEVICE_INFO_H
#define DEVICE_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run_result.h"

/* The one line every program prints when there is no GPU to use:
 * "no usable CUDA device: <why>" (bench_compare's error, the GPU tests' skip
 * reason). Returns true, with buf untouched, when a device is usable. */
bool usable_gpu(char *buf, size_t len);

/* Makes `index` the current device; -1 with "device N does not exist: ..."
 * (naming how many there are) in err if it is out of range. */
int select_device(int index, char *err, size_t err_len);

/* One line per visible device: index, name, SMs, memory, compute capability,
 * PCI bus id. Returns 0 or a cudaError_t value. */
int list_devices(FILE *out);

/* Fills the device fields of ctx (name, SMs, L2, theoretical bandwidth,
 * driver/runtime/CCCL/cuBLAS versions) for the current device.
 * Returns 0 or a cudaError_t value; cudaErrorNoDevice when there is no GPU. */
int read_device_context(struct run_context *ctx);

/* Free device memory in bytes (cudaMemGetInfo). */
int device_free_bytes(size_t *free_bytes);

/* Versions of the vendor libraries (vendor_shims/). */
int cccl_version(void);
int cublas_version(int *version);
/* "PyTorch 2.11.0+cu130 (CUDA 13.0) from <its folder>", as found at configure
 * time, or how to build the torch rows (vendor_shims/torch.cu). */
const char *torch_description(void);

#endif
