/* Step 15 (seed 004 step 7): 16-byte vector loads.
 *
 * Step 13 with the loop reading 16-byte vectors (4 floats, 2 doubles, 8
 * halves) through reduce_vectors() (vector_loads.cuh), which peels the
 * elements before d_in's first 16-byte boundary and after the last whole
 * vector: any element-aligned pointer, any n. Grid: resident_grid_size()
 * (528 blocks of 512 on an H100 SXM), capped at one vector per thread, at
 * least 1; partials, then a second one-block launch (one launch when one
 * block covers n; n = 0 writes the identity).
 * Fixes step 13: each load moves 16 bytes, so one load per thread is ~4 MiB
 * in flight GPU-wide - about DRAM latency x bandwidth - with a quarter of
 * the loop instructions. Flaw: two launches and the gap between them.
 * 64 MiB: reads 64 MiB + 2 KiB; expect near the DRAM limit plus a launch,
 * level with CUB, which has the same two-launch shape
 * (bench/results/h100_64mib.md). Next: one launch.
 * argmax and argmin (after step 35, whose loads were one element each):
 * the same two launches on (value, index) pairs; the second reads the
 * blocks' pairs as its elements, which keep their own indices.
 *   bench_compare -m vector_loads --type half
 */
#include "block_reduce.cuh"
#include "method.cuh"
#include "two_launches.cuh"
#include "vector_loads.cuh"

namespace {

constexpr int BLOCK = 512;

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void vector_loads_kernel(const T *__restrict__ in, size_t n,
                                                             result_t<T, Op> *__restrict__ out)
{
    result_t<T, Op> acc = reduce_vectors<1, Op>(in, n, blockIdx.x * (size_t)BLOCK + threadIdx.x,
                                         (size_t)gridDim.x * BLOCK);
    acc = block_reduce<BLOCK, Op>(acc);
    if (threadIdx.x == 0)
        store_result(&out[blockIdx.x], acc);
}

/* One resident wave, no block without a 16-byte vector per thread. */
template <class T, class Op>
using vector_loads_launch = two_launches<vector_loads_kernel<T, Op>, vector_loads_kernel<result_t<T, Op>, Op>,
                                         BLOCK, BLOCK * VECTOR_WIDTH<T>>;

} // namespace

DEFINE_METHOD(vector_loads, .family = FAMILY_MODERN, .source = "seed 004 steps 6-7",
              .idea = "16-byte vector loads, grid-stride, tuned launch, 2 launches",
              .types = ALL_TYPES, .ops = ALL_OPS, .launch = launch_any_pair<vector_loads_launch, ALL_OPS>,
              .workspace = workspace_any_pair<vector_loads_launch, ALL_OPS>,
              .order = {.kind = ORDER_THREAD_CHAINS, .width = BLOCK,
                        .depth = VECTOR_LOADS_DEPTH + BLOCK_REDUCE_DEPTH});
