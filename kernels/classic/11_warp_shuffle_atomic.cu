/* Step 11 (seed 004 step 3): warp shuffles inside the block, one atomic per
 * block.
 *
 * Each thread loads one input (the identity past n); block_reduce() adds within each
 * warp through registers (__shfl_xor_sync, 5 steps), parks one value per
 * warp in shared memory, and warp 0 adds those 8; thread 0 atomicAdds the
 * block total to *d_out (zeroed by a memset on the stream first). Fixes
 * step 10's tree: 256 floats of shared traffic and 8 block-wide barriers
 * become 8 floats and one barrier. Flaw (seed 004's Amdahl point): the
 * in-block sum was never the bottleneck - the 65,536 same-address atomics
 * at 64 MiB still queue at one L2 slice, and one 4-byte load per thread
 * keeps too few bytes in flight. Reads 64 MiB once; 1 memset + 1 launch of
 * ceil(n / 256) blocks. Expect little gain over step 10: the atomics still
 * set the time (bench/results/h100_64mib.md). Rounding varies run to run
 * (float atomics in any order). Next: drop the atomics.
 *   bench_compare -m warp_shuffle_atomic
 */
#include "atomic_launch.cuh"
#include "block_reduce.cuh"
#include "method.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void warp_shuffle_atomic_kernel(const T *__restrict__ in, size_t n,
                                                                    acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x;
    const A total = block_reduce<BLOCK, Op>(i < n ? widen(in[i]) : identity<Op, A>());
    if (threadIdx.x == 0)
        atomic_combine<Op>(out, total);
}

template <class T, class Op>
using warp_shuffle_atomic_launch = atomic_launch<warp_shuffle_atomic_kernel<T, Op>, Op, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(warp_shuffle_atomic, .family = FAMILY_PROGRESSION, .source = "seed 004 step 3",
              .idea = "warp shuffles per block, one atomic per block",
              .types = ALL_TYPES, .ops = VALUE_OPS,
              .launch = launch_any_pair<warp_shuffle_atomic_launch>,
              .workspace = workspace_any_pair<warp_shuffle_atomic_launch>,
              .flags = METHOD_ORDER_VARIES,
              .order = {.kind = ORDER_ATOMIC_BLOCKS, .width = BLOCK, .depth = BLOCK_REDUCE_DEPTH});
