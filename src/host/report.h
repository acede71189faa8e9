/* Human-readable output: the run header, the summary table and the
 * progression view. (Files for machines are result_files.h.) */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "result_files.h"

void print_run_header(FILE *out, const struct run_context *ctx);

/* One row per method: times, GB/s, % of peak, time relative to CUB, result,
 * its error in ulps of the exactly rounded answer and relative to it, check,
 * determinism run to run and across grids, and notes. */
void print_results_table(FILE *out, const struct run *run);

/* The seeds' tables regenerated: hand-written steps in story order with
 * step speedup (over the row before) and cumulative speedup (over the first
 * row), CUB's row last for scale. Rows that did not PASS are listed without
 * speedups. */
void print_progression(FILE *out, const struct run *run);

/* --type all / --op all: one line per (type, operator) run - the fastest
 * PASSing hand kernel, CUB's and Thrust's medians, the kernel's time relative
 * to CUB, and PASS or the rows that did not pass. */
void print_matrix_table(FILE *out, const struct run *runs, size_t count);

/* --batch: each GPU method's per-call time over K back-to-back calls with no
 * flush, beside its cold median - a table of its own, never mixed with the
 * cold one. CPU rows and rows that did not pass read "-". */
void print_batch_table(FILE *out, const struct run *run, int batch);

/* Fills every row's ratio_to_cub (median / CUB's median) when a PASSing
 * "cub" row is present; 0 otherwise. */
void set_ratios_to_cub(struct run *run);

#endif
