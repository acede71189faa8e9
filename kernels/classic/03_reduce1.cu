/* reduce1 (Harris kernel 2; seeds 000, 001, 003): interleaved addressing with
 * a strided index - no divergence, but bank conflicts.
 *
 * The same additions as reduce0, reassigned: thread tid does the one at
 * index = 2*s*tid, so the adders are the first 128/s threads - whole warps,
 * and idle warps skip the step together; the modulo is gone. New flaw: a
 * warp's lanes touch words 2s apart, and shared memory has 32 banks of 4
 * bytes (bank = word % 32), so lanes 16/s apart hit the same bank and are
 * served one after another: 2-way at s = 1, 4-way at s = 2, 8-way for
 * s = 4..16, on both reads and the write. 64 MiB: 3 launches (65,536, 256,
 * 1 blocks), reads 64 MiB + 256 KiB; still bound by the tree, not by DRAM.
 *   bench_compare -r 1
 */
#include "method.cuh"
#include "pass_launch.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ void reduce1_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    const Op op;
    __shared__ A sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    const size_t i = blockIdx.x * (size_t)BLOCK + tid;

    sdata[tid] = i < n ? widen(in[i]) : identity<Op, A>();
    __syncthreads();

    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        const unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] = op(sdata[index], sdata[index + s]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

template <class T, class Op> using reduce1_pass = block_pass<reduce1_kernel<T, Op>, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(reduce1, .family = FAMILY_PROGRESSION, .source = "Harris, Optimizing Parallel Reduction in CUDA (2007), kernel 2; seeds 000, 001, 003",
              .idea = "interleaved tree, strided index: no divergence, bank conflicts",
              .types = ALL_TYPES, .ops = VALUE_OPS, .pass = &pass_kernel_of<reduce1_pass>,
              .flags = METHOD_GRID_INDEPENDENT, /* n alone sets the grid */
              .order = {.kind = ORDER_BLOCK_PASSES, .width = BLOCK, .depth = tree_depth(BLOCK)});
