/* Step 10 (seed 004 step 2): a tree inside the block, one atomic per block.
 *
 * Each thread loads one input (the identity past n) into shared memory; the block
 * halves the live range 8 times with sequential addressing (thread t adds
 * sdata[t + s], a barrier after every level) and thread 0 atomicAdds the
 * block total to *d_out (zeroed by a memset on the stream first). Fixes
 * step 1's serial loop: 8 levels of parallel adds instead of 255 dependent
 * ones in thread 0. Flaws: still 65,536 same-address atomics at 64 MiB,
 * applied one by one at the L2 slice that owns *d_out; one 4-byte load in
 * flight per thread; 8 __syncthreads per 256 inputs with ever fewer adders.
 * Reads 64 MiB once; 1 memset + 1 launch of ceil(n / 256) blocks. Expect
 * about what step 1 costs (bench/results/h100_64mib.md): the atomics, not
 * the read, set the time. Float atomics land in any
 * order, so the rounding varies run to run. Next: shuffles instead of shared.
 *   bench_compare -m tree_atomic
 */
#include "atomic_launch.cuh"
#include "method.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ void tree_atomic_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const Op op;
    __shared__ A sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? widen(in[i]) : identity<Op, A>();
    __syncthreads();

    /* Every level waits for the whole block: the warps combining at level s
     * read values other warps wrote at level 2s. */
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        atomic_combine<Op>(out, sdata[0]);
}

template <class T, class Op>
using tree_atomic_launch = atomic_launch<tree_atomic_kernel<T, Op>, Op, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(tree_atomic, .family = FAMILY_PROGRESSION, .source = "seed 004 step 2",
              .idea = "shared-memory tree per block, one atomic per block",
              .types = ALL_TYPES, .ops = VALUE_OPS, .launch = launch_any_pair<tree_atomic_launch>,
              .workspace = workspace_any_pair<tree_atomic_launch>, .flags = METHOD_ORDER_VARIES,
              .order = {.kind = ORDER_ATOMIC_BLOCKS, .width = BLOCK, .depth = tree_depth(BLOCK)});
