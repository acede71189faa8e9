#include "atomic_file.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

int atomic_file_open(struct atomic_file *f, const char *path, char *err, size_t err_len)
{
    f->file = NULL;
    f->is_stdout = strcmp(path, "-") == 0;
    if (f->is_stdout) {
        f->file = stdout;
        snprintf(f->path, sizeof f->path, "standard output");
        return 0;
    }
    if (strlen(path) >= sizeof f->path) {
        snprintf(err, err_len, "cannot write %s: path too long", path);
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    snprintf(f->tmp_path, sizeof f->tmp_path, "%s.tmp", path);
    f->file = fopen(f->tmp_path, "w");
    if (!f->file) {
        snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int atomic_file_commit(struct atomic_file *f, char *err, size_t err_len)
{
    if (f->is_stdout) {
        const bool failed = fflush(stdout) != 0 || ferror(stdout);
        f->file = NULL;
        if (failed)
            snprintf(err, err_len, "cannot write standard output: %s", strerror(errno));
        return failed ? -1 : 0;
    }
    const int write_failed = ferror(f->file);
    const int close_failed = fclose(f->file);
    f->file = NULL;
    if (write_failed || close_failed || rename(f->tmp_path, f->path) != 0) {
        snprintf(err, err_len, "cannot write %s: %s", f->path,
                 write_failed ? "write error" : strerror(errno));
        remove(f->tmp_path);
        return -1;
    }
    return 0;
}
