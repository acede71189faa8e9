/* Methods that are wrong on purpose, for test_fault_paths only (they are
 * not in src/gpu/method_list.h, so no registry, bench or other test sees them):
 * one faults with an illegal address, which breaks the CUDA context; one
 * returns twice the sum, which its every sample must reveal; one sums rows
 * right twice, then gets one row wrong, which a later sample must reveal. */
#include "cuda_check.h"
#include "method.cuh"

extern "C" const struct method method_cub; /* vendor_shims/cub.cu */

namespace {

__global__ void write_through_null(float *out)
{
    *(volatile float *)nullptr = 1.0f; /* an illegal address: the context is lost */
    *out = 0.0f;
}

/* Far outside any bound: the default data is positive, so the sum is not 0. */
__global__ void double_it(float *out) { *out *= 2.0f; }

int illegal_address(reduce_spec, reduce_shape, const void *, size_t, void *d_out, void *,
                    cudaStream_t stream)
{
    write_through_null<<<1, 1, 0, stream>>>(static_cast<float *>(d_out));
    CUDA_TRY_LAUNCH();
    return 0;
}

/* CUB's right answer, doubled. (Plus one would pass: at n = 100003 uniform
 * floats the bound 4 sqrt(n) u sum|x| is ~3.8 on a sum of ~50,000.) */
int wrong_value(reduce_spec spec, reduce_shape shape, const void *d_in, size_t n, void *d_out,
                void *workspace, cudaStream_t stream)
{
    PROPAGATE(method_cub.launch(spec, shape, d_in, n, d_out, workspace, stream));
    double_it<<<1, 1, 0, stream>>>(static_cast<float *>(d_out));
    CUDA_TRY_LAUNCH();
    return 0;
}

int cub_workspace(reduce_spec spec, reduce_shape shape, size_t n, size_t *bytes)
{
    return method_cub.workspace(spec, shape, n, bytes);
}

/* Row sums, one thread a row, with `off` added to row WRONG_ROW. */
constexpr size_t WRONG_ROW = 1000;
constexpr int RIGHT_CALLS = 2;

__global__ void row_sums(const float *in, size_t cols, size_t rows, float *out, float off)
{
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= rows)
        return;
    float total = 0.0f;
    for (size_t j = 0; j < cols; ++j)
        total += in[i * cols + j];
    out[i] = i == WRONG_ROW ? total + off : total;
}

/* Right on its first RIGHT_CALLS calls in the process, then one row off by
 * one: a check of the first call alone would pass it. */
int rows_wrong_later(reduce_spec, reduce_shape shape, const void *d_in, size_t, void *d_out,
                     void *, cudaStream_t stream)
{
    static int calls;
    const float off = ++calls > RIGHT_CALLS ? 1.0f : 0.0f;
    const unsigned threads = 256;
    const size_t blocks = ceil_div(shape.count, threads);
    if (blocks == 0)
        return 0;
    row_sums<<<(unsigned)blocks, threads, 0, stream>>>(static_cast<const float *>(d_in), shape.cols,
                                                         shape.count, static_cast<float *>(d_out),
                                                         off);
    CUDA_TRY_LAUNCH();
    return 0;
}

} // namespace

DEFINE_METHOD(test_rows_wrong_later, .family = FAMILY_ROWS, .source = "test only",
              .idea = "one thread a row, one row off from the third call", .types = TYPE_BIT(TYPE_FLOAT),
              .ops = OP_BIT(OP_SUM), .unsupported_why = "test only", .launch = rows_wrong_later,
              .order = {ORDER_SERIAL_CHAIN, 0, 0}, .shapes = SHAPE_BIT(SHAPE_ROWS));
DEFINE_METHOD(test_wrong_value, .family = FAMILY_MODERN, .source = "test only",
              .idea = "CUB's sum, doubled", .types = TYPE_BIT(TYPE_FLOAT), .ops = OP_BIT(OP_SUM),
              .unsupported_why = "test only", .launch = wrong_value, .workspace = cub_workspace);
DEFINE_METHOD(test_illegal_address, .family = FAMILY_MODERN, .source = "test only",
              .idea = "writes through a null pointer", .types = TYPE_BIT(TYPE_FLOAT),
              .ops = OP_BIT(OP_SUM), .unsupported_why = "test only", .launch = illegal_address);
