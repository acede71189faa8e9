/* bench_compare --sweep: the selected methods over sizes 2^10 .. --sweep-max,
 * powers of two and odd sizes between them, each size a fresh buffer. */
#ifndef SWEEP_H
#define SWEEP_H

#include "bench_setup.h"

/* Sizes in ascending order; returns how many were written (at most max). */
size_t sweep_sizes(size_t largest, size_t *sizes, size_t max);

/* Prints a size x method table of GB/s, writes --sweep-csv, and returns 0, or
 * EXIT_METHOD_FAILED if any method failed at any size. */
int run_sweep(const struct bench_options *o, const struct selection *s,
              struct bench_session *session);

#endif
