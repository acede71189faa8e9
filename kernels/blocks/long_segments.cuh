/* Long segments of a ragged array, found on the device and split over the
 * grid: adaptive_rows' answer (step 28) to a length distribution the host
 * cannot see without reading the offsets back (a sync in the timed call).
 *
 * The first kernel - lane groups sized for the mean (row_lanes.cuh with
 * defer_long_segments) - reduces every segment of up to LONG_SEGMENT_BYTES
 * itself and appends the parts of each longer one to a list in the
 * workspace (one atomicAdd a long segment; a long segment has
 * ceil(bytes / LONG_PART_BYTES) parts, at most MAX_GRID_BLOCKS). The second
 * kernel, launched right after on the same stream, takes the listed parts
 * as a grid-stride loop takes elements - blockIdx, blockIdx + gridDim, ... -
 * and each part's block reduces its
 * elements (four 16-byte loads in flight per thread, block_reduce) and the
 * segment's last part done adds the parts' totals in part order
 * (last_part_writes_total): a segment's bits depend on its elements and its
 * length alone, never on the grid or on the order the list was filled in.
 * With no long segment the second kernel reads a zero and ends: the price of
 * not syncing is its launch (bench/NOTES.md, session 7, measures it over
 * the lane groups alone). On Hopper and later it is a programmatic dependent
 * launch: the first kernel lets it start at once (let_next_kernel_start),
 * its blocks take SM slots as the first kernel's free up, and they wait in
 * cudaGridDependencySynchronize until the first kernel has ended and its
 * list is visible - the launch overlaps the first kernel instead of
 * following it.
 *
 * Workspace (the harness zeroes it once; every counter is back to 0 when the
 * second kernel ends):
 *   byte 0         the list's length in parts (unsigned long long)
 *   byte 8         parts done (unsigned): the last one puts both back to 0
 *   byte 16        one ticket per item (a segment's is its first item's),
 *                  then the items (long_part), then one partial per item */
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

/* One part of a long segment: the second kernel's unit of work. Its
 * segment's parts are items first_item .. first_item + parts - 1, which
 * also number their partials and (first_item) the segment's ticket. */
struct long_part {
    size_t segment;
    size_t first_item;
    unsigned part, parts;
};

/* Where the list lives in a workspace sized for `n` elements of `element_bytes`. */
struct long_segment_list {
    unsigned long long *length; /* items listed */
    unsigned *items_done;
    unsigned *tickets;
    long_part *items;
    void *partials;

