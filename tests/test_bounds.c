/* The PASS/FAIL bound of each summation order (summation_order.h,
 * reference.h) on adversarial data: catastrophic cancellation, stagnation
 * of a running total at 2^24 (2^53), a huge dynamic range, exact data.
 * Each order is simulated on the CPU in the accumulator's own arithmetic -
 * a serial chain, block passes of pairwise trees, thread chains over grids
 * of 1, 7 and 264 blocks - and must stay inside its own bound; a
 * deliberately broken sum (a term counted twice, a sign flipped, a term
 * dropped) must fall outside it; and a chain's honest loss must fall
 * outside a tree's bound: FAIL means "wrong for its order". */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reference.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct summation_order CHAIN = {.kind = ORDER_SERIAL_CHAIN};
/* What block_passes_sum computes: pairwise trees of 256 inputs, 8 deep. */
static const struct summation_order PASSES = {.kind = ORDER_BLOCK_PASSES, .width = 256, .depth = 8};
/* What thread_chains_sum computes: 256 threads a block, a pairwise tree over them. */
static const struct summation_order CHAINS = {.kind = ORDER_THREAD_CHAINS, .width = 256, .depth = 8};
static const int GRIDS[] = {1, 7, 264};

/* ---- the orders, simulated in the accumulator's arithmetic */

/* a + b rounded once to the accumulator (a and b are values of it). */
static double add(enum element_type accumulator, double a, double b)
{
    return accumulator == TYPE_FLOAT ? (double)((float)a + (float)b) : a + b;
}

static double chain_sum(enum element_type acc, const double *x, size_t n)
{
    double total = 0.0;
    for (size_t i = 0; i < n; ++i)
        total = add(acc, total, x[i]);
    return total;
}

/* Halves, summed recursively: ceil(log2 n) additions deep. */
static double pairwise_sum(enum element_type acc, const double *x, size_t n)
{
    if (n == 0)
        return 0.0;
    if (n == 1)
        return x[0];
    return add(acc, pairwise_sum(acc, x, n / 2), pairwise_sum(acc, x + n / 2, n - n / 2));
}

/* Passes of one pairwise tree per `width` inputs, until one value is left. */
static double block_passes_sum(enum element_type acc, const double *x, size_t n, size_t width)
{
    if (n == 0)
        return 0.0;
    double *level = malloc(n * sizeof *level);
    memcpy(level, x, n * sizeof *x);
    for (size_t len = n; len > 1;) {
        size_t partials = 0;
        for (size_t first = 0; first < len; first += width)
            level[partials++] = pairwise_sum(acc, level + first, len - first < width ? len - first : width);
        len = partials;
    }
    const double total = level[0];
    free(level);
    return total;
}

/* A grid-stride kernel: thread t of `blocks` x `threads` chains x[t],
 * x[t + blocks threads], ...; each block a pairwise tree over its threads;
 * one block then does the same over the blocks' partials. */
static double thread_chains_sum(enum element_type acc, const double *x, size_t n, size_t threads,
                                size_t blocks)
{
    double *per_thread = calloc(blocks * threads, sizeof *per_thread);
    double *partials = calloc(blocks, sizeof *partials);
    double *lanes = calloc(threads, sizeof *lanes);
    for (size_t i = 0; i < n; ++i)
        per_thread[i % (blocks * threads)] = add(acc, per_thread[i % (blocks * threads)], x[i]);
    for (size_t b = 0; b < blocks; ++b)
        partials[b] = pairwise_sum(acc, per_thread + b * threads, threads);
    for (size_t b = 0; b < blocks; ++b)
        lanes[b % threads] = add(acc, lanes[b % threads], partials[b]);
    const double total = blocks == 1 ? partials[0] : pairwise_sum(acc, lanes, threads);
    free(per_thread);
    free(partials);
    free(lanes);
    return total;
}

/* ---- data of either accumulator type, and its reference */

