/* CUB's reproducible mode: cuda::execution::require(determinism::gpu_to_gpu)
 * (CCCL >= 3.1). Float and double sums go through CUB's reproducible
 * floating-point accumulator (RFA, after Demmel and Nguyen's ReproBLAS):
 * every element is split against fixed power-of-two bins, so the result's
 * bits are the same for any grid, SM count or GPU - at the price of several
 * extra floating-point operations per element. half and bfloat16 are widened
 * to float on load. Integer sums, max and min are the same bits in any order
 * already: CUB runs them run_to_run (the `cub` row), so this row refuses them.
 * Its temporary storage comes from the harness's workspace through the
 * environment's memory resource (cub_env.cuh), outside the timing.
 * Expected: slower than `cub`, most at 64 MiB, where the fixed cost of
 * allocating inside the call weighs most (CCCL 3.5:
 * bench/results/h100_cubmodes_64mib.md, h100_cubmodes_1gib.md, and the
 * h200_ files of the same names).
 *   bench_compare -m cub,cub_reproducible,reproducible   (configure with -DREDUCE_CCCL_ROOT=...) */
#include "cub_env.cuh"

#define CUB_REPRODUCIBLE_TYPES \
    (TYPE_BIT(TYPE_FLOAT) | TYPE_BIT(TYPE_DOUBLE) | TYPE_BIT(TYPE_HALF) | TYPE_BIT(TYPE_BFLOAT16))

#if CUB_ENV_API

/* Only the pairs the descriptor declares are ever called; the others are
 * still instantiated by with_pair, where gpu_to_gpu would not compile. */
template <class T, class Op> struct cub_reproducible_launch {
    static constexpr bool RFA = cuda::std::is_same_v<Op, op_sum> &&
                                (cuda::std::is_same_v<acc_t<T>, float> || cuda::std::is_same_v<acc_t<T>, double>);
    using mode = cub_env_mode<cuda::execution::determinism::gpu_to_gpu_t>::launch<T, Op>;

    static int workspace(size_t n, size_t *bytes)
    {
        if constexpr (RFA)
            return mode::workspace(n, bytes);
        *bytes = 0;
        return (int)cudaErrorNotSupported;
    }

    static int run(const T *d_in, size_t n, acc_t<T> *d_out, void *workspace, cudaStream_t stream)
    {
        if constexpr (RFA)
            return mode::run(d_in, n, d_out, workspace, stream);
        return (int)cudaErrorNotSupported;
    }
};

DEFINE_METHOD(cub_reproducible, .family = FAMILY_VENDOR, .source = "CCCL cub::DeviceReduce, gpu_to_gpu",
              .idea = "CUB's reproducible float accumulator (RFA): same bits on any GPU; workspace via the env",
              .types = CUB_REPRODUCIBLE_TYPES, .ops = OP_BIT(OP_SUM),
              .unsupported_why = "gpu_to_gpu is for floating-point sums; integer sums, max and min give the same bits "
                                 "anyway (the cub row)",
              .launch = launch_any_pair<cub_reproducible_launch>,
              .workspace = workspace_any_pair<cub_reproducible_launch>, .flags = METHOD_GRID_INDEPENDENT);

#else

DEFINE_METHOD(cub_reproducible, .family = FAMILY_VENDOR, .source = "CCCL cub::DeviceReduce, gpu_to_gpu",
              .idea = "CUB's reproducible float accumulator (RFA): same bits on any GPU; workspace via the env",
              .types = 0, .ops = 0, .unsupported_why = CCCL_3_1_REFUSAL.text,
              .launch = cub_env_unavailable, .flags = METHOD_GRID_INDEPENDENT);

#endif
