/* Rows reduced by whole blocks, each row in `parts` parts: the kernel of
 * steps 25 (parts = 1: a block per row) and 26 (several blocks per row).
 *
 * One block per (row, part) item, row-major - up to launch_grid's cap of
 * MAX_GRID_BLOCKS, past which a block walks every grid-th item. Not a
 * persistent grid: the hardware hands a new block to whichever SM finishes
 * first, so SMs that read faster take more rows, and a row's loads never wait
 * for the same block's previous reduction and barrier (at 4096 floats a row
 * a resident wave walking the rows was behind CUB's block per segment:
 * bench/NOTES.md, session 8). The block that takes part p of a row of
 * length L reduces its elements
 * [L p / parts, L (p + 1) / parts) with reduce_vectors (scalar head to the
 * 16-byte boundary, four 16-byte loads in flight per thread - eight in the
 * 128-thread blocks of short float argmax rows - scalar tail) and
 * block_reduce; with one part it writes the row, else the row's last
 * part done adds the parts' totals in order (last_part_writes_total,
 * last_block_done.cuh) - bitwise the same whichever block finishes last.
 *
 * Workspace, only when parts > 1: one ticket counter per row from byte 0
 * (zeroed by the harness once; each row's last part puts its counter back to
 * 0), then parts partials of the result type per row from
 * row_partials_offset. */
#ifndef ROW_PARTS_CUH
#define ROW_PARTS_CUH

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "last_block_done.cuh"
#include "method.cuh"
#include "row_spans.cuh"
#include "vector_loads.cuh"
#include "whole_batch_rows.cuh"

/* 256 threads x 4 loads x 16 bytes: a 16 KiB batch per block, one batch for
 * a 4096-float row; for float sums five blocks an SM with one part (42
 * registers) and split (48), by ptxas -v at 83d8edc. */
constexpr int ROW_PARTS_BLOCK = 256;
constexpr int ROW_PARTS_LOADS = 4;
/* Loads a thread and batch in the int-index argmax kernel (2-byte
 * elements): two, as measured in
 * bench/results/experiments/h100_packed_rotation_and_eight_block_argmax_32ab4e8_new.log. */
constexpr int ROW_ARG_LOADS = 2;

/* The element types whose argmax and argmin rows of one part take the
 * int-index kernel (reduce_row_by_block): 2-byte elements and float. For
 * double it measured level, and the integer types' kernels took more
 * registers with it (fewer blocks an SM) and ran slower
 * (bench/results/h200_rows_matrix_9e636f1.txt; bench/NOTES.md, session 43). */
template <class T>
constexpr bool ROW_INT_INDEX = sizeof(T) == 2 || cuda::std::is_same_v<T, float>;

/* The blocks an SM that ptxas is told to fit a row_parts kernel into; 0
 * leaves it free. Left free, ptxas compiles the argmax and argmin of
 * 4-byte integers to 40 registers by issuing a batch's third and fourth
 * loads only after the compares of its first vector, into that vector's
 * registers: two trips to memory a batch, not one. Told five blocks, it
 * takes 44 registers and issues the four loads together. The sums keep no
 * bound: five spill them. */
template <class T, class Op>
constexpr int ROW_PARTS_MIN_BLOCKS =
    is_arg_op_v<Op> && cuda::std::is_integral_v<T> && sizeof(T) == 4 ? 5 : 0;

/* Float argmax and argmin rows of one part and at most ROW_NARROW_LONGEST
 * elements - one or two batches a block - run on blocks of ROW_NARROW_BLOCK
 * threads with eight loads each: the same 16 KiB batch a block, seven blocks
 * an SM (72 registers) for 112 KiB an SM in flight against 256 x 4's 80.
 * From 16384 columns, four batches a row and more, it measured slower
 * (bench/results/experiments/h200_row_parts_narrow_argmax_block_7a143e3.log). */
constexpr int ROW_NARROW_BLOCK = 128;
constexpr int ROW_NARROW_MIN_BLOCKS = 7;
constexpr size_t ROW_NARROW_LONGEST = 8192;

/* Loads a thread and batch for a block of THREADS: a 16 KiB batch a block of
 * 16-byte vectors whatever its width. */
template <int THREADS>
constexpr int ROW_VECTOR_LOADS = ROW_PARTS_BLOCK * ROW_PARTS_LOADS / THREADS;

