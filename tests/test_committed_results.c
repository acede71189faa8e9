/* Every results file committed under bench/results (argv[1]), at any depth,
 * reads back and compares with itself: each row in both runs, every timed
 * row SAME at a change of 0. A format change that orphans a committed file -
 * a renamed column, a new required key, a stricter check - fails here, in CI,
 * with the file's own message. Only CSV is read back (JSON and markdown are
 * for other tools and people). */
#define _POSIX_C_SOURCE 200809L /* opendir, stat */

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "baseline.h"
#include "check.h"

#define MIN_COMMITTED_FILES 5 /* fewer found means the walk is broken, not the files */

static bool ends_with(const char *text, const char *suffix)
{
    const size_t len = strlen(text), suffix_len = strlen(suffix);
    return len >= suffix_len && strcmp(text + len - suffix_len, suffix) == 0;
}

/* One file read back and compared with itself; false when it failed. */
static bool check_committed_file(const char *path)
{
    char err[1024] = "";
    struct run run = {0};
    if (read_run_csv(path, &run, err, sizeof err) != 0) {
        fprintf(stderr, "  %s\n", err);
        return false;
    }
    struct comparison c = {0};
    bool ok = compare_runs(&run, &run, &c) == 0 && c.count == run.count;
    for (size_t i = 0; ok && i < c.count; ++i) {
        const struct comparison_row *row = &c.rows[i];
        const bool timed_same = row->verdict == VERDICT_SAME && row->change_pct == 0.0;
        ok = row->in_old && row->in_new && (isnan(row->new_median_us) || timed_same);
        if (!ok)
            fprintf(stderr, "  %s: row '%s' at n = %zu compares with itself as %s\n", path,
                    row->name, row->n, verdict_name(row->verdict));
    }
    printf("     %s: %zu rows\n", path, run.count);
    free_comparison(&c);
    free_run(&run);
    return ok;
}

/* Checks every *.csv under dir; adds to *found and *failed. */
static void walk(const char *dir, size_t *found, size_t *failed)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) {
        fprintf(stderr, "  cannot open %s\n", dir);
        return;
    }
    for (struct dirent *entry; (entry = readdir(d)) != NULL;) {
        if (entry->d_name[0] == '.')
            continue;
        char path[4096];
        struct stat info;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (stat(path, &info) != 0)
            continue;
        if (S_ISDIR(info.st_mode))
            walk(path, found, failed);
        else if (ends_with(entry->d_name, ".csv")) {
            ++*found;
            *failed += !check_committed_file(path);
        }
    }
    closedir(d);
}

static const char *results_dir = "bench/results";

static void every_committed_results_file_should_read_and_compare_with_itself(void)
{
    size_t found = 0, failed = 0;
    walk(results_dir, &found, &failed);
    CHECK(found >= MIN_COMMITTED_FILES);
    CHECK(failed == 0);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        results_dir = argv[1];
    RUN_TEST(every_committed_results_file_should_read_and_compare_with_itself);
    return test_exit_code();
}
