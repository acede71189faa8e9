/* The checks across options, once the whole line is read: options that
 * would be ignored, or that contradict each other, are errors, so that
 * nothing the user asked for is silently dropped. Each check is one rule,
 * run in the order of check_conflicts' list; the first broken one is the
 * message. */
#include "cli_options.h"

#include <stdint.h>
#include <string.h>

typedef bool option_check(const struct bench_options *o, const bool given[OPT_COUNT], char *err,
                          size_t err_len);

int stdout_output_count(const struct bench_options *o)
{
    const char *outputs[] = {o->csv_path, o->json_path, o->markdown_path};
    int count = 0;
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; ++i)
        count += outputs[i] && strcmp(outputs[i], "-") == 0;
    return count;
}

/* The side of --type all / --op all that a message names. */
static const char *matrix_option(const struct bench_options *o)
{
    return o->type == TYPE_COUNT ? "type" : "op";
}

/* The width sweep as it was asked for. */
static const char *width_sweep_option(const struct bench_options *o)
{
    return o->axis == AXIS_COLUMNS ? "--col-sweep" : "--row-sweep";
}

/* --list and --list-devices take nothing; --compare reads two files: it
 * takes -m (which methods) and --ignore-device, nothing that measures. */
static bool check_exclusive_modes(const struct bench_options *o, const bool given[OPT_COUNT],
                                  char *err, size_t err_len)
{
    (void)o;
    /* allowed: the options beside the mode (0: none; no option has id 0) */
    static const struct { int mode, allowed[2]; const char *message; } MODES[] = {
        {OPT_LIST, {0, 0}, "--list takes no other options"},
        {OPT_LIST_DEVICES, {0, 0}, "--list-devices takes no other options"},
        {OPT_COMPARE, {'m', OPT_IGNORE_DEVICE},
         "--compare takes only -m and --ignore-device (it measures nothing)"},
    };
    for (int id = 0; id < OPT_COUNT; ++id)
        for (size_t m = 0; given[id] && m < sizeof MODES / sizeof MODES[0]; ++m)
            if (given[MODES[m].mode] && id != MODES[m].mode && id != MODES[m].allowed[0] &&
                id != MODES[m].allowed[1]) {
                cli_fail(err, err_len, "%s", MODES[m].message);
                return false;
            }
    return true;
}

/* --gpus prints its own scaling table from devices 0..N-1 with a fixed
 * sample count: what only a one-GPU table has would be ignored. */
static bool check_gpus_table(const struct bench_options *o, const bool given[OPT_COUNT],
                             char *err, size_t err_len)
{
    static const struct { int id; const char *name, *instead; } ONE_GPU_ONLY[] = {
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
            cli_fail(err, err_len, "%s is not for --gpus, which prints a scaling table%s",
                     ONE_GPU_ONLY[i].name, ONE_GPU_ONLY[i].instead);
            return false;
        }
    if (given[OPT_GPUS] && runs_matrix(o)) {
        cli_fail(err, err_len, "--gpus needs one type and one operator, not --%s all",
                 matrix_option(o));
        return false;
    }
    if (given[OPT_GPUS] && is_arg_op(o->op)) {
        cli_fail(err, err_len, "--gpus combines one value a GPU, not an index: --op %s is not "
                               "for it", reduce_op_name(o->op));
        return false;
    }
    return true;
}

static const char STOPPING_RULE_ONLY[] =
    "--min-samples, --max-samples and --timeout only apply to --max-noise";

/* Options that only mean something beside another (either of two). */
static bool check_needed_options(const struct bench_options *o, const bool given[OPT_COUNT],
                                 char *err, size_t err_len)
{
    (void)o;
    /* needs: either of two options (0: no second; no option has id 0) */
    static const struct { int id, needs[2]; const char *message; } NEEDS[] = {
        {OPT_COMBINE, {OPT_GPUS, 0}, "--combine only applies to --gpus"},
        {OPT_LADDER, {OPT_GPUS, 0}, "--ladder only applies to --gpus"},
        {OPT_ROWS, {OPT_COLS, 0}, "--rows needs --cols (the width of a row)"},
        {OPT_AXIS, {OPT_COLS, 0}, "--axis needs --cols (the matrix whose rows or columns it "
                                  "reduces; the sweeps are --row-sweep and --col-sweep)"},
        {OPT_MIN_SAMPLES, {OPT_MAX_NOISE, 0}, STOPPING_RULE_ONLY},
        {OPT_MAX_SAMPLES, {OPT_MAX_NOISE, 0}, STOPPING_RULE_ONLY},
        {OPT_TIMEOUT, {OPT_MAX_NOISE, 0}, STOPPING_RULE_ONLY},
        {OPT_IGNORE_DEVICE, {OPT_COMPARE, OPT_BASELINE},
         "--ignore-device only applies to --compare and --baseline"},
        {OPT_SWEEP_MAX, {OPT_SWEEP, 0}, "--sweep-max only applies to --sweep"},
    };
    for (size_t i = 0; i < sizeof NEEDS / sizeof NEEDS[0]; ++i)
        if (given[NEEDS[i].id] && !given[NEEDS[i].needs[0]] && !given[NEEDS[i].needs[1]]) {
            cli_fail(err, err_len, "%s", NEEDS[i].message);
            return false;
        }
    return true;
}