template <class T, class Op, int THREADS>
constexpr int ROW_MIN_BLOCKS =
    THREADS == ROW_NARROW_BLOCK ? ROW_NARROW_MIN_BLOCKS : ROW_PARTS_MIN_BLOCKS<T, Op>;

/* Bytes before the partials: the counters, rounded up to 16 (so partials of
 * any accumulator type are aligned). */
__host__ __device__ inline size_t row_partials_offset(size_t rows)
{
    return (rows * sizeof(unsigned) + 15) / 16 * 16;
}

static inline size_t row_parts_workspace_bytes(size_t rows, unsigned parts)
{
    return parts > 1 ? row_partials_offset(rows) + rows * parts * (size_t)MAX_RESULT_BYTES : 0;
}

/* One row, in[begin, end) of in[0, n), by the whole block; the result in
 * thread 0. INT_INDEX (argmax and argmin, every row at most
 * INT_SPAN_ELEMENTS long): the index is an int from the row's start through
 * the block's combine, whose shuffles then move two words, not three, and
 * widened once. For 2-byte elements through the scan too (span_result_t,
 * as in the lane steps: reduce_span's scan of a vector has no branch an
 * element); float keeps reduce_vectors' loop and its 64-bit index, and
 * narrows it for the combine (NO_INDEX stays NO_INDEX). */
template <class Op, bool INT_INDEX, int THREADS, class T>
__device__ __forceinline__ result_t<T, Op> reduce_row_by_block(const T *__restrict__ in, size_t n,
                                                               size_t begin, size_t end)
{
    if constexpr (INT_INDEX && sizeof(T) == 2) {
        const span_result_t<T, Op> s = reduce_span<ROW_ARG_LOADS, Op, T, int>(
            in, n, begin, end, threadIdx.x, THREADS);
        return widen_index(block_reduce<THREADS, Op>(s));
    } else {
        const result_t<T, Op> v = reduce_vectors<ROW_VECTOR_LOADS<THREADS>, Op>(
            in + begin, end - begin, threadIdx.x, THREADS);
        if constexpr (INT_INDEX) {
            const span_result_t<T, Op> s = {v.value, (int)v.index};
            return widen_index(block_reduce<THREADS, Op>(s));
        } else {
            return block_reduce<THREADS, Op>(v);
        }
    }
}

/* SPLIT false: one part a row (parts = 1), compiled without the 64-bit
 * divisions that find an item's row and part - their registers held
 * block_per_row to 48 a thread (5 blocks of 256 an SM) for float rows.
 * THREADS: ROW_PARTS_BLOCK, or ROW_NARROW_BLOCK for short float argmax rows
 * (one part, INT_INDEX). */
template <class T, class Op, class Spans, bool SPLIT, bool INT_INDEX, int THREADS>
__global__ __launch_bounds__(THREADS, ROW_MIN_BLOCKS<T, Op, THREADS>) void row_parts_kernel(
    const T *__restrict__ in, size_t n, Spans spans, unsigned parts, result_t<T, Op> *__restrict__ out,
    void *workspace)
{
    using A = result_t<T, Op>;
    unsigned *parts_done = (unsigned *)workspace;
    A *partials = (A *)((char *)workspace + row_partials_offset(spans.count));
    const size_t items = SPLIT ? spans.count * parts : spans.count;

    /* The trip count is the block's (it steps by blocks): every thread meets
     * every barrier. */
    for (size_t item = blockIdx.x; item < items; item += gridDim.x) {
        const size_t row = SPLIT ? item / parts : item;
        const size_t begin = spans.begin(row);
        const size_t length = spans.end(row) - begin;
        if constexpr (SPLIT) {
            const unsigned part = (unsigned)(item % parts);
            const size_t part_begin = begin + length * part / parts;
            const size_t part_end = begin + length * (part + 1) / parts;
            A v = reduce_vectors<ROW_VECTOR_LOADS<THREADS>, Op>(
                in + part_begin, part_end - part_begin, threadIdx.x, THREADS, part_begin - begin);
            v = block_reduce<THREADS, Op>(v);
            last_part_writes_total<THREADS, Op>(v, &out[row], &parts_done[row],
                                                &partials[row * parts], part, parts);
        } else {
            const A v = reduce_row_by_block<Op, INT_INDEX, THREADS>(in, n, begin, begin + length);
            if (threadIdx.x == 0)
                store_result(&out[row], v);
        }
        /* block_reduce's per-warp slots are written again by the next item:
         * warp 0 must have read them first. One part a row skips it after a
         * block's last item, the split kernel keeps it: on an H200 the barrier
         * slowed block_per_row, most at 2^20, and sped split_rows up
         * (bench/results/h200_rows_sweep_cccl35_{cbd8c2b,4a1b2bf}.json). Not
         * explained: a barrier that no thread waits long at. */
        if (SPLIT || item + gridDim.x < items)
            __syncthreads();
    }
}

