/* The multi-GPU path on every visible GPU - one GPU is a valid case: NCCL
 * with one rank, the p2p combine with nothing to wait for - through the
 * harness bench_compare --gpus uses (multi_gpu.h), which checks every
 * sample's final value (on GPU 0, and on every GPU for NCCL) against the
 * reference:
 *   pairs:   one per element type, every operator at least twice;
 *   sizes:   0, 1, 3, fewer elements than GPUs, 33, 1000003 (odd),
 *            2^24 + 3; uniform and signed data;
 *   methods: one_pass_ilp and cub, on one GPU and with each combine;
 * every row must PASS - or be REFUSED for a reason of the machine's (no
 * peer path between its GPUs, a build without NCCL). Also: an input drawn
 * shard by shard has the reference of the same input drawn whole; a method
 * that returns a wrong value FAILs with either combine; with --large, step
 * 18's bulk-copy ring (per-device launch settings) on every GPU.
 *   test_multi_gpu [--large] */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gpu_test_support.h"
#include "multi_gpu.h"
#include "registry.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

extern const struct method method_test_wrong_value; /* fault_methods.cu */

static const struct reduce_spec PAIRS[] = {
    {TYPE_FLOAT, OP_SUM},  {TYPE_DOUBLE, OP_MAX}, {TYPE_INT32, OP_MIN},   {TYPE_INT64, OP_SUM},
    {TYPE_UINT32, OP_MAX}, {TYPE_HALF, OP_SUM},   {TYPE_BFLOAT16, OP_MIN}, {TYPE_FLOAT, OP_MAX},
    {TYPE_DOUBLE, OP_SUM}};
static const struct multi_gpu_setup SETUP = {
    .warmup = 1, .samples = 3, .flush_l2 = true, .strategy = PASS_PADDED};

static struct multi_gpu mg;
static bool nccl_expected; /* built with NCCL: its rows must run */

/* PASS, or REFUSED for the machine's reason; prints every row. */
static void check_row(const struct scaling_row *r, const struct sharded_input *in)
{
    printf("  %-14s %-4s %-9s %-4s n=%-9zu gpus=%d %-7s %s\n", r->method, combine_name(r->combine),
           element_type_name(in->spec.type), reduce_op_name(in->spec.op), in->n, r->gpus,
           method_status_name(r->status), r->note);
    if (r->status == STATUS_REFUSED) {
        const bool no_peer = r->combine == COMBINE_P2P && strstr(r->note, "cannot access");
        const bool no_nccl = r->combine == COMBINE_NCCL && !nccl_expected;
        CHECK(no_peer || no_nccl);
        return;
    }
    CHECK(r->status == STATUS_PASS);
    CHECK(r->time_us.count == (size_t)SETUP.samples);
    CHECK(r->combine == COMBINE_NONE || r->combine_us.count == (size_t)SETUP.samples);
    CHECK(r->gpus == (r->combine == COMBINE_NONE ? 1 : mg.count));
}

/* The method on one GPU, then cut over every GPU with each combine. */
static void check_method_everywhere(const struct method *m, const struct sharded_input *whole,
                                    const struct sharded_input *split)
{
    struct scaling_row r;
    CHECK(measure_scaling_row(&mg, m, COMBINE_NONE, whole, &SETUP, &r) == 0);
    check_row(&r, whole);
    for (int c = COMBINE_P2P; c < COMBINE_COUNT; ++c) {
        CHECK(measure_scaling_row(&mg, m, (enum combine)c, split, &SETUP, &r) == 0);
        check_row(&r, split);
    }
}

static void every_pair_and_size_should_pass_on_every_gpu(void)
{
    const size_t sizes[] = {0, 1, 3, (size_t)mg.count - 1, 33, 1000003, ((size_t)1 << 24) + 3};
    const char *methods[] = {"one_pass_ilp", "cub"};
    char err[512];
    for (size_t p = 0; p < COUNT(PAIRS); ++p)
        for (size_t k = 0; k < COUNT(sizes); ++k) {
            const enum distribution dist = k % 2 ? DIST_SIGNED : DIST_UNIFORM;
            struct sharded_input whole, split;
            const bool ready =
                sharded_input_fill(&whole, mg.devices, 1, PAIRS[p], sizes[k], 0, dist, 5, err,
                                   sizeof err) == 0 &&
                sharded_input_split(&split, &whole, mg.devices, mg.count, err, sizeof err) == 0;
            if (!ready)
                fprintf(stderr, "  %s\n", err);
            CHECK(ready);
            if (!ready)
                return;
            for (size_t i = 0; i < COUNT(methods); ++i)
                check_method_everywhere(find_method(methods[i]), &whole, &split);
            sharded_input_free(&split);
            sharded_input_free(&whole);
        }
}

/* Drawn shard by shard (how inputs past one GPU's memory are made) or whole
 * and copied: the same values, so the same reference and the same result. */
