/* The launcher of the grid-stride steps (09, 13, 14, 15): a first launch of
 * one resident wave (capped so every block has at least ITEMS_PER_BLOCK
 * inputs, at least one block) writes one partial per block to the workspace;
 * a second launch of one block reduces those partials into *out. When one
 * block covers n, the first launch writes *out itself. n = 0 runs one block,
 * which writes the identity.
 *   template <class T, class Op> using grid_stride_launch =
 *       two_launches<grid_stride_kernel<T, Op>, grid_stride_kernel<acc_t<T>, Op>, 512, 512>;
 * FIRST reads the input type, SECOND the accumulator type (the same kernel
 * for all but half and bfloat16). */
#ifndef TWO_LAUNCHES_CUH
#define TWO_LAUNCHES_CUH

#include "cuda_check.h"
#include "grid_size.cuh"

template <auto FIRST, auto SECOND, int THREADS, size_t ITEMS_PER_BLOCK> struct two_launches {
    static int grid_for(size_t n, int *grid)
    {
        return capped_resident_grid((const void *)FIRST, THREADS, n, ITEMS_PER_BLOCK, grid);
    }

    static int workspace(size_t n, size_t *bytes)
    {
        int grid = 0;
        PROPAGATE(grid_for(n, &grid));
        *bytes = (size_t)grid * MAX_RESULT_BYTES; /* partials: any accumulator */
        return 0;
    }

    template <class T, class A>
    static int run(const T *d_in, size_t n, A *d_out, void *workspace, cudaStream_t stream)
    {
        int grid = 0;
        PROPAGATE(grid_for(n, &grid));
        A *partials = grid > 1 ? static_cast<A *>(workspace) : d_out;
        FIRST<<<grid, THREADS, 0, stream>>>(d_in, n, partials);
        CUDA_TRY_LAUNCH();
        if (grid > 1) {
            SECOND<<<1, THREADS, 0, stream>>>(partials, (size_t)grid, d_out);
            CUDA_TRY_LAUNCH();
        }
        return 0;
    }
};

#endif
