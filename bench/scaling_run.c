/* The flow, top to bottom: the GPUs and the combines -> the header -> for
 * each size: the input whole on GPU 0 when one GPU holds it -> each method
 * on one GPU -> the same input cut over the GPUs (copied from GPU 0, or
 * drawn shard by shard when one GPU cannot hold it) -> each method with each
 * combine -> one table, every size. Bytes counted for GB/s: n x element
 * size, read once, over all GPUs together. */
#include "scaling_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combine.h"
#include "cuda_check.h"
#include "device_info.h"
#include "multi_gpu.h"
#include "report.h"
#include "scaling.h"

#define MAX_LADDER 32
#define GIB (double)(1 << 30)

/* One line on stderr; the run's status for bad input. */
static int bad_input(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "bench_compare: ");
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n");
    va_end(args);
    return EXIT_BAD_INPUT;
}

/* What the run can do before touching a GPU: no CPU method, and NCCL when
 * it alone was asked for. */
static int check_request(const struct bench_options *o, const struct selection *s)
{
    for (size_t i = 0; i < s->count; ++i)
        if (s->methods[i]->host)
            return bad_input("--gpus: %s runs on the host; --gpus times GPU methods",
                             s->methods[i]->name);
    if (o->combines == COMBINE_BIT(COMBINE_NCCL) && !nccl_built()) {
        char why[256];
        nccl_describe(why, sizeof why);
        return bad_input("--combine nccl: %s", why);
    }
    return 0;
}

/* "2 x NVIDIA H200", or every name when they differ. */
static void describe_gpus(const struct multi_gpu *mg, char *buf, size_t len)
{
    char names[MAX_GPUS][256];
    bool same = true;
    for (int g = 0; g < mg->count; ++g) {
        struct cudaDeviceProp prop;
        snprintf(names[g], sizeof names[g], "?");
        if (cudaGetDeviceProperties(&prop, mg->devices[g]) == cudaSuccess)
            snprintf(names[g], sizeof names[g], "%s", prop.name);
        same = same && strcmp(names[g], names[0]) == 0;
    }
    if (same) {
        snprintf(buf, len, "%d x %s", mg->count, names[0]);
        return;
    }
    size_t used = 0;
    for (int g = 0; g < mg->count && used < len; ++g)
        used += (size_t)snprintf(buf + used, len - used, "%s%d: %s", g ? ", " : "",
                                 mg->devices[g], names[g]);
}

static void print_header(FILE *out, const struct run_context *ctx, const struct multi_gpu *mg)
{
    char gpus[1024], nccl[256];
    describe_gpus(mg, gpus, sizeof gpus);
    if (mg->nccl)
        nccl_describe(nccl, sizeof nccl);
    else
        snprintf(nccl, sizeof nccl, "REFUSED: %s", mg->nccl_why);
    print_run_header(out, ctx);
    fprintf(out, "gpus     %s (devices 0..%d); p2p: %s; nccl: %s\n", gpus, mg->count - 1,
            mg->p2p_ready ? "peer access to GPU 0" : mg->p2p_why, nccl);
    fprintf(out, "multi    each GPU reduces its shard, then the combine: p2p = partials stored "
                 "into GPU 0, summed there (value on GPU 0); nccl = ncclAllReduce (value on "
                 "every GPU)\n");
    fprintf(out, "         time: from a common start on every GPU (%s, L2 %s on each, "
                 "barrier) to the final value; combine us: the combine alone, partials in "
                 "place\n",
            mg->start_line ? "start line" : "NO start line (REDUCE_NO_START_LINE=1)",
            strcmp(ctx->flush_mode, "none") == 0 ? "not flushed" : "flushed");
}

/* The smallest free memory over the GPUs, less the margin each keeps. */
static size_t one_gpu_room(const struct multi_gpu *mg)
{
    size_t room = SIZE_MAX;
    for (int g = 0; g < mg->count; ++g) {
        size_t free_bytes = 0, total = 0;
        if (cudaSetDevice(mg->devices[g]) != cudaSuccess ||
            cudaMemGetInfo(&free_bytes, &total) != cudaSuccess)
            return 0;
        const size_t usable = free_bytes > SHARD_MARGIN_BYTES ? free_bytes - SHARD_MARGIN_BYTES : 0;
        room = usable < room ? usable : room;
    }
    cudaSetDevice(mg->devices[0]);
    return room;
}

