#include "atomic_file.h"

#include <errno.h>
#include <string.h>

int atomic_file_open(struct atomic_file *f, const char *path, char *err, size_t err_len)
{
    f->file = NULL;
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
