/* Rows of whole batches: block_per_row's kernel where every row is a whole
 * number of WHOLE_BATCH_BYTES (8 KiB: 2048 floats, 1024 doubles, 4096
 * halves), at most WHOLE_BATCH_LONGEST_BYTES, and the array starts on a
 * 16-byte boundary - so every row does, and no load needs a mask or a head
 * and tail of single elements. Every type and operator.
 *
 * A block of WHOLE_BATCH_BLOCK threads a row, as many blocks as rows (up to
 * MAX_GRID_BLOCKS), eight an SM. Thread t reads the row's vectors t, t +
 * 256, ..., VPT of them issued before the first compare, and scans its
 * elements in index order with one comparison an element - a later element
 * wins only by a value that beats the best so far outright, so the first of
 * equal values stays without comparing indices - keeping the winner's place
 * among its own elements as a small int (argmax and argmin); the index from
 * the row's start is made from that place once, and block_reduce (one REDUX
 * of the value's order key, then the lowest index of the ties) combines the
 * threads. Sums, max and min fold each vector as a tree and chain a
 * thread's vectors; doubles' max and min compare and select element by
 * element, two instructions deep where fmax is three.
 *
 * Why: row_parts.cuh's general kernel on this very launch shape issued
 * 1.48x the warp instructions of CUB's segmented ArgMax at 2048 floats (a
 * 64-bit index, head and tail tests) and took 1.24x its time; this scan
 * issues fewer than CUB's, and every type's rows of 8-64 KiB read faster
 * than with the general kernel, sums as well
 * (bench/results/experiments/argmax_rows_lean_probe.cu,
 * h200_argmax_rows_lean_0da0f46.log, h200_whole_batch_rows_aabaebc.log,
 * h200_whole_batch_sums_1033c97.log; bench/NOTES.md, session 64). */
#ifndef WHOLE_BATCH_ROWS_CUH
#define WHOLE_BATCH_ROWS_CUH

#include <cstdint>
#include <cstring>

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "method.cuh"
#include "vector_loads.cuh"

constexpr int WHOLE_BATCH_BLOCK = 256;
/* Two 16-byte vectors a thread; a row of twice that (and a multiple of
 * it) takes four a thread a batch. */
constexpr size_t WHOLE_BATCH_BYTES = WHOLE_BATCH_BLOCK * 2 * 16;
/* 64 KiB (16384 floats): 1024 rows of 64 MiB still fill an H200's 1056
 * block slots; wider rows are too few blocks for the GPU. */
constexpr size_t WHOLE_BATCH_LONGEST_BYTES = 8 * WHOLE_BATCH_BYTES;

/* Whether block_per_row (and split_rows with one part a row) reads these
 * rows with whole_batch_rows_kernel. */
template <class T> bool takes_whole_batches(reduce_shape shape, const T *in)
{
    const size_t row_bytes = shape.cols * sizeof(T);
    return shape.kind == SHAPE_ROWS && (uintptr_t)in % 16 == 0 && row_bytes % WHOLE_BATCH_BYTES == 0 &&
           row_bytes <= WHOLE_BATCH_LONGEST_BYTES;
}

/* Vectors v (the thread's vectors first_vector, + 1, ... of its own, in
 * index order) scanned into (best, place): place counts the thread's
 * elements. FIRST: the thread's first batch, whose first element starts
 * the scan. */
template <bool FIRST, class Op, class T, int VPT>
__device__ __forceinline__ void scan_batch(const uint4 (&v)[VPT], int first_vector, acc_t<T> &best,
                                           int &place)
{
    constexpr int W = VECTOR_WIDTH<T>;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        T e[W];
        memcpy(e, &v[k], sizeof v[k]); /* a bit cast: stays in registers */
#pragma unroll
        for (int j = 0; j < W; ++j) {
            if (FIRST && k == 0 && j == 0) {
                best = widen(e[0]);
            } else {
                const bool wins = arg_beats_without_branch<Op::is_max>(widen(e[j]), best);
                best = wins ? widen(e[j]) : best;
                place = wins ? (first_vector + k) * W + j : place;
            }
        }
    }
}

/* A row's VPT vectors of batch b into v, every load issued before the
 * first use. */
template <int VPT>
__device__ __forceinline__ void load_batch(const uint4 *__restrict__ row, size_t b, uint4 (&v)[VPT])
{
#pragma unroll
    for (int k = 0; k < VPT; ++k)
        v[k] = __ldg(&row[(b * VPT + k) * WHOLE_BATCH_BLOCK + threadIdx.x]);
}

/* Argmax or argmin of one row of `batches` batches of VPT vectors a
 * thread, from the row's first vector; the result in thread 0. */