/* The rows of one size, in table order: per method, one GPU, p2p, nccl. */
struct size_rows {
    struct scaling_row rows[MAX_SELECTED > 128 ? MAX_SELECTED : 128][COMBINE_COUNT];
    bool used[MAX_SELECTED > 128 ? MAX_SELECTED : 128][COMBINE_COUNT];
};

static void not_run(struct scaling_row *row, const struct method *m, enum combine c, int gpus,
                    size_t n, double bytes, const char *why)
{
    memset(row, 0, sizeof *row);
    snprintf(row->method, sizeof row->method, "%s", m->name);
    row->combine = c;
    row->gpus = gpus;
    row->n = n;
    row->bytes = bytes;
    row->status = STATUS_REFUSED;
    snprintf(row->note, sizeof row->note, "%s", why);
}

struct run_state {
    struct multi_gpu mg;
    struct multi_gpu_setup setup;
    bool context_lost;
    int step, steps;
};

static void measure_row(struct run_state *st, const struct method *m, enum combine c,
                        const struct sharded_input *in, struct scaling_row *row)
{
    fprintf(stderr, "[%d/%d] %s, %s, %s %s, n = %zu on %d GPU%s\n", ++st->step, st->steps,
            m->name, c == COMBINE_NONE ? "one GPU" : combine_name(c),
            element_type_name(in->spec.type), reduce_op_name(in->spec.op), in->n, in->gpus,
            in->gpus == 1 ? "" : "s");
    if (st->context_lost) {
        not_run(row, m, c, in->gpus, in->n, (double)in->n * (double)element_size(in->spec.type),
                "not run: an earlier method broke the CUDA context");
        row->status = STATUS_ERROR;
        return;
    }
    st->context_lost = measure_scaling_row(&st->mg, m, c, in, &st->setup, row) != 0;
}

/* One size: the one-GPU rows, then the split and the combine rows.
 * Returns 0, or EXIT_BAD_INPUT when the input could not be put on the GPUs. */
static int measure_size(struct run_state *st, const struct bench_options *o,
                        const struct selection *s, struct reduce_spec spec, size_t n,
                        struct size_rows *out)
{
    struct multi_gpu *mg = &st->mg;
    char err[512], fits_err[512];
    const double bytes = (double)n * (double)element_size(spec.type);
    struct sharded_input whole, split;
    memset(&whole, 0, sizeof whole);
    memset(&split, 0, sizeof split);
    const bool fits_one = sharded_input_fits(mg->devices, 1, spec.type, n, o->offset, fits_err,
                                             sizeof fits_err);
    if (fits_one && sharded_input_fill(&whole, mg->devices, 1, spec, n, o->offset, o->dist,
                                       o->seed, err, sizeof err) != 0)
        return bad_input("%s", err);
    for (size_t i = 0; i < s->count; ++i) {
        struct scaling_row *row = &out->rows[i][COMBINE_NONE];
        out->used[i][COMBINE_NONE] = true;
        if (fits_one)
            measure_row(st, s->methods[i], COMBINE_NONE, &whole, row);
        else
            not_run(row, s->methods[i], COMBINE_NONE, 1, n, bytes,
                    "one GPU cannot hold n: no one-GPU row, no speedup");
    }
    const int got = fits_one ? sharded_input_split(&split, &whole, mg->devices, mg->count, err,
                                                   sizeof err)
                             : sharded_input_fill(&split, mg->devices, mg->count, spec, n,
                                                  o->offset, o->dist, o->seed, err, sizeof err);
    if (got != 0) {
        sharded_input_free(&whole);
        return bad_input("%s", err);
    }
    for (size_t i = 0; i < s->count; ++i)
        for (int c = COMBINE_P2P; c < COMBINE_COUNT; ++c)
            if (o->combines & COMBINE_BIT(c)) {
                out->used[i][c] = true;
                measure_row(st, s->methods[i], (enum combine)c, &split, &out->rows[i][c]);
            }
    sharded_input_free(&split);
    sharded_input_free(&whole);
    return 0;
}

static int selected_combines(const struct bench_options *o)
{
    int count = 0;
    for (int c = COMBINE_P2P; c < COMBINE_COUNT; ++c)
        count += (o->combines & COMBINE_BIT(c)) != 0;
    return count;
}