/* Two options that each decide the same thing. */
static bool check_pick_one(const struct bench_options *o, const bool given[OPT_COUNT], char *err,
                           size_t err_len)
{
    (void)o;
    static const struct { int a, b; const char *message; } PICK_ONE[] = {
        {OPT_COLS, OPT_SEGMENTS, "--cols and --segments are two shapes: pick one"},
        {OPT_ROW_SWEEP, OPT_COL_SWEEP, "--row-sweep and --col-sweep sweep two axes: pick one"},
        {'S', OPT_MAX_NOISE, "-S fixes the sample count, --max-noise stops on noise: pick one"},
        {OPT_SWEEP, OPT_PROGRESSION, "--sweep and --progression are separate views: pick one"},
        {'n', 'b', "-n and --bytes both give the size: pick one"},
    };
    for (size_t i = 0; i < sizeof PICK_ONE / sizeof PICK_ONE[0]; ++i)
        if (given[PICK_ONE[i].a] && given[PICK_ONE[i].b]) {
            cli_fail(err, err_len, "%s", PICK_ONE[i].message);
            return false;
        }
    return true;
}

/* --ladder and the width sweeps choose sizes or widths themselves. */
static bool check_chosen_sizes(const struct bench_options *o, const bool given[OPT_COUNT],
                               char *err, size_t err_len)
{
    (void)given;
    if (o->ladder && (o->n || o->bytes)) {
        cli_fail(err, err_len, "--ladder chooses the sizes: not with %s", o->n ? "-n" : "--bytes");
        return false;
    }
    if (o->width_sweep && (o->cols || o->segmented)) {
        cli_fail(err, err_len, "%s chooses the widths: not with %s", width_sweep_option(o),
                 o->cols ? "--cols" : "--segments");
        return false;
    }
    return true;
}

/* Rows, columns and segments: nothing that only the whole array has
 * (--sweep's sizes, --gpus' shards, --batch's table), one type and operator
 * for a width sweep's own table. */
static bool check_whole_array_only(const struct bench_options *o, const bool given[OPT_COUNT],
                                   char *err, size_t err_len)
{
    static const struct { int id; const char *name; } WHOLE_ONLY[] = {
        {OPT_GPUS, "--gpus"}, {OPT_SWEEP, "--sweep"}, {OPT_BATCH, "--batch"},
        {OPT_LADDER, "--ladder"}};
    const bool shaped = o->cols || o->segmented || o->width_sweep;
    for (size_t i = 0; shaped && i < sizeof WHOLE_ONLY / sizeof WHOLE_ONLY[0]; ++i)
        if (given[WHOLE_ONLY[i].id]) {
            cli_fail(err, err_len, "%s is for the whole array, not with %s", WHOLE_ONLY[i].name,
                     o->width_sweep ? width_sweep_option(o) : o->cols ? "--cols" : "--segments");
            return false;
        }
    if (o->width_sweep && (o->progression || runs_matrix(o))) {
        cli_fail(err, err_len, "%s needs one type and one operator and its own table, not %s",
                 width_sweep_option(o), o->progression ? "--progression" : "--type all or --op all");
        return false;
    }
    return true;
}

