/* cub::DeviceReduce::Sum, called the way a careful user calls it: the
 * temporary storage size is queried once per n (cub_sum_workspace) and the
 * harness allocates it outside the timed region, so the timed call is the
 * reduction alone. 64-bit num_items, so n > 2^31 works. */
#include <cub/device/device_reduce.cuh>
#include <cuda/std/cstdint>

#include "cuda_check.h"

extern "C" int cub_sum_workspace(size_t n, size_t *bytes)
{
    *bytes = 0;
    CUDA_TRY(cub::DeviceReduce::Sum(nullptr, *bytes, (const float *)nullptr, (float *)nullptr,
                                    (cuda::std::int64_t)n));
    return 0;
}

extern "C" int cub_sum_reduce(const float *d_in, size_t n, float *d_out, void *workspace,
                              cudaStream_t stream)
{
    /* CUB's two-phase idiom asks for the size again: host work only, which
     * the cold protocol's flush kernel hides (the GPU is busy meanwhile). */
    size_t bytes = 0;
    PROPAGATE(cub_sum_workspace(n, &bytes));
    CUDA_TRY(cub::DeviceReduce::Sum(workspace, bytes, d_in, d_out, (cuda::std::int64_t)n, stream));
    return 0;
}

extern "C" int cccl_version(void) { return CCCL_VERSION; }
