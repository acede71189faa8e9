/* The multi-GPU scaling table (bench_compare --gpus): rows, the arithmetic
 * read from them, the size ladder. Pure host code, tested on the CPU
 * (test_scaling); the measuring is src/multigpu/multi_gpu.h.
 *
 * A row is one method on G GPUs with one combine of the G partials:
 *   time        from a common start on every GPU (after a barrier, with L2
 *               flushed on each) to the final value on GPU 0 - and on every
 *               GPU for NCCL's all-reduce; median of the samples
 *   GB/s        aggregate: n x element size, read once, / median time
 *   speedup     the same method's median on one GPU in the same run, with
 *               the whole n, / this median
 *   efficiency  speedup / G (1.0: perfect scaling)
 *   combine us  the combine alone, timed the same way with the partials
 *               already in place: its own cost, beside the total */
#ifndef SCALING_H
#define SCALING_H

#include <stddef.h>
#include <stdio.h>

#include "element_type.h"
#include "run_result.h"
#include "shard_partition.h" /* MAX_GPUS */

/* How the G partials become one value. */
enum combine {
    COMBINE_NONE, /* one GPU: its result is the result (the baseline rows) */
    COMBINE_P2P,  /* hand-written: partials stored into GPU 0's memory over peer access */
    COMBINE_NCCL, /* ncclAllReduce of one value per GPU */
    COMBINE_COUNT
};
#define COMBINE_BIT(c) (1u << (c))
#define ALL_COMBINES (COMBINE_BIT(COMBINE_P2P) | COMBINE_BIT(COMBINE_NCCL))

/* "-", "p2p", "nccl" (the table and --combine) */
const char *combine_name(enum combine c);
/* COMBINE_COUNT if unknown ("-" is not a name to ask for) */
enum combine combine_from_name(const char *name);

struct scaling_row {
    char method[NAME_LEN];
    enum combine combine;
    int gpus;
    size_t n;                       /* elements in all, over every GPU */
    double bytes;                   /* n x element size: read once */
    struct sample_stats time_us;    /* common start to the final value */
    struct sample_stats combine_us; /* the combine alone; count 0 for one GPU */
    double one_gpu_us;              /* the method's one-GPU median at this n in this run;
                                       0: not measured (n does not fit one GPU, or that
                                       row did not pass) */
    enum method_status status;
    double result;                  /* the last sample's final value */
    char note[TEXT_LEN];            /* the reason for FAIL/ERROR/REFUSED, or remarks */
};

/* Aggregate GB/s (bytes / median); 0 without samples. */
double scaling_gbs(const struct scaling_row *r);
/* one_gpu_us / median; 0 when either is unknown. */
double scaling_speedup(const struct scaling_row *r);
/* speedup / GPUs (1.0 = perfect); 0 when the speedup is unknown. */
double scaling_efficiency(const struct scaling_row *r);

/* Fills each row's one_gpu_us from the PASSing one-GPU row (COMBINE_NONE,
 * gpus 1) of the same method and n, if there is one; 0 otherwise. */
void set_one_gpu_times(struct scaling_row *rows, size_t count);

/* One line per row: method, combine, GPUs, n, GiB per GPU, median, min,
 * aggregate GB/s, speedup, efficiency, combine alone, check, note. What is
 * unknown reads "-". */
void print_scaling_table(FILE *out, const struct scaling_row *rows, size_t count);

/* The size ladder of --ladder, in elements of type t, for G GPUs whose
 * smallest free memory, less a margin for flushers and workspaces, is
 * one_gpu_bytes: 2^24, 2^26, ... (x4) while one GPU holds the whole input
 * (the one-GPU row needs it), then - with G > 1 - one rung past one GPU's
 * memory: G shards of 3/4 of one_gpu_bytes each, whole GiB (2 x 103 GiB on
 * two H200s). Returns how many sizes it wrote (at most max). */
size_t ladder_sizes(enum element_type t, int gpus, size_t one_gpu_bytes, size_t *sizes,
                    size_t max);

#endif