/* Whether n elements of every type the run uses make whole rows. */
static bool total_is_whole_rows(const struct bench_options *o, char *err, size_t err_len)
{
    for (int t = 0; t < TYPE_COUNT; ++t) {
        if (o->type != TYPE_COUNT && o->type != (enum element_type)t)
            continue;
        const size_t n = default_n(o, (enum element_type)t);
        if (o->rows && n != o->rows * o->cols) {
            cli_fail(err, err_len, "--rows %zu x --cols %zu is %zu elements, not the %zu of %s",
                     o->rows, o->cols, o->rows * o->cols, n, o->n ? "-n" : "--bytes");
            return false;
        }
        if (n % o->cols != 0) {
            cli_fail(err, err_len, "--cols %zu: %zu %s elements are not whole rows (give -n, "
                                   "--bytes or --rows to make them)",
                     o->cols, n, element_type_name((enum element_type)t));
            return false;
        }
    }
    return true;
}

/* The total a shape's options give: one source of the size each. */
static bool check_shape_size(const struct bench_options *o, const bool given[OPT_COUNT],
                             char *err, size_t err_len)
{
    (void)given;
    if (o->segmented && o->segments.source == SEGMENTS_FILE && (o->n || o->bytes)) {
        cli_fail(err, err_len, "--segments file: the lengths give the total: not with %s",
                 o->n ? "-n" : "--bytes");
        return false;
    }
    if (o->rows && o->bytes) {
        cli_fail(err, err_len, "--rows with --cols gives the size: not with --bytes");
        return false;
    }
    if (o->cols && o->rows && o->cols > SIZE_MAX / o->rows) {
        cli_fail(err, err_len, "--rows %zu x --cols %zu elements is too large", o->rows, o->cols);
        return false;
    }
    return !o->cols || total_is_whole_rows(o, err, err_len);
}

/* --batch's table, --min-samples' range, one output on standard output. */
static bool check_run_outputs(const struct bench_options *o, const bool given[OPT_COUNT],
                              char *err, size_t err_len)
{
    (void)given;
    if (o->batch && (o->sweep || runs_matrix(o))) {
        cli_fail(err, err_len, "--batch prints its own table beside one run's: not with --%s",
                 o->sweep ? "sweep" : o->type == TYPE_COUNT ? "type all" : "op all");
        return false;
    }
    if (o->min_samples > o->max_samples) {
        cli_fail(err, err_len, "--min-samples %d is more than --max-samples %d", o->min_samples,
                 o->max_samples);
        return false;
    }
    if (stdout_output_count(o) > 1) {
        cli_fail(err, err_len, "only one output can go to standard output ('-')");
        return false;
    }
    return true;
}

/* What only makes sense for one (type, operator). */
static bool check_single_pair(const struct bench_options *o, const bool given[OPT_COUNT],
                              char *err, size_t err_len)
{
    (void)given;
    if (!runs_matrix(o))
        return true;
    const char *single = o->progression ? "--progression" : o->sweep ? "--sweep"
                         : o->csv_path ? "--csv" : o->json_path ? "--json"
                         : o->markdown_path ? "--markdown" : o->baseline_path ? "--baseline"
                                                                               : NULL;
    if (single) {
        cli_fail(err, err_len, "%s needs one type and one operator, not --%s all", single,
                 matrix_option(o));
        return false;
    }
    return true;
}

/* Offsets that would leave the input unaligned to its element or reach a
 * whole 16 bytes, for every type the run uses. */
static bool check_offset_fits(const struct bench_options *o, const bool given[OPT_COUNT],
                              char *err, size_t err_len)
{
    (void)given;
    for (int t = 0; t < TYPE_COUNT; ++t) {
        if (o->type != TYPE_COUNT && o->type != (enum element_type)t)
            continue;
        const size_t largest = largest_offset((enum element_type)t);
        if (o->offset > largest) {
            cli_fail(err, err_len, "--offset: %zu %s elements is 16 bytes or more (at most %zu)",
                     o->offset, element_type_name((enum element_type)t), largest);
            return false;
        }
    }
    return true;
}

bool check_conflicts(const struct bench_options *o, const bool given[OPT_COUNT], int positional,
                     char *const *argv, char *err, size_t err_len)
{
    static option_check *const CHECKS[] = {
        check_exclusive_modes, check_gpus_table,  check_needed_options, check_chosen_sizes,
        check_pick_one,        check_whole_array_only, check_shape_size, check_run_outputs,
        check_single_pair,     check_offset_fits,
    };
    if (positional) {
        cli_fail(err, err_len,
                 "unexpected argument '%s' (options take the form -x VALUE or --name=VALUE)",
                 argv[positional]);
        return false;
    }
    for (size_t i = 0; i < sizeof CHECKS / sizeof CHECKS[0]; ++i)
        if (!CHECKS[i](o, given, err, err_len))
            return false;
    return true;
}
