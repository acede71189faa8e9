#include "multi_gpu.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"
#include "device_info.h"
#include "measure.h"
#include "registry.h"

/* ---- the GPUs */

static int open_lane(struct gpu_lane *l, int device)
{
    l->device = device;
    CUDA_TRY(cudaSetDevice(device));
    int l2 = 0;
    CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    PROPAGATE(l2_flusher_create(&l->flusher, (size_t)l2));
    CUDA_TRY(cudaStreamCreateWithFlags(&l->stream, cudaStreamNonBlocking));
    CUDA_TRY(cudaEventCreateWithFlags(&l->flushed, cudaEventDisableTiming));
    CUDA_TRY(cudaEventCreateWithFlags(&l->done, cudaEventDisableTiming));
    CUDA_TRY(cudaEventCreate(&l->start));
    CUDA_TRY(cudaEventCreate(&l->stop));
    CUDA_TRY(cudaMalloc(&l->d_partial, MAX_RESULT_BYTES));
    CUDA_TRY(cudaMalloc(&l->d_result, MAX_RESULT_BYTES));
    CUDA_TRY(cudaMalloc((void **)&l->d_fault, sizeof *l->d_fault));
    /* on the lane's own stream: the legacy default stream's cudaMemset is not
     * ordered before anything on a non-blocking stream */
    CUDA_TRY(cudaMemsetAsync(l->d_partial, 0, MAX_RESULT_BYTES, l->stream));
    CUDA_TRY(cudaMemsetAsync(l->d_fault, 0, sizeof *l->d_fault, l->stream));
    return 0;
}

static void close_lane(struct gpu_lane *l)
{
    if (cudaSetDevice(l->device) != cudaSuccess)
        return;
    l2_flusher_destroy(&l->flusher);
    if (l->stream)
        cudaStreamDestroy(l->stream);
    cudaEvent_t *events[] = {&l->flushed, &l->done, &l->start, &l->stop};
    for (size_t i = 0; i < sizeof events / sizeof events[0]; ++i)
        if (*events[i])
            cudaEventDestroy(*events[i]);
    cudaFree(l->d_partial);
    cudaFree(l->d_result);
    cudaFree(l->d_fault);
    memset(l, 0, sizeof *l);
}

static int sync_lanes(const struct multi_gpu *mg, int count)
{
    int first = 0;
    for (int g = 0; g < count; ++g) {
        const cudaError_t e = cudaSetDevice(mg->lanes[g].device) != cudaSuccess
                                  ? cudaErrorInvalidDevice
                                  : cudaStreamSynchronize(mg->lanes[g].stream);
        if (e != cudaSuccess && !first) {
            report_cuda_error((int)e, "cudaStreamSynchronize(lane stream)", __FILE__, __LINE__);
            first = (int)e;
        }
    }
    return first;
}

/* Loads the start line's kernel on every GPU while nothing waits at it: a
 * kernel's first launch may load its module, which can wait for the
 * device's running kernels (CUDA's lazy loading) - a gate already waiting
 * would be one. Warm-up calls load the rest the same way. */
static int prime_gate(struct multi_gpu *mg)
{
    for (int g = 0; g < mg->count; ++g) {
        CUDA_TRY(cudaSetDevice(mg->lanes[g].device));
        PROPAGATE(launch_gate_wait(&mg->gate, g, 0, mg->lanes[g].d_fault, mg->lanes[g].stream));
    }
    return sync_lanes(mg, mg->count);
}

/* One untimed all-reduce: NCCL connects the GPUs on its first call. */
static int connect_nccl(struct multi_gpu *mg)
{
    void *partials[MAX_GPUS], *results[MAX_GPUS];
    cudaStream_t streams[MAX_GPUS];
    for (int g = 0; g < mg->count; ++g) {
        partials[g] = mg->lanes[g].d_partial;
        results[g] = mg->lanes[g].d_result;
        streams[g] = mg->lanes[g].stream;
    }
    PROPAGATE(nccl_combine_run(mg->nccl, (struct reduce_spec){TYPE_FLOAT, OP_SUM}, partials,
                               results, streams));
    return sync_lanes(mg, mg->count);
}

