#include "cli.h"

#include "measure.h" /* CPU_MAX_SAMPLES */

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SWEEP_MAX ((size_t)1 << 30)

static void fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(err, err_len, fmt, args);
    va_end(args);
}

bool parse_count(const char *text, const char *what, size_t *out, char *err, size_t err_len)
{
    if (!text || !*text) {
        fail(err, err_len, "%s: expected a number, got nothing", what);
        return false;
    }
    for (const char *c = text; *c; ++c)
        if (*c < '0' || *c > '9') {
            fail(err, err_len, "%s: '%s' is not a whole non-negative number", what, text);
            return false;
        }
    errno = 0;
    const unsigned long long value = strtoull(text, NULL, 10);
    if (errno == ERANGE || value > SIZE_MAX) {
        fail(err, err_len, "%s: '%s' is too large", what, text);
        return false;
    }
    *out = (size_t)value;
    return true;
}

bool add_method_list(struct bench_options *opts, const char *list, char *err, size_t err_len)
{
    const char *start = list;
    for (;;) {
        const char *end = strchr(start, ',');
        const size_t len = end ? (size_t)(end - start) : strlen(start);
        if (len == 0) {
            fail(err, err_len, "-m: empty method name in '%s'", list);
            return false;
        }
        if (len >= METHOD_NAME_MAX) {
            fail(err, err_len, "-m: method name '%.*s' is too long", (int)len, start);
            return false;
        }
        for (size_t i = 0; i < opts->method_count; ++i)
            if (strlen(opts->methods[i]) == len && strncmp(opts->methods[i], start, len) == 0) {
                fail(err, err_len, "-m: method '%.*s' is named twice", (int)len, start);
                return false;
            }
        if (opts->method_count == MAX_SELECTED) {
            fail(err, err_len, "-m: more than %d methods", MAX_SELECTED);
            return false;
        }
        memcpy(opts->methods[opts->method_count], start, len);
        opts->methods[opts->method_count++][len] = '\0';
        if (!end)
            return true;
        start = end + 1;
    }
}

static bool parse_int_option(const char *text, const char *what, int min, int *out, char *err,
                             size_t err_len)
{
    size_t value = 0;
    if (!parse_count(text, what, &value, err, err_len))
        return false;
    if (value < (size_t)min || value > INT_MAX) {
        fail(err, err_len, "%s: %s is out of range (at least %d)", what, text, min);
        return false;
    }
    *out = (int)value;
    return true;
}

static void set_defaults(struct bench_options *o)
{
    memset(o, 0, sizeof *o);
    o->n = 0;
    o->type = TYPE_FLOAT;
    o->op = OP_SUM;
    o->samples = DEFAULT_SAMPLES;
    o->warmup = DEFAULT_WARMUP;
    o->dist = DIST_UNIFORM;
    o->seed = DEFAULT_SEED;
    o->strategy = PASS_PADDED;
    o->sweep_max = DEFAULT_SWEEP_MAX;
}

static bool is(const char *arg, const char *short_name, const char *long_name)
{
    return (short_name && strcmp(arg, short_name) == 0) ||
           (long_name && strcmp(arg, long_name) == 0);
}

