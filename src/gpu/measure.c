#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "measure.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_check.h"
#include "grid_override.h"
#include "launch_phase.h"
#include "registry.h"
#include "results_match.h"

static void set_note(struct method_result *r, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(r->note, sizeof r->note, fmt, args);
    va_end(args);
}

/* Adds "; text" to the note (or "text" to an empty one), as far as it fits. */
static void add_to_note(struct method_result *r, const char *text)
{
    const size_t used = strlen(r->note);
    if (used < sizeof r->note)
        snprintf(r->note + used, sizeof r->note - used, "%s%s", used ? "; " : "", text);
}

/* What a passing row's reader should know: the flags that change what its
 * time or result means, and the step a method that chooses one ran. */
static void note_flags_and_step(struct method_result *r, const struct method *m,
                                const struct measure_input *in)
{
    static const struct { unsigned flag; const char *text; } FLAG_TEXT[] = {
        {METHOD_SUMS_ABS, "sums |x|"},
        {METHOD_ALLOCATES_INTERNALLY, "allocates"},
        {METHOD_RESULT_VIA_HOST, "via host"},
        {METHOD_ORDER_VARIES, "atomics"},
    };
    for (size_t i = 0; i < sizeof FLAG_TEXT / sizeof FLAG_TEXT[0]; ++i)
        if (m->flags & FLAG_TEXT[i].flag)
            add_to_note(r, FLAG_TEXT[i].text);
    if (m->chosen_step) {
        char ran[64];
        snprintf(ran, sizeof ran, "ran %s", m->chosen_step(in->spec, in->shape, in->n)->name);
        add_to_note(r, ran);
    }
}

/* Bytes of results: one result_size per result (1 for the whole array). */
static size_t result_bytes(const struct measure_input *in)
{
    return in->shape.count * result_size(in->spec);
}

/* The shape as a method gets it: segment offsets in device memory. */
static struct reduce_shape device_shape(const struct measure_input *in)
{
    struct reduce_shape shape = in->shape;
    shape.offsets = in->d_offsets;
    return shape;
}

/* Checks every result of one call against the references: the whole array's
 * (exactly rounded, reference.h) or each row's (shape_reference.h). False
 * with the first wrong result in *bad; worst (may be NULL): the accuracy
 * columns. */
static bool results_pass(const struct method *m, const struct measure_input *in,
                         const unsigned char *results, struct result_mismatch *bad,
                         struct accuracy *worst)
{
    const bool sums_abs = (m->flags & METHOD_SUMS_ABS) != 0;
    if (in->shape.kind != SHAPE_WHOLE)
        return check_shaped_results(in->shape_ref, results, m->order, sums_abs, bad, worst);
    const double got = load_result_value(in->spec, results, 0);
    const long long at = load_result_index(in->spec, results, 0);
    if (worst)
        *worst = result_accuracy(got, in->ref, sums_abs);
    const struct extreme want = reference_extreme(in->ref, sums_abs);
    *bad = (struct result_mismatch){.got = got,
                                    .want = reference_target(in->ref, sums_abs),
                                    .bound = error_bound(in->ref, m->order),
                                    .length = in->n,
                                    .got_index = at,
                                    .want_index = want.index};
    if (is_arg_op(in->spec.op))
        return arg_result_passes(got, at, want);
    return result_passes(got, in->ref, m->order, sums_abs);
}

static void note_mismatch(struct method_result *r, const struct method *m,
                          const struct measure_input *in, const struct result_mismatch *bad,
                          int sample)
{
    char where[96] = "";
    if (in->shape.kind != SHAPE_WHOLE)
        snprintf(where, sizeof where, " %s %zu of %zu (%zu elements):",
                 shape_result_noun(in->shape.kind), bad->index, in->shape.count, bad->length);
    if (is_arg_op(in->spec.op))
        set_note(r, "call %d:%s got %.17g at %lld, want %.17g at %lld", sample, where, bad->got,
                 bad->got_index, bad->want, bad->want_index);
    else
        set_note(r, "call %d:%s got %.17g, want %.17g (%s bound %.3g)", sample, where, bad->got,
                 bad->want, summation_kind_name(m->order.kind), bad->bound);
}

/* A call whose results are the first call's bits: right by the first's
 * check, and the method so far bit-identical from call to call. */
static void note_same_bits(struct method_result *r)
{
    if (r->determinism == DETERMINISM_UNKNOWN)
        r->determinism = DETERMINISM_BITWISE;
}

