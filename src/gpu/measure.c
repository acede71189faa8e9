#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "measure.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_check.h"
#include "grid_override.h"
#include "registry.h"

int method_workspace_bytes(const struct method *m, struct reduce_spec spec, size_t n,
                           size_t *bytes)
{
    *bytes = 0;
    if (m->pass)
        *bytes = pass_driver_workspace_bytes(m->pass, spec, n);
    else if (m->workspace)
        PROPAGATE(m->workspace(spec, n, bytes));
    return 0;
}

int run_method_once(const struct method *m, enum pass_strategy strategy, struct reduce_spec spec,
                    const void *d_in, size_t n, void *d_out, void *workspace, cudaStream_t stream)
{
    if (m->pass)
        return reduce_by_passes(m->pass, strategy, spec, d_in, n, d_out, workspace, stream);
    return m->launch(spec, d_in, n, d_out, workspace, stream);
}

bool method_refuses(const struct method *m, struct reduce_spec spec, size_t n, char *reason,
                    size_t reason_len)
{
    if (!method_supports(m, spec)) {
        snprintf(reason, reason_len, "refused: %s %s: %s", element_type_name(spec.type),
                 reduce_op_name(spec.op), m->unsupported_why ? m->unsupported_why : "unsupported");
        return true;
    }
    if ((m->flags & METHOD_SERIAL_CHAIN) && n > chain_limit(spec)) {
        snprintf(reason, reason_len,
                 "refused: one running %s sum stops growing past %zu elements",
                 element_type_name(accumulator_type(spec.type)), chain_limit(spec));
        return true;
    }
    return false;
}

bool method_refuses_shape(const struct method *m, enum shape_kind kind, char *reason,
                          size_t reason_len)
{
    if (method_takes_shape(m, kind))
        return false;
    const unsigned shapes = m->shapes;
    if (!method_takes_shape(m, SHAPE_ROWS) && !method_takes_shape(m, SHAPE_SEGMENTS)) {
        snprintf(reason, reason_len, "refused: whole array only");
        return true;
    }
    size_t used = (size_t)snprintf(reason, reason_len, "refused: takes");
    for (int k = 0; k < SHAPE_KIND_COUNT; ++k)
        if ((shapes & SHAPE_BIT(k)) && used < reason_len)
            used += (size_t)snprintf(reason + used, reason_len - used, " %s",
                                     shape_kind_name((enum shape_kind)k));
    return true;
}

/* The method's result as a double (exact for every accumulator the suite's
 * data produces, data_gen.h). */
static double result_value(struct reduce_spec spec, const unsigned char *bytes)
{
    return load_as_double(accumulator_type(spec.type), bytes, 0);
}

static void set_note(struct method_result *r, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(r->note, sizeof r->note, fmt, args);
    va_end(args);
}

static void note_flags(struct method_result *r, unsigned flags)
{
    static const struct { unsigned flag; const char *text; } FLAG_TEXT[] = {
        {METHOD_SUMS_ABS, "sums |x|"},
        {METHOD_ALLOCATES_INTERNALLY, "allocates"},
        {METHOD_RESULT_VIA_HOST, "via host"},
        {METHOD_ORDER_VARIES, "atomics"},
    };
    size_t used = strlen(r->note);
    for (size_t i = 0; i < sizeof FLAG_TEXT / sizeof FLAG_TEXT[0]; ++i)
        if ((flags & FLAG_TEXT[i].flag) && used < sizeof r->note)
            used += (size_t)snprintf(r->note + used, sizeof r->note - used, "%s%s",
                                     used ? "; " : "", FLAG_TEXT[i].text);
}

