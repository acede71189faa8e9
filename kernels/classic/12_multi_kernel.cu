/* Step 12 (seed 004 step 4): no atomics - relaunch on the partials.
 *
 * One pass: each thread loads one input (the identity past n), block_reduce() (warp
 * shuffles) totals the block, and thread 0 writes it to out[blockIdx.x].
 * The padded-pass driver (src/gpu/pass_driver.c) launches it again on those
 * partials until one value is left: at 64 MiB, 16,777,216 -> 65,536 -> 256
 * -> 1, three launches. Fixes step 11's flaw: every partial has its own
 * slot, so nothing waits on a shared address, and the result no longer
 * depends on the order blocks finish. Flaw: one 4-byte load per thread. An
 * H100 keeps 132 x 2,048 threads resident, ~1 MiB of loads in flight at
 * most, while covering DRAM latency at full bandwidth takes a few MiB
 * (Little's law), so expect roughly half of peak for the 64 MiB + 256 KiB
 * read, plus the launches, and well ahead of step 11's atomics
 * (bench/results/h100_64mib.md).
 * Next: fewer threads that each add many inputs.
 *   bench_compare -m multi_kernel
 */
#include "block_reduce.cuh"
#include "method.cuh"
#include "pass_launch.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void multi_kernel_kernel(const T *__restrict__ in, size_t n,
                                                             acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x;
    const A total = block_reduce<BLOCK, Op>(i < n ? widen(in[i]) : identity<Op, A>());
    if (threadIdx.x == 0)
        out[blockIdx.x] = total;
}

template <class T, class Op>
using multi_kernel_pass = block_pass<multi_kernel_kernel<T, Op>, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(multi_kernel, .family = FAMILY_PROGRESSION, .source = "seed 004 step 4",
              .idea = "shuffle tree per block, relaunched on the partials: no atomics",
              .types = ALL_TYPES, .ops = VALUE_OPS, .pass = &pass_kernel_of<multi_kernel_pass>,
              .flags = METHOD_GRID_INDEPENDENT, /* n alone sets the grid */
              .order = {.kind = ORDER_BLOCK_PASSES, .width = BLOCK, .depth = BLOCK_REDUCE_DEPTH});