    /* Items at most: each long segment's bytes in LONG_PART_BYTES, rounded
     * up - and a long segment has more than LONG_SEGMENT_BYTES of the n
     * elements, so there are at most n / LONG_SEGMENT_BYTES of them. */
    __host__ __device__ static size_t capacity(size_t n, size_t element_bytes)
    {
        const size_t bytes = n * element_bytes;
        return bytes / LONG_PART_BYTES + bytes / LONG_SEGMENT_BYTES + 1;
    }
    __host__ __device__ static size_t tickets_bytes(size_t items)
    {
        return (items * sizeof(unsigned) + 15) / 16 * 16;
    }
    __host__ __device__ static size_t bytes(size_t n, size_t element_bytes)
    {
        const size_t items = capacity(n, element_bytes);
        return 16 + tickets_bytes(items) + items * (sizeof(long_part) + MAX_RESULT_BYTES);
    }
    __host__ __device__ static long_segment_list at(void *workspace, size_t n, size_t element_bytes)
    {
        char *base = (char *)workspace;
        const size_t items = capacity(n, element_bytes);
        long_segment_list l;
        l.length = (unsigned long long *)base;
        l.items_done = (unsigned *)(base + 8);
        l.tickets = (unsigned *)(base + 16);
        l.items = (long_part *)(base + 16 + tickets_bytes(items));
        l.partials = l.items + items;
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
 * than LONG_SEGMENT_BYTES is long; one lane of its group lists its parts. */
template <class T> struct defer_long_segments {
    long_segment_list list;
    /* Safe at the first kernel's start: the second launches only once every
     * block of the first has called this (all of them resident), and waits
     * for the first's end before it reads anything. */
    __device__ void let_next_kernel_start() const
    {
#if __CUDA_ARCH__ >= 900
        cudaTriggerProgrammaticLaunchCompletion();
#endif
    }
    __device__ bool is_long(size_t length) const { return length * sizeof(T) > LONG_SEGMENT_BYTES; }
    __device__ void append(size_t segment, size_t length) const
    {
        const unsigned parts = long_parts<T>(length);
        const size_t first = atomicAdd(list.length, (unsigned long long)parts);
        for (unsigned p = 0; p < parts; ++p)
            list.items[first + p] = long_part{segment, first, p, parts};
    }
};

template <class T, class Op>
__global__ __launch_bounds__(ROW_PARTS_BLOCK) void long_segments_kernel(
    const T *__restrict__ in, const segment_offset *__restrict__ offsets, long_segment_list list,
    result_t<T, Op> *__restrict__ out)
{
    using A = result_t<T, Op>;
    A *partials = (A *)list.partials;
#if __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize(); /* the first kernel has ended; its list is visible */
#endif
    /* Written by the first kernel; 0 when no segment was long (the common
     * case ends here). */
    const size_t listed = *(volatile unsigned long long *)list.length;
    /* The trip count is the block's: every thread meets every barrier. */
    for (size_t i = blockIdx.x; i < listed; i += gridDim.x) {
        const long_part item = list.items[i];
        const size_t begin = offsets[item.segment];
        const size_t length = offsets[item.segment + 1] - begin;
        const size_t part_begin = begin + length * item.part / item.parts;
        const size_t part_end = begin + length * (item.part + 1) / item.parts;
        A v = reduce_vectors<ROW_PARTS_LOADS, Op>(in + part_begin, part_end - part_begin,
                                                  threadIdx.x, ROW_PARTS_BLOCK, part_begin - begin);
        v = block_reduce<ROW_PARTS_BLOCK, Op>(v);
        last_part_writes_total<ROW_PARTS_BLOCK, Op>(v, &out[item.segment],
                                                    &list.tickets[item.first_item],
                                                    &partials[item.first_item], item.part,
                                                    item.parts);
        /* The last item done empties the list for the next call: every block
         * that has items read the length before finishing them, and a block
         * that reads it later reads 0 and has none left. */
        if (threadIdx.x == 0) {
            cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*list.items_done);
            if (done.fetch_add(1u, cuda::memory_order_acq_rel) == listed - 1) {
                *list.length = 0;
                *list.items_done = 0;
            }
        }
        __syncthreads(); /* block_reduce's slots are written again by the next item */
    }
}

/* The second kernel: a resident wave - or the grid a test forces - launched
 * as a programmatic dependent of the first where the GPU has it (compute
 * capability 9.0 and later; elsewhere after the first, as any launch). */
template <class T, class Op>
int launch_long_segments(const T *d_in, size_t n, reduce_shape shape, result_t<T, Op> *d_out,
                         void *workspace, cudaStream_t stream)
{
    const auto kernel = long_segments_kernel<T, Op>;
    int grid = 0, device = 0, major = 0;
    PROPAGATE(capped_resident_grid((const void *)kernel, ROW_PARTS_BLOCK,
                                   long_segment_list::capacity(n, sizeof(T)), 1, &grid));
    CUDA_TRY(cudaGetDevice(&device));
    CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    cudaLaunchAttribute early_start = {};
    early_start.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    early_start.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(grid);
    config.blockDim = dim3(ROW_PARTS_BLOCK);
    config.stream = stream;
    config.attrs = &early_start;
    config.numAttrs = major >= 9 ? 1 : 0;
    CUDA_TRY(cudaLaunchKernelEx(&config, kernel, d_in, shape.offsets,
                                long_segment_list::at(workspace, n, sizeof(T)), d_out));
    return 0;
}

#endif
