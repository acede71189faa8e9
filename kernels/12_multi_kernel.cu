/* Step 12 (seed 004 step 4): no atomics - relaunch on the partials.
 *
 * One pass: each thread loads one input (0.0f past n), block_sum() (warp
 * shuffles) totals the block, and thread 0 writes it to out[blockIdx.x].
 * The padded-pass driver (src/pass_driver.c) launches it again on those
 * partials until one value is left: at 64 MiB, 16,777,216 -> 65,536 -> 256
 * -> 1, three launches. Fixes step 11's flaw: every partial has its own
 * slot, so nothing waits on a shared address, and the result no longer
 * depends on the order blocks finish. Flaw: one 4-byte load per thread. An
 * H100 keeps 132 x 2,048 threads resident, ~1 MiB of loads in flight at
 * most, while covering DRAM latency at ~3.3 TB/s takes a few MiB (Little's
 * law), so expect roughly half of peak: ~40-50 us for the 64 MiB + 256 KiB
 * read, plus the launches (seed 004: 109 us, 1.7x faster than step 11).
 * Next: fewer threads that each add many inputs.
 */
#include "block_reduce.cuh"
#include "cuda_check.h"
#include "pass_launch.cuh"
#include "reduce_method.h"

namespace {

constexpr int BLOCK = 256;

__global__ __launch_bounds__(BLOCK) void multi_kernel_kernel(const float *__restrict__ in, size_t n,
                                                             float *__restrict__ out)
{
    const size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x;
    const float total = block_sum<BLOCK>(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0)
        out[blockIdx.x] = total;
}

} // namespace

extern "C" const struct pass_kernel multi_kernel_pass = {
    launch_pass<multi_kernel_kernel, BLOCK, BLOCK>, BLOCK};
