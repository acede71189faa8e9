/* Saving a run (CSV, JSON, markdown) and reading a saved CSV back as a
 * baseline. Formats are documented in result_files.c; each writer and the
 * reader have a file of their own (result_format.h lists them). */
#ifndef RESULT_FILES_H
#define RESULT_FILES_H

#include <stddef.h>

#include "run_result.h"

struct run {
    struct run_context context;
    struct method_result *rows;
    size_t count;
};

/* Each writer writes to PATH.tmp and renames it over PATH only when the whole
 * file is written, so a failure never leaves a half-written file. Return 0, or
 * -1 with a one-line reason (naming the file) in err. */
int write_run_csv(const char *path, const struct run *run, char *err, size_t err_len);
int write_run_json(const char *path, const struct run *run, char *err, size_t err_len);
int write_run_markdown(const char *path, const struct run *run, char *err, size_t err_len);

/* Reads a CSV written by write_run_csv, or by any earlier writer of the
 * suite (the older layouts in result_files.c; what they lack reads as
 * unknown). Rows are matched to their duplicates by hash, so a file of any
 * size reads in linear time. On success returns 0 and out->rows is malloc'd
 * (free_run). On a missing, empty, truncated, foreign or malformed file, or
 * one with times no samples could give, returns -1 with a one-line reason
 * naming the file and the problem (and the line and column where there are
 * some); out is left empty. */
int read_run_csv(const char *path, struct run *out, char *err, size_t err_len);

void free_run(struct run *run);

#endif
