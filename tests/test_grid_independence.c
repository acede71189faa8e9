/* Determinism's second level: would a method give the same bits on another
 * GPU? Another GPU is stood in for by forcing other grids on every launcher
 * that chooses its grid (grid_override.h): 1, 7, SMs/2, SMs and 2 SMs
 * blocks. Every method, on floating-point sums (float, double, half,
 * bfloat16) of ill-conditioned and signed data at sizes 0 .. 2^22 + 5, and
 * float sums where step 18's ring runs:
 *   - every result on every grid is right for the method's summation order
 *     (asserted: the bound holds for any grid, and a workspace queried
 *     under a forced grid fits that grid);
 *   - a METHOD_GRID_INDEPENDENT method gives its own grid's bits on every
 *     forced grid (asserted);
 *   - any other method is reported, not asserted: the same bits, other bits
 *     (its first difference shown), or "unforced": no grid the hook reaches
 *     (pass and atomic kernels: n sets the grid; libraries: their own).
 * An int32 sum and a float max are exact in any order: their bits must not
 * change on any grid, for any method (asserted).
 *   test_grid_independence [--method NAME] [--seed N] */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test_support.h"
#include "grid_override.h"
#include "measure.h"
#include "reference.h"
#include "registry.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define PAST_RING_THRESHOLD 1027 /* elements: an odd rest after the ring's chunks */

static const size_t SIZES[] = {0, 1, 33, 1025, 100003, ((size_t)1 << 22) + 5};
static const struct reduce_spec FLOATING_SUMS[] = {
    {TYPE_FLOAT, OP_SUM}, {TYPE_DOUBLE, OP_SUM}, {TYPE_HALF, OP_SUM}, {TYPE_BFLOAT16, OP_SUM}};
static const struct reduce_spec EXACT_PAIRS[] = {{TYPE_INT32, OP_SUM}, {TYPE_FLOAT, OP_MAX}};
static const enum distribution DISTS[] = {DIST_ILL_CONDITIONED, DIST_SIGNED};

/* What each method did over the whole test. */
struct verdict {
    int cases, wrong;          /* cases run; results outside the bound (or failed calls) */
    int forced, differing;     /* cases whose launcher took the forced grids; of them, bits changed */
    int asserted_differing;    /* bits changed where they must not */
    char first_difference[200];
};
static struct verdict verdicts[64];

struct buffers {
    unsigned char *host;
    void *device, *d_out;
    struct device_scratch workspace;
};

struct data_case {
    struct reduce_spec spec;
    enum distribution dist;
    size_t n;
    const void *h_in;
    const struct reference *ref;
};

static struct verdict *verdict_of(const struct method *m)
{
    for (size_t i = 0; i < METHOD_COUNT; ++i)
        if (METHODS[i] == m)
            return &verdicts[i];
    return &verdicts[0];
}

/* One call on the grid in force, with a workspace of the size the method
 * asks for now, zeroed. */
static bool call(const struct method *m, const struct data_case *c, struct buffers *b,
                 double *result)
{
    return call_method_once(m, PASS_PADDED, c->spec, b->device, c->h_in, c->n, &b->workspace,
                            b->d_out, true, 0xFF, result, NULL);
}

static void check_method(const struct method *m, const struct data_case *c,
                         const int grids[FORCED_GRID_COUNT], struct buffers *b)
{
    char reason[160];
    if (method_refuses(m, c->spec, c->n, reason, sizeof reason))
        return;
    struct verdict *v = verdict_of(m);
    const bool sums_abs = (m->flags & METHOD_SUMS_ABS) != 0;
    const bool exact = c->ref->exact || c->spec.op != OP_SUM;
    ++v->cases;
    double natural = 0.0;
    set_grid_override(0);
    bool right = call(m, c, b, &natural) && result_passes(natural, c->ref, m->order, sums_abs);
    const unsigned long uses_before = forced_grid_uses();
    bool differs = false;
    for (int g = 0; g < FORCED_GRID_COUNT && right; ++g) {
        set_grid_override(grids[g]);
        double forced = 0.0;
        right = call(m, c, b, &forced) && result_passes(forced, c->ref, m->order, sums_abs);
        if (right && memcmp(&forced, &natural, sizeof forced) != 0 && !differs) {
            differs = true;
            if (!v->first_difference[0])
                snprintf(v->first_difference, sizeof v->first_difference,
                         "%s %s %s n=%zu: %.17g on its own grid, %.17g on %d blocks",
                         element_type_name(c->spec.type), reduce_op_name(c->spec.op),
                         distribution_name(c->dist), c->n, natural, forced, grids[g]);
        }
    }
    set_grid_override(0);
    v->forced += forced_grid_uses() > uses_before;
    v->differing += differs;
    if (differs && (exact || (m->flags & METHOD_GRID_INDEPENDENT)))
        ++v->asserted_differing;
    if (!right && v->wrong++ < 3)
        fprintf(stderr, "  %s %s %s %s n=%zu: outside its %s bound %.3g (want %.17g) on some grid\n",
                m->name, element_type_name(c->spec.type), reduce_op_name(c->spec.op),
                distribution_name(c->dist), c->n, summation_kind_name(m->order.kind),
                error_bound(c->ref, m->order), reference_target(c->ref, sums_abs));
}

