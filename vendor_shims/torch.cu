/* PyTorch (libtorch's ATen), called the way a user's torch.sum is, on the
 * suite's own buffers - the library most people reduce with.
 *   whole array:  at::sum_out / at::amax_out / at::amin_out over dim 0 of
 *                 the 1-D x into a 0-dim result: torch.sum(x), x.amax(),
 *                 x.amin(); at::argmax_out / at::argmin_out the same way:
 *                 x.argmax(), x.argmin()
 *   rows:         the same over dim 1 of x viewed as {rows, cols}, one
 *                 result per row: x.sum(-1), x.amax(-1), ..., x.argmax(-1)
 *   columns:      the same over dim 0 of that view, one result per column:
 *                 x.sum(0), x.amax(0), x.amin(0), x.argmax(0), x.argmin(0)
 *   argmax, argmin: ATen gives the int64 index alone; the value at it comes
 *                 from x.gather and a copy into the result, widened to
 *                 float for half and bf16 (torch/aten_reduce.cu) - two more
 *                 small kernels in the row's time. torch.argmax returns the
 *                 first index on ties (documented; its CUDA comparator breaks
 *                 ties on the lower index) and the first NaN (a NaN wins):
 *                 element_type.h's rule, so these rows are checked on NaN
 *                 data too (no METHOD_OWN_NAN_RULE).
 * The calls themselves, on tensors that wrap the suite's buffers (from_blob,
 * no copy) and on the suite's stream, are in torch/aten_reduce.cu, built as
 * the module libreduce_torch.so; this file is the row: what it declares, and
 * opening the module (dlopen) at its first call - in the untimed warm-up -
 * so that no other program or row loads libtorch (about half a second a
 * start on the H100 machine).
 *
 * uint32 is refused: libtorch_cuda.so 2.11 instantiates its sum and max/min
 * kernels for bool, int8, uint8, int16, int32, int64, float, double, half,
 * bf16 and complex, its argmax/argmin kernels for the integer and floating
 * types among them - not for the barebones UInt32 ("not implemented").
 * An empty input - n = 0, or columns of no rows - gives the identity (with
 * index -1 for argmax and argmin) through fill_result_identity
 * (arg_record.cuh): amax/amin and argmax/argmin throw on zero elements and
 * sum writes 0. Segments are not offered: torch.segment_reduce takes
 * floating types only and sums half in half.
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
 *   bench_compare -m one_pass_ilp,cub,torch --type all --op all
 *   bench_compare --cols 128 --axis 0 -o argmax -m torch */
#include <cstdio>

#include "cuda_check.h"
#include "method.cuh"

#define TORCH_HOW_TO_BUILD "configure where python3 imports torch (or -DREDUCE_WITH_TORCH=ON)"
#define TORCH_REFUSAL "built without PyTorch: " TORCH_HOW_TO_BUILD
#define TORCH_SOURCE "PyTorch at::sum / amax / amin / argmax / argmin"
#define TORCH_IDEA "libtorch on the suite's buffer (from_blob, no copy), on the suite's stream"

#ifdef REDUCE_TORCH_MODULE

#include <dlfcn.h>

#include "arg_record.cuh"
#include "torch/aten_reduce.h"

namespace {

/* The module's two entry points; null when it could not be opened. */
struct aten_module {
    aten_reduce_array_fn *reduce_array;
    aten_reduce_matrix_fn *reduce_matrix;
};

aten_module open_aten_module()
{
    aten_module m{};
    void *library = dlopen(REDUCE_TORCH_MODULE, RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr) {
        m.reduce_array = (aten_reduce_array_fn *)dlsym(library, ATEN_REDUCE_ARRAY);
        m.reduce_matrix = (aten_reduce_matrix_fn *)dlsym(library, ATEN_REDUCE_MATRIX);
    }
    if (m.reduce_array == nullptr || m.reduce_matrix == nullptr) {
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
    if (n == 0) /* amax, argmax, ... refuse an empty input; the contract wants the identity */
        return fill_result_identity(spec, d_out, 1, stream);
    const aten_module *module = nullptr;
    aten_request request;
    PROPAGATE(prepare(spec, stream, &module, &request));
    return module->reduce_array(request, d_in, (int64_t)n, d_out);
}

/* Rows (along dim 1) or columns (down dim 0) of the row-major matrix of
 * n / cols rows. */
int torch_reduce_matrix(struct reduce_spec spec, struct reduce_shape shape, const void *d_in, size_t n,
                        void *d_out, cudaStream_t stream)
{
    const size_t rows = n / shape.cols;
    if (shape.count == 0)
        return 0; /* no results to write */
    if (rows == 0) /* columns of no elements: amax, argmax, ... refuse them */
        return fill_result_identity(spec, d_out, shape.count, stream);
    const aten_module *module = nullptr;
    aten_request request;
    PROPAGATE(prepare(spec, stream, &module, &request));
    const int64_t dim = shape.kind == SHAPE_COLUMNS ? ATEN_DOWN_COLUMNS : ATEN_ALONG_ROWS;
    return module->reduce_matrix(request, d_in, (int64_t)rows, (int64_t)shape.cols, dim, d_out);
}

/* torch.sum/amax/amin/argmax/argmin of the whole array, along dim -1 of the
 * rows or down dim 0 of the columns. */
int torch_reduce(struct reduce_spec spec, struct reduce_shape shape, const void *d_in, size_t n,
                 void *d_out, void *, cudaStream_t stream)
{
    switch (shape.kind) {
    case SHAPE_WHOLE: return torch_reduce_array(spec, d_in, n, d_out, stream);
    case SHAPE_ROWS:
    case SHAPE_COLUMNS: return torch_reduce_matrix(spec, shape, d_in, n, d_out, stream);
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
              .types = ALL_TYPES & ~TYPE_BIT(TYPE_UINT32), .ops = ALL_OPS,
              .unsupported_why = "PyTorch 2.11's CUDA sum/amax/amin/argmax/argmin have no uint32 "
                                 "kernels (UInt32 is a barebones dtype there)",
              .launch = torch_reduce, .order = {.kind = ORDER_SERIAL_CHAIN}, /* the library's own */
              .shapes = SHAPE_BIT(SHAPE_WHOLE) | SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_COLUMNS));

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
