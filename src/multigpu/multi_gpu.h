/* The multi-GPU measurement (bench_compare --gpus), in one place like
 * measure.h for one GPU: the GPUs' streams, flushers and events, the start
 * line, the combines, and the protocol of one sample.
 *
 * One sample of method m on G GPUs with combine c, queued on every GPU
 * before any of it starts (launch_gate.h), then released at once:
 *   every GPU:  poison its partial and result -> wait at the start line ->
 *               flush its L2 (read sweep; not with --hot) -> event "flushed"
 *               -> wait for every other GPU's "flushed" (a barrier on the
 *               GPUs) -> GPU 0 only: event "start"
 *   every GPU:  m on its shard -> its partial
 *   combine:    p2p   GPU r >= 1 publishes into GPU 0; GPU 0 adds them
 *               nccl  ncclAllReduce; GPU 0 waits for every GPU's "done"
 *               none  one GPU: its partial is the result
 *   GPU 0:      event "stop"
 * time = stop - start on GPU 0: from the common start to the final value on
 * GPU 0 (on every GPU for NCCL, whose end waits for all). Every sample's
 * final value - on GPU 0, or on every GPU for NCCL - is read back and checked
 * against the reference, as measure.h does. The combine alone is timed the
 * same way with the partials of the last sample left in place (no method
 * call): its own cost, beside the total.
 * Warm-up calls go without the start line and the flush (the first NCCL
 * call connects the GPUs; CUB and cuBLAS set up per GPU). */
#ifndef MULTI_GPU_H
#define MULTI_GPU_H

#include <stdbool.h>

#include "combine.h"
#include "l2_flush.h"
#include "launch_gate.h"
#include "pass_driver.h"
#include "reduce_method.h"
#include "scaling.h"
#include "shard_input.h"

struct gpu_lane {
    int device;
    cudaStream_t stream;
    struct l2_flusher flusher;
    cudaEvent_t flushed, done;  /* ordering only (no timing) */
    cudaEvent_t start, stop;    /* timed, on GPU 0 */
    void *d_partial, *d_result; /* MAX_RESULT_BYTES each */
    unsigned *d_fault;          /* launch_gate.h's FAULT_* bits */
};

struct multi_gpu {
    int count;
    int devices[MAX_GPUS];
    struct gpu_lane lanes[MAX_GPUS];
    struct launch_gate gate;
    bool start_line;            /* the gate (default); off with REDUCE_NO_START_LINE=1, to
                                   tell whether a stall is the gate's */
    unsigned epoch;             /* one per sample: the gate's and the p2p flags' */
    bool p2p_ready;             /* peer access to GPU 0 from every GPU */
    struct p2p_combine p2p;
    struct nccl_combine *nccl;  /* NULL: built without NCCL, or its setup failed */
    char p2p_why[TEXT_LEN], nccl_why[TEXT_LEN]; /* why a combine is not ready */
};

struct multi_gpu_setup {
    int warmup, samples;
    bool flush_l2;               /* false with --hot */
    enum pass_strategy strategy; /* how pass kernels are driven */
};

/* Devices 0 .. count-1 as ranks 0 .. count-1: streams, flushers, events,
 * the start line (unless the environment has REDUCE_NO_START_LINE=1: a
 * diagnostic, the GPUs then start as the host reaches them), and both
 * combines (each connected by one untimed call).
 * A combine that cannot be set up is not an error here: its rows are
 * refused with the reason (p2p_why, nccl_why). Returns 0, or -1 with one
 * line in err: fewer GPUs visible than asked, or a CUDA failure. */
int multi_gpu_open(struct multi_gpu *mg, int count, char *err, size_t err_len);
void multi_gpu_close(struct multi_gpu *mg);

/* Why method m cannot be one of these rows (runs on the host, returns
 * through the host - the GPUs would take turns - or refuses the pair or a
 * shard's n), or the combine is not ready; false if it can. */
bool multi_gpu_refuses(const struct multi_gpu *mg, const struct method *m, enum combine c,
                       const struct sharded_input *in, char *reason, size_t reason_len);

/* Measures m on in's GPUs with combine c into row (COMBINE_NONE: in has one
 * shard; p2p and nccl: one per GPU of mg). Returns 0 when the GPUs are still
 * usable afterwards, or the CUDA error that broke a context (the run must
 * stop), as measure_method does. */
int measure_scaling_row(struct multi_gpu *mg, const struct method *m, enum combine c,
                        const struct sharded_input *in, const struct multi_gpu_setup *setup,
                        struct scaling_row *row);

#endif
