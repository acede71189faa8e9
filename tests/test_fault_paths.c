/* bench_compare's failure paths, on the GPU, through its own measuring code
 * (measure_selection): a method that returns a wrong value, on its first
 * call or on a later one, reads FAIL and the run's status is 1; a method that faults reads ERROR with CUDA's reason, and
 * every method after it reads "not run: an earlier method broke the CUDA
 * context" - while the methods before it keep their PASS. The two methods
 * are test-only (fault_methods.cu). Runs last in its process: the fault
 * leaves the context unusable.  test_fault_paths */
#include <string.h>

#include "bench_setup.h"
#include "gpu_test_support.h"
#include "registry.h"

extern const struct method method_test_wrong_value, method_test_illegal_address,
    method_test_rows_wrong_later;

/* 2^20 rows of one float: 4 MiB of results, which later calls compare with
 * the first call's on the GPU (results_match.h). A method right on its
 * first two calls and wrong on its third reads FAIL naming call 2 and the
 * row; group_per_row beside it PASS, the same bits on every call. */
static void rows_wrong_on_a_later_call_should_fail(void)
{
    char err[CLI_ERROR_LEN];
    char *argv[] = {"test_fault_paths", "--cols", "1", "-n", "1048576", "-S", "5", "-w", "1", NULL};
    struct bench_options o;
    CHECK(parse_bench_options(9, argv, &o, err, sizeof err) == CLI_OK);
    struct bench_session session;
    if (open_session(&o, &session, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        CHECK(!"a session");
        return;
    }
    const struct selection s = {
        .methods = {find_method("group_per_row"), &method_test_rows_wrong_later}, .count = 2};
    struct run run = {0};
    const int status = measure_selection(&o, &s, &session, (struct reduce_spec){TYPE_FLOAT, OP_SUM},
                                         o.n, &run);
    CHECK(status == EXIT_METHOD_FAILED && run.count == 2);
    if (run.count == 2) {
        printf("%-22s %-6s %s\n", run.rows[1].name, method_status_name(run.rows[1].status),
               run.rows[1].note);
        CHECK(run.rows[0].status == STATUS_PASS && run.rows[0].determinism == DETERMINISM_BITWISE);
        CHECK(run.rows[1].status == STATUS_FAIL);
        CHECK(strstr(run.rows[1].note, "call 2: row 1000 of 1048576") != NULL);
    }
    free(run.rows);
    close_session(&session);
}

int main(void)
{
    skip_without_gpu("test_fault_paths");
    rows_wrong_on_a_later_call_should_fail();
    char err[CLI_ERROR_LEN];
    char *argv[] = {"test_fault_paths", "-n", "100003", "-S", "5", "-w", "1", NULL};
    struct bench_options o;
    CHECK(parse_bench_options(7, argv, &o, err, sizeof err) == CLI_OK);
    struct bench_session session;
    if (open_session(&o, &session, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const struct selection s = {
        .methods = {&method_test_wrong_value, find_method("cub"), &method_test_illegal_address,
                    find_method("tma_ring")},
        .count = 4};
    struct run run = {0};
    const int status = measure_selection(&o, &s, &session, (struct reduce_spec){TYPE_FLOAT, OP_SUM},
                                         o.n, &run);
    CHECK(status == EXIT_METHOD_FAILED);
    CHECK(run.count == 4);
    if (run.count == 4) {
        for (size_t i = 0; i < 4; ++i)
            printf("%-22s %-6s %s\n", run.rows[i].name, method_status_name(run.rows[i].status),
                   run.rows[i].note);
        CHECK(run.rows[0].status == STATUS_FAIL);
        CHECK(strstr(run.rows[0].note, "call 0: got") != NULL);
        CHECK(run.rows[0].time_us.count == 0); /* a wrong method's speed is not reported */
        CHECK(run.rows[1].status == STATUS_PASS && run.rows[1].time_us.count == 5);
        CHECK(run.rows[2].status == STATUS_ERROR);
        CHECK(strstr(run.rows[2].note, "illegal") != NULL);
        CHECK(run.rows[3].status == STATUS_ERROR);
        CHECK(strcmp(run.rows[3].note, "not run: an earlier method broke the CUDA context") == 0);
    }
    free(run.rows);
    printf("%s\n", check_failures ? "FAIL" : "ok: FAIL, PASS, ERROR, not run - run status 1");
    return check_failures ? 1 : 0;
}
