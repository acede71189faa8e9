/* PyTorch (libtorch's ATen), called the way a user's torch.sum is, on the
 * suite's own buffers - the library most people reduce with.
 *   whole array:  at::sum_out / at::amax_out / at::amin_out over dim 0 of
 *                 the 1-D x into a 0-dim result: torch.sum(x), x.amax(),
 *                 x.amin()
 *   rows:         the same over dim 1 of x viewed as {rows, cols}, one
 *                 result per row: x.sum(-1), x.amax(-1), x.amin(-1)
 * x is at::from_blob over the suite's input pointer itself (its device, its
 * element type, the exact address: offsets and misalignment are PyTorch's to
 * handle, nothing is copied); out is at::from_blob over the suite's result
 * slot, so nothing is resized or allocated for a sum. The calls are enqueued
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
 * uint32 is refused: libtorch_cuda.so 2.11 instantiates its sum and max/min
 * kernels for bool, int8, uint8, int16, int32, int64, float, double, half,
 * bf16 and complex, not for the barebones UInt32 ("not implemented").
 * An empty input gives the identity through fill_with_identity: amax/amin
 * throw on zero elements and sum writes 0. Segments are not offered:
 * torch.segment_reduce takes floating types only and sums half in half.
 * The summation order is the library's own: declared a serial chain, the
 * loosest bound, as for CUB.
 *
 * Whatever else PyTorch allocates (a large reduction's staging buffer and
 * semaphores, in ATen's Reduce.cuh) comes from its caching allocator, which
 * calls cudaMalloc in the untimed warm-up and reuses the blocks afterwards:
 * the row is timed on the device like CUB's, not as "allocates".
 *
 * Errors: every call is inside one try; an exception (c10::Error or any
 * std::exception) is printed as "PyTorch error: ..." and returned as
 * cudaErrorUnknown, so the row reports the error with its reason, as cuBLAS
 * does.
 *
 * Two sets of CUDA libraries in one process: the suite links the toolkit's
 * CUDA runtime and cuBLAS as always, and PyTorch's libtorch_cuda.so looks for
 * its own through its RPATH (the wheel's nvidia/ packages). A library whose
 * SONAME is already loaded is shared: the programs load libcudart.so.13,
 * libcublas.so.13 and libcublasLt.so.13 from the toolkit first (ldd of this
 * build), so PyTorch runs on those, and on its own copies of the rest
 * (cuDNN, cuSPARSE, ...). Both sit on the device's primary context, so the
 * suite's stream and pointers are valid in PyTorch's calls.
 * Built only where CMake found PyTorch (REDUCE_HAVE_TORCH, alone in the
 * reduce_torch library with PyTorch's include folders, see CMakeLists.txt);
 * elsewhere the row refuses every pair with TORCH_REFUSAL and --version says
 * how to build it.
 *   bench_compare -m one_pass_ilp,cub,torch --type all --op all */
#include <cstdio>

#include "cuda_check.h"
#include "method.cuh"

#define TORCH_HOW_TO_BUILD "configure where python3 imports torch (or -DREDUCE_WITH_TORCH=ON)"
#define TORCH_REFUSAL "built without PyTorch: " TORCH_HOW_TO_BUILD
#define TORCH_SOURCE "PyTorch at::sum / at::amax / at::amin"
#define TORCH_IDEA "libtorch on the suite's buffer (from_blob, no copy), on the suite's stream"

#ifdef REDUCE_HAVE_TORCH

#include <ATen/Context.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/amax.h>
#include <ATen/ops/amin.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/sum.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "identity_fill.h"

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
    return at::kFloat; /* unreachable: the descriptor refuses other specs */
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

/* Wraps the suite's buffers (input of `input_sizes`, results of
 * `result_sizes`) and reduces over `dims` on `stream`. */
