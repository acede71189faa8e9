/* Step 14 (cuda-samples reduction kernel 8): step 13 in cooperative groups.
 *
 * Same plan - resident grid (resident_grid_size(), capped at ceil(n / 256)),
 * grid-stride 4-byte loads, one partial per block, a second one-block launch
 * - with the in-block sum in CG: this_thread_block(), tiled_partition<32>(),
 * cg::reduce(tile, v, cg::plus<float>()), which compiles to the same
 * butterfly shuffles as warp_sum(). It fixes no cost: it names the groups,
 * so who must take part (a whole tile; the whole block at block.sync()) is
 * in the types, not in masks. The two levels are written here, not taken
 * from block_sum(), because showing them in CG is the step. BLOCK = 256,
 * the samples' default. Flaw: step 13's one 4-byte load in flight per
 * thread. 64 MiB: reads 64 MiB + ~4 KiB, 2 launches; expect step 13's time.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "cuda_check.h"
#include "grid_size.cuh"
#include "reduce_method.h"

namespace cg = cooperative_groups;

namespace {

constexpr int BLOCK = 256;

__global__ __launch_bounds__(BLOCK) void cg_reduce_kernel(const float *__restrict__ in, size_t n,
                                                          float *__restrict__ out)
{
    constexpr int TILES = BLOCK / 32;
    __shared__ float tile_totals[TILES];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

    const size_t stride = (size_t)gridDim.x * BLOCK;
    float sum = 0.0f;
    for (size_t i = blockIdx.x * (size_t)BLOCK + block.thread_rank(); i < n; i += stride)
        sum += in[i];

    sum = cg::reduce(tile, sum, cg::plus<float>());
    if (tile.thread_rank() == 0)
        tile_totals[tile.meta_group_rank()] = sum;
    block.sync(); /* every tile's total is in shared memory before tile 0 reads */
    if (tile.meta_group_rank() == 0) {
        sum = tile.thread_rank() < TILES ? tile_totals[tile.thread_rank()] : 0.0f;
        sum = cg::reduce(tile, sum, cg::plus<float>());
        if (tile.thread_rank() == 0)
            out[blockIdx.x] = sum;
    }
}

/* One resident wave, no block without an input per thread, at least one. */
int grid_for(size_t n, int *grid)
{
    PROPAGATE(resident_grid_size((const void *)cg_reduce_kernel, BLOCK, 0, grid));
    const size_t wanted = ceil_div(n, BLOCK);
    if (wanted < (size_t)*grid)
        *grid = wanted > 0 ? (int)wanted : 1;
    return 0;
}

} // namespace

extern "C" int cg_reduce_workspace(size_t n, size_t *bytes)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    *bytes = (size_t)grid * sizeof(float);
    return 0;
}

extern "C" int cg_reduce_reduce(const float *d_in, size_t n, float *d_out, void *workspace,
                                cudaStream_t stream)
{
    int grid = 0;
    PROPAGATE(grid_for(n, &grid));
    float *partials = grid > 1 ? (float *)workspace : d_out;
    cg_reduce_kernel<<<grid, BLOCK, 0, stream>>>(d_in, n, partials);
    CUDA_TRY_LAUNCH();
    if (grid > 1) {
        cg_reduce_kernel<<<1, BLOCK, 0, stream>>>(partials, (size_t)grid, d_out);
        CUDA_TRY_LAUNCH();
    }
    return 0;
}
