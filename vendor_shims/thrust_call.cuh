/* Thrust reports failures by throwing; the suite's methods return 0 or a
 * cudaError_t value. thrust_call(f) runs f() and turns what Thrust throws
 * into that value, with one line on stderr like CUDA_TRY's:
 *   thrust::system_error   its CUDA error code (cudaErrorUnknown if none)
 *   std::bad_alloc         cudaErrorMemoryAllocation (its own temporary storage) */
#ifndef THRUST_CALL_CUH
#define THRUST_CALL_CUH

#include <thrust/system/system_error.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <new>

template <class F> int thrust_call(F &&f)
{
    try {
        f();
    } catch (const thrust::system_error &e) {
        std::fprintf(stderr, "thrust failed: %s\n", e.what());
        return e.code().value() ? e.code().value() : (int)cudaErrorUnknown;
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "thrust failed: out of memory\n");
        return (int)cudaErrorMemoryAllocation;
    }
    return 0;
}

#endif
