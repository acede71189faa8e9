/* The CPU rows: what the GPU numbers are compared with in the seeds.
 * cpu_loop is seed 000/003's plain loop (one dependent float add per element,
 * so it runs at the add latency, not memory bandwidth). cpu_threads splits the
 * array over the online cores; each thread keeps 8 independent accumulators
 * (enough adds in flight to reach memory speed), and the partials are added in
 * thread order, so the result is the same on every run. */
#define _POSIX_C_SOURCE 200809L /* sysconf(_SC_NPROCESSORS_ONLN) */

#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

#define MAX_THREADS 256
#define LANES 8

float cpu_loop_sum(const float *h_in, size_t n);
float cpu_threads_sum(const float *h_in, size_t n);

float cpu_loop_sum(const float *h_in, size_t n)
{
    float sum = 0.0f;
    for (size_t i = 0; i < n; ++i)
        sum += h_in[i];
    return sum;
}

struct slice {
    const float *begin;
    size_t n;
    float sum;
};

static void *sum_slice(void *arg)
{
    struct slice *s = arg;
    float lanes[LANES] = {0.0f};
    size_t i = 0;
    for (; i + LANES <= s->n; i += LANES)
        for (int l = 0; l < LANES; ++l)
            lanes[l] += s->begin[i + l];
    for (; i < s->n; ++i)
        lanes[0] += s->begin[i];
    float sum = 0.0f;
    for (int l = 0; l < LANES; ++l)
        sum += lanes[l];
    s->sum = sum;
    return NULL;
}

float cpu_threads_sum(const float *h_in, size_t n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t threads = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (size_t)cores;
    if (threads > n / 4096 + 1) /* small inputs are not worth a thread each */
        threads = n / 4096 + 1;
    struct slice slices[MAX_THREADS];
    pthread_t ids[MAX_THREADS];
    const size_t per_thread = n / threads;
    for (size_t t = 0; t < threads; ++t) {
        slices[t].begin = h_in + t * per_thread;
        slices[t].n = t + 1 == threads ? n - t * per_thread : per_thread;
        slices[t].sum = 0.0f;
    }
    size_t started = 1; /* slice 0 runs on this thread */
    for (; started < threads; ++started)
        if (pthread_create(&ids[started], NULL, sum_slice, &slices[started]) != 0)
            break;
    for (size_t t = started; t < threads; ++t) /* could not start: do it here */
        sum_slice(&slices[t]);
    sum_slice(&slices[0]);
    for (size_t t = 1; t < started; ++t)
        pthread_join(ids[t], NULL);
    float sum = 0.0f;
    for (size_t t = 0; t < threads; ++t)
        sum += slices[t].sum;
    return sum;
}