/* Checks one call's results (host memory) and tracks whether the calls so
 * far are bit-identical. A call bit-identical to the first, whose every
 * result was checked, is right by that check: it is compared bytewise, not
 * checked again (at width 1 a check of 2^24 rows costs more than 100
 * kernels' time). The accuracy columns come from the first call (every
 * row's ulps cost more than the check itself). */
static void check_call(struct method_result *r, const struct method *m,
                       const struct measure_input *in, const unsigned char *results, int sample,
                       unsigned char *first)
{
    const size_t bytes = result_bytes(in);
    struct result_mismatch bad;
    struct accuracy worst = {0.0, 0.0};
    if (sample > 0 && memcmp(first, results, bytes) == 0) {
        note_same_bits(r);
        return;
    }
    if (!results_pass(m, in, results, &bad, sample == 0 ? &worst : NULL)) {
        if (r->status == STATUS_PASS) {
            r->status = STATUS_FAIL;
            note_mismatch(r, m, in, &bad, sample);
        }
        r->result = bad.got;
        r->result_index = bad.got_index;
        return;
    }
    r->result = in->shape.count ? load_result_value(in->spec, results, 0) : 0.0;
    r->result_index = in->shape.count ? load_result_index(in->spec, results, 0) : NO_INDEX;
    if (sample == 0) {
        r->error_ulps = worst.ulps;
        r->rel_error = worst.relative;
        memcpy(first, results, bytes);
        return;
    }
    r->determinism = DETERMINISM_VARIES; /* right, but not the first call's bits */
}

double counted_bytes(struct reduce_spec spec, const struct reduce_shape *shape, size_t n)
{
    const double input = (double)n * (double)element_size(spec.type);
    if (shape->kind == SHAPE_WHOLE)
        return input;
    const double results = (double)shape->count * (double)result_size(spec);
    const double offsets = shape->kind == SHAPE_SEGMENTS
                               ? (double)(shape->count + 1) * (double)sizeof(segment_offset)
                               : 0.0;
    return input + results + offsets;
}