static void drawn_shards_should_equal_the_split_of_the_whole(void)
{
    const struct reduce_spec spec = {TYPE_FLOAT, OP_SUM};
    const size_t n = ((size_t)1 << 24) + 7;
    char err[512];
    struct sharded_input whole, split, drawn;
    CHECK(sharded_input_fill(&whole, mg.devices, 1, spec, n, 1, DIST_SIGNED, 9, err, sizeof err) == 0);
    CHECK(sharded_input_split(&split, &whole, mg.devices, mg.count, err, sizeof err) == 0);
    CHECK(sharded_input_fill(&drawn, mg.devices, mg.count, spec, n, 1, DIST_SIGNED, 9, err,
                             sizeof err) == 0);
    CHECK(drawn.ref.n == n && whole.ref.n == n && drawn.ref.exact == whole.ref.exact);
    CHECK(drawn.ref.max == whole.ref.max && drawn.ref.min == whole.ref.min);
    CHECK(fabs(drawn.ref.sum - whole.ref.sum) <= 1e-15 * whole.ref.sum_abs);
    /* byte for byte, shard by shard */
    const size_t size = element_size(spec.type);
    for (int g = 0; g < mg.count; ++g) {
        CHECK(drawn.shards[g].first == split.shards[g].first);
        const size_t bytes = drawn.shards[g].count * size;
        unsigned char *a = malloc(bytes + 1), *b = malloc(bytes + 1);
        CHECK(cudaMemcpy(a, drawn.d_in[g], bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECK(cudaMemcpy(b, split.d_in[g], bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECK(memcmp(a, b, bytes) == 0);
        free(a);
        free(b);
    }
    struct scaling_row r;
    CHECK(measure_scaling_row(&mg, find_method("one_pass_ilp"), COMBINE_P2P, &drawn, &SETUP, &r) == 0);
    check_row(&r, &drawn);
    sharded_input_free(&drawn);
    sharded_input_free(&split);
    sharded_input_free(&whole);
}

/* CUB's sum doubled on every GPU: twice the total, whatever the combine. */
static void a_wrong_method_should_fail_with_every_combine(void)
{
    const struct reduce_spec spec = {TYPE_FLOAT, OP_SUM};
    char err[512];
    struct sharded_input whole, split;
    CHECK(sharded_input_fill(&whole, mg.devices, 1, spec, 100003, 0, DIST_UNIFORM, 1, err,
                             sizeof err) == 0);
    CHECK(sharded_input_split(&split, &whole, mg.devices, mg.count, err, sizeof err) == 0);
    struct scaling_row r;
    CHECK(measure_scaling_row(&mg, &method_test_wrong_value, COMBINE_NONE, &whole, &SETUP, &r) == 0);
    printf("  %s one GPU: %s %s\n", r.method, method_status_name(r.status), r.note);
    CHECK(r.status == STATUS_FAIL && r.time_us.count == 0 && strstr(r.note, "call 0: GPU 0 got"));
    for (int c = COMBINE_P2P; c < COMBINE_COUNT; ++c) {
        CHECK(measure_scaling_row(&mg, &method_test_wrong_value, (enum combine)c, &split, &SETUP,
                                  &r) == 0);
        printf("  %s %s: %s %s\n", r.method, combine_name((enum combine)c),
               method_status_name(r.status), r.note);
        CHECK(r.status == STATUS_FAIL || r.status == STATUS_REFUSED);
        CHECK(r.time_us.count == 0);
    }
    sharded_input_free(&split);
    sharded_input_free(&whole);
}

/* Step 18's ring on every GPU: each shard past the ring's threshold, so its
 * launch settings must hold on each device, not only the first. */
static void tma_ring_should_run_its_ring_on_every_gpu(void)
{
    const struct reduce_spec spec = {TYPE_FLOAT, OP_SUM};
    CHECK(cudaSetDevice(mg.devices[0]) == cudaSuccess);
    const size_t min_n = own_kernel_from("tma_ring", spec);
    if (min_n == 0) {
        printf("  (step 18's ring does not run on this GPU: nothing to test)\n");
        return;
    }
    const size_t n = (min_n + 1003) * (size_t)mg.count;
    char err[512];
    struct sharded_input drawn;
    CHECK(sharded_input_fill(&drawn, mg.devices, mg.count, spec, n, 0, DIST_SIGNED, 3, err,
                             sizeof err) == 0);
    for (int c = COMBINE_P2P; c < COMBINE_COUNT; ++c) {
        struct scaling_row r;
        CHECK(measure_scaling_row(&mg, find_method("tma_ring"), (enum combine)c, &drawn, &SETUP,
                                  &r) == 0);
        check_row(&r, &drawn);
    }
    sharded_input_free(&drawn);
}

int main(int argc, char **argv)
{
    const bool large = argc == 2 && strcmp(argv[1], "--large") == 0;
    if (argc > 2 || (argc == 2 && !large)) {
        fprintf(stderr, "usage: test_multi_gpu [--large]\n");
        return 2;
    }
    skip_without_gpu("test_multi_gpu");
    int visible = 0;
    CHECK(cudaGetDeviceCount(&visible) == cudaSuccess);
    char err[512];
    if (multi_gpu_open(&mg, visible < MAX_GPUS ? visible : MAX_GPUS, err, sizeof err) != 0) {
        fprintf(stderr, "test_multi_gpu: %s\n", err);
        return 1;
    }
    nccl_expected = nccl_built();
    char nccl[256];
    nccl_describe(nccl, sizeof nccl);
    printf("%d GPU%s; p2p: %s; nccl: %s\n", mg.count, mg.count == 1 ? "" : "s",
           mg.p2p_ready ? "ready" : mg.p2p_why, mg.nccl ? nccl : mg.nccl_why);
    CHECK(!nccl_expected || mg.nccl != NULL); /* built with NCCL: it must set up */
    if (large) {
        RUN_TEST(tma_ring_should_run_its_ring_on_every_gpu);
    } else {
        RUN_TEST(every_pair_and_size_should_pass_on_every_gpu);
        RUN_TEST(drawn_shards_should_equal_the_split_of_the_whole);
        RUN_TEST(a_wrong_method_should_fail_with_every_combine);
    }
    multi_gpu_close(&mg);
    return test_exit_code() || check_failures ? 1 : 0;
}
