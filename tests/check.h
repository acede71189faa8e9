/* A minimal test runner: CHECK records a failure with file:line and the
 * expression and carries on; RUN_TEST prints one line per test; main returns
 * test_exit_code(). */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

static int check_failures;
static int tests_run, tests_failed;

#define CHECK(expr)                                                                  \
    do {                                                                             \
        if (!(expr)) {                                                               \
            ++check_failures;                                                        \
            fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #expr); \
        }                                                                            \
    } while (0)

#define RUN_TEST(fn)                                                             \
    do {                                                                         \
        const int failures_before_ = check_failures;                             \
        fn();                                                                    \
        ++tests_run;                                                             \
        const int test_ok_ = check_failures == failures_before_;           \
        tests_failed += !test_ok_;                                               \
        printf("%s %s\n", test_ok_ ? "ok  " : "FAIL", #fn);                      \
    } while (0)

static inline int test_exit_code(void)
{
    printf("%d passed, %d failed\n", tests_run - tests_failed, tests_failed);
    return tests_failed ? 1 : 0;
}

/* CTest's SKIP_RETURN_CODE for tests that need a GPU. */
#define EXIT_SKIP 77

#endif
