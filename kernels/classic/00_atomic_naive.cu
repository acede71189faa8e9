/* Step 0 (seed 004 step 0): the baseline - no reduction at all.
 *
 * Every thread folds its one element straight into *d_out with an atomic
 * (*d_out set to the identity on the stream first: part of the cost). It is
 * right for any n, but at 64 MiB all 16,777,216 float atomics hit one address,
 * and the L2 slice that owns it applies them one after another: the time is
 * set by that atomic rate, not by the 64 MiB read: expect a time orders of
 * magnitude above the read's (bench/results/h100_64mib.md). 1 memset + 1
 * launch of ceil(n / 256) blocks. Float sums land in any order, so the
 * rounding varies run to run, and one running total is a serial chain
 * (refused where it would stop growing). Any type and operator
 * (atomic_combine in atomic_launch.cuh). Next: combine inside each block first.
 *   bench_compare -m atomic_naive
 */
#include "atomic_launch.cuh"
#include "method.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ void atomic_naive_kernel(const T *__restrict__ in, size_t n, acc_t<T> *__restrict__ out)
{
    const size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x;
    if (i < n)
        atomic_combine<Op>(out, widen(in[i]));
}

template <class T, class Op>
using atomic_naive_launch = atomic_launch<atomic_naive_kernel<T, Op>, Op, BLOCK, BLOCK>;

} // namespace

DEFINE_METHOD(atomic_naive, .family = FAMILY_PROGRESSION, .source = "seed 004 step 0",
              .idea = "every thread atomically folds its element into one global total",
              .types = ALL_TYPES, .ops = VALUE_OPS,
              .launch = launch_any_pair<atomic_naive_launch>,
              .workspace = workspace_any_pair<atomic_naive_launch>,
              .flags = METHOD_ORDER_VARIES | METHOD_SERIAL_CHAIN,
              .order = {.kind = ORDER_SERIAL_CHAIN});