int multi_gpu_open(struct multi_gpu *mg, int count, char *err, size_t err_len)
{
    memset(mg, 0, sizeof *mg);
    int visible = 0;
    if (!usable_gpu(err, err_len))
        return -1;
    if (cudaGetDeviceCount(&visible) != cudaSuccess || count < 1 || count > visible ||
        count > MAX_GPUS) {
        snprintf(err, err_len, "--gpus %d: %d CUDA device%s visible (--list-devices)", count,
                 visible, visible == 1 ? " is" : "s are");
        return -1;
    }
    for (int g = 0; g < count; ++g) {
        mg->devices[g] = g;
        mg->count = g + 1;
        if (open_lane(&mg->lanes[g], g) != 0) {
            snprintf(err, err_len, "GPU %d: could not set up its stream, flusher and events "
                                   "(see above)", g);
            multi_gpu_close(mg);
            return -1;
        }
    }
    const char *no_start_line = getenv("REDUCE_NO_START_LINE");
    mg->start_line = !(no_start_line && strcmp(no_start_line, "1") == 0);
    if (launch_gate_create(&mg->gate, mg->devices, count) != 0 || prime_gate(mg) != 0) {
        snprintf(err, err_len, "could not set up the GPUs' common start (see above)");
        multi_gpu_close(mg);
        return -1;
    }
    const int p2p = p2p_combine_create(&mg->p2p, mg->devices, count, mg->p2p_why,
                                       sizeof mg->p2p_why);
    mg->p2p_ready = p2p == 0;
    if (p2p > 0) { /* a CUDA call failed, already reported */
        (void)cudaGetLastError();
        snprintf(mg->p2p_why, sizeof mg->p2p_why, "p2p: setting up peer access failed: %s",
                 cudaGetErrorString((cudaError_t)p2p));
    }
    if (nccl_combine_create(&mg->nccl, mg->devices, count, mg->nccl_why, sizeof mg->nccl_why) ==
            0 &&
        connect_nccl(mg) != 0) {
        snprintf(mg->nccl_why, sizeof mg->nccl_why, "nccl: the first all-reduce failed (see above)");
        nccl_combine_destroy(mg->nccl);
        mg->nccl = NULL;
    }
    /* A library that met peer access already enabled may leave that
     * (harmless) error as the thread's last one, where the next launch
     * check (cudaGetLastError) would read it as its own. */
    (void)cudaGetLastError();
    if (cudaSetDevice(mg->devices[0]) != cudaSuccess) {
        snprintf(err, err_len, "GPU %d: cannot be made current", mg->devices[0]);
        multi_gpu_close(mg);
        return -1;
    }
    return 0;
}

void multi_gpu_close(struct multi_gpu *mg)
{
    nccl_combine_destroy(mg->nccl);
    mg->nccl = NULL;
    if (mg->p2p_ready)
        p2p_combine_destroy(&mg->p2p);
    mg->p2p_ready = false;
    launch_gate_destroy(&mg->gate);
    for (int g = 0; g < mg->count; ++g)
        close_lane(&mg->lanes[g]);
    mg->count = 0;
}

/* ---- refusals */

static bool say(char *reason, size_t reason_len, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, reason_len, fmt, args);
    va_end(args);
    return true;
}

