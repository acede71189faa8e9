/* PyTorch's reductions (libtorch's ATen) on the suite's own buffers: the
 * module libreduce_torch.so, the one target that sees PyTorch's headers and
 * links its libraries; vendor_shims/torch.cu opens it on first use
 * (aten_reduce.h says why, torch.cu what the row measures).
 *
 * x is at::from_blob over the suite's input pointer itself (its device, its
 * element type, the exact address: offsets and misalignment are PyTorch's to
 * handle, nothing is copied) - 1-D for the whole array, {rows, cols} for
 * rows (dim 1) and columns (dim 0); out is at::from_blob over the suite's
 * result slots, so nothing is resized or allocated for a sum. The calls are enqueued
 * on the suite's stream through an external stream guard
 * (c10::cuda::getStreamFromExternal + CUDAStreamGuard), so the harness's
 * events time them like every other row.
 *
 * Accumulators, as PyTorch 2.11's CUDA kernels have them:
 *   half, bf16 sums   torch.sum(x) accumulates in float and rounds the result
 *                     back to half / bf16; here dtype=at::kFloat asks for the
 *                     float result, in one kernel (sum_functor<Half, float,
 *                     float>), the suite's accumulator.
 *   half, bf16 max    amax/amin return the input's type and have no dtype
 *   and min           argument: computed in half / bf16 (exact: a max is one
 *                     of the inputs), then copied into the float slot - one
 *                     more small kernel and a one-element tensor from torch's
 *                     caching allocator (a cudaMalloc on the first call only,
 *                     in the untimed warm-up).
 *   int32, int64      sums with dtype = the input type accumulate in that type
 *                     (sum_functor<int, int, int>): they wrap as CUB's do,
 *                     where torch.sum's default would promote int32 to int64.
 *   max, min          NaN-propagating (ours ignore NaN); the data has none.
 *   argmax, argmin    the records' index fields, a strided view (from_blob
 *                     with a stride of 16 bytes), are argmax_out's /
 *                     argmin_out's own output: ATen's reduction writes the
 *                     int64 indices there. The value fields, a strided view
 *                     in the accumulator type, are filled by a second small
 *                     kernel pair: x.gather(dim, index) (one element per
 *                     result, into a tensor from the caching allocator) and
 *                     copy_, which widens half and bf16 to float. ATen's CUDA
 *                     argmax compares half and bf16 in float, keeps the first
 *                     index on ties and the first NaN (GreaterOrNan /
 *                     LessOrNan in SharedReduceOps.h): element_type.h's rule.
 * Whatever else PyTorch allocates (a large reduction's staging buffer and
 * semaphores, in ATen's Reduce.cuh) comes from its caching allocator, which
 * calls cudaMalloc in the untimed warm-up and reuses the blocks afterwards. */
#include <cstdio>
#include <vector>

#include <ATen/Context.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/amax.h>
#include <ATen/ops/amin.h>
#include <ATen/ops/argmax.h>
#include <ATen/ops/argmin.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/sum.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "aten_reduce.h"

