#define _POSIX_C_SOURCE 200809L /* access() */

#include "bench_setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuda_check.h"
#include "data_gen.h"
#include "device_info.h"
#include "measure.h"
#include "reference.h"
#include "report.h"
#include "registry.h"

/* Room left on the device for workspaces, the flusher and CUB's temp storage. */
#define DEVICE_MARGIN_BYTES ((size_t)512 << 20)

/* --gpus without -m: our two fastest kernels (16-byte loads in one pass;
 * Hopper's bulk-copy ring, which takes over from ~256 MB) and CUB. */
static const char *const MULTI_GPU_DEFAULT[] = {"one_pass_ilp", "tma_ring", "cub"};

static bool multi_gpu_default(const char *name)
{
    for (size_t i = 0; i < sizeof MULTI_GPU_DEFAULT / sizeof MULTI_GPU_DEFAULT[0]; ++i)
        if (strcmp(name, MULTI_GPU_DEFAULT[i]) == 0)
            return true;
    return false;
}

int select_methods(const struct bench_options *o, struct selection *s, char *err, size_t err_len)
{
    s->count = 0;
    for (size_t i = 0; i < o->method_count; ++i)
        if (!find_method(o->methods[i])) {
            snprintf(err, err_len, "unknown method '%s' (bench_compare --list shows them)",
                     o->methods[i]);
            return -1;
        }
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const struct method *m = METHODS[i];
        bool wanted = o->method_count == 0;
        if (wanted && (o->sweep || runs_matrix(o)))
            wanted = m->family == FAMILY_MODERN || m->family == FAMILY_VENDOR;
        /* Without -m, the methods that compute the run's shape: a table of
         * REFUSED rows (or a sweep's columns of them) says nothing. */
        if (wanted)
            wanted = method_takes_shape(m, options_shape_kind(o));
        if (wanted && o->multi_gpu)
            wanted = multi_gpu_default(m->name);
        for (size_t j = 0; j < o->method_count; ++j)
            wanted = wanted || strcmp(o->methods[j], m->name) == 0;
        if (wanted)
            s->methods[s->count++] = m;
    }
    return 0;
}

static int check_writable(const char *path, char *err, size_t err_len)
{
    if (!path || strcmp(path, "-") == 0)
        return 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash == dir ? (void)(slash[1] = '\0') : (void)(*slash = '\0');
    else
        snprintf(dir, sizeof dir, ".");
    if (access(dir, W_OK) != 0) {
        snprintf(err, err_len, "cannot write %s: directory '%s' is missing or not writable", path,
                 dir);
        return -1;
    }
    return 0;
}

int check_output_paths(const struct bench_options *o, char *err, size_t err_len)
{
    const char *paths[] = {o->csv_path, o->json_path, o->markdown_path};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; ++i)
        if (check_writable(paths[i], err, err_len) != 0)
            return -1;
    return 0;
}

/* Opens NVML for the device and records its state now in the context; where
 * NVML is unavailable, says so once and carries on. */
static void record_session_clocks(struct bench_session *s, int device)
{
    struct run_context *c = &s->context;
    clock_monitor_open(&s->clocks, device);
    struct clock_reading now;
    const bool read = read_clocks(&s->clocks, &now);
    snprintf(c->clocks, sizeof c->clocks, "%s", s->clocks.why);
    if (!read) {
        fprintf(stderr, "bench_compare: clocks not recorded: NVML %s\n", s->clocks.why);
        return;
    }
    c->sm_clock_mhz = (int)now.sm_mhz;
    c->sm_clock_max_mhz = (int)s->clocks.sm_max_mhz;
    c->mem_clock_mhz = (int)now.mem_mhz;
    c->temperature_c = (int)now.temperature_c;
    c->power_w = now.power_w;
}

int open_session(const struct bench_options *o, struct bench_session *s, char *err,
                 size_t err_len)
{
    memset(s, 0, sizeof *s);
    struct run_context *c = &s->context;
    if (select_device(o->device, err, err_len) != 0)
        return -1;
    const int device_err = read_device_context(c);
    if (device_err) {
        snprintf(err, err_len, "device %d: %s", o->device,
                 cudaGetErrorString((cudaError_t)device_err));
        return -1;
    }
    snprintf(c->flush_mode, sizeof c->flush_mode, "%s", o->hot ? "none" : "read-sweep");
    snprintf(c->strategy, sizeof c->strategy, "%s", pass_strategy_name(o->strategy));
    snprintf(c->distribution, sizeof c->distribution, "%s", distribution_name(o->dist));
    snprintf(c->element_type, sizeof c->element_type, "%s",
             o->type == TYPE_COUNT ? "all" : element_type_name(o->type));
    snprintf(c->op, sizeof c->op, "%s", o->op == OP_COUNT ? "all" : reduce_op_name(o->op));
    snprintf(c->git_commit, sizeof c->git_commit, "%s", SUITE_GIT_COMMIT);
    const time_t now = time(NULL);
    strftime(c->date, sizeof c->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    c->offset = o->offset;
    c->samples = o->max_noise_pct > 0.0 ? o->max_samples : o->samples;
    c->max_noise_pct = o->max_noise_pct;
    c->seed = o->seed;
    if (l2_flusher_create(&s->flusher, c->l2_bytes) != 0 ||
        cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking) != cudaSuccess) {
        snprintf(err, err_len, "could not set up the L2 flusher and stream (see above)");
        close_session(s);
        return -1;
    }
    if (measure_ceiling_and_floor(&s->flusher, s->stream, o->samples, &c->read_ceiling_gbs,
                                  &c->launch_floor_us) != 0) {
        snprintf(err, err_len, "could not time the read ceiling and launch floor (see above)");
        close_session(s);
        return -1;
    }
    record_session_clocks(s, o->device); /* after that work: clocks under load, not idle */
    return 0;
}

