/* The input of a multi-GPU run, on the GPUs (bench_compare --gpus): the
 * seeded n elements a one-GPU run of n reduces, either whole on the first
 * GPU (the one-GPU rows) or cut into one shard per GPU (shard_partition.h),
 * with the reference of all n.
 *
 * Drawn on the host a batch at a time, by every core (fill_data_range: any
 * range on its own), folded into the reference as it goes
 * (reference_partial) and copied to the GPU from pinned memory: an input of
 * 200 GiB never sits on the host, and the reference is the same whatever
 * the split. A split of an input already whole on GPU 0 copies the other
 * shards from it over the GPUs' peer path instead of drawing them again;
 * shard 0 is then the whole input's first part, not a copy. */
#ifndef SHARD_INPUT_H
#define SHARD_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data_gen.h"
#include "reference.h"
#include "shard_partition.h"

/* Room each GPU keeps free beside its shard: the method's workspace, CUB's
 * temporary storage, the L2 flusher (4 x L2, ~250 MB on an H200), NCCL's
 * buffers. */
#define SHARD_MARGIN_BYTES ((size_t)1 << 30)

struct sharded_input {
    struct reduce_spec spec;
    size_t n;                   /* elements in all */
    size_t offset;              /* each shard's pointer is shifted by this many elements */
    int gpus;                   /* shards: one per GPU */
    int devices[MAX_GPUS];      /* shard g lives on devices[g] */
    struct shard shards[MAX_GPUS];
    void *d_base[MAX_GPUS];     /* what this input allocated and frees (NULL: borrowed) */
    const void *d_in[MAX_GPUS]; /* shard g's first element */
    struct reference ref;       /* of all n elements */
};

/* Whether every shard of n elements over these GPUs fits beside
 * SHARD_MARGIN_BYTES of free memory; if not, false with one line in err
 * naming the GPU, what it needs and what it has. */
bool sharded_input_fits(const int *devices, int gpus, enum element_type t, size_t n,
                        size_t offset, char *err, size_t err_len);

/* Allocates and fills one shard per GPU from the seeded generator, and
 * computes the reference. Returns 0, or -1 with one line in err (nothing
 * left allocated). */
int sharded_input_fill(struct sharded_input *in, const int *devices, int gpus,
                       struct reduce_spec spec, size_t n, size_t offset, enum distribution dist,
                       uint64_t seed, char *err, size_t err_len);

/* The same input as `whole` (one shard, on devices[0]) cut over `gpus`
 * GPUs: shard 0 is borrowed from whole (which must outlive split), the
 * others copied from it. Returns 0, or -1 with one line in err. */
int sharded_input_split(struct sharded_input *split, const struct sharded_input *whole,
                        const int *devices, int gpus, char *err, size_t err_len);

void sharded_input_free(struct sharded_input *in);

#endif
