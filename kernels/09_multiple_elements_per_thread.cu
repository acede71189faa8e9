/* reduce7 (Harris kernel 7; seed 004 step 5): many elements per thread.
 *
 * A fixed grid of one resident wave - resident_grid_size() blocks (132 SMs x
 * 8 = 1,056 on an H100 SXM), no more than ceil(n / 512) - walks the input
 * with a grid-stride loop, each thread adding ~62 inputs into a register at
 * 64 MiB; then reduce6's unrolled tree writes one partial per block to the
 * workspace, and a second launch of the same kernel with one block sums the
 * partials into *d_out (a single launch when one block covers n). Each
 * iteration adds two inputs BLOCK apart, as Harris does: two independent
 * loads in flight per thread instead of one, which the small grid needs to
 * keep DRAM busy. Fixes reduce6: the tree and its barriers run once per ~62
 * inputs, not per 2, and 2 launches, not 3. Flaw: 4-byte loads, two at a time
 * (vec4 follows). 64 MiB: reads 64 MiB + ~4 KiB; should be DRAM-bound.
 */
#include "cuda_check.h"
#include "grid_size.cuh"
#include "reduce_method.h"
#include "warp_tail.cuh"

namespace {

template <int BLOCK>
__global__ void multiple_elements_kernel(const float *__restrict__ in, size_t n,
                                         float *__restrict__ out)
{
    __shared__ float sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t stride = 2 * (size_t)BLOCK * gridDim.x;

    float sum = 0.0f;
    for (size_t i = blockIdx.x * (2 * (size_t)BLOCK) + tid; i < n; i += stride) {
        /* Both loads before any add: neither waits for the other. */
        const float a = in[i];
        const float b = i + BLOCK < n ? in[i + BLOCK] : 0.0f;
        sum += a + b;
    }
    sdata[tid] = sum;
    __syncthreads();

    const float total = unrolled_tree_sum<BLOCK>(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = total;
}

constexpr int BLOCK = 256;

/* One wave of resident blocks, but no block without a whole 2 * BLOCK segment
 * to start on, and at least one. The same answer for the workspace query and
 * the launch (resident_grid_size caches it). */
int multiple_elements_grid(size_t n, int *grid)
{
    const int err = resident_grid_size((const void *)multiple_elements_kernel<BLOCK>, BLOCK, 0, grid);
    if (err)
        return err;
    const size_t needed = ceil_div(n, 2 * (size_t)BLOCK);
    if ((size_t)*grid > needed)
        *grid = needed > 0 ? (int)needed : 1;
    return 0;
}

} // namespace

extern "C" int multiple_elements_workspace(size_t n, size_t *bytes)
{
    int grid = 0;
    const int err = multiple_elements_grid(n, &grid);
    if (err)
        return err;
    *bytes = (size_t)grid * sizeof(float);
    return 0;
}

extern "C" int multiple_elements_reduce(const float *d_in, size_t n, float *d_out,
                                        void *workspace, cudaStream_t stream)
{
    if (n == 0) {
        CUDA_TRY(cudaMemsetAsync(d_out, 0, sizeof(float), stream));
        return 0;
    }
    int grid = 0;
    const int err = multiple_elements_grid(n, &grid);
    if (err)
        return err;
    float *partials = grid > 1 ? (float *)workspace : d_out;
    multiple_elements_kernel<BLOCK><<<grid, BLOCK, 0, stream>>>(d_in, n, partials);
    CUDA_TRY_LAUNCH();
    if (grid > 1) {
        multiple_elements_kernel<BLOCK><<<1, BLOCK, 0, stream>>>(partials, (size_t)grid, d_out);
        CUDA_TRY_LAUNCH();
    }
    return 0;
}