/* One option that takes a value; `value` is NULL when argv ran out. */
static bool apply_valued(struct bench_options *o, const char *arg, const char *value, char *err,
                         size_t err_len)
{
    if (!value) {
        fail(err, err_len, "%s needs a value", arg);
        return false;
    }
    size_t count = 0;
    if (is(arg, "-n", "--size") || is(arg, "-s", NULL)) {
        if (!parse_count(value, "size", &o->n, err, err_len))
            return false;
        if (o->n == 0) {
            fail(err, err_len, "size: must be at least 1 element");
            return false;
        }
        return true;
    }
    if (is(arg, "-m", "--methods"))
        return add_method_list(o, value, err, err_len);
    if (is(arg, "-b", "--bytes")) {
        if (!parse_count(value, "bytes", &o->bytes, err, err_len))
            return false;
        if (o->bytes < 8) {
            fail(err, err_len, "bytes: must be at least 8 (one element of every type)");
            return false;
        }
        return true;
    }
    if (is(arg, "-t", "--type")) {
        o->type = strcmp(value, "all") == 0 ? TYPE_COUNT : element_type_from_name(value);
        if (o->type == TYPE_COUNT && strcmp(value, "all") != 0) {
            fail(err, err_len, "--type: unknown type '%s' (float, double, int32, int64, uint32, "
                               "half, bfloat16, all)", value);
            return false;
        }
        return true;
    }
    if (is(arg, "-o", "--op")) {
        o->op = strcmp(value, "all") == 0 ? OP_COUNT : reduce_op_from_name(value);
        if (o->op == OP_COUNT && strcmp(value, "all") != 0) {
            fail(err, err_len, "--op: unknown operator '%s' (sum, max, min, all)", value);
            return false;
        }
        return true;
    }
    if (is(arg, "-r", NULL)) { /* seed 000: -r K runs reduceK */
        if (!parse_count(value, "-r", &count, err, err_len))
            return false;
        if (count > 99) {
            fail(err, err_len, "-r: step %zu does not exist", count);
            return false;
        }
        char name[16];
        snprintf(name, sizeof name, "reduce%zu", count);
        return add_method_list(o, name, err, err_len);
    }
    if (is(arg, "-S", "--samples"))
        return parse_int_option(value, "samples", 1, &o->samples, err, err_len);
    if (is(arg, "-w", "--warmup"))
        return parse_int_option(value, "warmup", 1, &o->warmup, err, err_len);
    if (is(arg, "-d", "--dist")) {
        o->dist = distribution_from_name(value);
        if (o->dist == DIST_COUNT) {
            fail(err, err_len, "--dist: unknown distribution '%s' (uniform, small-ints, wide-range, signed)",
                 value);
            return false;
        }
        return true;
    }
    if (is(arg, NULL, "--seed")) {
        if (!parse_count(value, "seed", &count, err, err_len))
            return false;
        o->seed = count;
        return true;
    }
    if (is(arg, NULL, "--strategy")) {
        if (strcmp(value, "padded") == 0)
            o->strategy = PASS_PADDED;
        else if (strcmp(value, "pow2-split") == 0)
            o->strategy = PASS_POW2_SPLIT;
        else {
            fail(err, err_len, "--strategy: unknown strategy '%s' (padded, pow2-split)", value);
            return false;
        }
        return true;
    }
    if (is(arg, NULL, "--offset"))
        return parse_count(value, "offset", &o->offset, err, err_len);
    if (is(arg, NULL, "--sweep-max")) {
        if (!parse_count(value, "sweep-max", &o->sweep_max, err, err_len))
            return false;
        if (o->sweep_max < 1024) {
            fail(err, err_len, "--sweep-max: must be at least 1024");
            return false;
        }
        return true;
    }
    const char **path = is(arg, NULL, "--csv")         ? &o->csv_path
                        : is(arg, NULL, "--json")      ? &o->json_path
                        : is(arg, NULL, "--markdown")  ? &o->markdown_path
                        : is(arg, NULL, "--sweep-csv") ? &o->sweep_csv_path
                        : is(arg, NULL, "--baseline")  ? &o->baseline_path
                                                       : NULL;
    if (!path) {
        fail(err, err_len, "unknown option '%s' (see --help)", arg);
        return false;
    }
    if (!*value) {
        fail(err, err_len, "%s: empty file name", arg);
        return false;
    }
    *path = value;
    return true;
}

/* What only makes sense for one (type, operator), and offsets that would
 * leave the input unaligned to its element or reach a whole 16 bytes. */
static bool check_combination(const struct bench_options *o, char *err, size_t err_len)
{
    if (o->n && o->bytes) {
        fail(err, err_len, "-n and --bytes both give the size: pick one");
        return false;
    }
    if (runs_matrix(o)) {
        const char *single = o->progression ? "--progression" : o->sweep ? "--sweep"
                             : o->csv_path ? "--csv" : o->json_path ? "--json"
                             : o->markdown_path ? "--markdown" : o->baseline_path ? "--baseline"
                                                                                   : NULL;
        if (single) {
            fail(err, err_len, "%s needs one type and one operator, not --%s all", single,
                 o->type == TYPE_COUNT ? "type" : "op");
            return false;
        }
    }
    for (int t = 0; t < TYPE_COUNT; ++t) {
        if (o->type != TYPE_COUNT && o->type != (enum element_type)t)
            continue;
        const size_t size = element_size((enum element_type)t);
        if (o->offset >= 16 / size) { /* not offset * size: that can wrap */
            fail(err, err_len, "--offset: %zu %s elements is 16 bytes or more (at most %zu)",
                 o->offset, element_type_name((enum element_type)t), 16 / size - 1);
            return false;
        }
    }
    return true;
}

static bool takes_value(const char *arg)
{
    static const char *const VALUED[] = {
        "-n", "--size", "-s", "-b", "--bytes", "-m", "--methods", "-t", "--type", "-o", "--op", "-r", "-S",
        "--samples", "-w", "--warmup",
        "-d", "--dist", "--seed", "--strategy", "--offset", "--sweep-max", "--csv", "--json",
        "--markdown", "--sweep-csv", "--baseline"};
    for (size_t i = 0; i < sizeof VALUED / sizeof VALUED[0]; ++i)
        if (strcmp(arg, VALUED[i]) == 0)
            return true;
    return false;
}