bool multi_gpu_refuses(const struct multi_gpu *mg, const struct method *m, enum combine c,
                       const struct sharded_input *in, char *reason, size_t reason_len)
{
    if (method_refuses_shape(m, SHAPE_WHOLE, reason, reason_len))
        return true; /* --gpus shards one whole array */
    if (m->host)
        return say(reason, reason_len, "refused: runs on the host; --gpus times GPU methods");
    if (m->flags & (METHOD_RESULT_VIA_HOST | METHOD_ALLOCATES_INTERNALLY))
        return say(reason, reason_len, "refused: allocates or returns through the host in the "
                                       "call: the GPUs would take turns");
    /* one GPU: one shard; a combine: one shard per GPU, on the harness's GPUs in order */
    bool shards_match = c == COMBINE_NONE ? in->gpus == 1 : in->gpus == mg->count;
    for (int g = 0; g < in->gpus && shards_match; ++g)
        shards_match = in->devices[g] == mg->devices[g];
    if (!shards_match)
        return say(reason, reason_len, "refused: %d shards for the %s combine on %d GPUs",
                   in->gpus, combine_name(c), mg->count);
    for (int g = 0; g < in->gpus; ++g)
        if (method_refuses(m, in->spec, in->shards[g].count, reason, reason_len))
            return true;
    if (c == COMBINE_P2P && !mg->p2p_ready)
        return say(reason, reason_len, "refused: %s", mg->p2p_why);
    if (c == COMBINE_NCCL && !mg->nccl)
        return say(reason, reason_len, "refused: %s", mg->nccl_why);
    return false;
}

/* ---- one sample */

enum sample_kind {
    SAMPLE_WARMUP,       /* untimed: no start line, no flush */
    SAMPLE_TIMED,        /* the method on every GPU, then the combine */
    SAMPLE_COMBINE_ONLY, /* the combine alone, partials in place */
};

/* The final values of one sample, and the fault words. */
struct sample_values {
    double values[MAX_GPUS]; /* GPU 0's, or every GPU's for NCCL */
    int count;
    unsigned faults;
    int fault_gpu;
};

/* Each GPU's results cleared, its start line and L2 flush queued, then an
 * event that every other GPU waits for: nobody starts before every flush is
 * done. */
static int queue_flushes(struct multi_gpu *mg, int count, const struct multi_gpu_setup *setup,
                         enum sample_kind kind, unsigned epoch)
{
    const bool gated = kind != SAMPLE_WARMUP && mg->start_line;
    const bool flush = kind != SAMPLE_WARMUP && setup->flush_l2;
    const bool call_method = kind != SAMPLE_COMBINE_ONLY;
    for (int g = 0; g < count; ++g) {
        struct gpu_lane *l = &mg->lanes[g];
        CUDA_TRY(cudaSetDevice(l->device));
        if (call_method)
            CUDA_TRY(cudaMemsetAsync(l->d_partial, 0xFF, MAX_RESULT_BYTES, l->stream));
        CUDA_TRY(cudaMemsetAsync(l->d_result, 0xFF, MAX_RESULT_BYTES, l->stream));
        CUDA_TRY(cudaMemsetAsync(l->d_fault, 0, sizeof *l->d_fault, l->stream));
        if (gated)
            PROPAGATE(launch_gate_wait(&mg->gate, g, epoch, l->d_fault, l->stream));
        if (flush)
            PROPAGATE(l2_flush(&l->flusher, l->stream));
        CUDA_TRY(cudaEventRecord(l->flushed, l->stream));
    }
    for (int g = 0; g < count; ++g) {
        struct gpu_lane *l = &mg->lanes[g];
        CUDA_TRY(cudaSetDevice(l->device));
        for (int h = 0; h < count; ++h)
            if (h != g)
                CUDA_TRY(cudaStreamWaitEvent(l->stream, mg->lanes[h].flushed, 0));
    }
    return 0;
}

/* NCCL's combine of every GPU's partial: the value on every GPU, so GPU
 * 0's end waits for all. */
