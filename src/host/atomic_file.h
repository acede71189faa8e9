/* Writing a file so that it appears whole or not at all: write PATH.tmp,
 * then rename it over PATH. A failed or interrupted run leaves no
 * half-written result file for a later baseline comparison to trip on.
 * The path "-" is standard output (written as it goes, flushed at commit). */
#ifndef ATOMIC_FILE_H
#define ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct atomic_file {
    FILE *file;
    bool is_stdout;
    char path[4096];
    char tmp_path[4100];
};

/* Returns 0, or -1 with "cannot write PATH: reason" in err. */
int atomic_file_open(struct atomic_file *f, const char *path, char *err, size_t err_len);

/* Flushes, closes and renames; on any error removes the tmp file and returns
 * -1 with a reason. */
int atomic_file_commit(struct atomic_file *f, char *err, size_t err_len);

#endif
