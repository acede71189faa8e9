/* Test-only methods for rows and segments (not in src/gpu/method_list.h, so
 * no registry, bench or other test sees them): they exercise the harness's
 * shaped path - offsets on the device, one result per row, the per-row check
 * - before any real row method exists, and show that the check can fail.
 *   test_row_per_thread   right: one thread chains one row or segment
 *   test_row_drops_last   wrong: the same, missing each row's last element
 *   test_row_on_host      right: the same loop on the CPU (host)
 * All three take every (type, operator) pair; a serial chain per row. */
#include "cuda_check.h"
#include "method.cuh"

namespace {

__host__ __device__ inline void row_bounds(const reduce_shape &shape, size_t i, size_t *first,
                                           size_t *length)
{
    if (shape.kind == SHAPE_ROWS) {
        *first = i * shape.cols;
        *length = shape.cols;
    } else {
        *first = shape.offsets[i];
        *length = shape.offsets[i + 1] - shape.offsets[i];
    }
}

template <class T, class Op>
__host__ __device__ acc_t<T> chain(const T *in, size_t first, size_t length)
{
    acc_t<T> total = identity<Op, acc_t<T>>();
    for (size_t j = first; j < first + length; ++j)
        total = Op{}(total, widen(in[j]));
    return total;
}

template <class T, class Op, bool DropLast>
__global__ void row_per_thread(const T *in, reduce_shape shape, acc_t<T> *out)
{
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= shape.count)
        return;
    size_t first = 0, length = 0;
    row_bounds(shape, i, &first, &length);
    out[i] = chain<T, Op>(in, first, DropLast && length > 0 ? length - 1 : length);
}

template <bool DropLast> struct RowPerThread {
    template <class T, class Op> struct launcher {
        static int run(const T *in, reduce_shape shape, acc_t<T> *out, void *, cudaStream_t stream)
        {
            if (shape.count == 0)
                return 0;
            const unsigned threads = 256;
            const size_t blocks = (shape.count + threads - 1) / threads;
            row_per_thread<T, Op, DropLast><<<(unsigned)blocks, threads, 0, stream>>>(in, shape, out);
            CUDA_TRY_LAUNCH();
            return 0;
        }
    };
};

template <class T, class Op> using right_rows = RowPerThread<false>::launcher<T, Op>;
template <class T, class Op> using wrong_rows = RowPerThread<true>::launcher<T, Op>;

template <class T, class Op> struct host_rows {
    static void reduce(const T *in, reduce_shape shape, size_t, acc_t<T> *results)
    {
        for (size_t i = 0; i < shape.count; ++i) {
            size_t first = 0, length = 0;
            row_bounds(shape, i, &first, &length);
            results[i] = chain<T, Op>(in, first, length);
        }
    }
};

constexpr unsigned ROWS_AND_SEGMENTS = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS);

} // namespace

DEFINE_METHOD(test_row_per_thread, .family = FAMILY_ROWS, .source = "test only",
              .idea = "one thread chains one row", .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<right_rows>,
              .order = {ORDER_SERIAL_CHAIN, 0, 0}, .shapes = ROWS_AND_SEGMENTS);
DEFINE_METHOD(test_row_drops_last, .family = FAMILY_ROWS, .source = "test only",
              .idea = "one thread a row, missing the row's last element", .types = ALL_TYPES,
              .ops = ALL_OPS, .launch = launch_any_pair<wrong_rows>, .shapes = ROWS_AND_SEGMENTS);
DEFINE_METHOD(test_row_on_host, .family = FAMILY_CPU, .source = "test only",
              .idea = "one loop a row on the CPU", .types = ALL_TYPES, .ops = ALL_OPS,
              .host = host_any_pair<host_rows>, .shapes = ROWS_AND_SEGMENTS);
