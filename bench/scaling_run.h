/* bench_compare --gpus N|all: the selected methods on N GPUs, each shard
 * reduced on its GPU, the partials combined (p2p, nccl), against the same
 * methods on one GPU in the same run; one scaling table (scaling.h), at the
 * size given or, with --ladder, at every size of the ladder. */
#ifndef SCALING_RUN_H
#define SCALING_RUN_H

#include "bench_setup.h"

/* Returns 0 (every row PASS or REFUSED), EXIT_METHOD_FAILED, or
 * EXIT_BAD_INPUT (one line on stderr: fewer GPUs than asked, a CPU method,
 * --combine nccl without NCCL, an input that does not fit). */
int run_scaling(const struct bench_options *o, const struct selection *s);

#endif