void close_session(struct bench_session *s)
{
    l2_flusher_destroy(&s->flusher);
    clock_monitor_close(&s->clocks);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    s->stream = NULL;
}

/* Host and device copies of the same n elements, the device one shifted by
 * `offset` elements from a 256-byte-aligned allocation. */
struct input_buffers {
    void *host;
    char *device_base;
};

static int allocate_inputs(enum element_type t, size_t n, size_t offset, struct input_buffers *b)
{
    size_t free_bytes = 0;
    if (device_free_bytes(&free_bytes) != 0)
        return -1;
    const size_t size = element_size(t);
    const size_t needed = (n + offset) * size;
    if (n > (SIZE_MAX - DEVICE_MARGIN_BYTES) / size - offset ||
        needed + DEVICE_MARGIN_BYTES > free_bytes) {
        fprintf(stderr,
                "bench_compare: n = %zu %s elements needs %.2f GiB of device memory (+%zu MiB "
                "for workspaces); the device has %.2f GiB free\n",
                n, element_type_name(t), (double)needed / (1 << 30), DEVICE_MARGIN_BYTES >> 20,
                (double)free_bytes / (1 << 30));
        return -1;
    }
    b->host = malloc(n * size + 1);
    if (!b->host) {
        fprintf(stderr, "bench_compare: n = %zu %s elements: out of host memory\n", n,
                element_type_name(t));
        return -1;
    }
    if (cudaMalloc((void **)&b->device_base, needed) != cudaSuccess) {
        fprintf(stderr, "bench_compare: cudaMalloc of %zu bytes failed\n", needed);
        free(b->host);
        b->host = NULL;
        return -1;
    }
    return 0;
}

/* One input that every method of the selection is measured on: drawn on
 * the host, copied to the device, its references computed, and for rows and
 * segments the per-row reference and the offsets on the device, once,
 * before any method is timed. */
struct prepared_input {
    struct input_buffers buffers;
    segment_offset *offsets, *d_offsets;
    struct reference ref;
    struct shape_reference shape_ref;
    struct measure_input input;
};

static size_t longest_result(const struct reduce_shape *shape, size_t n)
{
    size_t longest = 0;
    for (size_t i = 0; i < shape->count; ++i)
        longest = shape_length(shape, i, n) > longest ? shape_length(shape, i, n) : longest;
    return longest;
}

