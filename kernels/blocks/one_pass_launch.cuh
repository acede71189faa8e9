/* The launcher of a one-launch kernel that combines its blocks with the last
 * block done (last_block_done.cuh): one resident wave, capped so every block
 * has at least ITEMS_PER_BLOCK inputs, at least one block (n = 0: one block
 * writes the identity). KERNEL(in, n, out, workspace).
 *   template <class T, class Op> using single_pass_launch =
 *       one_pass_launch<single_pass_kernel<T, Op>, 512, 512 * VECTOR_WIDTH<T>>; */
#ifndef ONE_PASS_LAUNCH_CUH
#define ONE_PASS_LAUNCH_CUH

#include "cuda_check.h"
#include "grid_size.cuh"
#include "last_block_done.cuh"

template <auto KERNEL, int THREADS, size_t ITEMS_PER_BLOCK> struct one_pass_launch {
    static int grid_for(size_t n, int *grid)
    {
        return capped_resident_grid((const void *)KERNEL, THREADS, n, ITEMS_PER_BLOCK, grid);
    }

    static int workspace(size_t n, size_t *bytes)
    {
        int grid = 0;
        PROPAGATE(grid_for(n, &grid));
        *bytes = last_block_workspace_bytes(grid);
        return 0;
    }

    template <class T, class A>
    static int run(const T *d_in, size_t n, A *d_out, void *workspace, cudaStream_t stream)
    {
        int grid = 0;
        PROPAGATE(grid_for(n, &grid));
        KERNEL<<<grid, THREADS, 0, stream>>>(d_in, n, d_out, workspace);
        CUDA_TRY_LAUNCH();
        return 0;
    }
};

#endif