enum cli_status parse_bench_options(int argc, char **argv, struct bench_options *o, char *err,
                                    size_t err_len)
{
    set_defaults(o);
    err[0] = '\0';
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (is(arg, "-h", "--help")) {
            o->help = true;
            return CLI_HELP;
        }
        if (is(arg, NULL, "--hot"))
            o->hot = true;
        else if (is(arg, NULL, "--progression"))
            o->progression = true;
        else if (is(arg, NULL, "--sweep"))
            o->sweep = true;
        else if (is(arg, NULL, "--list"))
            o->list = true;
        else if (is(arg, NULL, "--compare")) {
            if (i + 2 >= argc) {
                fail(err, err_len, "--compare needs two files: --compare OLD.csv NEW.csv");
                return CLI_ERROR;
            }
            o->compare_old = argv[++i];
            o->compare_new = argv[++i];
        } else if (takes_value(arg)) {
            const char *value = i + 1 < argc ? argv[++i] : NULL;
            if (!apply_valued(o, arg, value, err, err_len))
                return CLI_ERROR;
        } else {
            fail(err, err_len, "unknown option '%s' (see --help)", arg);
            return CLI_ERROR;
        }
    }
    if (o->sweep && o->progression) {
        fail(err, err_len, "--sweep and --progression are separate views: pick one");
        return CLI_ERROR;
    }
    return check_combination(o, err, err_len) ? CLI_OK : CLI_ERROR;
}

bool runs_matrix(const struct bench_options *o) { return o->type == TYPE_COUNT || o->op == OP_COUNT; }

size_t default_n(const struct bench_options *o, enum element_type t)
{
    return o->n ? o->n : (o->bytes ? o->bytes : DEFAULT_BYTES) / element_size(t);
}

void print_usage(const char *program)
{
    printf("Usage: %s [options]\n"
           "Times every registered reduction method on one buffer and prints one table:\n"
           "median/min/max time, GB/s, %% of peak, time relative to CUB, result, check.\n"
           "\n"
           "  -t, --type T        float | double | int32 | int64 | uint32 | half | bfloat16 | all\n"
           "                      (default float; half and bfloat16 are reduced in float)\n"
           "  -o, --op OP         sum | max | min | all (default sum)\n"
           "                      with 'all': every pair, one summary table (modern and vendor\n"
           "                      methods unless -m)\n"
           "  -n, --size N        elements to reduce (default 64 MiB worth: %zu floats)\n"
           "  -s N                the same (seed 000's spelling)\n"
           "  -b, --bytes N       or the input's size in bytes, n = N / element size\n"
           "  -m, --methods LIST  comma-separated method names (default: all; see --list)\n"
           "  -r K                seed 000's step: runs reduceK (repeatable)\n"
           "  -S, --samples N     timed samples per method (default %d; CPU rows at most %d)\n"
           "  -w, --warmup N      untimed calls before sampling (default %d)\n"
           "      --hot           no L2 flush between samples (default: clean read sweep)\n"
           "  -d, --dist NAME     uniform | small-ints | wide-range | signed (default uniform)\n"
           "      --seed N        data seed (default %d)\n"
           "      --strategy S    pass kernels driven by: padded | pow2-split (default padded)\n"
           "      --offset K      shift the input pointer by K elements (under 16 bytes): misaligned\n"
           "      --progression   the story view: step and cumulative speedups\n"
           "      --sweep         sizes 2^10 .. --sweep-max (powers of two and odd sizes)\n"
           "      --sweep-max N   largest sweep size (default 2^30)\n"
           "      --sweep-csv F   write the sweep's rows to F\n"
           "      --csv F         save the run (the baseline format)\n"
           "      --json F        save the run as JSON\n"
           "      --markdown F    save the table as markdown\n"
           "      --baseline F    after running, compare with a saved CSV (exit 1 if slower)\n"
           "      --compare A B   compare two saved CSV files; no GPU needed\n"
           "      --list          list the methods and exit\n"
           "  -h, --help          this text\n"
           "\n"
           "Exit status: 0 all PASS, 1 a method failed or is SLOWER than the baseline,\n"
           "2 bad input or no usable GPU.\n",
           program, DEFAULT_BYTES / sizeof(float), DEFAULT_SAMPLES, CPU_MAX_SAMPLES, DEFAULT_WARMUP, DEFAULT_SEED);
}
