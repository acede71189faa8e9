/* Every registered method, for every (element type, operator) pair it
 * declares, at every awkward size, on fresh random data and on data with an
 * exactly known answer, through every way of driving it:
 *   sizes: 0, 1, 2, 31/32/33 (a warp +/- 1), 255..257, 511..513, 1023..1025
 *   (block sizes +/- 1), 4097, 65537, 1000003 (odd), step 17's one-block
 *   limits +/- 1 (8 KiB and 128 KiB of elements), 2^24 + 3;
 *   input pointer offset by every whole number of elements under 16 bytes
 *   (0..3 floats, 0..7 halves, 0..1 doubles: misaligned for 16-byte loads);
 *   at every size and offset small-ints (an exactly known sum) and one of
 *   uniform, wide-range, signed and ill-conditioned, rotating with size and
 *   offset so each offset meets each of them (--every-distribution: all five
 *   at every size and offset) - each method within the bound of its summation
 *   order (no false FAIL for a serial chain on wide-range data);
 *   max and min with an extreme value planted at the first, the last or a
 *   random index (integer results, max and min must match bit for bit);
 *   argmax and argmin, index and value bit for bit, with the extreme planted
 *   twice (a tie: the lower index wins) from the first, the last or a random
 *   index, then - floating types - two NaNs planted the same way (the first
 *   NaN wins; not for a METHOD_OWN_NAN_RULE library), and up to 65537
 *   elements an all-equal input and one of nothing but the operator's
 *   identity, -inf for an argmax of floats (index 0 both);
 *   pass kernels both padded and power-of-two split.
 * Each case is called twice, the result slot poisoned with different bytes
 * each time (an unwritten result cannot match twice); methods whose results
 * do not vary by design (no atomics) must give the same bits both times.
 * The data holds no NaN: our kernels' max/min ignore NaN (fmaxf), CUB's
 * propagate it from one side only, so NaN inputs give method-dependent results.
 *
 *   test_methods_gpu [--seed N] [--method NAME] [--type T] [--op OP] [--quick] [--large]
 *                    [--every-distribution]
 * The default is CTest's default set: 2 of the 5 distributions per (size,
 * offset), every size and offset kept; --every-distribution, all 5, is the
 * exhaustive label's (--quick and --large keep their one distribution).
 * --quick is for compute-sanitizer (10-100x slower): one pair per element
 * type, a few odd sizes, offsets 0 and 1. --large runs step 18's ring (only
 * from ~2^26 floats): sizes around its threshold, every pair. The seed is
 * printed so a failure can be replayed. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_test_support.h"
#include "measure.h"
#include "reference.h"
#include "registry.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_SIZES 32
#define BIG (((size_t)1 << 24) + 3)
#define RING_CHUNK_BYTES 32768 /* step 18's chunk */
#define VECTOR_BYTES 16

static const size_t COMMON_SIZES[] = {0,    1,    2,    31,   32,    33,    255,     256, 257,
                                      511,  512,  513,  1023, 1024,  1025,  4097,    65537,
                                      1000003, BIG};
static const size_t QUICK_SIZES[] = {0, 1, 33, 1025, 100003};
static const enum distribution FULL_DISTS[] = {DIST_UNIFORM, DIST_SMALL_INTS, DIST_WIDE_RANGE,
                                               DIST_SIGNED, DIST_ILL_CONDITIONED};
/* The default run's random distributions, one per (size, offset) case beside
 * small-ints. */
static const enum distribution ROTATED_DISTS[] = {DIST_UNIFORM, DIST_WIDE_RANGE, DIST_SIGNED,
                                                  DIST_ILL_CONDITIONED};

struct options {
    uint64_t seed;
    const char *method;
    enum element_type type; /* TYPE_COUNT: all */
    enum reduce_op op;      /* OP_COUNT: all */
    bool quick, large, every_distribution;
};

struct buffers {
    unsigned char *host;
    unsigned char *device; /* the largest case + 16 bytes of offset */
    void *d_out;
    struct device_scratch workspace;
};

/* Per method: cases run and failed, over the whole test. */
static int cases_run[64], cases_failed[64];

static size_t method_index(const struct method *m)
{
    for (size_t i = 0; i < METHOD_COUNT; ++i)
        if (METHODS[i] == m)
            return i;
    return 0;
}

/* Sizes for type t: the common list plus step 17's limits in elements:
 * one 256-thread block up to 8 KiB, one 1024-thread block up to 128 KiB. */
