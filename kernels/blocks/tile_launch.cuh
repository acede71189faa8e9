/* What the launchers of steps 19 (reproducible) and 20 (exact) share: both
 * sum fixed tiles (fixed_tiles.cuh) into the long accumulator
 * (superaccumulator.cuh), so both need its workspace, and both run one
 * resident wave with no warp left without a tile - a grid that changes no
 * bit of their result. */
#ifndef TILE_LAUNCH_CUH
#define TILE_LAUNCH_CUH

#include <cuda/std/type_traits>

#include "cuda_check.h"
#include "element_traits.cuh"
#include "fixed_tiles.cuh"
#include "grid_size.cuh"
#include "superaccumulator.cuh"
#include "vector_loads.cuh"

/* The pairs the tile kernels take: floating-point sums (the descriptors
 * refuse the rest before a launcher sees them). */
template <class T, class Op>
inline constexpr bool TILE_SUM_SUPPORTED =
    cuda::std::is_same_v<Op, op_sum> && !cuda::std::is_integral_v<T>;

/* A launcher (the `launch` and `workspace` of a descriptor) for a tile
 * kernel: KERNELS::of<T>() names the kernel for element type T, asked for
 * only where the pair is supported. */
template <class T, class Op, class KERNELS, int BLOCK> struct tile_sum_launch {
    static int workspace(size_t, size_t *bytes)
    {
        if constexpr (TILE_SUM_SUPPORTED<T, Op>)
            *bytes = superaccumulator_workspace_bytes<acc_t<T>>();
        else
            *bytes = 0;
        return 0;
    }

    static int run(const T *d_in, size_t n, acc_t<T> *d_out, void *workspace, cudaStream_t stream)
    {
        if constexpr (!TILE_SUM_SUPPORTED<T, Op>) {
            return (int)cudaErrorNotSupported; /* refused by the descriptor */
        } else {
            constexpr auto kernel = KERNELS::template of<T>();
            constexpr size_t TILE_ITEMS = (BLOCK / 32) * TILE_VECTORS * VECTOR_WIDTH<T>;
            int grid = 0;
            PROPAGATE(capped_resident_grid((const void *)kernel, BLOCK, n, TILE_ITEMS, &grid));
            kernel<<<grid, BLOCK, 0, stream>>>(d_in, n, d_out, workspace);
            CUDA_TRY_LAUNCH();
            return 0;
        }
    }
};

#endif
