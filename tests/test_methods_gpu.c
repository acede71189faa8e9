/* Every registered method, at every awkward size, on fresh random data and on
 * data with an exactly known sum, through every way of driving it:
 *   sizes: 0, 1, 2, 31/32/33 (a warp +/- 1), 255..257 and 511..513 (block
 *   sizes +/- 1), 1023..1025, 4097, 32768/32769 (step 17's one-block
 *   limit), 65537, 1000003 (a million + odd), 2^24;
 *   input pointer offset by 0..3 floats (misaligned for 16-byte loads);
 *   pass kernels both padded and power-of-two split.
 * Methods whose results do not vary by design (no float atomics) must also be
 * bitwise identical on a second call. The random seed is printed so a failure
 * can be replayed:  test_methods_gpu [--seed N] [--method NAME] [--quick]
 * --quick is for compute-sanitizer (10-100x slower): a few odd sizes, one
 * distribution, offsets 0 and 1. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_test_support.h"
#include "measure.h"
#include "reference.h"
#include "registry.h"
#include "tma_ring.h"

static const size_t FULL_SIZES[] = {0,    1,    2,     31,    32,    33,      255,
                                    256,  257,  511,   512,   513,   1023,    1024,
                                    1025, 4097, 32768, 32769, 65537, 1000003, 1u << 24};
static const size_t QUICK_SIZES[] = {0, 1, 33, 1025, 100003};
static const enum distribution FULL_DISTS[] = {DIST_UNIFORM, DIST_SMALL_INTS, DIST_SIGNED};
static const enum distribution LARGE_DISTS[] = {DIST_UNIFORM, DIST_SIGNED};
#define LARGEST (1u << 24)
#define MAX_OFFSET 3
#define RING_CHUNK_FLOATS 8192 /* step 18's 32 KB chunk */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct plan {
    const size_t *sizes;
    size_t size_count;
    const enum distribution *dists;
    size_t dist_count;
    size_t max_offset;
};

static size_t largest_size(const struct plan *p)
{
    size_t largest = 0;
    for (size_t i = 0; i < p->size_count; ++i)
        largest = p->sizes[i] > largest ? p->sizes[i] : largest;
    return largest;
}

/* Sizes around the ring's threshold (a whole number of chunks on an H100, but
 * not assumed): the ring with no rest, 1 float of rest, a chunk less 1 float
 * of rest, one float into the next chunk, and an odd size. */
static size_t large_sizes(size_t *sizes, bool quick)
{
    size_t min_n = 0;
    CHECK(tma_ring_min_elements(&min_n) == 0);
    if (min_n == 0) {
        printf("SKIP test_methods_gpu --large: step 18's ring does not run on this GPU\n");
        exit(EXIT_SKIP);
    }
    const size_t whole = (min_n + RING_CHUNK_FLOATS - 1) / RING_CHUNK_FLOATS * RING_CHUNK_FLOATS;
    if (quick) {
        sizes[0] = min_n;
        sizes[1] = whole + RING_CHUNK_FLOATS + 3;
        return 2;
    }
    const size_t all[] = {min_n - 1, min_n, min_n + 1, whole + RING_CHUNK_FLOATS - 1,
                          whole + RING_CHUNK_FLOATS + 1, min_n + 1000003};
    memcpy(sizes, all, sizeof all);
    return COUNT(all);
}

struct buffers {
    float *host;
    float *device; /* the plan's largest size + MAX_OFFSET floats */
    float *d_out;
    void *workspace;
    size_t workspace_bytes;
};

static bool ensure_workspace(struct buffers *b, size_t bytes)
{
    if (bytes <= b->workspace_bytes)
        return true;
    cudaFree(b->workspace);
    b->workspace = NULL;
    b->workspace_bytes = 0;
    if (cudaMalloc(&b->workspace, bytes) != cudaSuccess ||
        cudaMemset(b->workspace, 0, bytes) != cudaSuccess)
        return false;
    b->workspace_bytes = bytes;
    return true;
}

/* One call; returns false (after CHECK-reporting why) if it failed. */
static bool call_method(const struct method *m, enum pass_strategy strategy, const float *d_in,
                        const float *h_in, size_t n, struct buffers *b, float *result)
{
    if (m->host_sum) {
        *result = m->host_sum(h_in, n);
        return true;
    }
    size_t bytes = 0;
    const bool ok = method_workspace_bytes(m, n, &bytes) == 0 && ensure_workspace(b, bytes) &&
                    cudaMemset(b->d_out, 0xFF, sizeof(float)) == cudaSuccess &&
                    run_method_once(m, strategy, d_in, n, b->d_out, b->workspace, 0) == 0 &&
                    cudaMemcpy(result, b->d_out, sizeof *result, cudaMemcpyDeviceToHost) ==
                        cudaSuccess;
    CHECK(ok);
    return ok;
}