static void run_case(const char *method, struct reduce_spec spec, enum distribution dist, size_t n,
                     uint64_t seed, const int grids[FORCED_GRID_COUNT], struct buffers *b)
{
    const struct data_info info = fill_data(b->host, n, spec.type, dist, seed);
    CHECK(cudaMemcpy(b->device, b->host, n * element_size(spec.type), cudaMemcpyHostToDevice) ==
          cudaSuccess);
    const struct reference ref = compute_reference(spec, b->host, n, info);
    const struct data_case c = {spec, dist, n, b->host, &ref};
    for (size_t i = 0; i < METHOD_COUNT; ++i) /* rows and segments: test_shapes_gpu */
        if ((!method || strcmp(method, METHODS[i]->name) == 0) &&
            method_takes_shape(METHODS[i], SHAPE_WHOLE))
            check_method(METHODS[i], &c, grids, b);
}

/* One line per method; returns the methods that failed an assertion. */
static int report(void)
{
    int failed = 0;
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const struct method *m = METHODS[i];
        const struct verdict *v = &verdicts[i];
        if (v->cases == 0)
            continue;
        const bool promised = (m->flags & METHOD_GRID_INDEPENDENT) != 0;
        const bool ok = v->wrong == 0 && v->asserted_differing == 0;
        failed += !ok;
        printf("%s %-20s %4d cases, %d wrong; ", ok ? "ok  " : "FAIL", m->name, v->cases, v->wrong);
        if (v->forced == 0)
            printf("unforced: %s%s\n",
                   m->host ? "no GPU grid" : m->pass || (m->flags & METHOD_ORDER_VARIES)
                                                 ? "n sets its grid"
                                                 : "the library's own grid",
                   promised ? " (grid-independent by construction)" : "");
        else if (v->differing == 0)
            printf("same bits on every forced grid (%s)\n", promised ? "asserted" : "reported");
        else
            printf("%d of %d cases differ%s - %s\n", v->differing, v->forced,
                   promised ? " (asserted: FAIL)" : " (reported)", v->first_difference);
    }
    return failed;
}

int main(int argc, char **argv)
{
    const char *method = NULL;
    uint64_t seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--method") == 0 && find_method(argv[i + 1]))
            method = argv[i + 1];
        else if (strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[i + 1], NULL, 10);
        else
            argc = -1;
    }
    if (argc < 0 || argc % 2 == 0) {
        fprintf(stderr, "usage: test_grid_independence [--method NAME] [--seed N]\n");
        return 2;
    }
    skip_without_gpu("test_grid_independence");
    CHECK(METHOD_COUNT <= COUNT(verdicts));
    int device = 0, sm_count = 0;
    CHECK(cudaGetDevice(&device) == cudaSuccess &&
          cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device) == cudaSuccess);
    int grids[FORCED_GRID_COUNT];
    forced_grids(sm_count, grids);
    printf("seed %" PRIu64 "; forced grids %d, %d, %d, %d, %d blocks (%d SMs)\n", seed, grids[0],
           grids[1], grids[2], grids[3], grids[4], sm_count);

    /* where step 18's own ring runs (0: not on this GPU) */
    const size_t ring_n = own_kernel_from("tma_ring", (struct reduce_spec){TYPE_FLOAT, OP_SUM});
    const size_t most_bytes = SIZES[COUNT(SIZES) - 1] * sizeof(double);
    const size_t ring_bytes = ring_n > 0 ? (ring_n + PAST_RING_THRESHOLD) * sizeof(float) : 0;
    const size_t capacity = most_bytes > ring_bytes ? most_bytes : ring_bytes;
    struct buffers b = {.host = malloc(capacity)};
    CHECK(b.host && cudaMalloc(&b.device, capacity) == cudaSuccess &&
          cudaMalloc(&b.d_out, MAX_RESULT_BYTES) == cudaSuccess);
    if (check_failures)
        return 1;

    uint64_t case_seed = seed;
    for (size_t s = 0; s < COUNT(SIZES); ++s) {
        for (size_t p = 0; p < COUNT(FLOATING_SUMS); ++p)
            for (size_t d = 0; d < COUNT(DISTS); ++d)
                run_case(method, FLOATING_SUMS[p], DISTS[d], SIZES[s], case_seed++, grids, &b);
        for (size_t p = 0; p < COUNT(EXACT_PAIRS); ++p)
            run_case(method, EXACT_PAIRS[p], DIST_SIGNED, SIZES[s], case_seed++, grids, &b);
        printf("done n = %zu\n", SIZES[s]);
        fflush(stdout);
    }
    if (ring_n > 0)
        run_case(method, (struct reduce_spec){TYPE_FLOAT, OP_SUM}, DIST_ILL_CONDITIONED,
                 ring_n + PAST_RING_THRESHOLD, case_seed++, grids, &b);

    const int failed = report();
    free(b.host);
    cudaFree(b.device);
    cudaFree(b.d_out);
    cudaFree(b.workspace.ptr);
    printf("%s\n", failed || check_failures ? "FAIL" : "ok: every result right on every grid; "
                                                       "grid-independent methods kept their bits");
    return failed || check_failures ? 1 : 0;
}
