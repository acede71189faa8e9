/* The multi-GPU shard partition: any n, any number of GPUs, every element
 * size - the shards cover [0, n) exactly once, in order, start on 16 bytes,
 * and are balanced. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "shard_partition.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_G 16

static const size_t SIZES[] = {1, 2, 4, 8}; /* every element size the suite has */

/* Every property at once; prints the case that breaks one. */
static bool partition_is_right(size_t n, int gpus, size_t size)
{
    struct shard s[MAX_G];
    if (partition_shards(n, gpus, size, s) != 0)
        return false;
    const size_t group = 16 / size;
    size_t next = 0, smallest = SIZE_MAX, largest = 0;
    bool ok = true;
    for (int g = 0; g < gpus; ++g) {
        ok &= s[g].first == next;                 /* in order, no gap, no overlap */
        ok &= (s[g].first * size) % 16 == 0;      /* 16-byte start */
        next = s[g].first + s[g].count;
        smallest = s[g].count < smallest ? s[g].count : smallest;
        largest = s[g].count > largest ? s[g].count : largest;
        /* empty only when there are fewer 16-byte groups than GPUs */
        ok &= s[g].count > 0 || n / group < (size_t)gpus;
    }
    ok &= next == n;                              /* exactly [0, n) */
    ok &= largest - smallest < 2 * group;         /* balanced */
    if (!ok)
        fprintf(stderr, "  n = %zu, gpus = %d, element size %zu\n", n, gpus, size);
    return ok;
}

static void shards_should_cover_every_small_n_exactly_once(void)
{
    for (size_t k = 0; k < COUNT(SIZES); ++k)
        for (int gpus = 1; gpus <= MAX_G; ++gpus)
            for (size_t n = 0; n <= 300; ++n)
                CHECK(partition_is_right(n, gpus, SIZES[k]));
}

static void shards_should_cover_large_and_odd_n(void)
{
    static const size_t NS[] = {(size_t)1 << 24,       ((size_t)1 << 24) + 3,
                                ((size_t)1 << 31) + 5, (size_t)53687091200, /* 200 GiB of floats */
                                (size_t)53687091207,   SIZE_MAX / 16,
                                SIZE_MAX - 1,          SIZE_MAX};
    for (size_t k = 0; k < COUNT(SIZES); ++k)
        for (int gpus = 1; gpus <= MAX_G; ++gpus)
            for (size_t i = 0; i < COUNT(NS); ++i)
                CHECK(partition_is_right(NS[i], gpus, SIZES[k]));
}

/* Random n, G and element size against the same properties. */
static void shards_should_hold_their_properties_for_random_cases(void)
{
    uint64_t state = 2024;
    for (int trial = 0; trial < 100000; ++trial) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const size_t n = (size_t)(state >> (16 + (state & 31)));
        const int gpus = 1 + (int)((state >> 8) % MAX_G);
        const size_t size = SIZES[(state >> 4) % COUNT(SIZES)];
        const bool right = partition_is_right(n, gpus, size);
        CHECK(right);
        if (!right)
            return;
    }
}

static void one_gpu_should_get_everything_and_two_should_halve(void)
{
    struct shard s[2];
    CHECK(partition_shards(1000003, 1, 4, s) == 0);
    CHECK(s[0].first == 0 && s[0].count == 1000003);
    CHECK(partition_shards(1 << 28, 2, 4, s) == 0);
    CHECK(s[0].count == 1 << 27 && s[1].first == 1 << 27 && s[1].count == 1 << 27);
    /* 10 floats: two groups of 4 and a tail of 2 */
    CHECK(partition_shards(10, 2, 4, s) == 0);
    CHECK(s[0].count == 4 && s[1].first == 4 && s[1].count == 6);
    /* 3 doubles over 2 GPUs: one group of 2, then the tail on the last GPU */
    CHECK(partition_shards(3, 2, 8, s) == 0);
    CHECK(s[0].count == 2 && s[1].first == 2 && s[1].count == 1);
}

static void fewer_elements_than_gpus_should_leave_the_last_shards_empty(void)
{
    struct shard s[4];
    CHECK(partition_shards(3, 4, 4, s) == 0); /* no whole group: the tail on the last GPU */
    CHECK(s[0].count == 0 && s[1].count == 0 && s[2].count == 0);
    CHECK(s[3].first == 0 && s[3].count == 3);
    CHECK(partition_shards(0, 4, 2, s) == 0);
    for (int g = 0; g < 4; ++g)
        CHECK(s[g].first == 0 && s[g].count == 0);
}

static void bad_arguments_should_be_refused(void)
{
    struct shard s[2];
    CHECK(partition_shards(10, 0, 4, s) == -1);
    CHECK(partition_shards(10, -1, 4, s) == -1);
    CHECK(partition_shards(10, 2, 0, s) == -1);
    CHECK(partition_shards(10, 2, 3, s) == -1);
    CHECK(partition_shards(10, 2, 32, s) == -1);
}

int main(void)
{
    RUN_TEST(shards_should_cover_every_small_n_exactly_once);
    RUN_TEST(shards_should_cover_large_and_odd_n);
    RUN_TEST(shards_should_hold_their_properties_for_random_cases);
    RUN_TEST(one_gpu_should_get_everything_and_two_should_halve);
    RUN_TEST(fewer_elements_than_gpus_should_leave_the_last_shards_empty);
    RUN_TEST(bad_arguments_should_be_refused);
    return test_exit_code();
}
