/* bench_compare's options as data, shared by the parser (cli.c), its checks
 * across options (cli_checks.c) and --help (cli_help.c): the ids getopt_long
 * returns, and the one table of numeric options with their bounds, which the
 * parser enforces and --help prints, so the two cannot drift apart. Not for
 * use outside those three files. */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

/* Options with a short form use its character (-s is -n's other spelling and
 * becomes 'n'); the rest get ids past every character. */
enum option_id {
    OPT_SEED = 256, OPT_STRATEGY, OPT_OFFSET, OPT_SWEEP_MAX, OPT_CSV, OPT_JSON, OPT_MARKDOWN,
    OPT_BASELINE, OPT_HOT, OPT_PROGRESSION, OPT_SWEEP, OPT_LIST, OPT_COMPARE,
    OPT_VERSION, OPT_IGNORE_DEVICE, OPT_DEVICE, OPT_LIST_DEVICES, OPT_MAX_NOISE, OPT_MIN_SAMPLES,
    OPT_MAX_SAMPLES, OPT_TIMEOUT, OPT_BATCH, OPT_GPUS, OPT_COMBINE, OPT_LADDER, OPT_COLS,
    OPT_ROWS, OPT_SEGMENTS, OPT_ROW_SWEEP, OPT_AXIS, OPT_COL_SWEEP, OPT_COUNT
};

/* How a numeric option's value is read and where it goes. */
enum numeric_kind {
    NUMERIC_SIZE,     /* a whole number into a size_t */
    NUMERIC_U64,      /* a whole number into a uint64_t */
    NUMERIC_INT,      /* a whole number into an int (max <= INT_MAX) */
    NUMERIC_POSITIVE, /* a decimal number above 0 (e.g. 0.5) into a double */
};

typedef bool numeric_setter(struct bench_options *o, size_t value, char *err, size_t err_len);

struct numeric_option {
    int id;
    const char *name;  /* in messages: the long form, "--samples" (-r has no other) */
    const char *usage; /* in --help's list of limits: "-S, --samples N" */
    enum numeric_kind kind;
    size_t field;        /* offsetof(struct bench_options, ...), unless set */
    numeric_setter *set; /* for a value that is not one field; NULL: the field */
    size_t min, max;     /* inclusive; NUMERIC_POSITIVE: above 0 (min unused), at most max */
    const char *min_why, *max_why; /* what a bound stands for, or NULL */
    /* A further bound by element type, checked once the whole line is read
     * (the type may come after the value); NULL: none. */
    size_t (*max_for_type)(enum element_type t);
};

extern const struct numeric_option NUMERIC_OPTIONS[];
extern const size_t NUMERIC_OPTION_COUNT;

/* The table's row for an option id; NULL if it is not a numeric option. */
const struct numeric_option *find_numeric_option(int id);

/* Reads text as opt's value, checks its bounds and stores it; false with one
 * line naming the option in err. */
bool apply_numeric(const struct numeric_option *opt, struct bench_options *o, const char *text,
                   char *err, size_t err_len);

/* --offset's bound: under 16 bytes of the element type, in elements. */
size_t largest_offset(enum element_type t);

/* The checks across options once the line is read (cli_checks.c): given[id]
 * says which options were given, positional is the index of a word that is
 * not an option (0: none). False with one line in err. */
bool check_conflicts(const struct bench_options *o, const bool given[OPT_COUNT], int positional,
                     char *const *argv, char *err, size_t err_len);

/* How many result files go to standard output (a path of "-"). */
int stdout_output_count(const struct bench_options *o);

/* Writes one printf-style line into err (the messages' single form). */
void cli_fail(char *err, size_t err_len, const char *fmt, ...);

#endif
