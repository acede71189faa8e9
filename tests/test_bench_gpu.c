/* bench_compare end to end on the GPU: the default 64 MiB run must PASS every
 * row the registry does not refuse (REFUSED: CUB's determinism modes built
 * with an old CCCL), and every bandwidth it reports must be physically
 * plausible: above 0 and at most 1.05 x the theoretical peak it printed (a
 * figure above the peak means the bytes or the time were counted wrong, or
 * the input sat in L2). Reads the run back through the baseline reader, so
 * the CSV format is exercised too. Then the --type all --op all summary on a small odd n must
 * exit 0: every pair PASS or REFUSED.  test_bench_gpu BENCH_COMPARE TMPDIR */
#include <stdio.h>
#include <string.h>

#include "gpu_test_support.h"
#include "measure.h"
#include "registry.h"
#include "result_files.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_bench_gpu BENCH_COMPARE TMPDIR\n");
        return 2;
    }
    skip_without_gpu("test_bench_gpu");
    char csv[4096], command[8192], err[512];
    snprintf(csv, sizeof csv, "%s/test_bench_gpu.csv", argv[2]);
    remove(csv);
    snprintf(command, sizeof command, "'%s' -S 30 --csv '%s'", argv[1], csv);
    printf("%s\n", command);
    fflush(stdout);
    CHECK(system(command) == 0); /* exit 0: every method PASSed */

    struct run run = {0};
    CHECK(read_run_csv(csv, &run, err, sizeof err) == 0);
    if (check_failures) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    CHECK(run.context.n == 16777216);
    CHECK(run.context.peak_gbs > 100.0);
    CHECK(run.count >= 20);
    for (size_t i = 0; i < run.count; ++i) {
        const struct method_result *r = &run.rows[i];
        /* REFUSED only where the registry refuses a float sum of this n (CUB's
         * determinism modes, built with a CCCL older than 3.1). */
        char reason[160];
        const struct method *m = find_method(r->name);
        const bool refused = m && method_refuses(m, (struct reduce_spec){TYPE_FLOAT, OP_SUM},
                                                 run.context.n, reason, sizeof reason);
        const int plausible = refused || (r->gbps > 0.0 && r->gbps <= 1.05 * run.context.peak_gbs);
        if (r->status != (refused ? STATUS_REFUSED : STATUS_PASS) || !plausible)
            fprintf(stderr, "  %s: %s, %.1f GB/s (peak %.1f)\n", r->name,
                    method_status_name(r->status), r->gbps, run.context.peak_gbs);
        CHECK(m != NULL);
        CHECK(r->status == (refused ? STATUS_REFUSED : STATUS_PASS));
        CHECK(plausible);
        CHECK(refused || r->time_us.count == 30 || strcmp(r->family, "cpu") == 0);
    }
    free_run(&run);

    snprintf(command, sizeof command, "'%s' --type all --op all -n 1000003 -S 3 -w 1", argv[1]);
    printf("%s\n", command);
    fflush(stdout);
    CHECK(system(command) == 0);
    printf("%s\n", check_failures ? "FAIL"
                                   : "ok: every row PASS with a plausible bandwidth; every pair PASS");
    return check_failures ? 1 : 0;
}