template <class Op, int VPT, class T>
__device__ __forceinline__ result_t<T, Op> reduce_whole_batches_arg(const uint4 *__restrict__ row,
                                                                    size_t batches)
{
    constexpr int W = VECTOR_WIDTH<T>;
    acc_t<T> best{};
    int place = 0;
    for (size_t b = 0; b < batches; ++b) {
        uint4 v[VPT];
        load_batch(row, b, v);
        if (b == 0)
            scan_batch<true, Op, T>(v, 0, best, place);
        else
            scan_batch<false, Op, T>(v, (int)b * VPT, best, place);
    }
    /* the thread's vector place / W is the row's vector threadIdx.x + 256 (place / W) */
    const int index = ((int)threadIdx.x + WHOLE_BATCH_BLOCK * (place / W)) * W + place % W;
    return widen_index(block_reduce<WHOLE_BATCH_BLOCK, Op>(span_result_t<T, Op>{best, index}));
}

/* Whether Op over T takes select_batch: max and min of doubles, where fmax
 * is three instructions deep (DSETP.MAX, a select, the NaN's quiet bit)
 * between a batch's loads and the next batch's. */
template <class T, class Op>
constexpr bool SELECTS = cuda::std::is_same_v<T, double> && (Op::code == OP_MAX || Op::code == OP_MIN);

/* Max or min of a batch of doubles by a compare and a select an element
 * (two deep) into `acc`, which starts at the identity: a NaN never beats
 * it, so a NaN is ignored as fmax ignores it (and as the reference's
 * row_best does). At rows of 4096 doubles this brought block_per_row's max
 * and min from behind CUB's segmented reduce to level with it
 * (bench/results/experiments/h200_double_select_af295c4.log). */
template <class Op, int VPT>
__device__ __forceinline__ void select_batch(const uint4 (&v)[VPT], double &acc)
{
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        double e[2];
        memcpy(e, &v[k], sizeof v[k]);
#pragma unroll
        for (int j = 0; j < 2; ++j)
            acc = (Op::code == OP_MAX ? e[j] > acc : e[j] < acc) ? e[j] : acc;
    }
}

/* Op over one row, the result in thread 0: sums, max and min fold each
 * vector as a tree and chain a thread's vectors in index order (doubles'
 * max and min: select_batch). */
template <class Op, int VPT, class T>
__device__ __forceinline__ result_t<T, Op> reduce_whole_batches(const uint4 *__restrict__ row, size_t batches)
{
    if constexpr (is_arg_op_v<Op>) {
        return reduce_whole_batches_arg<Op, VPT, T>(row, batches);
    } else if constexpr (SELECTS<T, Op>) {
        double acc = identity<Op, double>();
        for (size_t b = 0; b < batches; ++b) {
            uint4 v[VPT];
            load_batch(row, b, v);
            select_batch<Op>(v, acc);
        }
        return block_reduce<WHOLE_BATCH_BLOCK, Op>(acc);
    } else {
        result_t<T, Op> acc = identity<Op, result_t<T, Op>>();
        for (size_t b = 0; b < batches; ++b) {
            uint4 v[VPT];
            load_batch(row, b, v);
#pragma unroll
            for (int k = 0; k < VPT; ++k)
                acc = Op{}(acc, fold_vector<Op, T>(v[k]));
        }
        return block_reduce<WHOLE_BATCH_BLOCK, Op>(acc);
    }
}

template <class T, class Op, int VPT>
__global__ __launch_bounds__(WHOLE_BATCH_BLOCK, 8) void whole_batch_rows_kernel(
    const T *__restrict__ in, size_t rows, size_t row_vectors, result_t<T, Op> *__restrict__ out)
{
    const size_t batches = row_vectors / (VPT * WHOLE_BATCH_BLOCK);
    /* The trip count is the block's: every thread meets every barrier. */
    for (size_t row = blockIdx.x; row < rows; row += gridDim.x) {
        const uint4 *r = reinterpret_cast<const uint4 *>(in) + row * row_vectors;
        const result_t<T, Op> v = reduce_whole_batches<Op, VPT, T>(r, batches);
        if (threadIdx.x == 0)
            store_result(&out[row], v);
        if (row + gridDim.x < rows) /* block_reduce's slots are read before the next row's */
            __syncthreads();
    }
}

/* A block a row up to MAX_GRID_BLOCKS (or the grid a test forces); four
 * vectors a thread a batch where the row holds an even number of 8 KiB
 * batches. The shape passed takes_whole_batches. */
template <class T, class Op>
int launch_whole_batch_rows(const T *d_in, reduce_shape shape, result_t<T, Op> *d_out, cudaStream_t stream)
{
    const size_t row_bytes = shape.cols * sizeof(T), row_vectors = row_bytes / 16;
    const int grid = launch_grid(shape.count < MAX_GRID_BLOCKS ? (int)shape.count : MAX_GRID_BLOCKS);
    if (row_bytes % (2 * WHOLE_BATCH_BYTES) == 0)
        whole_batch_rows_kernel<T, Op, 4><<<grid, WHOLE_BATCH_BLOCK, 0, stream>>>(d_in, shape.count,
                                                                                 row_vectors, d_out);
    else
        whole_batch_rows_kernel<T, Op, 2><<<grid, WHOLE_BATCH_BLOCK, 0, stream>>>(d_in, shape.count,
                                                                                 row_vectors, d_out);
    CUDA_TRY_LAUNCH();
    return 0;
}

#endif