/* Checks one result and tracks whether the results so far are bit-identical. */
static void check_result(struct method_result *r, const struct method *m,
                         const struct reference *ref, double result, int sample,
                         double *first_result)
{
    const bool sums_abs = (m->flags & METHOD_SUMS_ABS) != 0;
    const struct accuracy accuracy = result_accuracy(result, ref, sums_abs);
    r->result = result;
    r->error_ulps = accuracy.ulps;
    r->rel_error = accuracy.relative;
    if (r->status == STATUS_PASS && !result_passes(result, ref, m->order, sums_abs)) {
        r->status = STATUS_FAIL;
        set_note(r, "call %d: got %.17g, want %.17g (%s bound %.3g)", sample, result,
                 reference_target(ref, sums_abs), summation_kind_name(m->order.kind),
                 error_bound(ref, m->order));
    }
    if (sample == 0) {
        *first_result = result;
        return;
    }
    const bool same = memcmp(first_result, &result, sizeof result) == 0;
    if (!same)
        r->determinism = DETERMINISM_VARIES;
    else if (r->determinism == DETERMINISM_UNKNOWN)
        r->determinism = DETERMINISM_BITWISE;
}

double counted_bytes(struct reduce_spec spec, const struct reduce_shape *shape, size_t n)
{
    const double input = (double)n * (double)element_size(spec.type);
    if (shape->kind == SHAPE_WHOLE)
        return input;
    const double results = (double)shape->count * (double)element_size(accumulator_type(spec.type));
    const double offsets = shape->kind == SHAPE_SEGMENTS
                               ? (double)(shape->count + 1) * (double)sizeof(segment_offset)
                               : 0.0;
    return input + results + offsets;
}

static double input_bytes(const struct measure_input *in)
{
    return counted_bytes(in->spec, &in->shape, in->n);
}

static void finish_timing(struct method_result *r, const double *times, int count, double bytes,
                          double peak_gbs)
{
    r->time_us = summarize_samples(times, (size_t)count);
    r->gbps = bandwidth_gbs(bytes, r->time_us.median);
    r->pct_peak = peak_gbs > 0.0 ? 100.0 * r->gbps / peak_gbs : 0.0;
    r->noisy = stats_too_noisy(&r->time_us);
}

/* After a failed call: a sticky error (illegal address, ...) survives a
 * device synchronize and means no later method can run. */
