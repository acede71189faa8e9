#define _GNU_SOURCE /* getopt_long */

#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"

#define DEFAULT_SWEEP_MAX ((size_t)1 << 30)

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
    o->axis = AXIS_ROWS;
}

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
    {"row-sweep", no_argument, NULL, OPT_ROW_SWEEP},
    {"col-sweep", no_argument, NULL, OPT_COL_SWEEP},
    {"axis", required_argument, NULL, OPT_AXIS},  {NULL, 0, NULL, 0},
};
/* '+': options end at the first non-option (no reordering, so --compare can
 * take its second file); ':': a missing value is reported, not printed. */
#define SHORT_OPTIONS "+:n:s:b:m:t:o:r:S:w:d:h"

/* Options that only switch something on, and options that name a file. */
struct field_option {
    int id;
    size_t field; /* offsetof(struct bench_options, ...) */
};
static const struct field_option FLAG_OPTIONS[] = {
    {OPT_HOT, offsetof(struct bench_options, hot)},
    {OPT_PROGRESSION, offsetof(struct bench_options, progression)},
    {OPT_SWEEP, offsetof(struct bench_options, sweep)},
    {OPT_LIST, offsetof(struct bench_options, list)},
    {OPT_IGNORE_DEVICE, offsetof(struct bench_options, ignore_device)},
    {OPT_LIST_DEVICES, offsetof(struct bench_options, list_devices)},
    {OPT_LADDER, offsetof(struct bench_options, ladder)},
    {OPT_ROW_SWEEP, offsetof(struct bench_options, width_sweep)},
};
static const struct field_option PATH_OPTIONS[] = {
    {OPT_CSV, offsetof(struct bench_options, csv_path)},
    {OPT_JSON, offsetof(struct bench_options, json_path)},
    {OPT_MARKDOWN, offsetof(struct bench_options, markdown_path)},
    {OPT_BASELINE, offsetof(struct bench_options, baseline_path)},
};

static const struct field_option *find_field_option(const struct field_option *table,
                                                    size_t count, int id)
{
    for (size_t i = 0; i < count; ++i)
        if (table[i].id == id)
            return &table[i];
    return NULL;
}

static bool set_type(struct bench_options *o, const char *value, char *err, size_t err_len)
{
    o->type = strcmp(value, "all") == 0 ? TYPE_COUNT : element_type_from_name(value);
    if (o->type == TYPE_COUNT && strcmp(value, "all") != 0) {
        cli_fail(err, err_len, "--type: unknown type '%s' (float, double, int32, int64, uint32, "
                               "half, bfloat16, all)", value);
        return false;
    }
    return true;
}

static bool set_op(struct bench_options *o, const char *value, char *err, size_t err_len)
{
    o->op = strcmp(value, "all") == 0 ? OP_COUNT : reduce_op_from_name(value);
    if (o->op == OP_COUNT && strcmp(value, "all") != 0) {
        cli_fail(err, err_len, "--op: unknown operator '%s' (sum, max, min, argmax, argmin, all)", value);
        return false;
    }
    return true;
}

static bool set_distribution(struct bench_options *o, const char *value, char *err,
                             size_t err_len)
{
    o->dist = distribution_from_name(value);
    if (o->dist != DIST_COUNT)
        return true;
    char names[128] = "";
    for (int d = 0; d < DIST_COUNT; ++d)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", d ? ", " : "",
                 distribution_name((enum distribution)d));
    cli_fail(err, err_len, "--dist: unknown distribution '%s' (%s)", value, names);
    return false;
}

static bool set_strategy(struct bench_options *o, const char *value, char *err, size_t err_len)
{
    if (strcmp(value, "padded") == 0)
        o->strategy = PASS_PADDED;
    else if (strcmp(value, "pow2-split") == 0)
        o->strategy = PASS_POW2_SPLIT;
    else {
        cli_fail(err, err_len, "--strategy: unknown strategy '%s' (padded, pow2-split)", value);
        return false;
    }
    return true;
}

static bool set_combine(struct bench_options *o, const char *value, char *err, size_t err_len)
{
    const enum combine c = combine_from_name(value);
    if (strcmp(value, "all") != 0 && c == COMBINE_COUNT) {
        cli_fail(err, err_len, "--combine: unknown combine '%s' (p2p, nccl, all)", value);
        return false;
    }
    o->combines = c == COMBINE_COUNT ? ALL_COMBINES : COMBINE_BIT(c);
    return true;
}

static bool set_path(struct bench_options *o, size_t field, const char *name, const char *value,
                     char *err, size_t err_len)
{
    if (!*value) {
        cli_fail(err, err_len, "%s: empty file name", name);
        return false;
    }
    *(const char **)((char *)o + field) = value;
    return true;
}

