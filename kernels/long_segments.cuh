/* Long segments of a ragged array, found on the device and split over the
 * grid: adaptive_rows' answer (step 28) to a length distribution the host
 * cannot see without reading the offsets back (a sync in the timed call).
 *
 * The first kernel - lane groups sized for the mean (row_lanes.cuh with
 * DEFER_LONG) - reduces every segment of up to LONG_SEGMENT_BYTES itself and
 * appends the index of each longer one to a list in the workspace (one
 * atomicAdd a long segment). The second kernel, launched right after on the
 * same stream, walks that list: every block reads the whole list, numbers
 * the parts of all its segments in list order (a long segment has
 * ceil(bytes / LONG_PART_BYTES) parts, at most MAX_GRID_BLOCKS) and takes
 * parts blockIdx, blockIdx + gridDim, ...; each part's block reduces its
 * elements (four 16-byte loads in flight per thread, block_reduce) and the
 * segment's last part done adds the parts' totals in part order
 * (last_part_writes_total): a segment's bits depend on its elements and its
 * length alone, never on the grid or on the order the list was filled in.
 * With no long segment the second kernel reads a zero and ends: ~1-2 us of
 * launch, the price of not syncing.
 *
 * Workspace (the harness zeroes it once; every counter is back to 0 when the
 * second kernel ends):
 *   byte 0         the list's length (unsigned long long)
 *   byte 8         blocks of the second kernel done (unsigned): the last one
 *                  puts the length back to 0
 *   byte 16        one ticket per list entry (unsigned), then the list
 *                  (segment indices), then the parts' partials */
#ifndef LONG_SEGMENTS_CUH
#define LONG_SEGMENTS_CUH

#include <cuda/atomic>

#include "block_reduce.cuh"
#include "cuda_check.h"
#include "grid_size.cuh"
#include "last_block_done.cuh"
#include "row_parts.cuh"
#include "row_spans.cuh"
#include "vector_loads.cuh"

/* Longer segments go to the second kernel: a lane group of the mean's size
 * would read one with a chain of dependent batches (8 lanes, 2 vectors each:
 * 16 trips to DRAM for 2 KiB). */
constexpr size_t LONG_SEGMENT_BYTES = 2048;
/* A block's part of a long segment: split_rows' size (step 26). */
constexpr size_t LONG_PART_BYTES = 32768;

/* Where the list lives in a workspace sized for `n` elements of `element_bytes`. */
struct long_segment_list {
    unsigned long long *length;
    unsigned *blocks_done;
    unsigned *tickets;
    size_t *segments;
    void *partials;

    /* At most this many segments are long: each has more than
     * LONG_SEGMENT_BYTES of the n elements. */
    __host__ __device__ static size_t capacity(size_t n, size_t element_bytes)
    {
        return n * element_bytes / LONG_SEGMENT_BYTES + 1;
    }
    /* Parts in all: each segment's bytes in LONG_PART_BYTES, plus one. */
    __host__ __device__ static size_t part_capacity(size_t n, size_t element_bytes)
    {
        return n * element_bytes / LONG_PART_BYTES + capacity(n, element_bytes);
    }
    __host__ __device__ static size_t bytes(size_t n, size_t element_bytes)
    {
        const size_t entries = capacity(n, element_bytes);
        return 16 + (entries * sizeof(unsigned) + 15) / 16 * 16 + entries * sizeof(size_t) +
               part_capacity(n, element_bytes) * MAX_RESULT_BYTES;
    }
    __host__ __device__ static long_segment_list at(void *workspace, size_t n, size_t element_bytes)
    {
        char *base = (char *)workspace;
        const size_t entries = capacity(n, element_bytes);
        long_segment_list l;
        l.length = (unsigned long long *)base;
        l.blocks_done = (unsigned *)(base + 8);
        l.tickets = (unsigned *)(base + 16);
        l.segments = (size_t *)(base + 16 + (entries * sizeof(unsigned) + 15) / 16 * 16);
        l.partials = l.segments + entries;
        return l;
    }
};

/* Parts of a long segment of `length` elements. */
template <class T> __host__ __device__ __forceinline__ unsigned long_parts(size_t length)
{
    const size_t parts = (length * sizeof(T) + LONG_PART_BYTES - 1) / LONG_PART_BYTES;
    return (unsigned)(parts < MAX_GRID_BLOCKS ? parts : MAX_GRID_BLOCKS);
}

/* The first kernel's deferral (row_lanes.cuh's Defer): a segment of more
 * than LONG_SEGMENT_BYTES is long; one lane of its group lists it. */
template <class T> struct defer_long_segments {
    long_segment_list list;
    __device__ bool is_long(size_t length) const { return length * sizeof(T) > LONG_SEGMENT_BYTES; }
    __device__ void append(size_t segment) const
    {
        list.segments[atomicAdd(list.length, 1ull)] = segment;
    }
};

template <class T, class Op>
__global__ __launch_bounds__(ROW_PARTS_BLOCK) void long_segments_kernel(
    const T *__restrict__ in, const segment_offset *__restrict__ offsets, long_segment_list list,
    acc_t<T> *__restrict__ out)
{
    using A = acc_t<T>;
    A *partials = (A *)list.partials;
    /* Written by the first kernel, which ended before this one started. */
    const size_t listed = *(volatile unsigned long long *)list.length;
    size_t first_part = 0; /* of segment k, numbering every listed segment's parts in order */
    for (size_t k = 0; k < listed; ++k) {
        const size_t segment = list.segments[k];
        const size_t begin = offsets[segment];
        const size_t length = offsets[segment + 1] - begin;
        const unsigned parts = long_parts<T>(length);
        /* This block's parts: global part numbers = blockIdx.x mod gridDim.x.
         * The same for every thread of the block: every one meets every barrier. */
        const size_t skip = (blockIdx.x + gridDim.x - first_part % gridDim.x) % gridDim.x;
        for (size_t part = skip; part < parts; part += gridDim.x) {
            const size_t part_begin = begin + length * part / parts;
            const size_t part_end = begin + length * (part + 1) / parts;
            A v = reduce_vectors<ROW_PARTS_LOADS, Op>(in + part_begin, part_end - part_begin,
                                                      threadIdx.x, ROW_PARTS_BLOCK);
            v = block_reduce<ROW_PARTS_BLOCK, Op>(v);
            last_part_writes_total<ROW_PARTS_BLOCK, Op>(v, &out[segment], &list.tickets[k],
                                                        &partials[first_part], (unsigned)part, parts);
            __syncthreads(); /* block_reduce's slots are written again by the next part */
        }
        first_part += parts;
    }
    /* The last block done has every block's read of the length behind it. */
    if (threadIdx.x == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*list.blocks_done);
        if (done.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1) {
            *list.length = 0;
            *list.blocks_done = 0;
        }
    }
}

/* The second kernel: a resident wave - or the grid a test forces. */
template <class T, class Op>
int launch_long_segments(const T *d_in, size_t n, reduce_shape shape, acc_t<T> *d_out,
                         void *workspace, cudaStream_t stream)
{
    const auto kernel = long_segments_kernel<T, Op>;
    int grid = 0;
    PROPAGATE(capped_resident_grid((const void *)kernel, ROW_PARTS_BLOCK,
                                   long_segment_list::part_capacity(n, sizeof(T)), 1, &grid));
    kernel<<<grid, ROW_PARTS_BLOCK, 0, stream>>>(
        d_in, shape.offsets, long_segment_list::at(workspace, n, sizeof(T)), d_out);
    CUDA_TRY_LAUNCH();
    return 0;
}

#endif