static void finish_timing(struct method_result *r, const double *times, int count,
                          const struct measure_input *in, double peak_gbs)
{
    r->time_us = summarize_samples(times, (size_t)count);
    r->gbps = bandwidth_gbs(counted_bytes(in->spec, &in->shape, in->n), r->time_us.median);
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

/* Two host buffers of one call's results: this call's and the first's.
 * This call's is pinned when the GPU's results are copied into it: 64 MiB of
 * results (width 1) come back about twice as fast as into pageable memory. */
struct result_buffers {
    unsigned char *results, *first;
    bool pinned;
};

static bool allocate_result_buffers(struct result_buffers *b, size_t bytes, bool pinned)
{
    b->pinned = pinned;
    if (!pinned)
        b->results = malloc(bytes ? bytes : 1);
    else if (cudaMallocHost((void **)&b->results, bytes ? bytes : 1) != cudaSuccess)
        b->results = NULL;
    b->first = malloc(bytes ? bytes : 1);
    return b->results && b->first;
}

static void free_result_buffers(struct result_buffers *b)
{
    if (b->pinned)
        cudaFreeHost(b->results); /* a failed free of a host buffer leaves nothing to do */
    else
        free(b->results);
    free(b->first);
}

/* Call number `call`'s poison (measure.h): all ones (NaN), 0xA5 in turn. */
static int poison_byte(int call) { return (call & 1) ? 0xA5 : 0xFF; }

static void measure_cpu(const struct method *m, const struct measure_input *in,
                        const struct measure_setup *setup, struct method_result *r)
{
    const int samples = setup->samples < CPU_MAX_SAMPLES ? setup->samples : CPU_MAX_SAMPLES;
    double *times = malloc((size_t)samples * sizeof *times);
    struct result_buffers b = {0};
    if (!times || !allocate_result_buffers(&b, result_bytes(in), false)) {
        r->status = STATUS_ERROR;
        set_note(r, "out of host memory");
        free(times);
        free_result_buffers(&b);
        return;
    }
    for (int call = 0; call <= samples && r->status == STATUS_PASS; ++call) {
        memset(b.results, poison_byte(call), result_bytes(in));
        const double start = now_us();
        m->host(in->spec, in->shape, in->h_in, in->n, b.results);
        clear_result_padding(in->spec, b.results, in->shape.count);
        if (call > 0) /* call 0 warms up */
            times[call - 1] = now_us() - start;
        check_call(r, m, in, b.results, call, b.first);
    }
    finish_timing(r, times, r->status == STATUS_PASS ? samples : 0, in, setup->peak_gbs);
    free_result_buffers(&b);
    free(times);
}

struct gpu_resources {
    void *workspace;
    void *d_out; /* acquire's out_bytes */
    void *d_first; /* the first call's results, when kept on the GPU */
    unsigned *d_differ; /* results_match's flag */
    cudaEvent_t start, stop;
    double *times;
};

static int acquire(struct gpu_resources *g, size_t workspace_bytes, int samples, size_t out_bytes)
{
    CUDA_TRY(cudaEventCreate(&g->start));
    CUDA_TRY(cudaEventCreate(&g->stop));
    CUDA_TRY(cudaMalloc(&g->d_out, out_bytes > 0 ? out_bytes : 1));
    CUDA_TRY(cudaMalloc((void **)&g->d_differ, sizeof *g->d_differ));
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

/* acquire for method m's call on `in`: its workspace, queried now (under
 * whatever grid is forced), and room for its results. */
static int acquire_for(struct gpu_resources *g, const struct method *m,
                       const struct measure_input *in, int samples)
{
    size_t workspace_bytes = 0;
    PROPAGATE(method_workspace_bytes(m, in->spec, device_shape(in), in->n, &workspace_bytes));
    return acquire(g, workspace_bytes, samples, result_bytes(in));
}

static void release(struct gpu_resources *g)
{
    free(g->times);
    cudaFree(g->workspace);
    cudaFree(g->d_out);
    cudaFree(g->d_first);
    cudaFree(g->d_differ);
    if (g->start)
        cudaEventDestroy(g->start);
    if (g->stop)
        cudaEventDestroy(g->stop);
}

/* The stopping rule, checked past the minimum at the end of each cycle of
 * launch phases (launch_phase.h), so that the samples kept meet every phase
 * equally often: the median is known well enough, or the method's time is
 * up. */
static bool should_stop(const struct measure_setup *setup, const double *times, int timed,
                        double started_us)
{
    if (timed < setup->min_samples || timed % LAUNCH_PHASE_CYCLE != 0)
        return false;
    if (now_us() - started_us > 1e6 * setup->timeout_s)
        return true;
    const struct sample_stats s = summarize_samples(times, (size_t)timed);
    return median_noise_pct(&s) < setup->max_noise_pct;
}

/* How one timed call is made: number `call` (it picks the poison), `calls`
 * launches back to back between the events (1 for a cold sample; --batch's
 * K), the L2 flushed first or not. */
struct call_plan {
    int call, calls;
    bool flush;
};

/* Reads a call's results back into host memory, their padding cleared. */
static int fetch_results(const struct measure_input *in, const struct gpu_resources *g,
                         unsigned char *results)
{
    const size_t bytes = result_bytes(in);
    if (bytes > 0)
        CUDA_TRY(cudaMemcpy(results, g->d_out, bytes, cudaMemcpyDeviceToHost));
    clear_result_padding(in->spec, results, in->shape.count);
    return 0;
}

/* The method's launches between two events; elapsed_ms is per launch. The
 * results are poisoned first (a method that does not write fails) and read
 * back into `results`, unless it is NULL, after the stop event, outside the
 * timing. */
static int timed_call(const struct method *m, const struct measure_input *in,
                      const struct measure_setup *setup, const struct l2_flusher *flusher,
                      struct call_plan plan, cudaStream_t stream, struct gpu_resources *g,
                      float *elapsed_ms, unsigned char *results)
{
    const size_t bytes = result_bytes(in);
    CUDA_TRY(cudaMemsetAsync(g->d_out, poison_byte(plan.call), bytes, stream));
    if (plan.flush)
        PROPAGATE(l2_flush(flusher, stream));
    CUDA_TRY(cudaEventRecord(g->start, stream));
    for (int k = 0; k < plan.calls; ++k)
        PROPAGATE(run_method_once(m, setup->strategy, in->spec, device_shape(in), in->d_in,
                                  in->n, g->d_out, g->workspace, stream));
    CUDA_TRY(cudaEventRecord(g->stop, stream));
    CUDA_TRY(cudaEventSynchronize(g->stop));
    CUDA_TRY(cudaEventElapsedTime(elapsed_ms, g->start, g->stop));
    *elapsed_ms /= (float)plan.calls;
    return results ? fetch_results(in, g, results) : 0;
}

/* Results of at least this many bytes are compared with the first call's on
 * the GPU and read back only when they differ (results_match.h); fewer come
 * back faster than the compare's launch and wait. */
#define COMPARE_ON_GPU_BYTES ((size_t)1 << 20)

/* Keeps the first call's results, checked right, on the GPU for
 * results_match; the copy is on the method's stream, ahead of the next
 * call's poison. Without room for them every call is read back instead. */
static int keep_first_on_gpu(const struct measure_input *in, cudaStream_t stream,
                             struct gpu_resources *g)
{
    const size_t bytes = result_bytes(in);
    if (bytes < COMPARE_ON_GPU_BYTES)
        return 0;
    if (cudaMalloc(&g->d_first, bytes) != cudaSuccess) {
        (void)cudaGetLastError(); /* out of memory is not sticky: clear it */
        g->d_first = NULL;
        return 0;
    }
    CUDA_TRY(cudaMemcpyAsync(g->d_first, g->d_out, bytes, cudaMemcpyDeviceToDevice, stream));
    return 0;
}

/* Checks call number `call`'s results, left on the GPU by timed_call: the
 * first call's kept there alike (results_match) or, when they are not or
 * none are kept, read back and checked on the host. */
static int check_gpu_call(const struct method *m, const struct measure_input *in,
                          cudaStream_t stream, struct gpu_resources *g, struct result_buffers *b,
                          struct method_result *r, int call)
{
    if (g->d_first) {
        bool same = false;
        PROPAGATE(results_match(g->d_out, g->d_first, result_bytes(in),
                                result_padding_bytes(in->spec) > 0, g->d_differ, stream, &same));
        if (same) {
            note_same_bits(r);
            return 0;
        }
    }
    PROPAGATE(fetch_results(in, g, b->results));
    check_call(r, m, in, b->results, call, b->first);
    return call == 0 && r->status == STATUS_PASS ? keep_first_on_gpu(in, stream, g) : 0;
}

/* --batch: BATCH_SAMPLES times, K calls back to back with no flush; each
 * sample's last results are checked. */
static int measure_batch(const struct method *m, const struct measure_input *in,
                         const struct measure_setup *setup, cudaStream_t stream,
                         struct gpu_resources *g, struct result_buffers *b,
                         struct method_result *r)
{
    double times[BATCH_SAMPLES];
    for (int i = 0; i < BATCH_SAMPLES; ++i) {
        float per_call_ms = 0.0f;
        const struct call_plan plan = {.call = i, .calls = setup->batch, .flush = false};
        PROPAGATE(timed_call(m, in, setup, NULL, plan, stream, g, &per_call_ms, b->results));
        check_call(r, m, in, b->results, i + 1, b->first);
        if (r->status != STATUS_PASS)
            return 0;
        times[i] = 1e3 * (double)per_call_ms;
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

/* The method once on each forced grid, with a workspace queried (and
 * allocated, zeroed) under that grid, its bits against the first call's, on
 * its own grid. A launcher that never took the forced grid is unforced. */
static int check_grid_independence(const struct method *m, const struct measure_input *in,
                                   const struct measure_setup *setup, cudaStream_t stream,
                                   const unsigned char *natural, struct method_result *r)
{
    int grids[FORCED_GRID_COUNT];
    forced_grids(setup->sm_count, grids);
    const unsigned long uses_before = forced_grid_uses();
    bool same = true;
    int err = 0;
    for (int i = 0; !err && i < FORCED_GRID_COUNT; ++i) {
        set_grid_override(grids[i]);
        struct gpu_resources g = {0};
        unsigned char result[MAX_RESULT_BYTES];
        float elapsed_ms = 0.0f;
        err = acquire_for(&g, m, in, 1);
        if (!err)
            err = timed_call(m, in, setup, NULL, (struct call_plan){0, 1, false}, stream, &g,
                             &elapsed_ms, result);
        same = same && !err && memcmp(result, natural, result_bytes(in)) == 0;
        release(&g);
    }
    set_grid_override(0);
    r->grid = forced_grid_uses() == uses_before ? GRID_UNFORCED : same ? GRID_SAME : GRID_DIFFERS;
    return err;
}

/* The sample loop: `warmup` untimed calls, then timed samples until the
 * count or the stopping rule says enough, spread over the launch phases
 * (launch_phase.h); every call's results checked. */
static int sample_calls(const struct method *m, const struct measure_input *in,
                        const struct measure_setup *setup, const struct l2_flusher *flusher,
                        cudaStream_t stream, struct gpu_resources *g, struct result_buffers *b,
                        struct method_result *r, int most, int *timed)
{
    double started_us = 0.0;
    for (int call = 0; *timed < most; ++call) {
        const bool is_sample = call >= setup->warmup;
        const struct call_plan plan = {call, 1, is_sample && setup->flush_l2};
        float elapsed_ms = 0.0f;
        if (call == setup->warmup)
            started_us = now_us();
        for (int k = is_sample ? launches_before_sample(*timed) : 0; k > 0; --k)
            PROPAGATE(launch_empty_kernel(stream)); /* outside the events: launch_phase.h */
        PROPAGATE(timed_call(m, in, setup, flusher, plan, stream, g, &elapsed_ms, NULL));
        PROPAGATE(check_gpu_call(m, in, stream, g, b, r, call));
        if (r->status != STATUS_PASS)
            return 0; /* a wrong method's speed means nothing */
        if (!is_sample)
            continue;
        g->times[(*timed)++] = 1e3 * (double)elapsed_ms;
        record_clocks(setup->clocks, r);
        if (setup->max_noise_pct > 0.0 && should_stop(setup, g->times, *timed, started_us))
            return 0;
    }
    return 0;
}

/* The whole array's further questions, asked of a method that passed:
 * --batch's back-to-back time and the forced grids. */
static int whole_array_extras(const struct method *m, const struct measure_input *in,
                              const struct measure_setup *setup, cudaStream_t stream,
                              struct gpu_resources *g, struct result_buffers *b,
                              struct method_result *r)
{
    int err = 0;
    if (setup->batch > 0 && r->status == STATUS_PASS &&
        (err = measure_batch(m, in, setup, stream, g, b, r)) != 0)
        set_note(r, "batch: %s", cudaGetErrorString((cudaError_t)err));
    else if (setup->check_grids && r->status == STATUS_PASS &&
             (err = check_grid_independence(m, in, setup, stream, b->first, r)) != 0)
        set_note(r, "forced grid: %s", cudaGetErrorString((cudaError_t)err));
    return err;
}

static int measure_gpu(const struct method *m, const struct measure_input *in,
                       const struct measure_setup *setup, const struct l2_flusher *flusher,
                       cudaStream_t stream, struct method_result *r)
{
    struct gpu_resources g = {0};
    struct result_buffers b = {0};
    const bool stopping_rule = setup->max_noise_pct > 0.0;
    const int most = stopping_rule ? setup->max_samples : setup->samples;
    int timed = 0;
    int err = acquire_for(&g, m, in, most);
    if (!err && !allocate_result_buffers(&b, result_bytes(in), true))
        err = (int)cudaErrorMemoryAllocation;
    if (!err)
        err = sample_calls(m, in, setup, flusher, stream, &g, &b, r, most, &timed);
    if (err)
        set_note(r, "%s", cudaGetErrorString((cudaError_t)err));
    finish_timing(r, g.times, timed, in, setup->peak_gbs);
    if (!err && in->shape.kind == SHAPE_WHOLE)
        err = whole_array_extras(m, in, setup, stream, &g, &b, r);
    if (err)
        r->status = STATUS_ERROR;
    if (stopping_rule && r->status == STATUS_PASS && timed > 0 &&
        median_noise_pct(&r->time_us) >= setup->max_noise_pct)
        set_note(r, "median noise %.2f%% after %d samples, over %.2f%%",
                 median_noise_pct(&r->time_us), timed, setup->max_noise_pct);
    free_result_buffers(&b);
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
    r->result_index = NO_INDEX;
    r->determinism = DETERMINISM_UNKNOWN;
    const size_t longest = in->shape.kind == SHAPE_WHOLE ? in->n : in->longest;
    if (method_refuses_shape(m, in->shape.kind, r->note, sizeof r->note) ||
        method_refuses(m, in->spec, longest, r->note, sizeof r->note) ||
        method_refuses_extent(m, in->spec, in->shape, in->n, r->note, sizeof r->note)) {
        r->status = STATUS_REFUSED;
        return 0;
    }
    int err = 0;
    if (m->host)
        measure_cpu(m, in, setup, r);
    else
        err = measure_gpu(m, in, setup, flusher, stream, r);
    r->host_timed = (m->flags & (METHOD_ALLOCATES_INTERNALLY | METHOD_RESULT_VIA_HOST)) != 0;
    if (r->status == STATUS_PASS)
        note_flags_and_step(r, m, in);
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