static int context_error(void)
{
    (void)cudaGetLastError();
    const cudaError_t err = cudaDeviceSynchronize();
    return err == cudaSuccess ? 0 : (int)err;
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static void measure_cpu(const struct method *m, const struct measure_input *in,
                        const struct measure_setup *setup, struct method_result *r)
{
    const int samples = setup->samples < CPU_MAX_SAMPLES ? setup->samples : CPU_MAX_SAMPLES;
    double *times = malloc((size_t)samples * sizeof *times);
    if (!times) {
        r->status = STATUS_ERROR;
        set_note(r, "out of host memory");
        return;
    }
    double first = 0.0;
    unsigned char result[MAX_RESULT_BYTES];
    m->host(in->spec, in->h_in, in->n, result); /* warm-up */
    check_result(r, m, in->ref, result_value(in->spec, result), 0, &first);
    for (int i = 0; i < samples && r->status == STATUS_PASS; ++i) {
        const double start = now_us();
        m->host(in->spec, in->h_in, in->n, result);
        times[i] = now_us() - start;
        check_result(r, m, in->ref, result_value(in->spec, result), i + 1, &first);
    }
    finish_timing(r, times, r->status == STATUS_PASS ? samples : 0, input_bytes(in),
                  setup->peak_gbs);
    free(times);
}

struct gpu_resources {
    void *workspace;
    void *d_out; /* acquire's out_bytes */
    cudaEvent_t start, stop;
    double *times;
};

/* out_bytes: the result slot, MAX_RESULT_BYTES for the whole array (any
 * accumulator), count accumulators for rows and segments. */
static int acquire(struct gpu_resources *g, size_t workspace_bytes, int samples, size_t out_bytes)
{
    CUDA_TRY(cudaEventCreate(&g->start));
    CUDA_TRY(cudaEventCreate(&g->stop));
    CUDA_TRY(cudaMalloc(&g->d_out, out_bytes > 0 ? out_bytes : 1));
    if (workspace_bytes > 0) {
        CUDA_TRY(cudaMalloc(&g->workspace, workspace_bytes));
        CUDA_TRY(cudaMemset(g->workspace, 0, workspace_bytes));
        /* That memset runs on the legacy default stream, which does not order
         * the non-blocking stream the methods run on: wait for it. */
        CUDA_TRY(cudaDeviceSynchronize());
    }
    g->times = malloc((size_t)samples * sizeof *g->times);
    return g->times ? 0 : (int)cudaErrorMemoryAllocation;
}

static void release(struct gpu_resources *g)
{
    free(g->times);
    cudaFree(g->workspace);
    cudaFree(g->d_out);
    if (g->start)
        cudaEventDestroy(g->start);
    if (g->stop)
        cudaEventDestroy(g->stop);
}

/* The stopping rule, checked every few samples past the minimum: the
 * median is known well enough, or the method's time is up. */
static bool should_stop(const struct measure_setup *setup, const double *times, int timed,
                        double started_us)
{
    if (timed < setup->min_samples || timed % 5 != 0)
        return false;
    if (now_us() - started_us > 1e6 * setup->timeout_s)
        return true;
    const struct sample_stats s = summarize_samples(times, (size_t)timed);
    return median_noise_pct(&s) < setup->max_noise_pct;
}

/* `calls` calls of the method back to back between two events (1 for a cold
 * sample; --batch's K); elapsed_ms is per call. The result slot is poisoned
 * first (NaN for floating point: a method that does not write fails), and the
 * last call's result is read back after the stop event, outside the timing. */
static int timed_calls(const struct method *m, const struct measure_input *in,
                       const struct measure_setup *setup, const struct l2_flusher *flusher,
                       bool flush, int calls, cudaStream_t stream, struct gpu_resources *g,
                       float *elapsed_ms, double *result)
{
    CUDA_TRY(cudaMemsetAsync(g->d_out, 0xFF, MAX_RESULT_BYTES, stream));
    if (flush)
        PROPAGATE(l2_flush(flusher, stream));
    CUDA_TRY(cudaEventRecord(g->start, stream));
    for (int k = 0; k < calls; ++k)
        PROPAGATE(run_method_once(m, setup->strategy, in->spec, in->d_in, in->n, g->d_out,
                                  g->workspace, stream));
    CUDA_TRY(cudaEventRecord(g->stop, stream));
    CUDA_TRY(cudaEventSynchronize(g->stop));
    CUDA_TRY(cudaEventElapsedTime(elapsed_ms, g->start, g->stop));
    *elapsed_ms /= (float)calls;
    unsigned char bytes[MAX_RESULT_BYTES];
    CUDA_TRY(cudaMemcpy(bytes, g->d_out, sizeof bytes, cudaMemcpyDeviceToHost));
    *result = result_value(in->spec, bytes);
    return 0;
}

/* --batch: BATCH_SAMPLES times, K calls back to back with no flush; each
 * sample's last result is checked. */
static int measure_batch(const struct method *m, const struct measure_input *in,
                         const struct measure_setup *setup, cudaStream_t stream,
                         struct gpu_resources *g, struct method_result *r)
{
    double times[BATCH_SAMPLES];
    for (int b = 0; b < BATCH_SAMPLES; ++b) {
        float per_call_ms = 0.0f;
        double result = 0.0, first = r->result;
        PROPAGATE(timed_calls(m, in, setup, NULL, false, setup->batch, stream, g, &per_call_ms,
                              &result));
        check_result(r, m, in->ref, result, 1, &first);
        if (r->status != STATUS_PASS)
            return 0;
        times[b] = 1e3 * (double)per_call_ms;
    }
    r->batch_us = summarize_samples(times, BATCH_SAMPLES);
    return 0;
}

/* One NVML reading folded into the row (nothing without a monitor). */
static void record_clocks(struct clock_monitor *clocks, struct method_result *r)
{
    struct clock_reading reading;
    if (clocks && read_clocks(clocks, &reading)) {
        add_clock_reading(&r->clocks, &reading);
        r->throttled = reasons_throttle(r->clocks.event_reasons);
    }
}

/* One timed sample kept (its time, the clocks after it); true when the
 * stopping rule says the samples so far are enough. The same for the whole
 * array and for rows and segments. */
static bool keep_sample(struct method_result *r, const struct measure_setup *setup,
                        struct gpu_resources *g, int *timed, float elapsed_ms, double started_us)
{
    g->times[(*timed)++] = 1e3 * (double)elapsed_ms;
    record_clocks(setup->clocks, r);
    return setup->max_noise_pct > 0.0 && should_stop(setup, g->times, *timed, started_us);
}

/* After the sample loop: an error breaks the row, the times become its stats. */
static void end_samples(struct method_result *r, int err, const struct gpu_resources *g,
                        int timed, const struct measure_input *in,
                        const struct measure_setup *setup)
{
    if (err) {
        r->status = STATUS_ERROR;
        set_note(r, "%s", cudaGetErrorString((cudaError_t)err));
    }
    finish_timing(r, g->times, timed, input_bytes(in), setup->peak_gbs);
}

/* One untimed call into g's buffers, the result slot poisoned first (NaN
 * for floating point), the result read back. */
static int call_once(const struct method *m, const struct measure_input *in,
                     enum pass_strategy strategy, cudaStream_t stream, struct gpu_resources *g,
                     double *result)
{
    CUDA_TRY(cudaMemsetAsync(g->d_out, 0xFF, MAX_RESULT_BYTES, stream));
    PROPAGATE(run_method_once(m, strategy, in->spec, in->d_in, in->n, g->d_out, g->workspace,
                              stream));
    unsigned char bytes[MAX_RESULT_BYTES];
    CUDA_TRY(cudaMemcpyAsync(bytes, g->d_out, sizeof bytes, cudaMemcpyDeviceToHost, stream));
    CUDA_TRY(cudaStreamSynchronize(stream));
    *result = result_value(in->spec, bytes);
    return 0;
}

/* The method once on each forced grid, with a workspace queried (and
 * allocated, zeroed) under that grid, its bits against `natural`, its own
 * grid's result. A launcher that never took the forced grid is unforced. */
static int check_grid_independence(const struct method *m, const struct measure_input *in,
                                   const struct measure_setup *setup, cudaStream_t stream,
                                   double natural, struct method_result *r)
{
    int grids[FORCED_GRID_COUNT];
    forced_grids(setup->sm_count, grids);
    const unsigned long uses_before = forced_grid_uses();
    bool same = true;
    int err = 0;
    for (int i = 0; !err && i < FORCED_GRID_COUNT; ++i) {
        set_grid_override(grids[i]);
        struct gpu_resources g = {0};
        size_t workspace_bytes = 0;
        double result = 0.0;
        err = method_workspace_bytes(m, in->spec, in->n, &workspace_bytes);
        if (!err)
            err = acquire(&g, workspace_bytes, 1, MAX_RESULT_BYTES);
        if (!err)
            err = call_once(m, in, setup->strategy, stream, &g, &result);
        same = same && memcmp(&result, &natural, sizeof result) == 0;
        release(&g);
    }
    set_grid_override(0);
    r->grid = forced_grid_uses() == uses_before ? GRID_UNFORCED : same ? GRID_SAME : GRID_DIFFERS;
    return err;
}

static int measure_gpu(const struct method *m, const struct measure_input *in,
                       const struct measure_setup *setup, const struct l2_flusher *flusher,
                       cudaStream_t stream, struct method_result *r)
{
    struct gpu_resources g = {0};
    size_t workspace_bytes = 0;
    const bool stopping_rule = setup->max_noise_pct > 0.0;
    const int most = stopping_rule ? setup->max_samples : setup->samples;
    int err = method_workspace_bytes(m, in->spec, in->n, &workspace_bytes);
    if (!err)
        err = acquire(&g, workspace_bytes, most, MAX_RESULT_BYTES);
    double first = 0.0, started_us = 0.0;
    int timed = 0;
    for (int call = 0; !err && timed < most; ++call) {
        const bool is_sample = call >= setup->warmup;
        float elapsed_ms = 0.0f;
        double result = 0.0;
        if (call == setup->warmup)
            started_us = now_us();
        err = timed_calls(m, in, setup, flusher, is_sample && setup->flush_l2, 1, stream, &g,
                          &elapsed_ms, &result);
        if (err)
            break;
        check_result(r, m, in->ref, result, call, &first);
        if (r->status != STATUS_PASS)
            break; /* a wrong method's speed means nothing */
        if (is_sample && keep_sample(r, setup, &g, &timed, elapsed_ms, started_us))
            break;
    }
    end_samples(r, err, &g, timed, in, setup);
    if (!err && setup->batch > 0 && r->status == STATUS_PASS) {
        err = measure_batch(m, in, setup, stream, &g, r);
        if (err) {
            r->status = STATUS_ERROR;
            set_note(r, "batch: %s", cudaGetErrorString((cudaError_t)err));
        }
    }
    if (!err && setup->check_grids && r->status == STATUS_PASS) {
        err = check_grid_independence(m, in, setup, stream, r->result, r);
        if (err) {
            r->status = STATUS_ERROR;
            set_note(r, "forced grid: %s", cudaGetErrorString((cudaError_t)err));
        }
    }
    if (stopping_rule && r->status == STATUS_PASS && timed > 0 &&
        median_noise_pct(&r->time_us) >= setup->max_noise_pct)
        set_note(r, "median noise %.2f%% after %d samples, over %.2f%%",
                 median_noise_pct(&r->time_us), timed, setup->max_noise_pct);
    release(&g);
    return err ? context_error() : 0;
}

/* ---- rows and segments */

static size_t shaped_result_bytes(const struct measure_input *in)
{
    return in->shape.count * element_size(accumulator_type(in->spec.type));
}

/* Checks every row of one sample's results (host memory) and tracks whether
 * the samples so far are bit-identical, as check_result does for one value.
 * A sample bit-identical to the first, whose every row was checked, is right
 * by that check: its rows are compared bytewise, not checked again (at width 1
 * a check of 2^24 rows costs more than 100 kernels' time; a sweep of 100
 * samples spent minutes there). */
static void check_shaped_sample(struct method_result *r, const struct method *m,
                                const struct measure_input *in, const unsigned char *results,
                                int sample, unsigned char *first)
{
    const bool sums_abs = (m->flags & METHOD_SUMS_ABS) != 0;
    const size_t bytes = shaped_result_bytes(in);
    struct result_mismatch bad;
    struct accuracy worst = {0.0, 0.0};
    if (sample > 0 && memcmp(first, results, bytes) == 0) {
        if (r->determinism == DETERMINISM_UNKNOWN)
            r->determinism = DETERMINISM_BITWISE;
        return;
    }
    /* The accuracy columns from the first sample (every row's ulps cost more
     * than the check itself); every sample's rows are still checked. */
    if (!check_shaped_results(in->shape_ref, results, m->order, sums_abs, &bad,
                              sample == 0 ? &worst : NULL)) {
        if (r->status == STATUS_PASS) {
            r->status = STATUS_FAIL;
            set_note(r, "call %d: %s %zu of %zu (%zu elements): got %.17g, want %.17g (%s "
                        "bound %.3g)",
                     sample, in->shape.kind == SHAPE_ROWS ? "row" : "segment", bad.index,
                     in->shape.count, bad.length, bad.got, bad.want,
                     summation_kind_name(m->order.kind), bad.bound);
        }
        r->result = bad.got;
        return;
    }
    r->result = in->shape.count ? load_as_double(accumulator_type(in->spec.type), results, 0)
                                : 0.0;
    if (sample == 0) {
        r->error_ulps = worst.ulps;
        r->rel_error = worst.relative;
        memcpy(first, results, bytes);
        return;
    }
    r->determinism = DETERMINISM_VARIES; /* right, but not the first sample's bits */
}

/* Two host buffers of the sample's results: this call's and the first's.
 * This call's is pinned when the GPU's results are copied into it: 64 MiB of
 * results (width 1) come back about twice as fast as into pageable memory. */
struct shaped_buffers {
    unsigned char *results, *first;
    bool pinned;
};

static bool allocate_shaped_buffers(struct shaped_buffers *b, size_t bytes, bool pinned)
{
    b->pinned = pinned;
    if (!pinned)
        b->results = malloc(bytes ? bytes : 1);
    else if (cudaMallocHost((void **)&b->results, bytes ? bytes : 1) != cudaSuccess)
        b->results = NULL;
    b->first = malloc(bytes ? bytes : 1);
    return b->results && b->first;
}

static void free_shaped_buffers(struct shaped_buffers *b)
{
    if (b->pinned)
        cudaFreeHost(b->results); /* a failed free of a host buffer leaves nothing to do */
    else
        free(b->results);
    free(b->first);
}

static void measure_shaped_cpu(const struct method *m, const struct measure_input *in,
                               const struct measure_setup *setup, struct method_result *r)
{
    const int samples = setup->samples < CPU_MAX_SAMPLES ? setup->samples : CPU_MAX_SAMPLES;
    double *times = malloc((size_t)samples * sizeof *times);
    struct shaped_buffers b;
    if (!times || !allocate_shaped_buffers(&b, shaped_result_bytes(in), false)) {
        r->status = STATUS_ERROR;
        set_note(r, "out of host memory");
        free(times);
        return;
    }
    memset(b.results, 0xFF, shaped_result_bytes(in));
    m->host_shaped(in->spec, in->shape, in->h_in, in->n, b.results); /* warm-up */
    check_shaped_sample(r, m, in, b.results, 0, b.first);
    for (int i = 0; i < samples && r->status == STATUS_PASS; ++i) {
        memset(b.results, (i & 1) ? 0xA5 : 0xFF, shaped_result_bytes(in));
        const double start = now_us();
        m->host_shaped(in->spec, in->shape, in->h_in, in->n, b.results);
        times[i] = now_us() - start;
        check_shaped_sample(r, m, in, b.results, i + 1, b.first);
    }
    finish_timing(r, times, r->status == STATUS_PASS ? samples : 0, input_bytes(in),
                  setup->peak_gbs);
    free_shaped_buffers(&b);
    free(times);
}

/* One call of a shaped method, timed by events when `flush` (a sample) or
 * not (a warm-up), its results poisoned first and read back after. */
static int timed_shaped_call(const struct method *m, const struct measure_input *in,
                             const struct l2_flusher *flusher, bool flush, int call,
                             cudaStream_t stream, struct gpu_resources *g, float *elapsed_ms,
                             unsigned char *results)
{
    const size_t bytes = shaped_result_bytes(in);
    struct reduce_shape device_shape = in->shape;
    device_shape.offsets = in->d_offsets;
    CUDA_TRY(cudaMemsetAsync(g->d_out, (call & 1) ? 0xA5 : 0xFF, bytes, stream));
    if (flush)
        PROPAGATE(l2_flush(flusher, stream));
    CUDA_TRY(cudaEventRecord(g->start, stream));
    PROPAGATE(m->launch_shaped(in->spec, device_shape, in->d_in, in->n, g->d_out, g->workspace,
                               stream));
    CUDA_TRY(cudaEventRecord(g->stop, stream));
    CUDA_TRY(cudaEventSynchronize(g->stop));
    CUDA_TRY(cudaEventElapsedTime(elapsed_ms, g->start, g->stop));
    if (bytes > 0)
        CUDA_TRY(cudaMemcpy(results, g->d_out, bytes, cudaMemcpyDeviceToHost));
    return 0;
}

static int measure_shaped_gpu(const struct method *m, const struct measure_input *in,
                              const struct measure_setup *setup, const struct l2_flusher *flusher,
                              cudaStream_t stream, struct method_result *r)
{
    struct gpu_resources g = {0};
    struct shaped_buffers b = {0};
    size_t workspace_bytes = 0;
    const bool stopping_rule = setup->max_noise_pct > 0.0;
    const int most = stopping_rule ? setup->max_samples : setup->samples;
    struct reduce_shape device_shape = in->shape;
    device_shape.offsets = in->d_offsets;
    int err = m->workspace_shaped
                  ? m->workspace_shaped(in->spec, device_shape, in->n, &workspace_bytes)
                  : 0;
    if (!err)
        err = acquire(&g, workspace_bytes, most, shaped_result_bytes(in));
    if (!err && !allocate_shaped_buffers(&b, shaped_result_bytes(in), true))
        err = (int)cudaErrorMemoryAllocation;
    double started_us = 0.0;
    int timed = 0;
    for (int call = 0; !err && timed < most; ++call) {
        const bool is_sample = call >= setup->warmup;
        float elapsed_ms = 0.0f;
        if (call == setup->warmup)
            started_us = now_us();
        err = timed_shaped_call(m, in, flusher, is_sample && setup->flush_l2, call, stream, &g,
                                &elapsed_ms, b.results);
        if (err)
            break;
        check_shaped_sample(r, m, in, b.results, call, b.first);
        if (r->status != STATUS_PASS)
            break; /* a wrong method's speed means nothing */
        if (is_sample && keep_sample(r, setup, &g, &timed, elapsed_ms, started_us))
            break;
    }
    end_samples(r, err, &g, timed, in, setup);
    free_shaped_buffers(&b);
    release(&g);
    return err ? context_error() : 0;
}

int measure_method(const struct method *m, const struct measure_input *in,
                   const struct measure_setup *setup, const struct l2_flusher *flusher,
                   cudaStream_t stream, struct method_result *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", m->name);
    snprintf(r->family, sizeof r->family, "%s", family_name(m->family));
    r->n = in->n;
    r->status = STATUS_PASS;
    r->determinism = DETERMINISM_UNKNOWN;
    const bool shaped = in->shape.kind != SHAPE_WHOLE;
    if (method_refuses_shape(m, in->shape.kind, r->note, sizeof r->note) ||
        method_refuses(m, in->spec, shaped ? in->longest : in->n, r->note, sizeof r->note)) {
        r->status = STATUS_REFUSED;
        return 0;
    }
    int err = 0;
    if (shaped && m->host_shaped)
        measure_shaped_cpu(m, in, setup, r);
    else if (shaped)
        err = measure_shaped_gpu(m, in, setup, flusher, stream, r);
    else if (m->host)
        measure_cpu(m, in, setup, r);
    else
        err = measure_gpu(m, in, setup, flusher, stream, r);
    r->host_timed = (m->flags & (METHOD_ALLOCATES_INTERNALLY | METHOD_RESULT_VIA_HOST)) != 0;
    if (r->status == STATUS_PASS)
        note_flags(r, m->flags);
    return err;
}

/* One event-timed call of a timing kernel: the sweep itself, or an empty
 * kernel after a sweep (so it starts from the same state as a method). */
static int time_timing_kernel(const struct l2_flusher *flusher, cudaStream_t stream, bool sweep,
                              struct gpu_resources *g, double *us)
{
    if (!sweep)
        PROPAGATE(l2_flush(flusher, stream));
    CUDA_TRY(cudaEventRecord(g->start, stream));
    PROPAGATE(sweep ? l2_flush(flusher, stream) : launch_empty_kernel(stream));
    CUDA_TRY(cudaEventRecord(g->stop, stream));
    CUDA_TRY(cudaEventSynchronize(g->stop));
    float ms = 0.0f;
    CUDA_TRY(cudaEventElapsedTime(&ms, g->start, g->stop));
    *us = 1e3 * (double)ms;
    return 0;
}

static int median_timing_kernel_us(const struct l2_flusher *flusher, cudaStream_t stream,
                                   int samples, bool sweep, double *median_us)
{
    struct gpu_resources g = {0};
    int err = acquire(&g, 0, samples, MAX_RESULT_BYTES);
    for (int i = 0; !err && i < samples; ++i)
        err = time_timing_kernel(flusher, stream, sweep, &g, &g.times[i]);
    if (!err)
        *median_us = summarize_samples(g.times, (size_t)samples).median;
    release(&g);
    return err;
}

int measure_ceiling_and_floor(const struct l2_flusher *flusher, cudaStream_t stream, int samples,
                              double *read_ceiling_gbs, double *launch_floor_us)
{
    double sweep_us = 0.0;
    PROPAGATE(median_timing_kernel_us(flusher, stream, samples, true, &sweep_us));
    PROPAGATE(median_timing_kernel_us(flusher, stream, samples, false, launch_floor_us));
    *read_ceiling_gbs = bandwidth_gbs((double)flusher->count * sizeof(float), sweep_us);
    return 0;
}