int torch_reduce_on_stream(struct reduce_spec spec, const void *d_in, at::IntArrayRef input_sizes,
                           void *d_out, at::IntArrayRef result_sizes, at::IntArrayRef dims,
                           cudaStream_t stream)
{
    int device = 0;
    CUDA_TRY(cudaGetDevice(&device));
    try {
        /* PyTorch sets up its CUDA state - its caching allocator, which a
         * large reduction's staging buffer comes from - when it first makes a
         * CUDA tensor itself; from_blob's tensors are ours, so ask for it
         * (once per process; a no-op after). */
        at::globalContext().lazyInitDevice(at::kCUDA);
        const c10::cuda::CUDAStreamGuard on_suite_stream(
            c10::cuda::getStreamFromExternal(stream, (c10::DeviceIndex)device));
        const auto on_device = at::TensorOptions().device(at::kCUDA, (c10::DeviceIndex)device);
        const at::Tensor in = at::from_blob(const_cast<void *>(d_in), input_sizes,
                                            on_device.dtype(torch_scalar_type(spec.type)));
        at::Tensor out = at::from_blob(
            d_out, result_sizes, on_device.dtype(torch_scalar_type(accumulator_type(spec.type))));
        reduce_into(spec, in, dims, out);
    } catch (const c10::Error &e) {
        std::fprintf(stderr, "PyTorch error: %s\n", e.what_without_backtrace());
        return (int)cudaErrorUnknown;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "PyTorch error: %s\n", e.what());
        return (int)cudaErrorUnknown;
    }
    return 0;
}

int torch_reduce(struct reduce_spec spec, const void *d_in, size_t n, void *d_out, void *,
                 cudaStream_t stream)
{
    if (n == 0) /* amax/amin refuse an empty input; the contract wants the identity */
        return fill_with_identity({accumulator_type(spec.type), spec.op}, d_out, 1, stream);
    /* Over dim 0 rather than sum's "no dim": one code path with the rows. */
    const int64_t input_sizes[] = {(int64_t)n};
    const int64_t along_the_array[] = {0};
    return torch_reduce_on_stream(spec, d_in, input_sizes, d_out, {}, along_the_array, stream);
}

int torch_reduce_rows(struct reduce_spec spec, struct reduce_shape shape, const void *d_in,
                      size_t, void *d_out, void *, cudaStream_t stream)
{
    if (shape.kind != SHAPE_ROWS)
        return (int)cudaErrorInvalidValue; /* the descriptor refuses segments first */
    if (shape.count == 0)
        return 0; /* no results to write */
    const int64_t input_sizes[] = {(int64_t)shape.count, (int64_t)shape.cols};
    const int64_t result_sizes[] = {(int64_t)shape.count};
    const int64_t along_rows[] = {1};
    return torch_reduce_on_stream(spec, d_in, input_sizes, d_out, result_sizes, along_rows, stream);
}

} // namespace

extern "C" const char *torch_description(void)
{
    return "PyTorch " REDUCE_TORCH_VERSION " (CUDA " REDUCE_TORCH_CUDA ") from " REDUCE_TORCH_ROOT;
}

DEFINE_METHOD(torch, .family = FAMILY_VENDOR, .source = TORCH_SOURCE, .idea = TORCH_IDEA,
              .types = ALL_TYPES & ~TYPE_BIT(TYPE_UINT32), .ops = ALL_OPS,
              .unsupported_why = "PyTorch 2.11's CUDA sum/amax/amin have no uint32 kernels "
                                 "(UInt32 is a barebones dtype there)",
              .launch = torch_reduce, .order = {.kind = ORDER_SERIAL_CHAIN}, /* the library's own */
              .shapes = SHAPE_BIT(SHAPE_WHOLE) | SHAPE_BIT(SHAPE_ROWS),
              .launch_shaped = torch_reduce_rows);

#else

namespace {

int torch_unavailable(struct reduce_spec, const void *, size_t, void *, void *, cudaStream_t)
{
    return (int)cudaErrorNotSupported; /* never called: every pair is refused */
}

} // namespace

extern "C" const char *torch_description(void) { return "PyTorch: not built - " TORCH_HOW_TO_BUILD; }

DEFINE_METHOD(torch, .family = FAMILY_VENDOR, .source = TORCH_SOURCE, .idea = TORCH_IDEA,
              .types = 0, .ops = 0, .unsupported_why = TORCH_REFUSAL, .launch = torch_unavailable);

#endif