namespace {

at::ScalarType torch_scalar_type(enum element_type t)
{
    switch (t) {
    case TYPE_FLOAT: return at::kFloat;
    case TYPE_DOUBLE: return at::kDouble;
    case TYPE_INT32: return at::kInt;
    case TYPE_INT64: return at::kLong;
    case TYPE_UINT32: return at::kUInt32;
    case TYPE_HALF: return at::kHalf;
    case TYPE_BFLOAT16: return at::kBFloat16;
    case TYPE_COUNT: break;
    }
    return at::kFloat; /* unreachable: torch.cu refuses other types first */
}

/* Reduces `in` over `dims` into `out`, which has the accumulator type and
 * the result's shape. */
void reduce_into(struct reduce_spec spec, const at::Tensor &in, at::IntArrayRef dims,
                 at::Tensor &out)
{
    if (spec.op == OP_SUM) {
        at::sum_out(out, in, dims, /*keepdim=*/false, out.scalar_type());
        return;
    }
    /* amax/amin write only into their input's type: for half and bf16, a
     * result of that type first, then converted into the float slot. */
    const bool same_type = in.scalar_type() == out.scalar_type();
    if (spec.op == OP_MAX) {
        if (same_type)
            at::amax_out(out, in, dims);
        else
            out.copy_(at::amax(in, dims));
    } else {
        if (same_type)
            at::amin_out(out, in, dims);
        else
            out.copy_(at::amin(in, dims));
    }
}

/* One field of the arg results at d_out (element_type.h: value at byte 0,
 * index at ARG_INDEX_OFFSET) as a tensor of `sizes` (0-dim or 1-D) whose
 * elements are ARG_RESULT_BYTES apart. */
at::Tensor arg_field(void *d_out, size_t offset, at::IntArrayRef sizes,
                     const at::TensorOptions &options)
{
    const int64_t stride = ARG_RESULT_BYTES / (int64_t)options.dtype().itemsize();
    const std::vector<int64_t> strides(sizes.size(), stride);
    return at::from_blob(static_cast<char *>(d_out) + offset, sizes, strides, options);
}

/* x.argmax(dim) / x.argmin(dim) into the index fields, then the value there
 * (x.gather(dim, index)) into the value fields, widened by copy_. */
void arg_reduce_into(struct aten_request request, const at::Tensor &in, int64_t dim, void *d_out,
                     at::IntArrayRef result_sizes, const at::TensorOptions &on_device)
{
    at::Tensor index = arg_field(d_out, ARG_INDEX_OFFSET, result_sizes, on_device.dtype(at::kLong));
    at::Tensor value =
        arg_field(d_out, 0, result_sizes, on_device.dtype(torch_scalar_type(request.accumulator)));
    if (request.spec.op == OP_ARGMAX)
        at::argmax_out(index, in, dim, /*keepdim=*/false);
    else
        at::argmin_out(index, in, dim, /*keepdim=*/false);
    value.copy_(at::gather(in, dim, index.unsqueeze(dim)).squeeze(dim));
}

/* Wraps the suite's buffers (input of `input_sizes`, results of
 * `result_sizes`) and reduces along `dim` on the request's stream. */
int reduce_on_stream(struct aten_request request, const void *d_in, at::IntArrayRef input_sizes,
                     void *d_out, at::IntArrayRef result_sizes, int64_t dim)
{
    try {
        /* PyTorch sets up its CUDA state - its caching allocator, which a
         * large reduction's staging buffer comes from - when it first makes a
         * CUDA tensor itself; from_blob's tensors are ours, so ask for it
         * (once per process; a no-op after). */
        at::globalContext().lazyInitDevice(at::kCUDA);
        const auto device = (c10::DeviceIndex)request.device;
        const c10::cuda::CUDAStreamGuard on_suite_stream(
            c10::cuda::getStreamFromExternal(request.stream, device));
        const auto on_device = at::TensorOptions().device(at::kCUDA, device);
        const at::Tensor in = at::from_blob(const_cast<void *>(d_in), input_sizes,
                                            on_device.dtype(torch_scalar_type(request.spec.type)));
        if (request.spec.op == OP_ARGMAX || request.spec.op == OP_ARGMIN) {
            arg_reduce_into(request, in, dim, d_out, result_sizes, on_device);
        } else {
            at::Tensor out = at::from_blob(d_out, result_sizes,
                                           on_device.dtype(torch_scalar_type(request.accumulator)));
            const int64_t dims[] = {dim};
            reduce_into(request.spec, in, dims, out);
        }
    } catch (const c10::Error &e) {
        std::fprintf(stderr, "PyTorch error: %s\n", e.what_without_backtrace());
        return (int)cudaErrorUnknown;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "PyTorch error: %s\n", e.what());
        return (int)cudaErrorUnknown;
    }
    return 0;
}

} // namespace

extern "C" {

aten_reduce_array_fn aten_reduce_array;
aten_reduce_matrix_fn aten_reduce_matrix;

/* Over dim 0 rather than sum's "no dim": one code path with the matrix. */
int aten_reduce_array(struct aten_request request, const void *d_in, int64_t n, void *d_out)
{
    const int64_t input_sizes[] = {n};
    return reduce_on_stream(request, d_in, input_sizes, d_out, {}, 0);
}

int aten_reduce_matrix(struct aten_request request, const void *d_in, int64_t rows, int64_t cols,
                       int64_t dim, void *d_out)
{
    const int64_t input_sizes[] = {rows, cols};
    const int64_t result_sizes[] = {dim == ATEN_ALONG_ROWS ? rows : cols};
    return reduce_on_stream(request, d_in, input_sizes, d_out, result_sizes, dim);
}

} // extern "C"
