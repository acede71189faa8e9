/* cublasSasum_64 / cublasDasum_64: the closest thing cuBLAS has to a sum.
 * They sum |x|, so their rows are checked against sum |x| (the default data is
 * non-negative, where the two agree). cuBLAS has no sum of the other types
 * and no max or min of values (I?amax returns the index of the largest |x|):
 * those pairs are REFUSED. Pointer mode DEVICE writes the result to d_out
 * without a host round trip. The handle is created on the first call (a
 * warm-up, untimed) and kept; the 64-bit API takes n > 2^31.
 *   bench_compare -m cublas --type double */
#include <cstdio>

#include "cublas_handle.cuh"
#include "cuda_check.h"
#include "method.cuh"

cublasHandle_t cublas_shared_handle(void)
{
    constexpr int DEVICES = 64;
    static cublasHandle_t handles[DEVICES] = {};
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= DEVICES)
        return nullptr;
    if (!handles[device] && cublasCreate(&handles[device]) != CUBLAS_STATUS_SUCCESS)
        handles[device] = nullptr;
    return handles[device];
}

namespace {

int cublas_asum(struct reduce_spec spec, struct reduce_shape, const void *d_in, size_t n,
                void *d_out, void *, cudaStream_t stream)
{
    cublasHandle_t handle = cublas_shared_handle();
    if (!handle) {
        std::fprintf(stderr, "cuBLAS error: cublasCreate failed\n");
        return (int)cudaErrorUnknown;
    }
    if (spec.op != OP_SUM || (spec.type != TYPE_FLOAT && spec.type != TYPE_DOUBLE))
        return (int)cudaErrorInvalidValue; /* the descriptor refuses these first */
    CUBLAS_TRY(cublasSetStream(handle, stream));
    CUBLAS_TRY(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
    if (n == 0) { /* cuBLAS returns without writing the result for n <= 0 */
        CUDA_TRY(cudaMemsetAsync(d_out, 0, element_size(spec.type), stream));
        return 0;
    }
    if (spec.type == TYPE_FLOAT)
        CUBLAS_TRY(cublasSasum_64(handle, (int64_t)n, (const float *)d_in, 1, (float *)d_out));
    else
        CUBLAS_TRY(cublasDasum_64(handle, (int64_t)n, (const double *)d_in, 1, (double *)d_out));
    return 0;
}

} // namespace

extern "C" int cublas_version(int *version)
{
    cublasHandle_t handle = cublas_shared_handle();
    if (!handle)
        return (int)cudaErrorUnknown;
    CUBLAS_TRY(cublasGetVersion(handle, version));
    return 0;
}

DEFINE_METHOD(cublas, .family = FAMILY_VENDOR, .source = "cuBLAS cublas[SD]asum_64",
              .idea = "sums |x| (checked against sum |x|); device pointer mode",
              .types = TYPE_BIT(TYPE_FLOAT) | TYPE_BIT(TYPE_DOUBLE), .ops = OP_BIT(OP_SUM),
              .unsupported_why = "cuBLAS sums only float and double (as |x|), and has no max/min "
                                 "of values (I?amax gives an index)",
              .launch = cublas_asum, .flags = METHOD_SUMS_ABS,
              .order = {.kind = ORDER_SERIAL_CHAIN}); /* the library's own: unknown */
