/* bench_compare --type all / --op all: the selected methods on every
 * (element type, operator) pair asked for, each on its own buffer of n
 * elements (64 MiB worth of that type unless -n), then one summary line per
 * pair (report.h's print_matrix_table). */
#ifndef MATRIX_H
#define MATRIX_H

#include "bench_setup.h"

/* Returns 0, EXIT_METHOD_FAILED if any method failed for any pair, or
 * EXIT_BAD_INPUT if an input did not fit. */
int run_matrix(const struct bench_options *o, const struct selection *s,
               struct bench_session *session);

#endif
