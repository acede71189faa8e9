/* Seed 000's power-of-two split of any length into block-sized chunks. */
#include "check.h"
#include "pow2_split.h"

static void seed_example_1856_should_split_into_1024_512_and_tail_320(void)
{
    const struct pow2_split p = pow2_split_plan(1856, 512);
    CHECK(p.chunks == 2);
    CHECK(p.chunk_len[0] == 1024 && p.chunk_len[1] == 512);
    CHECK(p.tail_len == 320);
}

static void chunks_and_tail_should_cover_n_for_awkward_sizes(void)
{
    const size_t sizes[] = {0, 1, 31, 32, 33, 511, 512, 513, 1000003, 509600000, ((size_t)1 << 31) + 5};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        const struct pow2_split p = pow2_split_plan(sizes[s], 512);
        size_t covered = p.tail_len;
        for (unsigned c = 0; c < p.chunks; ++c) {
            covered += p.chunk_len[c];
            CHECK(p.chunk_len[c] >= 512);
            CHECK((p.chunk_len[c] & (p.chunk_len[c] - 1)) == 0); /* a power of two */
            if (c > 0)
                CHECK(p.chunk_len[c] < p.chunk_len[c - 1]);
        }
        CHECK(covered == sizes[s]);
        CHECK(p.tail_len < 512);
    }
}

static void exact_power_of_two_should_be_one_chunk_without_tail(void)
{
    const struct pow2_split p = pow2_split_plan((size_t)1 << 24, 256);
    CHECK(p.chunks == 1 && p.chunk_len[0] == ((size_t)1 << 24) && p.tail_len == 0);
}

int main(void)
{
    RUN_TEST(seed_example_1856_should_split_into_1024_512_and_tail_320);
    RUN_TEST(chunks_and_tail_should_cover_n_for_awkward_sizes);
    RUN_TEST(exact_power_of_two_should_be_one_chunk_without_tail);
    return test_exit_code();
}