/* Options that need more than the tables: names and lists. */
static bool apply_named(struct bench_options *o, int id, const char *name, const char *value,
                        char *err, size_t err_len)
{
    switch (id) {
    case 'm': return add_method_list(o, value, err, err_len);
    case 't': return set_type(o, value, err, err_len);
    case 'o': return set_op(o, value, err, err_len);
    case 'd': return set_distribution(o, value, err, err_len);
    case OPT_STRATEGY: return set_strategy(o, value, err, err_len);
    case OPT_COMBINE: return set_combine(o, value, err, err_len);
    case OPT_SEGMENTS:
        o->segmented = true;
        return parse_segment_spec(value, &o->segments, err, err_len);
    case OPT_COL_SWEEP: /* a flag that also sets the axis */
        o->width_sweep = true;
        o->axis = AXIS_COLUMNS;
        return true;
    default: /* in LONG_OPTIONS without a handler */
        cli_fail(err, err_len, "unknown option '%s' (see --help)", name);
        return false;
    }
}

/* One option, spelled `name` on the command line, with its value (NULL for
 * a flag). --help, --version and --compare are the caller's. */
static bool apply_option(struct bench_options *o, int id, const char *name, const char *value,
                         char *err, size_t err_len)
{
    const size_t flag_count = sizeof FLAG_OPTIONS / sizeof FLAG_OPTIONS[0];
    const size_t path_count = sizeof PATH_OPTIONS / sizeof PATH_OPTIONS[0];
    const struct field_option *flag = find_field_option(FLAG_OPTIONS, flag_count, id);
    if (flag) {
        *(bool *)((char *)o + flag->field) = true;
        return true;
    }
    const struct field_option *path = find_field_option(PATH_OPTIONS, path_count, id);
    if (path)
        return set_path(o, path->field, name, value, err, err_len);
    if (id == OPT_GPUS && strcmp(value, "all") == 0) { /* a count is the table's */
        o->multi_gpu = true;
        o->gpus = GPUS_ALL;
        return true;
    }
    const struct numeric_option *numeric = find_numeric_option(id);
    if (numeric)
        return apply_numeric(numeric, o, value, err, err_len);
    return apply_named(o, id, name, value, err, err_len);
}

/* --compare OLD NEW: getopt gives OLD, NEW is the next word. */
static bool take_compare_files(struct bench_options *o, int argc, char **argv, char *err,
                               size_t err_len)
{
    if (optind >= argc || argv[optind][0] == '-') {
        cli_fail(err, err_len, "--compare needs two files: --compare OLD.csv NEW.csv");
        return false;
    }
    o->compare_old = optarg;
    o->compare_new = argv[optind++];
    return true;
}

/* The option as the user spelled it, for messages: "-n" (also for "-n5"),
 * "--size" (also for "--size=5"). argv[optind - 1] is the option, or its
 * value when that was a separate word. */
static void spelled_name(char **argv, int id, char *name, size_t name_len)
{
    const char *word = argv[optind - 1];
    if (optarg && word == optarg && optind >= 2)
        word = argv[optind - 2];
    if (word[0] == '-' && word[1] == '-')
        snprintf(name, name_len, "%.*s", (int)strcspn(word, "="), word);
    else
        snprintf(name, name_len, "-%c", id == '?' || id == ':' ? optopt : id);
}

/* -m and -r add to one list of methods; every other option sets one value,
 * and a second one would silently replace the first. */
static bool may_repeat(int id) { return id == 'm' || id == 'r'; }

/* Whether getopt found a known option, given at most once (given[] notes it). */
static bool check_option_word(int id, const char *name, bool given[OPT_COUNT], char *err,
                              size_t err_len)
{
    if (id == '?') {
        cli_fail(err, err_len, "unknown option '%s' (see --help)", name);
        return false;
    }
    if (id == ':') {
        cli_fail(err, err_len, "%s needs a value", name);
        return false;
    }
    if (given[id] && !may_repeat(id)) {
        cli_fail(err, err_len, "%s is given twice (each option once; only -m and -r repeat)",
                 name);
        return false;
    }
    given[id] = true;
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
        char name[64];
        spelled_name(argv, id, name, sizeof name);
        if (id == 's') /* seed 000's spelling of -n */
            id = 'n';
        if (!check_option_word(id, name, given, err, err_len))
            return CLI_ERROR;
        if (id == 'h') {
            o->help = true;
            return CLI_HELP;
        }
        if (id == OPT_VERSION)
            return CLI_VERSION;
        const bool applied = id == OPT_COMPARE ? take_compare_files(o, argc, argv, err, err_len)
                                               : apply_option(o, id, name, optarg, err, err_len);
        if (!applied)
            return CLI_ERROR;
    }
    return check_conflicts(o, given, optind < argc ? optind : 0, argv, err, err_len) ? CLI_OK
                                                                                      : CLI_ERROR;
}

bool writes_to_stdout(const struct bench_options *o) { return stdout_output_count(o) > 0; }

enum shape_kind options_shape_kind(const struct bench_options *o)
{
    if (o->cols || o->width_sweep)
        return o->axis == AXIS_COLUMNS ? SHAPE_COLUMNS : SHAPE_ROWS;
    return o->segmented ? SHAPE_SEGMENTS : SHAPE_WHOLE;
}

bool options_shape(const struct bench_options *o, size_t *n, struct reduce_shape *shape,
                   segment_offset **offsets, char *err, size_t err_len)
{
    *offsets = NULL;
    *shape = whole_shape();
    if (o->cols && o->axis == AXIS_COLUMNS)
        return make_columns_shape(o->cols, o->rows, *n, shape, err, err_len);
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
