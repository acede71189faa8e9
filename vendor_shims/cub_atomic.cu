/* CUB's fastest mode: cuda::execution::require(determinism::not_guaranteed)
 * (CCCL >= 3.1). One kernel - after a memset of *out - whose blocks add their
 * totals into *out with atomics, in whatever order they finish: no second
 * launch, no partials, but a float sum's last bits may change from run to
 * run. Only sums run that way (CUB falls back to run_to_run, the `cub` row,
 * for max and min); half and bfloat16 are widened to float on load.
 * Its temporary storage (1 byte) comes from the harness's workspace through
 * the environment's memory resource (cub_env.cuh), outside the timing.
 * Expected: about `cub`'s time (CCCL 3.5, allocating inside the call:
 * bench/results/h100_cubmodes_64mib.md, h100_cubmodes_1gib.md).
 *   bench_compare -m cub,cub_atomic            (configure with -DREDUCE_CCCL_ROOT=...) */
#include "cub_env.cuh"

#if CUB_ENV_API

template <class T, class Op>
using cub_atomic_launch = cub_env_mode<cuda::execution::determinism::not_guaranteed_t>::launch<T, Op>;

DEFINE_METHOD(cub_atomic, .family = FAMILY_VENDOR, .source = "CCCL cub::DeviceReduce, not_guaranteed",
              .idea = "one kernel adding block totals with atomics; workspace via the env's memory resource",
              .types = ALL_TYPES, .ops = OP_BIT(OP_SUM),
              .unsupported_why = "CUB's not_guaranteed mode has atomics for sums only (max/min run as the cub row)",
              .launch = launch_any_pair<cub_atomic_launch>,
              .workspace = workspace_any_pair<cub_atomic_launch>, .flags = METHOD_ORDER_VARIES);

#else

DEFINE_METHOD(cub_atomic, .family = FAMILY_VENDOR, .source = "CCCL cub::DeviceReduce, not_guaranteed",
              .idea = "one kernel adding block totals with atomics; workspace via the env's memory resource",
              .types = 0, .ops = 0, .unsupported_why = CCCL_3_1_REFUSAL.text,
              .launch = cub_env_unavailable, .flags = METHOD_ORDER_VARIES);

#endif