static int queue_nccl_combine(struct multi_gpu *mg, int count, struct reduce_spec spec)
{
    void *partials[MAX_GPUS] = {0}, *results[MAX_GPUS] = {0};
    cudaStream_t streams[MAX_GPUS] = {0};
    for (int g = 0; g < count; ++g) {
        partials[g] = mg->lanes[g].d_partial;
        results[g] = mg->lanes[g].d_result;
        streams[g] = mg->lanes[g].stream;
    }
    PROPAGATE(nccl_combine_run(mg->nccl, spec, partials, results, streams));
    for (int g = 1; g < count; ++g) {
        CUDA_TRY(cudaSetDevice(mg->lanes[g].device));
        CUDA_TRY(cudaEventRecord(mg->lanes[g].done, mg->lanes[g].stream));
    }
    CUDA_TRY(cudaSetDevice(mg->lanes[0].device));
    for (int g = 1; g < count; ++g)
        CUDA_TRY(cudaStreamWaitEvent(mg->lanes[0].stream, mg->lanes[g].done, 0));
    return 0;
}

/* Queues one sample on every GPU of the input (multi_gpu.h has the order). */
static int queue_sample(struct multi_gpu *mg, const struct method *m, enum combine c,
                        const struct sharded_input *in, const struct multi_gpu_setup *setup,
                        void *const *workspaces, enum sample_kind kind, unsigned epoch)
{
    const int count = in->gpus;
    const bool call_method = kind != SAMPLE_COMBINE_ONLY;
    struct gpu_lane *const first = &mg->lanes[0];
    PROPAGATE(queue_flushes(mg, count, setup, kind, epoch));
    CUDA_TRY(cudaSetDevice(first->device));
    CUDA_TRY(cudaEventRecord(first->start, first->stream));
    for (int g = 0; g < count; ++g) {
        struct gpu_lane *l = &mg->lanes[g];
        CUDA_TRY(cudaSetDevice(l->device));
        if (call_method)
            PROPAGATE(run_method_once(m, setup->strategy, in->spec, whole_shape(), in->d_in[g],
                                      in->shards[g].count, l->d_partial, workspaces[g],
                                      l->stream));
        if (c == COMBINE_P2P && g > 0)
            PROPAGATE(p2p_publish(&mg->p2p, g, in->spec, l->d_partial, epoch, l->stream));
    }
    if (c == COMBINE_P2P) {
        CUDA_TRY(cudaSetDevice(first->device));
        PROPAGATE(p2p_finish(&mg->p2p, in->spec, first->d_partial, first->d_result, epoch,
                             first->d_fault, first->stream));
    }
    if (c == COMBINE_NCCL)
        PROPAGATE(queue_nccl_combine(mg, count, in->spec));
    CUDA_TRY(cudaSetDevice(first->device));
    CUDA_TRY(cudaEventRecord(first->stop, first->stream));
    return 0;
}

static double value_at(struct reduce_spec spec, const void *d_value, int *err)
{
    unsigned char bytes[MAX_RESULT_BYTES];
    const cudaError_t e = cudaMemcpy(bytes, d_value, sizeof bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        report_cuda_error((int)e, "cudaMemcpy(result)", __FILE__, __LINE__);
        *err = (int)e;
        return 0.0;
    }
    return load_as_double(accumulator_type(spec.type), bytes, 0);
}

/* Reads back the final values and the fault words (outside the timing). */
static int read_sample(const struct multi_gpu *mg, enum combine c, const struct sharded_input *in,
                       struct sample_values *v)
{
    int err = 0;
    memset(v, 0, sizeof *v);
    v->fault_gpu = -1;
    for (int g = 0; g < in->gpus && !err; ++g) {
        const struct gpu_lane *l = &mg->lanes[g];
        CUDA_TRY(cudaSetDevice(l->device));
        unsigned fault = 0;
        CUDA_TRY(cudaMemcpy(&fault, l->d_fault, sizeof fault, cudaMemcpyDeviceToHost));
        if (fault && v->fault_gpu < 0)
            v->fault_gpu = l->device;
        v->faults |= fault;
        if (g == 0 || c == COMBINE_NCCL)
            v->values[v->count++] =
                value_at(in->spec, c == COMBINE_NONE ? l->d_partial : l->d_result, &err);
    }
    return err;
}

