#include "shard_partition.h"

int partition_shards(size_t n, int gpus, size_t element_size, struct shard *shards)
{
    if (gpus < 1 || element_size == 0 || element_size > SHARD_ALIGN_BYTES ||
        SHARD_ALIGN_BYTES % element_size != 0)
        return -1;
    const size_t group = SHARD_ALIGN_BYTES / element_size; /* elements per 16 bytes */
    const size_t groups = n / group, g_count = (size_t)gpus;
    size_t first = 0;
    for (size_t g = 0; g < g_count; ++g) {
        const size_t mine = groups / g_count + (g < groups % g_count);
        shards[g].first = first;
        shards[g].count = mine * group;
        first += shards[g].count;
    }
    shards[g_count - 1].count += n - first; /* the tail under 16 bytes */
    return 0;
}
