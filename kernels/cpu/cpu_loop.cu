/* The CPU rows: what the GPU numbers are compared with in the source
 * documents (seeds 000, 003). cpu_loop is their plain loop: one accumulator,
 * one dependent operation per element, so it runs at the operation's latency,
 * not at memory bandwidth; and a float sum in one running total is a serial
 * chain, which stops growing once the total's half-ulp exceeds the terms
 * (refused past chain_limit(), reference.h). Host code, a template over
 * (T, Op) like the kernels; half and bfloat16 are widened to float.
 * Rows and segments: the same loop over each row or segment in turn (an
 * empty segment gives the identity), so every result is one serial chain of
 * its own length. Columns: one running total per column, the rows read in
 * order (each row once, contiguously), so each column is a serial chain
 * down its rows. argmax and argmin: the same loop, keeping the index.
 *   bench_compare -m cpu_loop        bench_compare --cols 32 -m cpu_loop
 *   bench_compare --cols 128 --axis 0 -m cpu_loop
 */
#include "method.cuh"

namespace {

template <class T, class Op> struct cpu_loop_reduce {
    using R = result_t<T, Op>;

    static R reduce_run(const T *in, size_t n)
    {
        R acc = identity<Op, R>();
        for (size_t i = 0; i < n; ++i)
            acc = Op{}(acc, lift<Op>(in[i], i));
        return acc;
    }

    /* Row r adds its element c to column c's running total. */
    static void reduce_columns(const T *in, size_t cols, size_t n, R *results)
    {
        for (size_t c = 0; c < cols; ++c)
            results[c] = identity<Op, R>();
        for (size_t row = 0, r = 0; row < n; row += cols, ++r)
            for (size_t c = 0; c < cols; ++c)
                results[c] = Op{}(results[c], lift<Op>(in[row + c], r));
    }

    /* The bounds worked out here, not by shape.h's shape_first and
     * shape_length: two calls into another file per row tripled the time
     * of a one-column input. */
    static void reduce(const T *in, reduce_shape shape, size_t n, R *results)
    {
        if (shape.kind == SHAPE_COLUMNS) {
            reduce_columns(in, shape.cols, n, results);
            return;
        }
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

DEFINE_METHOD(cpu_loop, .family = FAMILY_CPU, .source = "seeds 000, 003: the CPU loop they time against",
              .idea = "plain sequential loop on one core", .types = ALL_TYPES, .ops = ALL_OPS,
              .host = host_any_pair<cpu_loop_reduce, ALL_OPS>,
              .flags = METHOD_SERIAL_CHAIN | METHOD_GRID_INDEPENDENT, /* one order on any machine */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_WHOLE) | SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS) |
                        SHAPE_BIT(SHAPE_COLUMNS));