/* The per-row reference and the device offsets (rows and segments only). */
static int prepare_shape(struct prepared_input *p, struct data_info info)
{
    const struct measure_input *in = &p->input;
    const size_t count = in->shape.count;
    const size_t offsets_bytes = (count + 1) * sizeof *p->offsets;
    if (!compute_shape_reference(&p->shape_ref, in->spec, in->shape, in->h_in, in->n, info)) {
        fprintf(stderr, "bench_compare: %zu results: out of host memory\n", count);
        return EXIT_BAD_INPUT;
    }
    if (p->offsets && (cudaMalloc((void **)&p->d_offsets, offsets_bytes) != cudaSuccess ||
                       cudaMemcpy(p->d_offsets, p->offsets, offsets_bytes,
                                  cudaMemcpyHostToDevice) != cudaSuccess)) {
        fprintf(stderr, "bench_compare: copying %zu offsets to the device failed\n", count + 1);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

/* Takes ownership of `offsets` (freed by release_input). */
static int prepare_input(const struct bench_options *o, struct reduce_spec spec, size_t n,
                         struct reduce_shape shape, segment_offset *offsets,
                         struct prepared_input *p)
{
    memset(p, 0, sizeof *p);
    p->offsets = offsets;
    p->input = (struct measure_input){.spec = spec,
                                      .n = n,
                                      .ref = &p->ref,
                                      .shape = shape,
                                      .shape_ref = &p->shape_ref,
                                      .longest = longest_result(&shape, n)};
    if (allocate_inputs(spec.type, n, o->offset, &p->buffers) != 0)
        return EXIT_BAD_INPUT;
    const size_t size = element_size(spec.type);
    const struct data_info info = fill_data(p->buffers.host, n, spec.type, o->dist, o->seed);
    p->ref = compute_reference(spec, p->buffers.host, n, info);
    p->input.d_in = p->buffers.device_base + o->offset * size;
    p->input.h_in = p->buffers.host;
    if (cudaMemcpy((void *)p->input.d_in, p->buffers.host, n * size, cudaMemcpyHostToDevice) !=
        cudaSuccess) {
        fprintf(stderr, "bench_compare: copying the input to the device failed\n");
        return EXIT_BAD_INPUT;
    }
    if (shape.kind == SHAPE_WHOLE)
        return 0;
    const int status = prepare_shape(p, info);
    p->input.d_offsets = p->d_offsets;
    return status;
}

static void release_input(struct prepared_input *p)
{
    free_shape_reference(&p->shape_ref);
    free(p->offsets);
    cudaFree(p->d_offsets);
    free(p->buffers.host);
    cudaFree(p->buffers.device_base);
}

static struct measure_setup setup_from_options(const struct bench_options *o,
                                               struct bench_session *session)
{
    return (struct measure_setup){.warmup = o->warmup,
                                  .samples = o->samples,
                                  .max_noise_pct = o->max_noise_pct,
                                  .min_samples = o->min_samples,
                                  .max_samples = o->max_samples,
                                  .timeout_s = o->timeout_s,
                                  .batch = o->batch,
                                  .flush_l2 = !o->hot,
                                  .strategy = o->strategy,
                                  .peak_gbs = session->context.peak_gbs,
                                  .clocks = &session->clocks,
                                  .sm_count = session->context.sm_count,
                                  .check_grids = !o->sweep};
}

/* The run's context: the session's, with this input's size, shape and pair. */
static void describe_run(const struct bench_options *o, const struct bench_session *session,
                         const struct measure_input *in, struct run *run)
{
    run->context = session->context;
    run->context.n = in->n;
    snprintf(run->context.shape, sizeof run->context.shape, "%s",
             shape_kind_name(in->shape.kind));
    run->context.result_count = in->shape.count;
    run->context.cols = in->shape.cols;
    snprintf(run->context.segments, sizeof run->context.segments, "%s",
             o->segmented ? o->segments.text : "");
    snprintf(run->context.element_type, sizeof run->context.element_type, "%s",
             element_type_name(in->spec.type));
    snprintf(run->context.op, sizeof run->context.op, "%s", reduce_op_name(in->spec.op));
}

/* A row for a method not run because an earlier one broke the context. */
static void not_run(const struct method *m, struct method_result *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", m->name);
    snprintf(r->family, sizeof r->family, "%s", family_name(m->family));
    r->status = STATUS_ERROR;
    snprintf(r->note, sizeof r->note, "not run: an earlier method broke the CUDA context");
}

/* Every selected method on one prepared input, with progress on stderr. */
static int measure_each(const struct bench_options *o, const struct selection *s,
                        struct bench_session *session, const struct measure_input *in,
                        struct run *run)
{
    const struct measure_setup setup = setup_from_options(o, session);
    int context_lost = 0, status = 0;
    for (size_t i = 0; i < s->count; ++i) {
        struct method_result *r = &run->rows[run->count++];
        fprintf(stderr, "[%zu/%zu] %s, %s %s, n = %zu, %s %zu\n", i + 1, s->count,
                s->methods[i]->name, element_type_name(in->spec.type),
                reduce_op_name(in->spec.op), in->n, shape_kind_name(in->shape.kind),
                in->shape.count);
        if (context_lost)
            not_run(s->methods[i], r);
        else
            context_lost = measure_method(s->methods[i], in, &setup, &session->flusher,
                                          session->stream, r);
        r->cols = in->shape.cols;
        if (r->status != STATUS_PASS && r->status != STATUS_REFUSED)
            status = EXIT_METHOD_FAILED;
    }
    return status;
}

int measure_selection(const struct bench_options *o, const struct selection *s,
                      struct bench_session *session, struct reduce_spec spec, size_t n,
                      struct run *run)
{
    char err[CLI_ERROR_LEN];
    struct reduce_shape shape;
    segment_offset *offsets = NULL;
    if (!options_shape(o, &n, &shape, &offsets, err, sizeof err)) {
        fprintf(stderr, "bench_compare: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    run->count = 0;
    run->rows = calloc(s->count ? s->count : 1, sizeof *run->rows);
    struct prepared_input p;
    int status = prepare_input(o, spec, n, shape, offsets, &p);
    describe_run(o, session, &p.input, run);
    if (!run->rows)
        status = EXIT_BAD_INPUT;
    if (status == 0)
        status = measure_each(o, s, session, &p.input, run);
    set_ratios_to_cub(run);
    release_input(&p);
    return status;
}