static int failures_for_method;

static void check_case(const struct method *m, enum pass_strategy strategy, enum distribution dist,
                       size_t n, size_t offset, uint64_t seed, struct buffers *b)
{
    const struct data_info info = fill_data(b->host, n, dist, seed);
    const struct reference ref = compute_reference(b->host, n, info);
    float *d_in = b->device + offset;
    CHECK(cudaMemcpy(d_in, b->host, n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    const bool sums_abs = (m->flags & METHOD_SUMS_ABS) != 0;
    float first = 0.0f, second = 0.0f;
    if (!call_method(m, strategy, d_in, b->host, n, b, &first) ||
        !call_method(m, strategy, d_in, b->host, n, b, &second)) {
        ++failures_for_method;
        return;
    }
    const bool right = result_passes(first, &ref, sums_abs) && result_passes(second, &ref, sums_abs);
    const bool repeatable = (m->flags & METHOD_ORDER_VARIES) || memcmp(&first, &second, 4) == 0;
    if (info.exact_sum_known)
        CHECK(ref.sum == info.exact_sum);
    if (!right || !repeatable) {
        ++failures_for_method;
        fprintf(stderr,
                "  %s [%s] %s n=%zu offset=%zu: got %.9g then %.9g, want %.9g (bound %.3g)%s\n",
                m->name, m->pass ? pass_strategy_name(strategy) : "-", distribution_name(dist), n,
                offset, first, second, reference_target(&ref, sums_abs), error_bound(&ref),
                repeatable ? "" : " - not bitwise repeatable");
    }
    CHECK(right);
    CHECK(repeatable);
}

static void check_method(const struct method *m, const struct plan *p, uint64_t seed,
                         struct buffers *b)
{
    const int strategies = m->pass ? 2 : 1;
    failures_for_method = 0;
    /* The contract: a method's workspace starts zeroed (a counter lives there). */
    if (b->workspace_bytes)
        CHECK(cudaMemset(b->workspace, 0, b->workspace_bytes) == cudaSuccess);
    for (int s = 0; s < strategies; ++s)
        for (size_t d = 0; d < p->dist_count; ++d)
            for (size_t i = 0; i < p->size_count; ++i)
                for (size_t offset = 0; offset <= p->max_offset; ++offset) {
                    /* the big size once per distribution is enough for the slow rows */
                    if (p->sizes[i] == LARGEST && offset > 0)
                        continue;
                    check_case(m, (enum pass_strategy)s, p->dists[d], p->sizes[i], offset,
                               seed + i * 131 + offset, b);
                }
    printf("%s %s\n", failures_for_method ? "FAIL" : "ok  ", m->name);
}

int main(int argc, char **argv)
{
    skip_without_gpu("test_methods_gpu");
    uint64_t seed = (uint64_t)time(NULL);
    const char *only = NULL;
    bool quick = false, large = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (strcmp(argv[i], "--large") == 0)
            large = true;
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--method") == 0 && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr,
                    "usage: test_methods_gpu [--seed N] [--method NAME] [--quick] [--large]\n");
            return 2;
        }
    }
    size_t ring_sizes[8];
    struct plan plan = {FULL_SIZES, COUNT(FULL_SIZES), FULL_DISTS, COUNT(FULL_DISTS), MAX_OFFSET};
    if (large)
        plan = (struct plan){ring_sizes, large_sizes(ring_sizes, quick), LARGE_DISTS,
                             quick ? 1 : COUNT(LARGE_DISTS), quick ? 1 : MAX_OFFSET};
    else if (quick)
        plan = (struct plan){QUICK_SIZES, COUNT(QUICK_SIZES), FULL_DISTS, 1, 1};
    printf("seed %" PRIu64 " (replay: test_methods_gpu --seed %" PRIu64 ")\n", seed, seed);

    struct buffers b = {0};
    const size_t capacity = largest_size(&plan);
    b.host = malloc(capacity * sizeof(float));
    CHECK(b.host != NULL);
    CHECK(cudaMalloc((void **)&b.device, (capacity + MAX_OFFSET) * sizeof(float)) == cudaSuccess);
    CHECK(cudaMalloc((void **)&b.d_out, sizeof(float)) == cudaSuccess);
    if (check_failures)
        return 1;
    int failed_methods = 0, methods = 0;
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        if (only && strcmp(only, METHODS[i].name) != 0)
            continue;
        check_method(&METHODS[i], &plan, seed, &b);
        failed_methods += failures_for_method != 0;
        ++methods;
    }
    free(b.host);
    cudaFree(b.device);
    cudaFree(b.d_out);
    cudaFree(b.workspace);
    printf("%d passed, %d failed\n", methods - failed_methods, failed_methods);
    return failed_methods || check_failures || methods == 0 ? 1 : 0;
}
