/* The CPU rows: what the GPU numbers are compared with in the source
 * documents (seeds 000, 003). cpu_loop is their plain loop: one accumulator,
 * one dependent operation per element, so it runs at the operation's latency,
 * not at memory bandwidth; and a float sum in one running total is a serial
 * chain, which stops growing once the total's half-ulp exceeds the terms
 * (refused past chain_limit(), reference.h). Host code, a template over
 * (T, Op) like the kernels; half and bfloat16 are widened to float.
 * Rows and segments: the same loop over each row or segment in turn (an
 * empty segment gives the identity), so every result is one serial chain of
 * its own length.
 *   bench_compare -m cpu_loop        bench_compare --cols 32 -m cpu_loop
 */
#include "method.cuh"

namespace {

template <class T, class Op> struct cpu_loop_reduce {
    static acc_t<T> reduce_run(const T *in, size_t n)
    {
        acc_t<T> acc = identity<Op, acc_t<T>>();
        for (size_t i = 0; i < n; ++i)
            acc = Op{}(acc, widen(in[i]));
        return acc;
    }

    /* The bounds worked out here, not by shape.h's shape_first and
     * shape_length: two calls into another file per row tripled the time
     * of a one-column input. */
    static void reduce(const T *in, reduce_shape shape, size_t n, acc_t<T> *results)
    {
        const bool segments = shape.kind == SHAPE_SEGMENTS;
        for (size_t i = 0; i < shape.count; ++i) {
            const size_t begin = segments ? (size_t)shape.offsets[i] : i * shape.cols;
            const size_t end = segments                     ? (size_t)shape.offsets[i + 1]
                               : shape.kind == SHAPE_ROWS ? begin + shape.cols
                                                          : n;
            results[i] = reduce_run(in + begin, end - begin);
        }
    }
};

} // namespace

DEFINE_METHOD(cpu_loop, .family = FAMILY_CPU, .source = "seeds 000, 003",
              .idea = "plain sequential loop on one core", .types = ALL_TYPES, .ops = ALL_OPS,
              .host = host_any_pair<cpu_loop_reduce>,
              .flags = METHOD_SERIAL_CHAIN | METHOD_GRID_INDEPENDENT, /* one order on any machine */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_WHOLE) | SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS));