static size_t sizes_for(enum element_type t, bool quick, size_t *sizes)
{
    size_t count = 0;
    if (quick) {
        memcpy(sizes, QUICK_SIZES, sizeof QUICK_SIZES);
        return COUNT(QUICK_SIZES);
    }
    for (size_t i = 0; i < COUNT(COMMON_SIZES); ++i)
        sizes[count++] = COMMON_SIZES[i];
    const size_t small = 8192 / element_size(t), one_block = 131072 / element_size(t);
    const size_t limits[] = {small, small + 1, one_block, one_block + 1};
    for (size_t i = 0; i < COUNT(limits); ++i)
        sizes[count++] = limits[i];
    return count;
}

/* Sizes around step 18's threshold for spec: the ring with no rest, a chunk
 * less one element of rest, an odd size (--quick: the first and an odd size
 * three elements into a chunk). Each is ~240 MB of data to draw on the host. */
static size_t large_sizes_for(struct reduce_spec spec, bool quick, size_t *sizes)
{
    const size_t min_n = own_kernel_from("tma_ring", spec);
    if (min_n == 0) {
        printf("SKIP test_methods_gpu --large: step 18's ring does not run on this GPU\n");
        exit(EXIT_SKIP);
    }
    const size_t chunk = RING_CHUNK_BYTES / element_size(spec.type);
    const size_t whole = (min_n + chunk - 1) / chunk * chunk;
    if (quick) {
        sizes[0] = min_n;
        sizes[1] = whole + chunk + 3;
        return 2;
    }
    const size_t all[] = {min_n, whole + 2 * chunk - 1, min_n + 1000003};
    memcpy(sizes, all, sizeof all);
    return COUNT(all);
}

struct data_case {
    struct reduce_spec spec;
    enum distribution dist;
    size_t n, offset;
    const void *d_in, *h_in;
    const struct reference *ref;
    const char *planted; /* argmax, argmin: what was planted, for messages */
    bool has_nan;
};

/* Two calls of an argmax or argmin method, index and value checked after
 * each (an arg result is the same bits whatever the order: no method may
 * vary). */
static void check_arg_method(const struct method *m, const struct data_case *c, struct buffers *b)
{
    const bool sums_abs = (m->flags & METHOD_SUMS_ABS) != 0;
    const size_t i = method_index(m);
    double value[2] = {0.0, 0.0};
    long long index[2] = {0, 0};
    ++cases_run[i];
    bool right = true;
    for (int call = 0; call < 2 && right; ++call)
        right = call_method_once(m, PASS_PADDED, c->spec, c->d_in, c->h_in, c->n, &b->workspace,
                                 b->d_out, call == 0, call ? 0x5A : 0xFF, &value[call],
                                 &index[call]) &&
                arg_result_passes(value[call], index[call], reference_extreme(c->ref, sums_abs));
    if (right || cases_failed[i]++ >= 5)
        return;
    const struct extreme want = reference_extreme(c->ref, sums_abs);
    fprintf(stderr,
            "  %s %s %s %s n=%zu offset=%zu (%s): got %.17g at %lld then %.17g at %lld, want "
            "%.17g at %lld\n",
            m->name, element_type_name(c->spec.type), reduce_op_name(c->spec.op),
            distribution_name(c->dist), c->n, c->offset, c->planted, value[0], index[0], value[1],
            index[1], want.value, want.index);
}

static void check_method(const struct method *m, const struct data_case *c, struct buffers *b)
{
    char reason[160];
    if (method_refuses(m, c->spec, c->n, reason, sizeof reason))
        return;
    if (c->has_nan && (m->flags & METHOD_OWN_NAN_RULE))
        return; /* the library's own NaN rule: checked on NaN-free data */
    if (is_arg_op(c->spec.op)) {
        check_arg_method(m, c, b);
        return;
    }
    const bool sums_abs = (m->flags & METHOD_SUMS_ABS) && c->spec.op == OP_SUM;
    /* Only a floating-point sum's rounding depends on the order atomics land in. */
    const bool may_vary = (m->flags & METHOD_ORDER_VARIES) && c->spec.op == OP_SUM &&
                          !is_integer_type(c->spec.type);
    for (int s = 0; s < (m->pass ? 2 : 1); ++s) {
        const size_t i = method_index(m);
        ++cases_run[i];
        double first = 0.0, second = 0.0;
        const bool called =
            call_method_once(m, (enum pass_strategy)s, c->spec, c->d_in, c->h_in, c->n,
                             &b->workspace, b->d_out, true, 0xFF, &first, NULL) &&
            call_method_once(m, (enum pass_strategy)s, c->spec, c->d_in, c->h_in, c->n,
                             &b->workspace, b->d_out, false, 0x5A, &second, NULL);
        const bool right = called && result_passes(first, c->ref, m->order, sums_abs) &&
                           result_passes(second, c->ref, m->order, sums_abs);
        const bool repeatable = may_vary || memcmp(&first, &second, sizeof first) == 0;
        if (right && repeatable)
            continue;
        if (cases_failed[i]++ < 5)
            fprintf(stderr,
                    "  %s [%s] %s %s %s n=%zu offset=%zu: got %.17g then %.17g, want %.17g "
                    "(bound %.3g)%s\n",
                    m->name, m->pass ? pass_strategy_name((enum pass_strategy)s) : "-",
                    element_type_name(c->spec.type), reduce_op_name(c->spec.op),
                    distribution_name(c->dist), c->n, c->offset, first, second,
                    reference_target(c->ref, sums_abs), error_bound(c->ref, m->order),
                    repeatable ? "" : " - not bitwise repeatable");
    }
}

