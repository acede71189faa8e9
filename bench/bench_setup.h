/* What bench_compare's table and sweep modes share: choosing methods,
 * checking outputs before a long run, the device session, and measuring the
 * selection at one size. */
#ifndef BENCH_SETUP_H
#define BENCH_SETUP_H

#include <stddef.h>

#include "cli.h"
#include "gpu_clocks.h"
#include "l2_flush.h"
#include "reduce_method.h"
#include "result_files.h"

#define EXIT_METHOD_FAILED 1
#define EXIT_BAD_INPUT 2

struct selection {
    const struct method *methods[MAX_SELECTED > 128 ? MAX_SELECTED : 128];
    size_t count;
};

struct bench_session {
    struct run_context context; /* device fields and options; n is set per size */
    struct l2_flusher flusher;
    cudaStream_t stream;
    struct clock_monitor clocks; /* NVML; its why says so where it is unavailable */
};

/* The -m names, in registry order; unknown names are an error. With no -m:
 * every method, or for a sweep or a --type/--op all matrix the GPU methods
 * that are not teaching steps (modern and vendor families), or for --gpus
 * one_pass_ilp, tma_ring and cub. */
int select_methods(const struct bench_options *o, struct selection *s, char *err, size_t err_len);

/* Fails early (before minutes of measuring) if an output file cannot be
 * created: its directory is missing or not writable. Creates nothing. */
int check_output_paths(const struct bench_options *o, char *err, size_t err_len);

/* Device context, L2 flusher, stream. Fails with one line when there is no
 * usable GPU. */
int open_session(const struct bench_options *o, struct bench_session *s, char *err,
                 size_t err_len);
void close_session(struct bench_session *s);

/* Fills one buffer of n elements of spec.type, computes the reference and
 * measures every selected method on it, with progress on stderr. run->rows is
 * malloc'd (free it). Returns 0 if all PASS or REFUSED, EXIT_METHOD_FAILED if
 * any did not, EXIT_BAD_INPUT if n does not fit in host or device memory (one
 * line on stderr, nothing measured). */
int measure_selection(const struct bench_options *o, const struct selection *s,
                      struct bench_session *session, struct reduce_spec spec, size_t n,
                      struct run *run);

#endif