struct data {
    enum element_type type; /* TYPE_FLOAT or TYPE_DOUBLE */
    double *x;              /* values of that type */
    size_t n;
};

static struct data make_data(enum element_type type, size_t n)
{
    return (struct data){type, calloc(n ? n : 1, sizeof(double)), n};
}

static struct reference reference_of(const struct data *d)
{
    void *typed = malloc((d->n ? d->n : 1) * element_size(d->type));
    for (size_t i = 0; i < d->n; ++i)
        store_from_double(d->type, typed, i, d->x[i]);
    const struct data_info inexact = {.exact_sum_known = false};
    const struct reference ref =
        compute_reference((struct reduce_spec){d->type, OP_SUM}, typed, d->n, inexact);
    free(typed);
    return ref;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A random value of the type: sign, significand and an exponent in [lo, hi]. */
static double random_value(enum element_type type, uint64_t *state, int lo, int hi)
{
    const int bits = type == TYPE_FLOAT ? 24 : 53;
    const double significand = ldexp((double)(next_random(state) >> (64 - bits)), -bits) + 1.0;
    const int exponent = lo + (int)(next_random(state) % (uint64_t)(hi - lo + 1));
    const double v = ldexp(significand, exponent);
    return type == TYPE_FLOAT ? (double)(float)v : v; /* the top bit may round once: still random */
}

/* Every simulated order passes its own bound; a chain passes the chain's. */
static void check_correct_orders_pass(const struct data *d, const struct reference *ref,
                                      const char *what)
{
    const double chain = chain_sum(d->type, d->x, d->n);
    const double passes = block_passes_sum(d->type, d->x, d->n, PASSES.width);
    const bool chain_ok = result_passes(chain, ref, CHAIN, false);
    const bool passes_ok = result_passes(passes, ref, PASSES, false);
    CHECK(chain_ok);
    CHECK(passes_ok);
    bool chains_ok = true;
    for (size_t g = 0; g < COUNT(GRIDS); ++g)
        chains_ok = chains_ok && result_passes(thread_chains_sum(d->type, d->x, d->n, CHAINS.width, GRIDS[g]),
                                               ref, CHAINS, false);
    CHECK(chains_ok);
    if (!chain_ok || !passes_ok || !chains_ok)
        fprintf(stderr, "  %s %s: chain %.17g, passes %.17g, want %.17g (bounds %.3g, %.3g)\n", what,
                element_type_name(d->type), chain, passes, ref->sum, error_bound(ref, CHAIN),
                error_bound(ref, PASSES));
}

/* A correct sum with term i counted twice fails every order's bound. */
static void check_doubled_term_fails(const struct data *d, const struct reference *ref, size_t i)
{
    const double broken = add(d->type, block_passes_sum(d->type, d->x, d->n, PASSES.width), d->x[i]);
    CHECK(!result_passes(broken, ref, CHAIN, false));
    CHECK(!result_passes(broken, ref, PASSES, false));
    CHECK(!result_passes(broken, ref, CHAINS, false));
}

static size_t largest_term(const struct data *d)
{
    size_t best = 0;
    for (size_t i = 1; i < d->n; ++i)
        best = fabs(d->x[i]) > fabs(d->x[best]) ? i : best;
    return best;
}

/* ---- the bounds' k, by hand */

static void longest_chain_should_count_each_orders_worst_case(void)
{
    const struct summation_order unset = {0};
    CHECK(longest_chain(unset, 1000) == 999); /* an undeclared order is a chain */
    for (size_t n = 0; n <= 1; ++n) {         /* only additions with the identity */
        CHECK(longest_chain(CHAIN, n) == 0);
        CHECK(longest_chain(PASSES, n) == 0);
        CHECK(longest_chain(CHAINS, n) == 0);
    }
    CHECK(longest_chain(CHAIN, 2) == 1);
    /* passes of 256: one pass to 256, two to 65536; the split adds one */
    CHECK(longest_chain(PASSES, 2) == 16 && longest_chain(PASSES, 256) == 16);
    CHECK(longest_chain(PASSES, 257) == 24 && longest_chain(PASSES, 65536) == 24);
    CHECK(longest_chain(PASSES, 65537) == 32);
    const struct summation_order atomics = {.kind = ORDER_ATOMIC_BLOCKS, .width = 256, .depth = 8};
    CHECK(longest_chain(atomics, 256) == 9 && longest_chain(atomics, 257) == 10);
    CHECK(longest_chain(atomics, (size_t)1 << 24) == 8 + 65536);
    /* 256 threads: n / 256 in a thread, 8192 / 256 = 32 partials, two trees */
    CHECK(longest_chain(CHAINS, 2) == 1 + 32 + 16);
    CHECK(longest_chain(CHAINS, 512) == 2 + 32 + 16 && longest_chain(CHAINS, 513) == 3 + 32 + 16);
    CHECK(longest_chain(CHAINS, (size_t)1 << 24) == 65536 + 32 + 16);
}

/* ---- adversarial data */

static void stagnation_should_pass_a_chain_and_fail_a_tree(void)
{
    /* 2^p then 2^20 ones: a chain adds each one as a tie and stays at 2^p,
     * losing 2^20 - as much as a chain's bound allows; trees lose nothing. */
    const enum element_type types[] = {TYPE_FLOAT, TYPE_DOUBLE};
    for (size_t t = 0; t < COUNT(types); ++t) {
        const size_t n = ((size_t)1 << 20) + 1;
        struct data d = make_data(types[t], n);
        d.x[0] = types[t] == TYPE_FLOAT ? 0x1p24 : 0x1p53;
        for (size_t i = 1; i < n; ++i)
            d.x[i] = 1.0;
        const struct reference ref = reference_of(&d);
        check_correct_orders_pass(&d, &ref, "stagnation");
        const double chain = chain_sum(d.type, d.x, n);
        CHECK(chain == d.x[0]); /* the chain really stagnated */
        CHECK(!result_passes(chain, &ref, PASSES, false));
        CHECK(!result_passes(chain, &ref, CHAINS, false));
        CHECK(fabs(block_passes_sum(d.type, d.x, n, PASSES.width) - ref.sum) <= 1.0);
        check_doubled_term_fails(&d, &ref, 0);
        free(d.x);
    }
}

static void cancellation_should_pass_correct_orders_and_fail_a_flipped_sign(void)
{
    /* B, 1, -B repeated: every 1 meets a B first in a chain and vanishes; the
     * exact sum is the count of ones, a few units against sum |x| ~ 2 B m. */
    const enum element_type types[] = {TYPE_FLOAT, TYPE_DOUBLE};
    for (size_t t = 0; t < COUNT(types); ++t) {
        const size_t m = 1001; /* 3 m^2 u < 1: a chain's bound is below 2 B */
        struct data d = make_data(types[t], 3 * m);
        const double big = types[t] == TYPE_FLOAT ? 0x1p40 : 0x1p70;
        for (size_t i = 0; i < m; ++i) {
            d.x[3 * i] = big;
            d.x[3 * i + 1] = 1.0;
            d.x[3 * i + 2] = -big;
        }
        struct reference ref = reference_of(&d);
        CHECK(ref.sum == (double)m);
        check_correct_orders_pass(&d, &ref, "cancellation");
        CHECK(chain_sum(d.type, d.x, d.n) == 0.0); /* every one lost: and still right for a chain */
        d.x[3 * (m / 2) + 2] = big; /* one sign flipped: off by 2 B */
        const double broken = block_passes_sum(d.type, d.x, d.n, PASSES.width);
        CHECK(!result_passes(broken, &ref, CHAIN, false));
        CHECK(!result_passes(broken, &ref, PASSES, false));
        free(d.x);
    }
}

static void huge_range_should_pass_correct_orders_and_fail_a_doubled_term(void)
{
    /* random signs and exponents over 2^-60 .. 2^60 (double: 2^-600 .. 2^600) */
    const enum element_type types[] = {TYPE_FLOAT, TYPE_DOUBLE};
    const size_t sizes[] = {2, 33, 1000, 10007}; /* few enough that the largest term shows */
    uint64_t state = 12;
    for (size_t t = 0; t < COUNT(types); ++t)
        for (size_t s = 0; s < COUNT(sizes); ++s) {
            struct data d = make_data(types[t], sizes[s]);
            const int span = types[t] == TYPE_FLOAT ? 60 : 600;
            for (size_t i = 0; i < d.n; ++i)
                d.x[i] = (next_random(&state) & 1 ? -1.0 : 1.0) *
                         random_value(types[t], &state, -span, span);
            const struct reference ref = reference_of(&d);
            check_correct_orders_pass(&d, &ref, "huge range");
            check_doubled_term_fails(&d, &ref, largest_term(&d));
            free(d.x);
        }
}

static void wide_range_data_should_not_fail_a_chain(void)
{
    /* The false FAIL of the old sqrt(n) bound: the suite's --dist wide-range
     * (positive, 2^-20 .. 2^21) summed in one float chain (atomic_naive,
     * cpu_loop) at a million elements loses more than 4 sqrt(n) u sum|x| -
     * and is right. */
    const size_t n = 1000003;
    struct data d = make_data(TYPE_FLOAT, n);
    float *drawn = malloc(n * sizeof *drawn);
    fill_data(drawn, n, TYPE_FLOAT, DIST_WIDE_RANGE, 1);
    for (size_t i = 0; i < n; ++i)
        d.x[i] = drawn[i];
    free(drawn);
    const struct reference ref = reference_of(&d);
    check_correct_orders_pass(&d, &ref, "wide range");
    const double chain = chain_sum(d.type, d.x, n);
    CHECK(fabs(chain - ref.sum) > 4.0 * sqrt((double)n) * 0x1p-24 * ref.sum_abs);
    /* dropping the largest term is a bug every bound sees here */
    const size_t largest = largest_term(&d);
    const double dropped = add(d.type, chain_sum(d.type, d.x, n), -d.x[largest]);
    CHECK(!result_passes(dropped, &ref, PASSES, false));
    free(d.x);
}

static void exact_data_should_stay_exact_in_every_order(void)
{
    /* small integers whose every partial sum is exact: no order may round */
    const size_t n = 100003;
    struct data d = make_data(TYPE_FLOAT, n);
    for (size_t i = 0; i < n; ++i)
        d.x[i] = (double)(i % 15);
    struct reference ref = reference_of(&d);
    ref.exact = true; /* what fill_data says of small-ints */
    CHECK(chain_sum(d.type, d.x, n) == ref.sum);
    CHECK(block_passes_sum(d.type, d.x, n, PASSES.width) == ref.sum);
    CHECK(result_passes(ref.sum, &ref, CHAIN, false));
    CHECK(!result_passes(ref.sum + 1.0, &ref, CHAIN, false));
    CHECK(!result_passes(ref.sum - 1.0, &ref, CHAINS, false));
    free(d.x);
}

int main(void)
{
    RUN_TEST(longest_chain_should_count_each_orders_worst_case);
    RUN_TEST(stagnation_should_pass_a_chain_and_fail_a_tree);
    RUN_TEST(cancellation_should_pass_correct_orders_and_fail_a_flipped_sign);
    RUN_TEST(huge_range_should_pass_correct_orders_and_fail_a_doubled_term);
    RUN_TEST(wide_range_data_should_not_fail_a_chain);
    RUN_TEST(exact_data_should_stay_exact_in_every_order);
    return test_exit_code();
}