static void run_methods(const struct options *o, const struct data_case *c, struct buffers *b)
{
    for (size_t i = 0; i < METHOD_COUNT; ++i) /* rows and segments: test_shapes_gpu */
        if ((!o->method || strcmp(o->method, METHODS[i]->name) == 0) &&
            method_takes_shape(METHODS[i], SHAPE_WHOLE))
            check_method(METHODS[i], c, b);
}

static bool wants(const struct options *o, struct reduce_spec spec)
{
    if (o->quick && !o->large)
        return is_quick_pair(spec);
    return (o->type == TYPE_COUNT || o->type == spec.type) && (o->op == OP_COUNT || o->op == spec.op);
}

/* Writes v at the host's and the device's index at (element size `size`). */
static void plant(struct buffers *b, unsigned char *d_in, enum element_type t, size_t at, double v)
{
    const size_t size = element_size(t);
    store_from_double(t, b->host, at, v);
    CHECK(cudaMemcpy(d_in + at * size, b->host + at * size, size, cudaMemcpyHostToDevice) ==
          cudaSuccess);
}

/* The methods on the input as it now is, its extremes found again. */
static void run_arg_case(const struct options *o, struct reduce_spec spec, enum distribution dist,
                         size_t n, size_t offset, struct buffers *b, const struct reference *drawn,
                         const char *planted, bool has_nan)
{
    struct reference ref = *drawn;
    ref.spec = spec;
    recompute_extremes(&ref, spec.type, b->host, n);
    const struct data_case c = {spec, dist, n, offset, b->device + offset * element_size(spec.type),
                                b->host, &ref, planted, has_nan};
    run_methods(o, &c, b);
}

/* argmax or argmin on the drawn input, then three ways, the input restored
 * after each: the extreme planted at the first, the last or a random index
 * and again later (a tie); two NaNs the same way (floating types); every
 * element equal to the first, and every element the operator's identity -
 * -inf for an argmax of floats, the lowest integer: a value no element
 * beats, so the index must come from the tie rule, not from an empty
 * accumulator (up to 65537 elements: a whole upload each). */
static void run_arg_cases(const struct options *o, struct reduce_spec spec, enum distribution dist,
                          size_t n, size_t offset, uint64_t seed, struct buffers *b,
                          const struct reference *drawn)
{
    const enum element_type t = spec.type;
    const size_t size = element_size(t);
    unsigned char *d_in = b->device + offset * size;
    run_arg_case(o, spec, dist, n, offset, b, drawn, "as drawn", false);
    if (n < 2)
        return;
    /* the first, the last (alone: no tie after it) or a random index */
    const size_t at = seed % 3 == 0 ? 0 : seed % 3 == 1 ? n - 1 : seed % (n - 1);
    const size_t again = at == n - 1 ? at : at + 1 + (seed >> 8) % (n - 1 - at);
    unsigned char saved[2][8];
    memcpy(saved[0], b->host + at * size, size);
    memcpy(saved[1], b->host + again * size, size);
    const double values[] = {extreme_value(t, spec.op), NAN};
    for (int k = 0; k < (is_integer_type(t) ? 1 : 2); ++k) {
        plant(b, d_in, t, again, values[k]);
        plant(b, d_in, t, at, values[k]);
        run_arg_case(o, spec, dist, n, offset, b, drawn, k ? "two NaNs" : "a tied extreme", k == 1);
    }
    memcpy(b->host + at * size, saved[0], size);
    memcpy(b->host + again * size, saved[1], size);
    CHECK(cudaMemcpy(d_in + at * size, saved[0], size, cudaMemcpyHostToDevice) == cudaSuccess &&
          cudaMemcpy(d_in + again * size, saved[1], size, cudaMemcpyHostToDevice) == cudaSuccess);
    if (n > 65537)
        return;
    unsigned char *copy = malloc(n * size);
    CHECK(copy != NULL);
    memcpy(copy, b->host, n * size);
    for (size_t i = 1; i < n; ++i)
        memcpy(b->host + i * size, b->host, size);
    CHECK(cudaMemcpy(d_in, b->host, n * size, cudaMemcpyHostToDevice) == cudaSuccess);
    run_arg_case(o, spec, dist, n, offset, b, drawn, "all equal", false);
    for (size_t i = 0; i < n; ++i)
        store_from_double(t, b->host, i, identity_as_double(spec.op, t));
    CHECK(cudaMemcpy(d_in, b->host, n * size, cudaMemcpyHostToDevice) == cudaSuccess);
    run_arg_case(o, spec, dist, n, offset, b, drawn, "all the identity", false);
    memcpy(b->host, copy, n * size);
    CHECK(cudaMemcpy(d_in, b->host, n * size, cudaMemcpyHostToDevice) == cudaSuccess);
    free(copy);
}

