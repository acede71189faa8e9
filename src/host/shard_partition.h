/* Splitting one input of n elements over G GPUs (bench_compare --gpus): one
 * contiguous shard per GPU, in order, so shard g holds elements
 * [first, first + count) of the same seeded input a one-GPU run of n reduces.
 * Pure host code, tested on the CPU (test_shard_partition). */
#ifndef SHARD_PARTITION_H
#define SHARD_PARTITION_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most GPUs bench_compare --gpus drives (one process, one node). */
#define MAX_GPUS 16

/* The alignment every shard's start keeps, in bytes: a 16-byte vector load
 * (the kernels' float4) then starts a shard exactly where it would start
 * the whole input. */
#define SHARD_ALIGN_BYTES 16

struct shard {
    size_t first, count; /* elements [first, first + count) of the input */
};

/* Fills shards[0 .. gpus): they cover [0, n) exactly once, in order (each
 * starts where the one before ends), every start a multiple of 16 bytes
 * (16 / element_size elements). The input is cut into 16-byte groups, dealt
 * out evenly (the first shards take one more when they do not divide), and
 * the last shard also takes the tail under 16 bytes: shard sizes differ by
 * less than two groups. With fewer groups than GPUs the last shards are
 * empty (a GPU with nothing to reduce gives the operator's identity).
 * Returns 0, or -1 when gpus < 1 or element_size does not divide 16. */
int partition_shards(size_t n, int gpus, size_t element_size, struct shard *shards);

#ifdef __cplusplus
}
#endif

#endif
