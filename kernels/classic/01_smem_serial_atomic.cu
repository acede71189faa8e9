/* Step 1 (seed 004 step 1): reduce inside the block, then one atomic per block.
 *
 * The block copies its 256 inputs to shared memory (the identity past n);
 * thread 0 folds them one after another and makes the block's single atomic.
 * Fixes step 0's contention: one atomic per 256 inputs (65,536 at 64 MiB of
 * floats).
 * Flaws: 255 of 256 threads only load; thread 0's 256 dependent operations
 * serialise each block; and the 65,536 same-address atomics still queue at
 * one L2 slice. Reads the input once; 1 memset + 1 launch of ceil(n / 256)
 * blocks. Expect several times the read's time, set by the atomics and the
 * serial loop, not by the read (bench/results/h100_64mib.md). Next: a tree.
 *   bench_compare -m smem_serial_atomic
 */
#include "atomic_launch.cuh"
#include "method.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ void smem_serial_atomic_kernel(const T *__restrict__ in, size_t n,
                                          acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    __shared__ A sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? widen(in[i]) : identity<Op, A>();
    __syncthreads();

    if (tid == 0) {
        A total = identity<Op, A>();
        for (int k = 0; k < BLOCK; ++k)
            total = Op{}(total, sdata[k]);
        atomic_combine<Op>(out, total);
    }
}

template <class T, class Op>
using smem_serial_atomic_launch = atomic_launch<smem_serial_atomic_kernel<T, Op>, Op, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(smem_serial_atomic, .family = FAMILY_PROGRESSION, .source = "seed 004 step 1",
              .idea = "block loads to shared, thread 0 folds serially, one atomic per block",
              .types = ALL_TYPES, .ops = VALUE_OPS,
              .launch = launch_any_pair<smem_serial_atomic_launch>,
              .workspace = workspace_any_pair<smem_serial_atomic_launch>,
              .flags = METHOD_ORDER_VARIES,
              .order = {.kind = ORDER_ATOMIC_BLOCKS, .width = BLOCK,
                        .depth = BLOCK /* thread 0's fold */});
