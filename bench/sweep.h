/* bench_compare --sweep: the selected methods over sizes 2^10 .. --sweep-max,
 * powers of two and odd sizes between them, each size a fresh buffer.
 * --row-sweep and --col-sweep: the same over matrix widths (width_sweep_widths,
 * shape.h) at a fixed total, reducing the rows or the columns, each width's
 * rows keyed by (method, cols). */
#ifndef SWEEP_H
#define SWEEP_H

#include <stdio.h>

#include "bench_setup.h"

/* Sizes in ascending order; returns how many were written (at most max). */
size_t sweep_sizes(size_t largest, size_t *sizes, size_t max);

/* Prints a size x method table of GB/s to `table` as it goes and gathers
 * every row into one run (a row per method and size, context n = 0: the
 * result files' format, so --csv, --json, --markdown and --baseline work as
 * for one size). run->rows is malloc'd (free it). Returns 0, or
 * EXIT_METHOD_FAILED if any method failed at any size, or EXIT_BAD_INPUT if a
 * size does not fit (bench_compare then saves nothing). */
int run_sweep(const struct bench_options *o, const struct selection *s,
              struct bench_session *session, FILE *table, struct run *run);

#endif
