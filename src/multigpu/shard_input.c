#define _POSIX_C_SOURCE 200809L /* sysconf */

#include "shard_input.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_check.h"

#define BATCH_BYTES ((size_t)256 << 20) /* drawn, folded and copied at a time */
#define MAX_THREADS 64
#define GIB (double)(1 << 30)

/* Whether `count` elements (shard of an n-element input over `gpus` GPUs)
 * fit on `device` beside the margin; one line in err if not. */
static bool shard_fits(int device, enum element_type t, size_t count, size_t offset, size_t n,
                       int gpus, char *err, size_t err_len)
{
    const size_t size = element_size(t);
    size_t free_bytes = 0, total = 0;
    if (cudaSetDevice(device) != cudaSuccess || cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        snprintf(err, err_len, "GPU %d: cannot read its free memory", device);
        return false;
    }
    if (count <= (SIZE_MAX - SHARD_MARGIN_BYTES) / size - offset &&
        (count + offset) * size + SHARD_MARGIN_BYTES <= free_bytes)
        return true;
    snprintf(err, err_len,
             "n = %zu %s elements over %d GPU%s needs %.2f GiB on GPU %d (+%.0f GiB for "
             "workspaces); it has %.2f GiB free",
             n, element_type_name(t), gpus, gpus == 1 ? "" : "s",
             (double)count * (double)size / GIB, device, (double)SHARD_MARGIN_BYTES / GIB,
             (double)free_bytes / GIB);
    return false;
}

bool sharded_input_fits(const int *devices, int gpus, enum element_type t, size_t n,
                        size_t offset, char *err, size_t err_len)
{
    struct shard shards[MAX_GPUS];
    if (gpus < 1 || gpus > MAX_GPUS || partition_shards(n, gpus, element_size(t), shards) != 0) {
        snprintf(err, err_len, "%d GPUs: 1 to %d", gpus, MAX_GPUS);
        return false;
    }
    for (int g = 0; g < gpus; ++g)
        if (!shard_fits(devices[g], t, shards[g].count, offset, n, gpus, err, err_len))
            return false;
    return true;
}

/* ---- drawing in parallel: each thread draws its part of a batch and folds
 * it into its own partial reference; the partials are merged in order. */

struct draw_job {
    void *h;
    size_t first, count, n;
    struct reduce_spec spec;
    enum distribution dist;
    uint64_t seed;
    struct reference_partial partial;
    struct data_info info;
};

static void *draw_job_run(void *arg)
{
    struct draw_job *j = arg;
    j->info = fill_data_range(j->h, j->first, j->count, j->n, j->spec.type, j->dist, j->seed);
    reference_partial_start(&j->partial, j->spec);
    reference_partial_add(&j->partial, j->spec.type, j->h, j->count);
    return NULL;
}

static int host_threads(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online < 1 ? 1 : online > MAX_THREADS ? MAX_THREADS : (int)online;
}

/* Draws elements [first, first + count) of the n-element input into the
 * pinned staging buffer a batch at a time, folds them into *partial and
 * copies them to d_dst (on the current device). */
static int fill_range(char *d_dst, struct reduce_spec spec, size_t first, size_t count, size_t n,
                      enum distribution dist, uint64_t seed, void *staging,
                      struct reference_partial *partial, struct data_info *info)
{
    const size_t size = element_size(spec.type), batch = BATCH_BYTES / size;
    const int threads = host_threads();
    struct draw_job jobs[MAX_THREADS];
    pthread_t ids[MAX_THREADS];
    for (size_t done = 0; done < count; done += batch) {
        const size_t here = count - done < batch ? count - done : batch;
        bool started[MAX_THREADS] = {false};
        for (int t = 0; t < threads; ++t) {
            const size_t a = here * (size_t)t / (size_t)threads,
                         b = here * (size_t)(t + 1) / (size_t)threads;
            jobs[t] = (struct draw_job){.h = (char *)staging + a * size, .first = first + done + a,
                                        .count = b - a, .n = n, .spec = spec, .dist = dist,
                                        .seed = seed};
            started[t] = pthread_create(&ids[t], NULL, draw_job_run, &jobs[t]) == 0;
            if (!started[t])
                draw_job_run(&jobs[t]); /* no thread to be had: draw it here */
        }
        for (int t = 0; t < threads; ++t) {
            if (started[t])
                pthread_join(ids[t], NULL);
            reference_partial_merge(partial, &jobs[t].partial);
        }
        *info = jobs[0].info; /* exact_sum_known is the whole input's */
        CUDA_TRY(cudaMemcpy(d_dst + done * size, staging, here * size, cudaMemcpyHostToDevice));
    }
    return 0;
}