/* A block per item up to MAX_GRID_BLOCKS - or the grid a test forces
 * (launch_grid). parts: 1 to MAX_GRID_BLOCKS (the summation order's bound
 * counts the combine's chain over at most that many partials); 1 when SPLIT
 * is false (block_per_row builds only that kernel). With one part, argmax
 * and argmin rows that an int counts - every row when the whole array is
 * no longer (segments: their offsets are not read here) - take the
 * int-index kernel where ROW_INT_INDEX. For 2-byte elements, eight a
 * vector, the 64-bit index's compares in the scan were the cost (half and
 * bfloat16 rows of 4096 to 16384 columns:
 * bench/results/experiments/h100_lane_run_prefetch_and_two_byte_int_index_c39ddea.log);
 * for float an int through the scan was slower from 4096 columns
 * (bench/results/experiments/h100_block_per_row_int_index_83d8edc.log)
 * and through the combine alone faster
 * (bench/results/experiments/h200_segments_last_kernel_and_block_int_index_484ba40.log).
 * Float rows of at most ROW_NARROW_LONGEST then take the narrow block.
 * Rows of whole 8 KiB batches from an aligned array take
 * whole_batch_rows.cuh's kernel instead, every type and operator. */
template <class T, class Op, bool SPLIT>
int launch_row_items(const T *d_in, reduce_shape shape, size_t n, unsigned parts,
                     result_t<T, Op> *d_out, void *workspace, cudaStream_t stream)
{
    if (shape.count == 0)
        return 0;
    if constexpr (!SPLIT)
        if (takes_whole_batches(shape, d_in))
            return launch_whole_batch_rows<T, Op>(d_in, shape, d_out, stream);
    const size_t longest = shape.kind == SHAPE_ROWS ? shape.cols : n;
    const size_t items = shape.count * parts;
    const int grid = launch_grid(items < MAX_GRID_BLOCKS ? (int)items : MAX_GRID_BLOCKS);
    return with_spans(shape, [&](auto spans) {
        using Spans = decltype(spans);
        auto kernel = row_parts_kernel<T, Op, Spans, SPLIT, false, ROW_PARTS_BLOCK>;
        int threads = ROW_PARTS_BLOCK;
        if constexpr (is_arg_op_v<Op> && !SPLIT && ROW_INT_INDEX<T>) {
            if (longest <= INT_SPAN_ELEMENTS)
                kernel = row_parts_kernel<T, Op, Spans, SPLIT, true, ROW_PARTS_BLOCK>;
            if constexpr (cuda::std::is_same_v<T, float>)
                if (longest <= ROW_NARROW_LONGEST) {
                    kernel = row_parts_kernel<T, Op, Spans, SPLIT, true, ROW_NARROW_BLOCK>;
                    threads = ROW_NARROW_BLOCK;
                }
        }
        kernel<<<grid, threads, 0, stream>>>(d_in, n, spans, parts, d_out, workspace);
        CUDA_TRY_LAUNCH();
        return 0;
    });
}

/* Each row in `parts` parts; one part a row is block_per_row's kernel. */
template <class T, class Op>
int launch_row_parts(const T *d_in, reduce_shape shape, size_t n, unsigned parts,
                     result_t<T, Op> *d_out, void *workspace, cudaStream_t stream)
{
    return parts > 1
               ? launch_row_items<T, Op, true>(d_in, shape, n, parts, d_out, workspace, stream)
               : launch_row_items<T, Op, false>(d_in, shape, n, 1, d_out, workspace, stream);
}

/* The order within one row: each thread chains at most ceil(length /
 * ROW_PARTS_BLOCK) terms over all the parts it could be given, the block's
 * tree; the parts' combine chains at most ceil(MAX_GRID_BLOCKS /
 * ROW_PARTS_BLOCK) partials per thread and a second tree
 * (ORDER_THREAD_CHAINS counts both). */
constexpr summation_order ROW_PARTS_ORDER = {.kind = ORDER_THREAD_CHAINS,
                                             .width = ROW_PARTS_BLOCK,
                                             .depth = VECTOR_LOADS_DEPTH + BLOCK_REDUCE_DEPTH};

#endif
