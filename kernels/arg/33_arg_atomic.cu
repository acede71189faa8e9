/* Step 33 - where the maximum is, the way people write it first.
 *
 * Idea: argmax and argmin (element_type.h: the value and its first index; a
 * NaN wins) with one thread per element and one atomic each: the element and
 * its index packed into a 64-bit key whose unsigned order is the operator's
 * order (arg_key.cuh), folded into one word with atomicMax; a one-thread
 * kernel then turns the winning key into the result. The order the atomics
 * land in does not matter: the largest key is the largest key, so the
 * result is the same bits on every run and every grid.
 *
 * What it costs: every element's atomic goes to the one L2 slice that owns
 * the word, which applies them one after another - the time is set by that
 * atomic rate, not by the bytes read, as the sum's step 00 (atomic_naive).
 * The key holds a 32-bit value and a 32-bit index: double and int64, and
 * more than 2^32 - 1 elements, are refused. Next: combine inside each block
 * first, so that a block sends one key.
 *   bench_compare -o argmax -m arg_atomic
 */
#include "arg_key.cuh"
#include "method.cuh"

namespace {

constexpr int BLOCK = 256;

template <class T, class Op>
__global__ __launch_bounds__(BLOCK) void arg_atomic_kernel(const T *__restrict__ in, size_t n,
                                                           unsigned long long *key)
{
    const size_t i = blockIdx.x * (size_t)BLOCK + threadIdx.x;
    if (i < n)
        atomicMax(key, arg_key<Op>(widen(in[i]), i));
}

template <class T, class Op>
using arg_atomic_launch = arg_key_launch<T, Op, arg_atomic_kernel<T, Op>, BLOCK, BLOCK, false>;

} // namespace

DEFINE_METHOD(arg_atomic, .family = FAMILY_ARG, .source = "this suite: argmax, step 33",
              .idea = "every thread packs (value, index) into a 64-bit key and atomicMax-es it into one word",
              .types = ARG_KEY_TYPES, .ops = ARG_OPS, .unsupported_why = ARG_KEY_REFUSAL,
              .launch = launch_any_pair<arg_atomic_launch, ARG_OPS>,
              .workspace = workspace_any_pair<arg_atomic_launch, ARG_OPS>,
              .flags = METHOD_GRID_INDEPENDENT, /* the largest key, whatever the order */
              .max_n = ARG_KEY_MAX_N);