/* Queues one sample, lets the GPUs go, waits for all of them, reads the
 * time on GPU 0 and the values. The start line is opened also when queueing
 * failed half way, so no GPU is left waiting at it. */
static int run_sample(struct multi_gpu *mg, const struct method *m, enum combine c,
                      const struct sharded_input *in, const struct multi_gpu_setup *setup,
                      void *const *workspaces, enum sample_kind kind, double *elapsed_us,
                      struct sample_values *v)
{
    const unsigned epoch = ++mg->epoch;
    const int queued = queue_sample(mg, m, c, in, setup, workspaces, kind, epoch);
    if (kind != SAMPLE_WARMUP && mg->start_line)
        launch_gate_open(&mg->gate, epoch);
    const int synced = sync_lanes(mg, in->gpus);
    if (queued || synced)
        return queued ? queued : synced;
    float ms = 0.0f;
    CUDA_TRY(cudaSetDevice(mg->lanes[0].device));
    CUDA_TRY(cudaEventElapsedTime(&ms, mg->lanes[0].start, mg->lanes[0].stop));
    *elapsed_us = 1e3 * (double)ms;
    return read_sample(mg, c, in, v);
}

/* ---- one row */

static void set_note(struct scaling_row *row, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(row->note, sizeof row->note, fmt, args);
    va_end(args);
}

/* The longest chain of additions in a sum split over the shards: the
 * method's own in the largest shard, then the combine's, one addition per
 * further GPU (p2p adds in rank order; NCCL's ring or tree adds no more). */
static size_t combined_chain(const struct method *m, const struct sharded_input *in)
{
    size_t largest = 0;
    for (int g = 0; g < in->gpus; ++g)
        largest = in->shards[g].count > largest ? in->shards[g].count : largest;
    return longest_chain(m->order, largest) + (size_t)(in->gpus > 1 ? in->gpus - 1 : 0);
}

/* Every value of one sample against the reference; the first problem
 * decides the row's status. */
static void check_sample(struct scaling_row *row, const struct method *m,
                         const struct sharded_input *in, const struct sample_values *v,
                         const char *what, int sample)
{
    if (v->faults & FAULT_GATE_TIMEOUT) {
        row->status = STATUS_ERROR;
        set_note(row, "%s %d: GPU %d waited %d s at the start line", what, sample, v->fault_gpu,
                 GATE_TIMEOUT_S);
        return;
    }
    if (v->faults & FAULT_P2P_TIMEOUT) {
        row->status = STATUS_ERROR;
        set_note(row, "%s %d: p2p: GPU %d waited %d s for a partial that never came", what,
                 sample, v->fault_gpu, GATE_TIMEOUT_S);
        return;
    }
    const bool sums_abs = (m->flags & METHOD_SUMS_ABS) != 0;
    const size_t k = combined_chain(m, in);
    for (int i = 0; i < v->count; ++i) {
        row->result = v->values[i];
        if (!result_within_chain(v->values[i], &in->ref, k, sums_abs)) {
            row->status = STATUS_FAIL;
            set_note(row, "%s %d: GPU %d got %.17g, want %.17g (bound %.3g)", what, sample,
                     in->devices[i], v->values[i], reference_target(&in->ref, sums_abs),
                     chain_error_bound(&in->ref, k));
            return;
        }
    }
}

/* After a failed call: a sticky error (an illegal address, ...) survives a
 * synchronize and means no later row can run. */
static int context_error(const struct multi_gpu *mg)
{
    for (int g = 0; g < mg->count; ++g) {
        if (cudaSetDevice(mg->lanes[g].device) != cudaSuccess)
            return (int)cudaErrorInvalidDevice;
        (void)cudaGetLastError();
        const cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess)
            return (int)e;
    }
    return 0;
}

