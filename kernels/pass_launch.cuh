/* Launching a one-pass block kernel (struct pass_kernel in reduce_method.h):
 * one block of THREADS threads for every ITEMS inputs, each writing one
 * partial sum. The pass driver calls it; the kernel files only name it:
 *   const struct pass_kernel p = {launch_pass<my_kernel, 256, 512>, 512}; */
#ifndef PASS_LAUNCH_CUH
#define PASS_LAUNCH_CUH

#include "cuda_check.h"

template <void (*KERNEL)(const float *, size_t, float *), int THREADS, unsigned ITEMS>
int launch_pass(const float *d_in, size_t n, float *d_out, cudaStream_t stream)
{
    if (n == 0)
        return 0; /* no partials to write; a 0-block launch would be an error */
    KERNEL<<<(unsigned)ceil_div(n, ITEMS), THREADS, 0, stream>>>(d_in, n, d_out);
    CUDA_TRY_LAUNCH();
    return 0;
}

#endif
