/* results_match (src/gpu/results_match.h) on the GPU: two arrays of results
 * alike but for one word - the first, the last, one in a block's tail - or
 * alike but for an arg result's padding, which it leaves out only when told. */
#include <stdint.h>

#include "gpu_test_support.h"
#include "results_match.h"

/* 2^20 + 5 words: not a whole number of blocks or of waves. */
enum { WORDS = (1 << 20) + 5 };

static struct buffers {
    uint32_t *h, *d_first, *d_results;
    unsigned *d_flag;
    cudaStream_t stream;
} buffers;

/* Whether d_results, after word `at` of the host copy was set to `value`,
 * matches d_first. */
static bool matches_with(struct buffers *b, size_t at, uint32_t value, size_t bytes, bool skip)
{
    const uint32_t kept = b->h[at];
    b->h[at] = value;
    bool same = false;
    /* the copy from pageable memory may return before it lands: wait */
    CHECK(cudaMemcpy(b->d_results, b->h, WORDS * sizeof *b->h, cudaMemcpyHostToDevice) == cudaSuccess &&
          cudaDeviceSynchronize() == cudaSuccess);
    CHECK(results_match(b->d_results, b->d_first, bytes, skip, b->d_flag, b->stream, &same) == 0);
    b->h[at] = kept;
    return same;
}

static void one_word_off_should_differ(void)
{
    struct buffers *b = &buffers;
    const size_t bytes = WORDS * sizeof *b->h;
    CHECK(matches_with(b, 0, b->h[0], bytes, false));
    CHECK(!matches_with(b, 0, b->h[0] ^ 1u, bytes, false));
    CHECK(!matches_with(b, WORDS - 1, b->h[WORDS - 1] + 1, bytes, false));
    CHECK(!matches_with(b, WORDS - 3, 0, bytes, true)); /* word 4k + 2: an index */
    /* a word past `bytes` is not compared */
    CHECK(matches_with(b, WORDS - 1, b->h[WORDS - 1] + 1, bytes - sizeof *b->h, false));
    CHECK(matches_with(b, 7, b->h[7] + 1, 0, false)); /* nothing to compare */
}

static void padding_should_differ_only_when_compared(void)
{
    struct buffers *b = &buffers;
    const size_t bytes = WORDS * sizeof *b->h;
    const size_t padding = 4 * 1000 + 1; /* word 1 of arg result 1000 */
    CHECK(matches_with(b, padding, 0xA5A5A5A5u, bytes, true));
    CHECK(!matches_with(b, padding, 0xA5A5A5A5u, bytes, false));
    CHECK(!matches_with(b, padding + 1, 0xA5A5A5A5u, bytes, true));
}

int main(void)
{
    skip_without_gpu("test_results_match");
    struct buffers *const b = &buffers;
    b->h = malloc(WORDS * sizeof *b->h);
    const bool ready = b->h && cudaMalloc((void **)&b->d_first, WORDS * sizeof *b->h) == cudaSuccess &&
                       cudaMalloc((void **)&b->d_results, WORDS * sizeof *b->h) == cudaSuccess &&
                       cudaMalloc((void **)&b->d_flag, sizeof *b->d_flag) == cudaSuccess &&
                       cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking) == cudaSuccess;
    CHECK(ready);
    if (!ready)
        return 1;
    for (size_t i = 0; i < WORDS; ++i)
        b->h[i] = (uint32_t)(i * 2654435761u) | 1u; /* odd: none is 0 */
    CHECK(cudaMemcpy(b->d_first, b->h, WORDS * sizeof *b->h, cudaMemcpyHostToDevice) == cudaSuccess);
    RUN_TEST(one_word_off_should_differ);
    RUN_TEST(padding_should_differ_only_when_compared);
    cudaStreamDestroy(b->stream);
    cudaFree(b->d_flag);
    cudaFree(b->d_results);
    cudaFree(b->d_first);
    free(b->h);
    return test_exit_code();
}