/* Zeroed on the lane's stream, ahead of the first call queued there. A
 * cudaMemset on the legacy default stream is not ordered before anything on
 * the non-blocking lane stream: while other processes kept an H100 busy,
 * cub's first calls read as if part of their partials had been zeroed under
 * them (a few per cent of an int64 sum, 0 for an int32 min). */
static int allocate_workspaces(const struct multi_gpu *mg, const struct method *m,
                               const struct sharded_input *in, void **workspaces)
{
    for (int g = 0; g < in->gpus; ++g) {
        size_t bytes = 0;
        CUDA_TRY(cudaSetDevice(in->devices[g]));
        PROPAGATE(method_workspace_bytes(m, in->spec, whole_shape(), in->shards[g].count, &bytes));
        if (bytes == 0)
            continue;
        CUDA_TRY(cudaMalloc(&workspaces[g], bytes));
        CUDA_TRY(cudaMemsetAsync(workspaces[g], 0, bytes, mg->lanes[g].stream));
    }
    return 0;
}

static void free_workspaces(const struct sharded_input *in, void **workspaces)
{
    for (int g = 0; g < in->gpus; ++g)
        if (workspaces[g] && cudaSetDevice(in->devices[g]) == cudaSuccess)
            cudaFree(workspaces[g]);
}

int measure_scaling_row(struct multi_gpu *mg, const struct method *m, enum combine c,
                        const struct sharded_input *in, const struct multi_gpu_setup *setup,
                        struct scaling_row *row)
{
    memset(row, 0, sizeof *row);
    snprintf(row->method, sizeof row->method, "%s", m->name);
    row->combine = c;
    row->gpus = in->gpus;
    row->n = in->n;
    row->bytes = (double)in->n * (double)element_size(in->spec.type);
    row->status = STATUS_PASS;
    if (multi_gpu_refuses(mg, m, c, in, row->note, sizeof row->note)) {
        row->status = STATUS_REFUSED;
        return 0;
    }
    void *workspaces[MAX_GPUS] = {NULL};
    double *times = malloc((size_t)setup->samples * sizeof *times);
    double *combine_times = malloc((size_t)setup->samples * sizeof *combine_times);
    int err = times && combine_times ? allocate_workspaces(mg, m, in, workspaces)
                                     : (int)cudaErrorMemoryAllocation;
    int timed = 0, combined = 0;
    struct sample_values v;
    for (int call = 0; !err && row->status == STATUS_PASS && call < setup->warmup + setup->samples;
         ++call) {
        const bool is_sample = call >= setup->warmup;
        double us = 0.0;
        err = run_sample(mg, m, c, in, setup, workspaces, is_sample ? SAMPLE_TIMED : SAMPLE_WARMUP,
                         &us, &v);
        if (!err)
            check_sample(row, m, in, &v, "call", call);
        if (!err && row->status == STATUS_PASS && is_sample)
            times[timed++] = us;
    }
    /* The combine alone, with the last sample's partials in place. */
    for (int k = 0; c != COMBINE_NONE && !err && row->status == STATUS_PASS && k < setup->samples;
         ++k) {
        double us = 0.0;
        err = run_sample(mg, m, c, in, setup, workspaces, SAMPLE_COMBINE_ONLY, &us, &v);
        if (!err)
            check_sample(row, m, in, &v, "combine alone, call", k);
        if (!err && row->status == STATUS_PASS)
            combine_times[combined++] = us;
    }
    if (err) {
        row->status = STATUS_ERROR;
        set_note(row, "%s", cudaGetErrorString((cudaError_t)err));
    }
    /* a wrong or broken row's speed means nothing */
    if (row->status == STATUS_PASS) {
        row->time_us = summarize_samples(times, (size_t)timed);
        row->combine_us = summarize_samples(combine_times, (size_t)combined);
    }
    free(times);
    free(combine_times);
    free_workspaces(in, workspaces);
    cudaSetDevice(mg->devices[0]);
    return err ? context_error(mg) : 0;
}