/* One filled buffer, then every wanted operator on it: sums as drawn; max and
 * min with the extreme planted at the first, the last or a pseudo-random
 * index (restored afterwards), the reference patched to match; argmax and
 * argmin as run_arg_cases says. */
static void run_data_case(const struct options *o, enum element_type t, enum distribution dist,
                          size_t n, size_t offset, uint64_t seed, struct buffers *b)
{
    const size_t size = element_size(t);
    const struct data_info info = fill_data(b->host, n, t, dist, seed);
    unsigned char *d_in = b->device + offset * size;
    CHECK(cudaMemcpy(d_in, b->host, n * size, cudaMemcpyHostToDevice) == cudaSuccess);
    /* One pass over the data gives sum, max and min: the reference of every operator. */
    const struct reference drawn = compute_reference((struct reduce_spec){t, OP_SUM}, b->host, n, info);
    if (info.exact_sum_known)
        CHECK(drawn.sum == info.exact_sum);
    for (int op = 0; op < OP_COUNT; ++op) {
        const struct reduce_spec spec = {t, (enum reduce_op)op};
        if (!wants(o, spec))
            continue;
        if (is_arg_op(spec.op)) {
            run_arg_cases(o, spec, dist, n, offset, seed, b, &drawn);
            continue;
        }
        struct reference ref = drawn;
        ref.spec = spec;
        const size_t at = n == 0 ? 0 : seed % 3 == 0 ? 0 : seed % 3 == 1 ? n - 1 : seed % n;
        unsigned char saved[8];
        const bool plant = op != OP_SUM && n > 0;
        if (plant) {
            memcpy(saved, b->host + at * size, size);
            store_from_double(t, b->host, at, extreme_value(t, spec.op));
            CHECK(cudaMemcpy(d_in + at * size, b->host + at * size, size, cudaMemcpyHostToDevice) ==
                  cudaSuccess);
            if (op == OP_MAX)
                ref.max = extreme_value(t, OP_MAX);
            else
                ref.min = extreme_value(t, OP_MIN);
        }
        const struct data_case c = {spec, dist, n, offset, d_in, b->host, &ref, "", false};
        run_methods(o, &c, b);
        if (plant) {
            memcpy(b->host + at * size, saved, size);
            CHECK(cudaMemcpy(d_in + at * size, saved, size, cudaMemcpyHostToDevice) == cudaSuccess);
        }
    }
}

static bool type_wanted(const struct options *o, enum element_type t)
{
    for (int op = 0; op < OP_COUNT; ++op)
        if (wants(o, (struct reduce_spec){t, (enum reduce_op)op}))
            return true;
    return false;
}

/* The distributions drawn for the case of the size_index-th size at offset:
 * --quick and --large (their cost is the sanitizer or the ~240 MB draw) one,
 * signed; --every-distribution all five; otherwise small-ints and one of the
 * others, rotated by size_index + offset so that every offset, and every size
 * with several offsets, meets more than one of them. */
static size_t distributions_for(const struct options *o, size_t size_index, size_t offset,
                                enum distribution *dists)
{
    if (o->quick || o->large) {
        dists[0] = DIST_SIGNED;
        return 1;
    }
    if (o->every_distribution) {
        memcpy(dists, FULL_DISTS, sizeof FULL_DISTS);
        return COUNT(FULL_DISTS);
    }
    dists[0] = DIST_SMALL_INTS;
    dists[1] = ROTATED_DISTS[(size_index + offset) % COUNT(ROTATED_DISTS)];
    return 2;
}

