/* The columns of a short matrix (a few rows, many columns): each thread a
 * vector of neighbouring columns, down every row in order.
 *
 * A matrix of one or two rows and millions of columns is mostly a copy: its
 * work is as wide as the row and a column holds a few elements. A step that
 * splits a column's rows across warps and blocks (split_columns) spends a
 * barrier and a shared-memory join on a handful of loads there; here a
 * thread reads VEC columns with one 16-byte load a row (VEC = 1: four-byte
 * loads, for a width or a pointer that does not allow vectors), LOADS rows in
 * flight, and writes its VEC results. The grid covers every vector once,
 * so the hardware hands blocks to whichever SM is free.
 *
 * A column's bits are its elements' alone: the rows in order, one chain. */
#ifndef FEW_ROWS_COLUMNS_CUH
#define FEW_ROWS_COLUMNS_CUH

#include "cuda_check.h"
#include "element_traits.cuh"
#include "grid_size.cuh"
#include "summation_order.h"
#include "vector_loads.cuh"

constexpr int FEW_ROWS_BLOCK = 256;
constexpr int FEW_ROWS_LOADS = 4; /* rows in flight per thread */

template <class T, class Op, int VEC>
__global__ __launch_bounds__(FEW_ROWS_BLOCK) void few_rows_columns_kernel(
    const T *__restrict__ in, size_t cols, size_t rows, result_t<T, Op> *__restrict__ out)
{
    using R = result_t<T, Op>;
    const Op op;
    const size_t stride = (size_t)gridDim.x * FEW_ROWS_BLOCK * VEC;
    for (size_t col = ((size_t)blockIdx.x * FEW_ROWS_BLOCK + threadIdx.x) * VEC; col < cols;
         col += stride) {
        R acc[VEC];
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            acc[j] = identity<Op, R>();
        for (size_t row = 0; row < rows; row += FEW_ROWS_LOADS) {
            T e[FEW_ROWS_LOADS][VEC];
#pragma unroll
            for (int k = 0; k < FEW_ROWS_LOADS; ++k)
                if (row + k < rows) {
                    const T *at = in + (row + k) * cols + col;
                    if constexpr (VEC > 1)
                        load_vectors<T, VEC>(at, e[k]);
                    else
                        e[k][0] = __ldg(at);
                }
#pragma unroll
            for (int k = 0; k < FEW_ROWS_LOADS; ++k)
                if (row + k < rows)
#pragma unroll
                    for (int j = 0; j < VEC; ++j)
                        acc[j] = op(acc[j], lift<Op>(e[k][j], row + k));
        }
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            store_result(&out[col + j], acc[j]);
    }
}

/* VEC > 1 only where cols is a multiple of VEC and `in` is 16-byte aligned
 * (every row's vectors then are). A block per FEW_ROWS_BLOCK vectors up to
 * MAX_GRID_BLOCKS, or the grid a test forces (launch_grid). */
template <class T, class Op, int VEC>
int launch_few_rows_columns(const T *d_in, size_t cols, size_t rows, result_t<T, Op> *d_out,
                            cudaStream_t stream)
{
    const size_t blocks = ceil_div(cols / VEC, FEW_ROWS_BLOCK);
    const int grid = launch_grid(blocks < MAX_GRID_BLOCKS ? (int)blocks : MAX_GRID_BLOCKS);
    const auto kernel = few_rows_columns_kernel<T, Op, VEC>;
    kernel<<<grid, FEW_ROWS_BLOCK, 0, stream>>>(d_in, cols, rows, d_out);
    CUDA_TRY_LAUNCH();
    return 0;
}

#endif
