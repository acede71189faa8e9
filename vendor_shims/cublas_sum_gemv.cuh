/* Sums of a matrix's rows or columns as cuBLAS computes them: a
 * matrix-vector product with a vector of ones (cublas_rows.cu,
 * cublas_columns.cu). A row-major R x C input is, to cuBLAS, the
 * column-major C x R matrix M with lda = C:
 *   row sums     y = M^T ones(C)   gemv(CUBLAS_OP_T, m = C, n = R, lda = C)
 *   column sums  y = M ones(R)     gemv(CUBLAS_OP_N, m = C, n = R, lda = C)
 * through cublas[SD]gemv_64 (cuBLAS 12+, in CUDA 13.0's cublas_api.h), which
 * takes m, n and lda past INT_MAX. Float and double only: gemv has no
 * integer types, no max or min, and half would need another routine
 * (cublasGemmEx).
 *
 * The ones: the harness's workspace cannot keep them between calls - it is
 * zeroed once when allocated, and a call that trusted what an earlier call
 * left there would read zeros after a reallocation at the same address. So
 * the shims keep their own vector of ones per device and type, as they keep
 * the cuBLAS handle (cublas_handle.cuh): made on the first call that needs
 * more ones than any before (cudaMalloc, a fill kernel and a stream sync: a
 * warm-up call, untimed) and reused by every later call. A timed call is
 * the gemv alone, plus setting the handle's stream and pointer mode (host
 * work). */
#ifndef CUBLAS_SUM_GEMV_CUH
#define CUBLAS_SUM_GEMV_CUH

#include <cstddef>

#include "cublas_handle.cuh"

/* out[0 .. m or n) = op(M) x ones for the column-major m x n matrix at
 * `matrix` (lda = m) on `stream`: out has n values for CUBLAS_OP_T, m for
 * CUBLAS_OP_N. T is float or double (instantiated in cublas_sum_gemv.cu).
 * Returns 0 or a cudaError_t value. */
template <class T>
int cublas_sum_gemv(cublasOperation_t op, size_t m, size_t n, const T *matrix, T *out,
                    cudaStream_t stream);

#endif
