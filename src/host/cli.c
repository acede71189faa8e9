#define _GNU_SOURCE /* getopt_long */

#include "cli.h"


#include <errno.h>
#include <getopt.h>
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

/* A positive decimal number (e.g. 0.5), nothing else. */
static bool parse_positive(const char *text, const char *what, double *out, char *err,
                           size_t err_len)
{
    char *end = NULL;
    errno = 0;
    const double v = strtod(text, &end);
    if (!*text || *end || errno == ERANGE || !(v > 0.0) || v > 1e9 || text[0] == ' ') {
        fail(err, err_len, "%s: '%s' is not a positive number", what, text);
        return false;
    }
    *out = v;
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
    o->min_samples = DEFAULT_MIN_SAMPLES;
    o->max_samples = DEFAULT_MAX_SAMPLES;
    o->timeout_s = DEFAULT_TIMEOUT_S;
    o->dist = DIST_UNIFORM;
    o->seed = DEFAULT_SEED;
    o->strategy = PASS_PADDED;
    o->sweep_max = DEFAULT_SWEEP_MAX;
    o->gpus = 1;
    o->combines = ALL_COMBINES;
}

/* Options without a short form get ids past every character. */
enum option_id {
    OPT_SEED = 256, OPT_STRATEGY, OPT_OFFSET, OPT_SWEEP_MAX, OPT_CSV, OPT_JSON, OPT_MARKDOWN,
    OPT_BASELINE, OPT_HOT, OPT_PROGRESSION, OPT_SWEEP, OPT_LIST, OPT_COMPARE,
    OPT_VERSION, OPT_IGNORE_DEVICE, OPT_DEVICE, OPT_LIST_DEVICES, OPT_MAX_NOISE, OPT_MIN_SAMPLES,
    OPT_MAX_SAMPLES, OPT_TIMEOUT, OPT_BATCH, OPT_GPUS, OPT_COMBINE, OPT_LADDER, OPT_COLS,
    OPT_ROWS, OPT_SEGMENTS, OPT_ROW_SWEEP, OPT_COUNT
};

static const struct option LONG_OPTIONS[] = {
    {"size", required_argument, NULL, 'n'},       {"bytes", required_argument, NULL, 'b'},
    {"methods", required_argument, NULL, 'm'},    {"type", required_argument, NULL, 't'},
    {"op", required_argument, NULL, 'o'},         {"samples", required_argument, NULL, 'S'},
    {"warmup", required_argument, NULL, 'w'},     {"dist", required_argument, NULL, 'd'},
    {"help", no_argument, NULL, 'h'},             {"seed", required_argument, NULL, OPT_SEED},
    {"strategy", required_argument, NULL, OPT_STRATEGY},
    {"offset", required_argument, NULL, OPT_OFFSET},
    {"sweep-max", required_argument, NULL, OPT_SWEEP_MAX},
    {"csv", required_argument, NULL, OPT_CSV},    {"json", required_argument, NULL, OPT_JSON},
    {"markdown", required_argument, NULL, OPT_MARKDOWN},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"hot", no_argument, NULL, OPT_HOT},          {"progression", no_argument, NULL, OPT_PROGRESSION},
    {"sweep", no_argument, NULL, OPT_SWEEP},      {"list", no_argument, NULL, OPT_LIST},
    {"compare", required_argument, NULL, OPT_COMPARE},
    {"version", no_argument, NULL, OPT_VERSION},
    {"ignore-device", no_argument, NULL, OPT_IGNORE_DEVICE},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"list-devices", no_argument, NULL, OPT_LIST_DEVICES},
    {"max-noise", required_argument, NULL, OPT_MAX_NOISE},
    {"min-samples", required_argument, NULL, OPT_MIN_SAMPLES},
    {"max-samples", required_argument, NULL, OPT_MAX_SAMPLES},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"gpus", required_argument, NULL, OPT_GPUS},
    {"combine", required_argument, NULL, OPT_COMBINE},
    {"ladder", no_argument, NULL, OPT_LADDER},
    {"cols", required_argument, NULL, OPT_COLS},  {"rows", required_argument, NULL, OPT_ROWS},
    {"segments", required_argument, NULL, OPT_SEGMENTS},
    {"row-sweep", no_argument, NULL, OPT_ROW_SWEEP}, {NULL, 0, NULL, 0},
};
/* '+': options end at the first non-option (no reordering, so --compare can
 * take its second file); ':': a missing value is reported, not printed. */
