/* Launching a one-pass block kernel (struct pass_kernel in reduce_method.h):
 * one block of THREADS threads for every ITEMS inputs, each writing one
 * partial result. The pass driver calls it; a kernel file names it once for
 * every (type, operator):
 *   template <class T, class Op> using reduce0_pass = block_pass<reduce0_kernel<T, Op>, 256, 256>;
 *   ... .pass = &pass_kernel_of<reduce0_pass> (method.cuh) */
#ifndef PASS_LAUNCH_CUH
#define PASS_LAUNCH_CUH

#include "cuda_check.h"

template <auto KERNEL, int THREADS, unsigned ITEMS> struct block_pass {
    static constexpr unsigned items = ITEMS;

    template <class T, class A>
    static int launch(const T *d_in, size_t n, A *d_out, cudaStream_t stream)
    {
        if (n == 0)
            return 0; /* no partials to write; a 0-block launch would be an error */
        KERNEL<<<(unsigned)ceil_div(n, ITEMS), THREADS, 0, stream>>>(d_in, n, d_out);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

#endif