static void clear(struct sharded_input *in, struct reduce_spec spec, size_t n, size_t offset,
                  const int *devices, int gpus)
{
    memset(in, 0, sizeof *in);
    in->spec = spec;
    in->n = n;
    in->offset = offset;
    in->gpus = gpus;
    for (int g = 0; g < gpus; ++g)
        in->devices[g] = devices[g];
}

/* Shard g's allocation on its GPU: at least 256 bytes (an empty shard still
 * gets a pointer), the shard shifted by `offset` elements. */
static int allocate_shard(struct sharded_input *in, int g)
{
    const size_t size = element_size(in->spec.type);
    const size_t bytes = (in->shards[g].count + in->offset) * size;
    CUDA_TRY(cudaSetDevice(in->devices[g]));
    CUDA_TRY(cudaMalloc(&in->d_base[g], bytes > 256 ? bytes : 256));
    in->d_in[g] = (char *)in->d_base[g] + in->offset * size;
    return 0;
}

int sharded_input_fill(struct sharded_input *in, const int *devices, int gpus,
                       struct reduce_spec spec, size_t n, size_t offset, enum distribution dist,
                       uint64_t seed, char *err, size_t err_len)
{
    clear(in, spec, n, offset, devices, gpus);
    const size_t size = element_size(spec.type);
    if (!sharded_input_fits(devices, gpus, spec.type, n, offset, err, err_len))
        return -1;
    partition_shards(n, gpus, size, in->shards);
    size_t largest = 0; /* a small input pins no more than it needs */
    for (int g = 0; g < gpus; ++g)
        largest = in->shards[g].count > largest ? in->shards[g].count : largest;
    const size_t staging_bytes = largest * size < BATCH_BYTES ? largest * size + 256 : BATCH_BYTES;
    void *staging = NULL;
    if (cudaHostAlloc(&staging, staging_bytes, cudaHostAllocPortable) != cudaSuccess) {
        snprintf(err, err_len, "cannot pin %zu MiB of host memory for the input",
                 staging_bytes >> 20);
        return -1;
    }
    struct reference_partial partial;
    reference_partial_start(&partial, spec);
    /* an empty range draws nothing: only whether the whole input's sum is exact */
    struct data_info info = fill_data_range(NULL, 0, 0, n, spec.type, dist, seed);
    int failed = 0;
    for (int g = 0; g < gpus && !failed; ++g)
        failed = allocate_shard(in, g) ||
                 fill_range((char *)in->d_in[g], spec, in->shards[g].first, in->shards[g].count,
                            n, dist, seed, staging, &partial, &info);
    cudaFreeHost(staging);
    if (failed) {
        snprintf(err, err_len, "could not put the input on the GPUs (see above)");
        sharded_input_free(in);
        return -1;
    }
    in->ref = reference_partial_finish(&partial, spec, info);
    return 0;
}

int sharded_input_split(struct sharded_input *split, const struct sharded_input *whole,
                        const int *devices, int gpus, char *err, size_t err_len)
{
    clear(split, whole->spec, whole->n, whole->offset, devices, gpus);
    const size_t size = element_size(whole->spec.type);
    if (whole->gpus != 1 || devices[0] != whole->devices[0]) {
        snprintf(err, err_len, "a split starts from an input whole on its first GPU");
        return -1;
    }
    partition_shards(whole->n, gpus, size, split->shards);
    /* shard 0 is already on its GPU (inside the whole input) */
    for (int g = 1; g < gpus; ++g)
        if (!shard_fits(devices[g], whole->spec.type, split->shards[g].count, whole->offset,
                        whole->n, gpus, err, err_len))
            return -1;
    split->ref = whole->ref;
    split->d_in[0] = whole->d_in[0]; /* borrowed: shard 0 starts the whole input */
    int failed = 0;
    for (int g = 1; g < gpus && !failed; ++g) {
        failed = allocate_shard(split, g);
        if (!failed && split->shards[g].count > 0)
            failed = cudaMemcpyPeer((void *)split->d_in[g], devices[g],
                                    (const char *)whole->d_in[0] + split->shards[g].first * size,
                                    devices[0], split->shards[g].count * size) != cudaSuccess;
    }
    /* cudaMemcpyPeer returns before the copy is done */
    for (int g = 0; g < gpus && !failed; ++g)
        failed = cudaSetDevice(devices[g]) != cudaSuccess ||
                 cudaDeviceSynchronize() != cudaSuccess;
    if (failed) {
        snprintf(err, err_len, "could not copy the shards from GPU %d to the others", devices[0]);
        sharded_input_free(split);
        return -1;
    }
    return 0;
}

void sharded_input_free(struct sharded_input *in)
{
    for (int g = 0; g < in->gpus; ++g)
        if (in->d_base[g]) {
            cudaSetDevice(in->devices[g]);
            cudaFree(in->d_base[g]);
            in->d_base[g] = NULL;
        }
}