#define SHORT_OPTIONS "+:n:s:b:m:t:o:r:S:w:d:h"

/* One option that takes a value, spelled `arg` on the command line. */
static bool apply_valued(struct bench_options *o, int id, const char *arg, const char *value,
                         char *err, size_t err_len)
{
    size_t count = 0;
    if (id == 'n' || id == 's') {
        if (!parse_count(value, "size", &o->n, err, err_len))
            return false;
        if (o->n == 0) {
            fail(err, err_len, "size: must be at least 1 element");
            return false;
        }
        return true;
    }
    if (id == 'm')
        return add_method_list(o, value, err, err_len);
    if (id == OPT_COLS || id == OPT_ROWS) {
        size_t *field = id == OPT_COLS ? &o->cols : &o->rows;
        if (!parse_count(value, arg, field, err, err_len))
            return false;
        if (*field == 0) {
            fail(err, err_len, "%s: must be at least 1", arg);
            return false;
        }
        return true;
    }
    if (id == OPT_SEGMENTS) {
        o->segmented = true;
        return parse_segment_spec(value, &o->segments, err, err_len);
    }
    if (id == 'b') {
        if (!parse_count(value, "bytes", &o->bytes, err, err_len))
            return false;
        if (o->bytes < 8) {
            fail(err, err_len, "bytes: must be at least 8 (one element of every type)");
            return false;
        }
        return true;
    }
    if (id == 't') {
        o->type = strcmp(value, "all") == 0 ? TYPE_COUNT : element_type_from_name(value);
        if (o->type == TYPE_COUNT && strcmp(value, "all") != 0) {
            fail(err, err_len, "--type: unknown type '%s' (float, double, int32, int64, uint32, "
                               "half, bfloat16, all)", value);
            return false;
        }
        return true;
    }
    if (id == 'o') {
        o->op = strcmp(value, "all") == 0 ? OP_COUNT : reduce_op_from_name(value);
        if (o->op == OP_COUNT && strcmp(value, "all") != 0) {
            fail(err, err_len, "--op: unknown operator '%s' (sum, max, min, all)", value);
            return false;
        }
        return true;
    }
    if (id == 'r') { /* seed 000: -r K runs reduceK */
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
    if (id == 'S')
        return parse_int_option(value, "samples", 1, &o->samples, err, err_len);
    if (id == OPT_DEVICE)
        return parse_int_option(value, "device", 0, &o->device, err, err_len);
    if (id == OPT_BATCH)
        return parse_int_option(value, "batch", 1, &o->batch, err, err_len);
    if (id == OPT_GPUS) {
        o->multi_gpu = true;
        if (strcmp(value, "all") == 0) {
            o->gpus = GPUS_ALL;
            return true;
        }
        if (!parse_int_option(value, "gpus", 1, &o->gpus, err, err_len))
            return false;
        if (o->gpus > MAX_GPUS) {
            fail(err, err_len, "gpus: %d is more than %d, the most one process drives", o->gpus,
                 MAX_GPUS);
            return false;
        }
        return true;
    }
    if (id == OPT_COMBINE) {
        const enum combine c = combine_from_name(value);
        if (strcmp(value, "all") != 0 && c == COMBINE_COUNT) {
            fail(err, err_len, "--combine: unknown combine '%s' (p2p, nccl, all)", value);
            return false;
        }
        o->combines = c == COMBINE_COUNT ? ALL_COMBINES : COMBINE_BIT(c);
        return true;
    }
    if (id == OPT_MIN_SAMPLES)
        return parse_int_option(value, "min-samples", 2, &o->min_samples, err, err_len);
    if (id == OPT_MAX_SAMPLES)
        return parse_int_option(value, "max-samples", 2, &o->max_samples, err, err_len);
    if (id == OPT_MAX_NOISE)
        return parse_positive(value, "max-noise", &o->max_noise_pct, err, err_len);
    if (id == OPT_TIMEOUT)
        return parse_positive(value, "timeout", &o->timeout_s, err, err_len);
    if (id == 'w')
        return parse_int_option(value, "warmup", 1, &o->warmup, err, err_len);
    if (id == 'd') {
        o->dist = distribution_from_name(value);
        if (o->dist == DIST_COUNT) {
            char names[128] = "";
            for (int d = 0; d < DIST_COUNT; ++d)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", d ? ", " : "",
                         distribution_name((enum distribution)d));
            fail(err, err_len, "--dist: unknown distribution '%s' (%s)", value, names);
            return false;
        }
        return true;
    }
    if (id == OPT_SEED) {
        if (!parse_count(value, "seed", &count, err, err_len))
            return false;
        o->seed = count;
        return true;
    }
    if (id == OPT_STRATEGY) {
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
    if (id == OPT_OFFSET)
        return parse_count(value, "offset", &o->offset, err, err_len);
    if (id == OPT_SWEEP_MAX) {
        if (!parse_count(value, "sweep-max", &o->sweep_max, err, err_len))
            return false;
        if (o->sweep_max < 1024) {
            fail(err, err_len, "--sweep-max: must be at least 1024");
            return false;
        }
        return true;
    }
    const char **path = id == OPT_CSV         ? &o->csv_path
                        : id == OPT_JSON      ? &o->json_path
                        : id == OPT_MARKDOWN  ? &o->markdown_path
                        : id == OPT_BASELINE  ? &o->baseline_path
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

/* Result files that go to standard output (a path of "-"). */
static int outputs_to_stdout(const struct bench_options *o)
{
    const char *outputs[] = {o->csv_path, o->json_path, o->markdown_path};
    int count = 0;
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; ++i)
        count += outputs[i] && strcmp(outputs[i], "-") == 0;
    return count;
}

/* Whether n elements of some type the run uses do not make whole rows. */
static bool total_is_whole_rows(const struct bench_options *o, char *err, size_t err_len)
{
    for (int t = 0; t < TYPE_COUNT; ++t) {
        if (o->type != TYPE_COUNT && o->type != (enum element_type)t)
            continue;
        const size_t n = default_n(o, (enum element_type)t);
        if (o->rows && n != o->rows * o->cols) {
            fail(err, err_len, "--rows %zu x --cols %zu is %zu elements, not the %zu of %s",
                 o->rows, o->cols, o->rows * o->cols, n, o->n ? "-n" : "--bytes");
            return false;
        }
        if (n % o->cols != 0) {
            fail(err, err_len, "--cols %zu: %zu %s elements are not whole rows (give -n, "
                               "--bytes or --rows to make them)",
                 o->cols, n, element_type_name((enum element_type)t));
            return false;
        }
    }
    return true;
}

/* Rows and segments: one shape at a time, and nothing that only the whole
 * array has (--sweep's sizes, --gpus' shards, --batch's table). */
static bool check_shape_conflicts(const struct bench_options *o, const bool given[OPT_COUNT],
                                  char *err, size_t err_len)
{
    const bool shaped = o->cols || o->segmented || o->row_sweep;
    if (o->cols && o->segmented) {
        fail(err, err_len, "--cols and --segments are two shapes: pick one");
        return false;
    }
    if (o->rows && !o->cols) {
        fail(err, err_len, "--rows needs --cols (the width of a row)");
        return false;
    }
    if (o->row_sweep && (o->cols || o->segmented)) {
        fail(err, err_len, "--row-sweep chooses the widths: not with %s",
             o->cols ? "--cols" : "--segments");
        return false;
    }
    const struct { int id; const char *name; } WHOLE_ONLY[] = {
        {OPT_GPUS, "--gpus"}, {OPT_SWEEP, "--sweep"}, {OPT_BATCH, "--batch"},
        {OPT_LADDER, "--ladder"}};
    for (size_t i = 0; shaped && i < sizeof WHOLE_ONLY / sizeof WHOLE_ONLY[0]; ++i)
        if (given[WHOLE_ONLY[i].id]) {
            fail(err, err_len, "%s is for the whole array, not with %s", WHOLE_ONLY[i].name,
                 o->row_sweep ? "--row-sweep" : o->cols ? "--cols" : "--segments");
            return false;
        }
    if (o->row_sweep && (o->progression || runs_matrix(o))) {
        fail(err, err_len, "--row-sweep needs one type and one operator and its own table, not %s",
             o->progression ? "--progression" : "--type all or --op all");
        return false;
    }
    if (o->segmented && o->segments.source == SEGMENTS_FILE && (o->n || o->bytes)) {
        fail(err, err_len, "--segments file: the lengths give the total: not with %s",
             o->n ? "-n" : "--bytes");
        return false;
    }
    if (o->rows && o->bytes) {
        fail(err, err_len, "--rows with --cols gives the size: not with --bytes");
        return false;
    }
    if (o->cols && o->rows && o->cols > SIZE_MAX / o->rows) {
        fail(err, err_len, "--rows %zu x --cols %zu elements is too large", o->rows, o->cols);
        return false;
    }
    return !o->cols || total_is_whole_rows(o, err, err_len);
}

/* Options that would be ignored, or that contradict each other: errors, so
 * that nothing the user asked for is silently dropped. */
static bool check_conflicts(const struct bench_options *o, const bool given[OPT_COUNT],
                            int positional, char *const *argv, char *err, size_t err_len)
{
    if (positional) {
        fail(err, err_len, "unexpected argument '%s' (options take the form -x VALUE or --name=VALUE)",
             argv[positional]);
        return false;
    }
    /* --compare reads two files: it takes -m (which methods) and
     * --ignore-device, nothing that measures; --list takes nothing. */
    for (int id = 0; id < OPT_COUNT; ++id) {
        if (!given[id])
            continue;
        if (given[OPT_LIST] && id != OPT_LIST) {
            fail(err, err_len, "--list takes no other options");
            return false;
        }
        if (given[OPT_LIST_DEVICES] && id != OPT_LIST_DEVICES) {
            fail(err, err_len, "--list-devices takes no other options");
            return false;
        }
        if (given[OPT_COMPARE] && id != OPT_COMPARE && id != 'm' && id != OPT_IGNORE_DEVICE) {
            fail(err, err_len, "--compare takes only -m and --ignore-device (it measures nothing)");
            return false;
        }
    }
    /* --gpus prints its own scaling table from devices 0..N-1 with a fixed
     * sample count: what only a one-GPU table has would be ignored. */
    const struct { int id; const char *name, *instead; } ONE_GPU_ONLY[] = {
        {OPT_SWEEP, "--sweep", "; --ladder runs its sizes"},
        {OPT_SWEEP_MAX, "--sweep-max", ""},
        {OPT_PROGRESSION, "--progression", ""},
        {OPT_BATCH, "--batch", ""},
        {OPT_CSV, "--csv", ""},
        {OPT_JSON, "--json", ""},
        {OPT_MARKDOWN, "--markdown", ""},
        {OPT_BASELINE, "--baseline", ""},
        {OPT_DEVICE, "--device", "; choose the GPUs with CUDA_VISIBLE_DEVICES"},
        {OPT_MAX_NOISE, "--max-noise", "; it takes -S samples"}};
    for (size_t i = 0; given[OPT_GPUS] && i < sizeof ONE_GPU_ONLY / sizeof ONE_GPU_ONLY[0]; ++i)
        if (given[ONE_GPU_ONLY[i].id]) {
            fail(err, err_len, "%s is not for --gpus, which prints a scaling table%s",
                 ONE_GPU_ONLY[i].name, ONE_GPU_ONLY[i].instead);
            return false;
        }
    if (given[OPT_GPUS] && runs_matrix(o)) {
        fail(err, err_len, "--gpus needs one type and one operator, not --%s all",
             o->type == TYPE_COUNT ? "type" : "op");
        return false;
    }
    if (!given[OPT_GPUS] && (given[OPT_COMBINE] || given[OPT_LADDER])) {
        fail(err, err_len, "%s only applies to --gpus", given[OPT_COMBINE] ? "--combine" : "--ladder");
        return false;
    }
    if (o->ladder && (o->n || o->bytes)) {
        fail(err, err_len, "--ladder chooses the sizes: not with %s", o->n ? "-n" : "--bytes");
        return false;
    }
    if (!check_shape_conflicts(o, given, err, err_len))
        return false;
    const int stop_options[] = {OPT_MIN_SAMPLES, OPT_MAX_SAMPLES, OPT_TIMEOUT};
    for (size_t i = 0; !given[OPT_MAX_NOISE] && i < sizeof stop_options / sizeof stop_options[0]; ++i)
        if (given[stop_options[i]]) {
            fail(err, err_len, "--min-samples, --max-samples and --timeout only apply to --max-noise");
            return false;
        }
    if (o->batch && (o->sweep || runs_matrix(o))) {
        fail(err, err_len, "--batch prints its own table beside one run's: not with --%s",
             o->sweep ? "sweep" : o->type == TYPE_COUNT ? "type all" : "op all");
        return false;
    }
    if (given[OPT_MAX_NOISE] && given['S']) {
        fail(err, err_len, "-S fixes the sample count, --max-noise stops on noise: pick one");
        return false;
    }
    if (o->min_samples > o->max_samples) {
        fail(err, err_len, "--min-samples %d is more than --max-samples %d", o->min_samples,
             o->max_samples);
        return false;
    }
    if (given[OPT_IGNORE_DEVICE] && !given[OPT_COMPARE] && !given[OPT_BASELINE]) {
        fail(err, err_len, "--ignore-device only applies to --compare and --baseline");
        return false;
    }
    if (o->sweep && o->progression) {
        fail(err, err_len, "--sweep and --progression are separate views: pick one");
        return false;
    }
    if (!o->sweep && given[OPT_SWEEP_MAX]) {
        fail(err, err_len, "--sweep-max only applies to --sweep");
        return false;
    }
    if (outputs_to_stdout(o) > 1) {
        fail(err, err_len, "only one output can go to standard output ('-')");
        return false;
    }
    /* What only makes sense for one (type, operator), and offsets that would
     * leave the input unaligned to its element or reach a whole 16 bytes. */
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

enum cli_status parse_bench_options(int argc, char **argv, struct bench_options *o, char *err,
                                    size_t err_len)
{
    set_defaults(o);
    err[0] = '\0';
    bool given[OPT_COUNT] = {false};
    opterr = 0;
    optind = 0; /* glibc: a full restart, so the parser can run more than once */
    int id;
    while ((id = getopt_long(argc, argv, SHORT_OPTIONS, LONG_OPTIONS, NULL)) != -1) {
        /* The option as the user spelled it, for messages: "-n" (also for
         * "-n5"), "--size" (also for "--size=5"). argv[optind - 1] is the
         * option, or its value when that was a separate word. */
        const char *word = argv[optind - 1];
        if (optarg && word == optarg && optind >= 2)
            word = argv[optind - 2];
        char name[64];
        if (word[0] == '-' && word[1] == '-')
            snprintf(name, sizeof name, "%.*s", (int)strcspn(word, "="), word);
        else
            snprintf(name, sizeof name, "-%c", id == '?' || id == ':' ? optopt : id);
        if (id == '?') {
            fail(err, err_len, "unknown option '%s' (see --help)", name);
            return CLI_ERROR;
        }
        if (id == ':') {
            fail(err, err_len, "%s needs a value", name);
            return CLI_ERROR;
        }
        given[id] = true;
        switch (id) {
        case 'h':
            o->help = true;
            return CLI_HELP;
        case OPT_VERSION:
            return CLI_VERSION;
        case OPT_HOT: o->hot = true; break;
        case OPT_PROGRESSION: o->progression = true; break;
        case OPT_SWEEP: o->sweep = true; break;
        case OPT_LIST: o->list = true; break;
        case OPT_IGNORE_DEVICE: o->ignore_device = true; break;
        case OPT_LIST_DEVICES: o->list_devices = true; break;
        case OPT_LADDER: o->ladder = true; break;
        case OPT_ROW_SWEEP: o->row_sweep = true; break;
        case OPT_COMPARE:
            if (optind >= argc || argv[optind][0] == '-') {
                fail(err, err_len, "--compare needs two files: --compare OLD.csv NEW.csv");
                return CLI_ERROR;
            }
            o->compare_old = optarg;
            o->compare_new = argv[optind++];
            break;
        default:
            if (!apply_valued(o, id, name, optarg, err, err_len))
                return CLI_ERROR;
        }
    }
    return check_conflicts(o, given, optind < argc ? optind : 0, argv, err, err_len) ? CLI_OK
                                                                                      : CLI_ERROR;
}

bool writes_to_stdout(const struct bench_options *o) { return outputs_to_stdout(o) > 0; }

bool runs_matrix(const struct bench_options *o) { return o->type == TYPE_COUNT || o->op == OP_COUNT; }

size_t default_n(const struct bench_options *o, enum element_type t)
{
    if (o->n)
        return o->n;
    if (o->rows)
        return o->rows * o->cols;
    return (o->bytes ? o->bytes : DEFAULT_BYTES) / element_size(t);
}

bool options_shape(const struct bench_options *o, size_t *n, struct reduce_shape *shape,
                   segment_offset **offsets, char *err, size_t err_len)
{
    *offsets = NULL;
    *shape = whole_shape();
    if (o->cols)
        return make_rows_shape(o->cols, o->rows, *n, shape, err, err_len);
    if (!o->segmented)
        return true;
    size_t count = 0;
    *offsets = make_segment_offsets(&o->segments, o->seed, n, &count, err, err_len);
    if (!*offsets)
        return false;
    *shape = (struct reduce_shape){.kind = SHAPE_SEGMENTS, .count = count, .offsets = *offsets};
    return true;
}

void print_usage(const char *program)
{
    printf("Usage: %s [options]\n"
           "Times every registered reduction method on one buffer and prints one table:\n"
           "median/min/max time, GB/s, %% of peak, time relative to CUB, result, its error in\n"
           "ulps of the exactly rounded answer, check, determinism (repeat; grid: other GPUs).\n"
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
           "      --max-noise P   instead of -S: sample until the median's standard error is\n"
           "                      under P%% of it, within --min-samples N (default 10),\n"
           "                      --max-samples N (1000) and --timeout S (10 s) per method\n"
           "      --hot           no L2 flush between samples (default: clean read sweep)\n"
           "      --batch K       also time K back-to-back calls, no flush (per call: total / K),\n"
           "                      as public kernel results are reported: a table of its own\n"
           "  -d, --dist NAME     uniform | small-ints | wide-range | signed | ill-conditioned\n"
           "                      (default uniform; ill-conditioned: large terms cancel, sum|x| /\n"
           "                      |sum x| >= 2^29, where the accuracy column shows the orders apart)\n"
           "      --seed N        data seed (default %d)\n"
           "      --strategy S    pass kernels driven by: padded | pow2-split (default padded)\n"
           "      --offset K      shift the input pointer by K elements (under 16 bytes): misaligned\n"
           "      --progression   the story view: step and cumulative speedups\n"
           "      --sweep         sizes 2^10 .. --sweep-max (powers of two and odd sizes)\n"
           "      --sweep-max N   largest sweep size (default 2^30)\n"
           "      --csv F         save the run (the baseline format; a sweep: a row per method\n"
           "                      and size); F = - for stdout\n"
           "      --json F        save the run as JSON (- : stdout, e.g. | jq)\n"
           "      --markdown F    save the table as markdown (- : stdout)\n"
           "      --baseline F    after running, compare with a saved CSV (exit 1 if slower;\n"
           "                      a sweep compares each method at each size)\n"
           "      --compare A B   compare two saved CSV files; no GPU needed (with -m: those rows)\n"
           "      --ignore-device give verdicts across GPU models (--compare, --baseline)\n"
           "      --device N      the CUDA device to measure (default 0)\n"
           "      --list-devices  list the CUDA devices and exit\n"
           "      --gpus N|all    split n over GPUs 0..N-1, reduce each shard, combine the\n"
           "                      partials; prints a scaling table against one GPU (methods:\n"
           "                      one_pass_ilp, tma_ring, cub unless -m)\n"
           "      --combine C     with --gpus: p2p | nccl | all (default all)\n"
           "      --ladder        with --gpus: n from 2^24 by 4 to past one GPU's memory\n"
           "      --cols C        rows: reduce each row of C elements (row-major), one result\n"
           "                      a row; the total (-n, --bytes) must be whole rows\n"
           "      --rows R        with --cols: R rows (n = R x C)\n"
           "      --segments SPEC one result a segment, lengths from SPEC: uniform:MEAN (0 ..\n"
           "                      2 MEAN, empty ones included), powerlaw:MEAN (most short, a few\n"
           "                      very long), file:PATH (one length a line; n is their total)\n"
           "      --row-sweep     widths 1 .. n at a fixed total: powers of two and 3, 33, 1000,\n"
           "                      100003 (rows = n / width); saved as a sweep, keyed by width\n"
           "                      Shapes: GB/s counts n x element size read, plus one\n"
           "                      accumulator a result written (+ 8-byte offsets for\n"
           "                      segments); a method that does not take the shape is REFUSED.\n"
           "                      Not with --gpus, --sweep or --batch.\n"
           "      --list          list the methods and the shapes each takes, and exit\n"
           "      --version       the suite's commit and the CUDA, CCCL and cuBLAS it was built with\n"
           "  -h, --help          this text\n"
           "\n"
           "Exit status: 0 all PASS, 1 a method failed or is SLOWER than the baseline,\n"
           "2 bad input or no usable GPU.\n",
           program, DEFAULT_BYTES / sizeof(float), DEFAULT_SAMPLES, CPU_MAX_SAMPLES, DEFAULT_WARMUP, DEFAULT_SEED);
}
