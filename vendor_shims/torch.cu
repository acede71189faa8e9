/* PyTorch (libtorch's ATen), called the way a user's torch.sum is, on the
 * suite's own buffers - the library most people reduce with.
 *   whole array:  at::sum_out / at::amax_out / at::amin_out over dim 0 of
 *                 the 1-D x into a 0-dim result: torch.sum(x), x.amax(),
 *                 x.amin()
 *   rows:         the same over dim 1 of x viewed as {rows, cols}, one
 *                 result per row: x.sum(-1), x.amax(-1), x.amin(-1)
 * The calls themselves, on tensors that wrap the suite's buffers (from_blob,
 * no copy) and on the suite's stream, are in torch/aten_reduce.cu, built as
 * the module libreduce_torch.so; this file is the row: what it declares, and
 * opening the module (dlopen) at its first call - in the untimed warm-up -
 * so that no other program or row loads libtorch (about half a second a
 * start on the H100 machine).
 *
 * uint32 is refused: libtorch_cuda.so 2.11 instantiates its sum and max/min
 * kernels for bool, int8, uint8, int16, int32, int64, float, double, half,
 * bf16 and complex, not for the barebones UInt32 ("not implemented").
 * An empty input gives the identity through fill_with_identity: amax/amin
 * throw on zero elements and sum writes 0. Segments are not offered:
 * torch.segment_reduce takes floating types only and sums half in half.
 * The summation order is the library's own: declared a serial chain, the
 * loosest bound, as for CUB. The row is timed on the device like CUB's, not
 * as "allocates": PyTorch's caching allocator does its cudaMalloc calls in
 * the warm-up and reuses the blocks afterwards.
 *
 * Two sets of CUDA libraries in one process: the suite links the toolkit's
 * CUDA runtime and cuBLAS as always, and PyTorch's libtorch_cuda.so looks for
 * its own through its RPATH (the wheel's nvidia/ packages). A library whose
 * SONAME is already loaded is shared: the programs have libcudart.so.13,
 * libcublas.so.13 and libcublasLt.so.13 from the toolkit loaded before the
 * module, so PyTorch runs on those, and on its own copies of the rest
 * (cuDNN, cuSPARSE, ...). Both sit on the device's primary context, so the
 * suite's stream and pointers are valid in PyTorch's calls.
 * Built only where CMake found PyTorch (REDUCE_TORCH_MODULE names the
 * module, see CMakeLists.txt); elsewhere the row refuses every pair with
 * TORCH_REFUSAL and --version says how to build it. A module that cannot be
 * opened (moved, or PyTorch uninstalled since the build) fails the row with
 * dlopen's reason.
 *   bench_compare -m one_pass_ilp,cub,torch --type all --op all */
#include <cstdio>

#include "cuda_check.h"
#include "method.cuh"

#define TORCH_HOW_TO_BUILD "configure where python3 imports torch (or -DREDUCE_WITH_TORCH=ON)"
#define TORCH_REFUSAL "built without PyTorch: " TORCH_HOW_TO_BUILD
#define TORCH_SOURCE "PyTorch at::sum / at::amax / at::amin"
#define TORCH_IDEA "libtorch on the suite's buffer (from_blob, no copy), on the suite's stream"

#ifdef REDUCE_TORCH_MODULE

#include <dlfcn.h>

#include "identity_fill.h"
#include "torch/aten_reduce.h"

