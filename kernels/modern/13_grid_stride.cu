/* Step 13 (seed 004 steps 5-6, cuda-samples reduce7 style): grid-stride loop.
 *
 * One wave of resident blocks - resident_grid_size(), 132 x 4 = 528 blocks
 * on an H100 SXM, capped at ceil(n / 512), at least 1 - walks the input in a
 * grid-stride loop (~62 floats per thread at 64 MiB); block_reduce() writes one
 * partial per block to the workspace and a second one-block launch of the
 * same kernel sums them into *d_out (one launch when one block covers n;
 * n = 0 writes the identity). Seed 004 step 6 hand-tuned 2048 x 512 for its GPU; the
 * occupancy calculator derives the wave for any GPU. BLOCK = 512 is the
 * seed's block: at full occupancy 256 gives the same SMs x 2,048 threads, so
 * it only halves the partials. Fixes step 12: 2 launches, not 3; one block
 * sum per ~62 inputs. Flaw: the loop is not unrolled, so each add waits for
 * its load before the next issues - one 4-byte load in flight per thread,
 * ~1 MiB GPU-wide as in step 12: latency-bound. 64 MiB: reads 64 MiB + 2 KiB;
 * expect somewhat under step 12: one launch fewer, the same bytes in flight
 * (bench/results/h100_64mib.md). Next: 16-byte loads.
 *   bench_compare -m grid_stride
 */
#include "block_reduce.cuh"
#include "method.cuh"
#include "two_launches.cuh"

namespace {

constexpr int BLOCK = 512;

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void grid_stride_kernel(const T *__restrict__ in, size_t n,
                                                            acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const size_t stride = (size_t)gridDim.x * BLOCK;
    A acc = identity<Op, A>();
    for (size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x; i < n; i += stride)
        acc = Op{}(acc, widen(in[i]));
    acc = block_reduce<BLOCK, Op>(acc);
    if (threadIdx.x == 0)
        out[blockIdx.x] = acc;
}

/* One resident wave, no block without an input per thread. */
template <class T, class Op>
using grid_stride_launch = two_launches<grid_stride_kernel<T, Op>, grid_stride_kernel<acc_t<T>, Op>, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(grid_stride, .family = FAMILY_MODERN, .source = "seed 004 steps 5-6; cuda-samples reduction, kernel 7",
              .idea = "grid-stride loop + shuffles, grid sized from SMs x resident blocks",
              .types = ALL_TYPES, .ops = VALUE_OPS, .launch = launch_any_pair<grid_stride_launch>,
              .workspace = workspace_any_pair<grid_stride_launch>,
              .order = {.kind = ORDER_THREAD_CHAINS, .width = BLOCK, .depth = BLOCK_REDUCE_DEPTH});