static void run_type(const struct options *o, enum element_type t, struct buffers *b)
{
    size_t sizes[MAX_SIZES];
    const size_t max_offset = o->quick ? 1 : VECTOR_BYTES / element_size(t) - 1;
    const size_t size_count =
        o->large ? large_sizes_for((struct reduce_spec){t, OP_SUM}, o->quick, sizes)
                 : sizes_for(t, o->quick, sizes);
    uint64_t case_seed = o->seed;
    for (size_t i = 0; i < size_count; ++i)
        for (size_t offset = 0; offset <= max_offset; ++offset) {
            /* the big sizes at two offsets are enough for the slow rows */
            if ((sizes[i] == BIG || o->large) && offset > 1)
                continue;
            enum distribution dists[DIST_COUNT];
            const size_t dist_count = distributions_for(o, i, offset, dists);
            for (size_t d = 0; d < dist_count; ++d)
                run_data_case(o, t, dists[d], sizes[i], offset, case_seed++, b);
        }
    printf("done %s\n", element_type_name(t));
    fflush(stdout);
}

static size_t largest_bytes(const struct options *o)
{
    size_t largest = BIG * 8;
    for (int t = 0; o->large && t < TYPE_COUNT; ++t) {
        size_t sizes[MAX_SIZES];
        const size_t count = large_sizes_for((struct reduce_spec){(enum element_type)t, OP_SUM},
                                             o->quick, sizes);
        for (size_t i = 0; i < count; ++i)
            if (sizes[i] * element_size((enum element_type)t) > largest)
                largest = sizes[i] * element_size((enum element_type)t);
    }
    return largest;
}

static bool parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){.seed = (uint64_t)time(NULL), .type = TYPE_COUNT, .op = OP_COUNT};
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        if (strcmp(argv[i], "--quick") == 0)
            o->quick = true;
        else if (strcmp(argv[i], "--large") == 0)
            o->large = true;
        else if (strcmp(argv[i], "--every-distribution") == 0)
            o->every_distribution = true;
        else if (strcmp(argv[i], "--seed") == 0 && has_value)
            o->seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--method") == 0 && has_value)
            o->method = argv[++i];
        else if (strcmp(argv[i], "--type") == 0 && has_value &&
                 (o->type = element_type_from_name(argv[++i])) != TYPE_COUNT)
            continue;
        else if (strcmp(argv[i], "--op") == 0 && has_value &&
                 (o->op = reduce_op_from_name(argv[++i])) != OP_COUNT)
            continue;
        else
            return false;
    }
    return !o->method || find_method(o->method);
}

int main(int argc, char **argv)
{
    struct options o;
    if (!parse_options(argc, argv, &o)) {
        fprintf(stderr, "usage: test_methods_gpu [--seed N] [--method NAME] [--type T] [--op OP] "
                        "[--quick] [--large] [--every-distribution]\n");
        return 2;
    }
    skip_without_gpu("test_methods_gpu");
    CHECK(METHOD_COUNT <= COUNT(cases_run));
    printf("seed %" PRIu64 " (replay: test_methods_gpu --seed %" PRIu64 ")\n", o.seed, o.seed);

    struct buffers b = {0};
    const size_t capacity = largest_bytes(&o);
    b.host = malloc(capacity);
    CHECK(b.host != NULL);
    CHECK(cudaMalloc((void **)&b.device, capacity + VECTOR_BYTES) == cudaSuccess);
    CHECK(cudaMalloc(&b.d_out, MAX_RESULT_BYTES) == cudaSuccess);
    if (check_failures)
        return 1;
    for (int t = 0; t < TYPE_COUNT; ++t)
        if (type_wanted(&o, (enum element_type)t))
            run_type(&o, (enum element_type)t, &b);

    int failed_methods = 0, methods = 0;
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        if (cases_run[i] == 0)
            continue;
        printf("%s %-20s %6d cases, %d failed\n", cases_failed[i] ? "FAIL" : "ok  ",
               METHODS[i]->name, cases_run[i], cases_failed[i]);
        failed_methods += cases_failed[i] != 0;
        ++methods;
    }
    free(b.host);
    cudaFree(b.device);
    cudaFree(b.d_out);
    cudaFree(b.workspace.ptr);
    printf("%d passed, %d failed\n", methods - failed_methods, failed_methods);
    return failed_methods || check_failures || methods == 0 ? 1 : 0;
}