namespace {

/* The module's two entry points; null when it could not be opened. */
struct aten_module {
    aten_reduce_array_fn *reduce_array;
    aten_reduce_rows_fn *reduce_rows;
};

aten_module open_aten_module()
{
    aten_module m{};
    void *library = dlopen(REDUCE_TORCH_MODULE, RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr) {
        m.reduce_array = (aten_reduce_array_fn *)dlsym(library, ATEN_REDUCE_ARRAY);
        m.reduce_rows = (aten_reduce_rows_fn *)dlsym(library, ATEN_REDUCE_ROWS);
    }
    if (m.reduce_array == nullptr || m.reduce_rows == nullptr) {
        std::fprintf(stderr, "PyTorch: cannot use %s: %s\n", REDUCE_TORCH_MODULE, dlerror());
        m = aten_module{};
    }
    return m;
}

/* Opens the module on the first call (once per process, thread-safe: a
 * static local) and fills in what every call needs. */
int prepare(struct reduce_spec spec, cudaStream_t stream, const aten_module **module,
            aten_request *request)
{
    static const aten_module opened = open_aten_module();
    if (opened.reduce_array == nullptr)
        return (int)cudaErrorSharedObjectInitFailed;
    *module = &opened;
    *request = {spec, accumulator_type(spec.type), 0, stream};
    CUDA_TRY(cudaGetDevice(&request->device));
    return 0;
}

int torch_reduce_array(struct reduce_spec spec, const void *d_in, size_t n, void *d_out,
                       cudaStream_t stream)
{
    if (n == 0) /* amax/amin refuse an empty input; the contract wants the identity */
        return fill_with_identity({accumulator_type(spec.type), spec.op}, d_out, 1, stream);
    const aten_module *module = nullptr;
    aten_request request;
    PROPAGATE(prepare(spec, stream, &module, &request));
    return module->reduce_array(request, d_in, (int64_t)n, d_out);
}

int torch_reduce_rows(struct reduce_spec spec, struct reduce_shape shape, const void *d_in,
                      void *d_out, cudaStream_t stream)
{
    if (shape.count == 0)
        return 0; /* no results to write */
    const aten_module *module = nullptr;
    aten_request request;
    PROPAGATE(prepare(spec, stream, &module, &request));
    return module->reduce_rows(request, d_in, (int64_t)shape.count, (int64_t)shape.cols, d_out);
}

/* torch.sum/amax/amin of the whole array, or along dim -1 of the rows. */
int torch_reduce(struct reduce_spec spec, struct reduce_shape shape, const void *d_in, size_t n,
                 void *d_out, void *, cudaStream_t stream)
{
    switch (shape.kind) {
    case SHAPE_WHOLE: return torch_reduce_array(spec, d_in, n, d_out, stream);
    case SHAPE_ROWS: return torch_reduce_rows(spec, shape, d_in, d_out, stream);
    default: return (int)cudaErrorInvalidValue; /* the descriptor refuses segments first */
    }
}

} // namespace

extern "C" const char *torch_description(void)
{
    return "PyTorch " REDUCE_TORCH_VERSION " (CUDA " REDUCE_TORCH_CUDA ") from " REDUCE_TORCH_ROOT
           ", opened on first use from " REDUCE_TORCH_MODULE;
}

DEFINE_METHOD(torch, .family = FAMILY_VENDOR, .source = TORCH_SOURCE, .idea = TORCH_IDEA,
              .types = ALL_TYPES & ~TYPE_BIT(TYPE_UINT32), .ops = VALUE_OPS,
              .unsupported_why = "PyTorch 2.11's CUDA sum/amax/amin have no uint32 kernels "
                                 "(UInt32 is a barebones dtype there)",
              .launch = torch_reduce, .order = {.kind = ORDER_SERIAL_CHAIN}, /* the library's own */
              .shapes = SHAPE_BIT(SHAPE_WHOLE) | SHAPE_BIT(SHAPE_ROWS));

#else

namespace {

int torch_unavailable(struct reduce_spec, struct reduce_shape, const void *, size_t, void *, void *,
                      cudaStream_t)
{
    return (int)cudaErrorNotSupported; /* never called: every pair is refused */
}

} // namespace

extern "C" const char *torch_description(void) { return "PyTorch: not built - " TORCH_HOW_TO_BUILD; }

DEFINE_METHOD(torch, .family = FAMILY_VENDOR, .source = TORCH_SOURCE, .idea = TORCH_IDEA,
              .types = 0, .ops = 0, .unsupported_why = TORCH_REFUSAL, .launch = torch_unavailable);

#endif
