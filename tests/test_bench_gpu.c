/* bench_compare end to end on the GPU: the default 64 MiB run must PASS every
 * row the registry does not refuse (REFUSED: CUB's determinism modes built
 * with an old CCCL), and every bandwidth it reports must be physically
 * plausible: above 0 and at most 1.05 x the theoretical peak it printed (a
 * figure above the peak means the bytes or the time were counted wrong, or
 * the input sat in L2). Reads the run back through the baseline reader, so
 * the CSV format is exercised too. Then the --type all --op all summary on a small odd n must
 * exit 0: every pair PASS or REFUSED.
 * --huge (the exhaustive label's): the same row checks at 2^31 + 5 floats
 * (8 GiB: element counts past 32 bits, the grid-stride and index arithmetic
 * of every method that accepts it), 3 samples, for the sum and for argmax.
 *   test_bench_gpu [--huge] BENCH_COMPARE TMPDIR */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gpu_test_support.h"
#include "measure.h"
#include "registry.h"
#include "result_files.h"

#define DEFAULT_N 16777216 /* bench_compare's default: 64 MiB of floats */
#define HUGE_N (((size_t)1 << 31) + 5)
#define HUGE_SAMPLES 3
#define HUGE_ARGMAX_METHODS \
    "vector_loads,single_pass,one_pass_ilp,arg_block_tree,arg_warp_shuffle,cub,thrust,cublas,torch"

/* Runs bench_compare with `arguments` into a CSV and checks every row of it
 * (at least min_rows): n elements, PASS or the registry's REFUSED, a
 * plausible bandwidth, `samples` samples per timed GPU row. */
static void every_row_should_pass(const char *bench, const char *tmpdir, const char *arguments,
                                  size_t n, size_t samples, size_t min_rows)
{
    char csv[4096], command[8192], err[512];
    snprintf(csv, sizeof csv, "%s/test_bench_gpu_%zu.csv", tmpdir, n); /* one file per test */
    remove(csv);
    snprintf(command, sizeof command, "'%s' %s --csv '%s'", bench, arguments, csv);
    printf("%s\n", command);
    fflush(stdout);
    CHECK(system(command) == 0); /* exit 0: every method PASSed */

    struct run run = {0};
    CHECK(read_run_csv(csv, &run, err, sizeof err) == 0);
    if (check_failures) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    CHECK(run.context.n == n);
    CHECK(run.context.peak_gbs > 100.0);
    CHECK(run.count >= min_rows);
    const struct reduce_spec spec = {element_type_from_name(run.context.element_type),
                                     reduce_op_from_name(run.context.op)};
    for (size_t i = 0; i < run.count; ++i) {
        const struct method_result *r = &run.rows[i];
        /* REFUSED only where the registry refuses the run's pair at this n
         * (CUB's determinism modes built with a CCCL older than 3.1; size
         * limits; argmax on a method that keeps no index). */
        char reason[160];
        const struct method *m = find_method(r->name);
        const bool refused = m && method_refuses(m, spec, run.context.n, reason, sizeof reason);
        const int plausible = refused || (r->gbps > 0.0 && r->gbps <= 1.05 * run.context.peak_gbs);
        if (r->status != (refused ? STATUS_REFUSED : STATUS_PASS) || !plausible)
            fprintf(stderr, "  %s: %s, %.1f GB/s (peak %.1f)\n", r->name,
                    method_status_name(r->status), r->gbps, run.context.peak_gbs);
        CHECK(m != NULL);
        CHECK(m == NULL || method_takes_shape(m, SHAPE_WHOLE)); /* the default table's shape */
        CHECK(r->status == (refused ? STATUS_REFUSED : STATUS_PASS));
        CHECK(plausible);
        CHECK(refused || r->time_us.count == samples || strcmp(r->family, "cpu") == 0);
    }
    free_run(&run);
}

int main(int argc, char **argv)
{
    const bool huge = argc > 1 && strcmp(argv[1], "--huge") == 0;
    if (argc != (huge ? 4 : 3)) {
        fprintf(stderr, "usage: test_bench_gpu [--huge] BENCH_COMPARE TMPDIR\n");
        return 2;
    }
    const char *bench = argv[argc - 2], *tmpdir = argv[argc - 1];
    skip_without_gpu("test_bench_gpu");
    if (huge) {
        char arguments[256];
        snprintf(arguments, sizeof arguments, "-n %zu -S %d -w 1", HUGE_N, HUGE_SAMPLES);
        every_row_should_pass(bench, tmpdir, arguments, HUGE_N, HUGE_SAMPLES, 20);
        /* argmax: the methods that take it but the atomic step and the CPU
         * loop (seconds a call at 8 GiB) */
        snprintf(arguments, sizeof arguments, "-n %zu -S %d -w 1 -o argmax -m %s", HUGE_N,
                 HUGE_SAMPLES, HUGE_ARGMAX_METHODS);
        every_row_should_pass(bench, tmpdir, arguments, HUGE_N, HUGE_SAMPLES, 5);
    } else {
        every_row_should_pass(bench, tmpdir, "-S 30", DEFAULT_N, 30, 20);
        char command[8192];
        snprintf(command, sizeof command, "'%s' --type all --op all -n 1000003 -S 3 -w 1", bench);
        printf("%s\n", command);
        fflush(stdout);
        CHECK(system(command) == 0);
    }
    printf("%s\n", check_failures ? "FAIL"
                                  : huge ? "ok: every row PASS with a plausible bandwidth"
                                         : "ok: every row PASS with a plausible bandwidth; every pair PASS");
    return check_failures ? 1 : 0;
}
