/* The last block done (cuda-samples threadFenceReduction): how the one-launch
 * kernels (steps 16-18) combine their blocks without a second launch.
 *
 * Each block stores its partial result in the workspace and draws a ticket
 * from a counter there; the block that draws the last ticket combines every
 * partial in a fixed order and writes the result. Partials depend only on n and the
 * grid, and the final order is fixed: bitwise the same result run to run.
 *
 * Workspace: the counter at byte 0 - a fixed place, whatever n the workspace
 * was sized for, so a reused workspace still has its (zero) counter where the
 * next call looks - then one partial (of the accumulator type) per block from
 * byte 16. The harness zeroes
 * it once; the last block puts the counter back to 0.
 *
 * Cost: after the last block's own sum, three dependent trips to L2 (the
 * ticket's release, the ticket, the read of the partials), timed with
 * %globaltimer in bench/NOTES.md (session 2, "The combine"). Letting the
 * first block done collect tagged partials as they land is cheaper, but it
 * has a block wait on the others, which is safe only when the whole grid is
 * resident at once; NOTES.md, session 3, weighs it. */
#ifndef LAST_BLOCK_DONE_CUH
#define LAST_BLOCK_DONE_CUH

#include <cuda/atomic>

#include "block_reduce.cuh"

#define LAST_BLOCK_PARTIALS_OFFSET 16

/* Workspace bytes for a grid of `blocks` blocks, with room for partials of
 * any accumulator type. */
static inline size_t last_block_workspace_bytes(int blocks)
{
    return LAST_BLOCK_PARTIALS_OFFSET + (size_t)blocks * MAX_RESULT_BYTES;
}

/* Call from every thread of a block, after its writes that the last block
 * will read: a barrier orders them before thread 0's ticket from *counter,
 * whose release makes them visible GPU-wide (a release covers what the
 * thread has seen, the block's writes through the barrier included: the
 * grid sync of cooperative groups arrives the same way, a barrier and one
 * thread's release) and whose acquire orders the last block's reads after
 * it; every thread learns whether the block drew the last of `count`. Also
 * for many values a block (split_columns, staged_columns, flat_columns,
 * the superaccumulator's limbs). A fence in every thread before the
 * barrier, as cuda-samples' threadFenceReduction has, costs a MEMBAR.SC.GPU
 * a warp. */
__device__ __forceinline__ bool draws_last_ticket(unsigned *counter, unsigned count)
{
    __shared__ bool last;
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*counter);
        last = ticket.fetch_add(1u, cuda::memory_order_acq_rel) == count - 1;
    }
    __syncthreads(); /* broadcasts `last`, and orders thread 0's acquire before every read */
    return last;
}

/* The same for any group of blocks that reduce one result together (split_rows,
 * step 26: the parts of one row): call from every thread of the block that
 * computed part `part` of `parts`, its total in thread 0; the last part done
 * writes Op over partials[0 .. parts) - in that order, whichever finished
 * last - to *out and puts *parts_done back to 0. */
template <int THREADS, class Op, class A>
__device__ __forceinline__ void last_part_writes_total(A part_total, A *out, unsigned *parts_done,
                                                       A *partials, unsigned part, unsigned parts)
{
    if (parts == 1) { /* nothing to combine: no counter, no trip to L2 */
        if (threadIdx.x == 0)
            store_result(out, part_total);
        return;
    }
    __shared__ bool is_last_part;
    if (threadIdx.x == 0) {
        store_result(&partials[part], part_total);
        /* Release: this block's partial is visible GPU-wide before its
         * ticket is; acquire: the last block reads no partial before it holds
         * the last ticket. One acq_rel atomic does both (a __threadfence
         * before a relaxed atomicAdd measured the same: NOTES.md). */
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*parts_done);
        is_last_part = done.fetch_add(1u, cuda::memory_order_acq_rel) == parts - 1;
    }
    /* Broadcasts is_last_part and orders thread 0's acquire before every
     * thread's reads below. */
    __syncthreads();
    if (!is_last_part)
        return;

    /* Read at L2, where all SMs' stores meet; this SM's L1 is not
     * coherent with the other SMs' writes. Thread t combines partials t,
     * t + THREADS, ... in order, then block_reduce's fixed tree. */
    A total = identity<Op, A>();
    for (unsigned i = threadIdx.x; i < parts; i += THREADS)
        total = Op{}(total, load_at_l2(&partials[i]));
    total = block_reduce<THREADS, Op>(total);
    if (threadIdx.x == 0) {
        store_result(out, total);
        *parts_done = 0; /* ready for the next call: nothing else touches it in this launch */
    }
}

/* Call from every thread of every block, with the block's result in thread 0
 * (block_reduce's result); the last block writes the grid's result to *out. */
template <int THREADS, class Op, class A>
__device__ __forceinline__ void last_block_writes_total(A block_total, A *out, void *workspace)
{
    last_part_writes_total<THREADS, Op>(
        block_total, out, (unsigned *)workspace,
        (A *)((char *)workspace + LAST_BLOCK_PARTIALS_OFFSET), blockIdx.x, gridDim.x);
}

#endif