/* The GPUs --gpus asks for, into *gpus (all: the visible ones, at most
 * MAX_GPUS); 0, or bad_input's exit code with the reason. */
static int gpus_to_use(const struct bench_options *o, int *gpus)
{
    char err[512];
    int visible = 0;
    if (!usable_gpu(err, sizeof err) || cudaGetDeviceCount(&visible) != cudaSuccess)
        return bad_input("%s", err);
    *gpus = o->gpus == GPUS_ALL ? (visible < MAX_GPUS ? visible : MAX_GPUS) : o->gpus;
    if (*gpus > visible)
        return bad_input("--gpus %d: only %d CUDA device%s visible (--list-devices)", *gpus,
                         visible, visible == 1 ? " is" : "s are");
    return 0;
}

/* The table of the sizes measured: every size, per method one GPU then the
 * combines, after the run's header. Returns `status`, or the exit code of a
 * failed or erroring row, or of no memory for the table. */
static int print_measured(const struct run_context *ctx, const struct multi_gpu *mg,
                          const struct selection *s, const struct size_rows *rows,
                          size_t measured, int status)
{
    const size_t most = measured * s->count * COMBINE_COUNT;
    struct scaling_row *table = calloc(most, sizeof *table);
    size_t count = 0;
    for (size_t k = 0; table && k < measured; ++k)
        for (size_t i = 0; i < s->count; ++i)
            for (int c = 0; c < COMBINE_COUNT; ++c)
                if (rows[k].used[i][c])
                    table[count++] = rows[k].rows[i][c];
    set_one_gpu_times(table, count);
    print_header(stdout, ctx, mg);
    printf("\n");
    print_scaling_table(stdout, table, count);
    for (size_t i = 0; i < count && !status; ++i)
        if (table[i].status == STATUS_FAIL || table[i].status == STATUS_ERROR)
            status = EXIT_METHOD_FAILED;
    if (!table)
        status = bad_input("out of host memory");
    free(table);
    return status;
}

int run_scaling(const struct bench_options *o, const struct selection *s)
{
    char err[512];
    int status = check_request(o, s);
    if (status)
        return status;
    int gpus = 0;
    status = gpus_to_use(o, &gpus);
    if (status)
        return status;

    /* The header's device, floor and ceiling: GPU 0, as a one-GPU run. */
    struct bench_session session;
    if (open_session(o, &session, err, sizeof err) != 0) {
        if (session.stream)
            close_session(&session);
        return bad_input("%s", err);
    }
    struct run_context ctx = session.context;
    close_session(&session);

    struct run_state *st = calloc(1, sizeof *st);
    struct size_rows *rows = NULL;
    if (!st)
        return bad_input("out of host memory");
    st->setup = (struct multi_gpu_setup){.warmup = o->warmup, .samples = o->samples,
                                         .flush_l2 = !o->hot, .strategy = o->strategy};
    if (multi_gpu_open(&st->mg, gpus, err, sizeof err) != 0) {
        free(st);
        return bad_input("%s", err);
    }

    const struct reduce_spec spec = {o->type, o->op};
    size_t sizes[MAX_LADDER], size_count = 1;
    sizes[0] = default_n(o, o->type);
    if (o->ladder)
        size_count = ladder_sizes(o->type, gpus, one_gpu_room(&st->mg), sizes, MAX_LADDER);
    rows = size_count ? calloc(size_count, sizeof *rows) : NULL;
    if (!rows) {
        status = size_count ? bad_input("out of host memory")
                            : bad_input("--ladder: not even 2^24 elements fit the GPUs' free memory");
    }
    ctx.n = o->ladder ? 0 : sizes[0];
    ctx.samples = o->samples;
    st->steps = (int)(size_count * s->count * (size_t)(1 + selected_combines(o)));
    size_t measured = 0; /* a size that did not fit ends the run; the sizes before it print */
    while (!status && measured < size_count) {
        status = measure_size(st, o, s, spec, sizes[measured], &rows[measured]);
        measured += status == 0;
    }

    if (measured > 0)
        status = print_measured(&ctx, &st->mg, s, rows, measured, status);
    free(rows);
    multi_gpu_close(&st->mg);
    free(st);
    return status;
}
