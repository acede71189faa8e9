/* bench_compare's command line: defaults, every option, and one clear error
 * for each kind of bad input. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2: --help captured from stdout */

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "cli_options.h" /* the numeric options' table: every row is tested */

static enum cli_status parse(struct bench_options *o, char *err, const char *line)
{
    static char storage[1024];
    char *argv[32];
    int argc = 0;
    snprintf(storage, sizeof storage, "%s", line);
    argv[argc++] = "bench_compare";
    for (char *tok = strtok(storage, " "); tok && argc < 32; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    return parse_bench_options(argc, argv, o, err, CLI_ERROR_LEN);
}

/* Parses line, which must be refused with one line holding message_part;
 * the message is left in err for a caller's further checks. */
static void check_refused(const char *line, const char *message_part, char *err)
{
    struct bench_options o;
    err[0] = '\0';
    const enum cli_status status = parse(&o, err, line);
    const bool found = strstr(err, message_part) != NULL;
    if (status != CLI_ERROR || !found)
        fprintf(stderr, "  '%s' -> status %d, message '%s'\n", line, status, err);
    CHECK(status == CLI_ERROR && found && strchr(err, '\n') == NULL);
}

static void no_arguments_should_give_64_mib_and_100_cold_samples(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "") == CLI_OK);
    CHECK(o.n == 0 && o.bytes == 0); /* n: 64 MiB of the chosen type */
    CHECK(default_n(&o, TYPE_FLOAT) == 16777216);
    CHECK(o.samples == 100 && o.warmup == 5 && o.seed == 1 && !o.hot && o.method_count == 0);
    CHECK(o.dist == DIST_UNIFORM && o.strategy == PASS_PADDED && o.offset == 0);
    CHECK(o.type == TYPE_FLOAT && o.op == OP_SUM && !runs_matrix(&o));
    CHECK(!o.progression && !o.sweep && !o.list && !o.csv_path && !o.baseline_path);
}

static void default_n_should_be_64_mib_of_each_type(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "") == CLI_OK);
    CHECK(default_n(&o, TYPE_FLOAT) == 16777216);
    CHECK(default_n(&o, TYPE_INT32) == 16777216);
    CHECK(default_n(&o, TYPE_UINT32) == 16777216);
    CHECK(default_n(&o, TYPE_DOUBLE) == 8388608);
    CHECK(default_n(&o, TYPE_INT64) == 8388608);
    CHECK(default_n(&o, TYPE_HALF) == 33554432);
    CHECK(default_n(&o, TYPE_BFLOAT16) == 33554432);
}

static void explicit_n_should_hold_for_every_type(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-n 1000003 --type all") == CLI_OK);
    CHECK(o.n == 1000003);
    for (int t = 0; t < TYPE_COUNT; ++t)
        CHECK(default_n(&o, (enum element_type)t) == 1000003);
}

static void bytes_should_set_n_per_element_size(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "--bytes 1024") == CLI_OK);
    CHECK(o.n == 0 && o.bytes == 1024);
    CHECK(default_n(&o, TYPE_FLOAT) == 256 && default_n(&o, TYPE_DOUBLE) == 128);
    CHECK(default_n(&o, TYPE_HALF) == 512 && default_n(&o, TYPE_BFLOAT16) == 512);
    CHECK(parse(&o, err, "-b 1001") == CLI_OK); /* rounds down to whole elements */
    CHECK(default_n(&o, TYPE_FLOAT) == 250 && default_n(&o, TYPE_INT64) == 125);
    CHECK(default_n(&o, TYPE_HALF) == 500);
    CHECK(parse(&o, err, "-b 8") == CLI_OK && default_n(&o, TYPE_DOUBLE) == 1);
}

static void seed_000_spelling_should_select_step_and_size(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-r 0 -s 509600000") == CLI_OK);
    CHECK(o.n == 509600000);
    CHECK(o.method_count == 1 && strcmp(o.methods[0], "reduce0") == 0);
}

static void every_option_should_be_read(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-n 1025 -m cub,vec4 -m thrust -S 7 -w 2 --hot -d signed --seed 99 "
                         "--strategy pow2-split --offset 3 --csv a.csv --json a.json "
                         "--markdown a.md --baseline b.csv --progression") == CLI_OK);
    CHECK(o.n == 1025 && o.samples == 7 && o.warmup == 2 && o.hot && o.seed == 99);
    CHECK(o.method_count == 3 && strcmp(o.methods[2], "thrust") == 0);
    CHECK(o.dist == DIST_SIGNED && o.strategy == PASS_POW2_SPLIT && o.offset == 3);
    CHECK(strcmp(o.csv_path, "a.csv") == 0 && strcmp(o.json_path, "a.json") == 0);
    CHECK(strcmp(o.markdown_path, "a.md") == 0 && strcmp(o.baseline_path, "b.csv") == 0);
    CHECK(o.progression);
    CHECK(parse(&o, err, "--sweep --sweep-max 65536 --csv s.csv --json s.json --markdown s.md "
                         "--baseline b.csv") == CLI_OK);
    CHECK(o.sweep && o.sweep_max == 65536 && strcmp(o.csv_path, "s.csv") == 0);
    CHECK(strcmp(o.json_path, "s.json") == 0 && strcmp(o.markdown_path, "s.md") == 0);
    CHECK(strcmp(o.baseline_path, "b.csv") == 0);
    CHECK(parse(&o, err, "--compare old.csv new.csv") == CLI_OK);
    CHECK(strcmp(o.compare_old, "old.csv") == 0 && strcmp(o.compare_new, "new.csv") == 0);
    CHECK(parse(&o, err, "--dist ill-conditioned") == CLI_OK && o.dist == DIST_ILL_CONDITIONED);
    CHECK(parse(&o, err, "-dwide-range") == CLI_OK && o.dist == DIST_WIDE_RANGE);
}

/* GNU conventions through getopt_long: attached values, --name=value, --. */
static void values_should_be_accepted_in_every_gnu_spelling(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "--size=4097") == CLI_OK && o.n == 4097);
    CHECK(parse(&o, err, "-n4097") == CLI_OK && o.n == 4097);
    CHECK(parse(&o, err, "-S50 -w2 --type=half --op=max") == CLI_OK);
    CHECK(o.samples == 50 && o.warmup == 2 && o.type == TYPE_HALF && o.op == OP_MAX);
    CHECK(parse(&o, err, "-n 5 --") == CLI_OK && o.n == 5);
    CHECK(parse(&o, err, "--json -") == CLI_OK && strcmp(o.json_path, "-") == 0);
    CHECK(parse(&o, err, "--compare=old.csv new.csv") == CLI_OK);
    CHECK(strcmp(o.compare_old, "old.csv") == 0 && strcmp(o.compare_new, "new.csv") == 0);
    CHECK(parse(&o, err, "--sweep --csv - --sweep-max 4096") == CLI_OK);
    CHECK(parse(&o, err, "--list") == CLI_OK && o.list);
    CHECK(parse(&o, err, "--compare a.csv b.csv -m cub,tma_ring --ignore-device") == CLI_OK);
    CHECK(o.method_count == 2 && o.ignore_device);
    CHECK(parse(&o, err, "--baseline b.csv --ignore-device") == CLI_OK && o.ignore_device);
    CHECK(parse(&o, err, "") == CLI_OK && o.device == 0 && !o.list_devices);
    CHECK(parse(&o, err, "--device=1") == CLI_OK && o.device == 1);
    CHECK(parse(&o, err, "--list-devices") == CLI_OK && o.list_devices);
    CHECK(parse(&o, err, "-n 4096 --batch 100") == CLI_OK && o.batch == 100);
    CHECK(parse(&o, err, "") == CLI_OK && o.max_noise_pct == 0.0 && o.min_samples == 10 &&
          o.max_samples == 1000 && o.timeout_s == 10.0);
    CHECK(parse(&o, err, "--max-noise=0.5 --min-samples 20 --max-samples=400 --timeout 2.5") ==
          CLI_OK);
    CHECK(o.max_noise_pct == 0.5 && o.min_samples == 20 && o.max_samples == 400 &&
          o.timeout_s == 2.5 && o.samples == 100);
    /* The parser runs again from scratch every time (getopt's global state). */
    CHECK(parse(&o, err, "-n 7") == CLI_OK && o.n == 7);
}

/* ---- --gpus: the multi-GPU path */

static void gpus_should_default_to_todays_one_gpu_path(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "") == CLI_OK);
    CHECK(!o.multi_gpu && o.gpus == 1 && !o.ladder);
    CHECK(o.combines == (COMBINE_BIT(COMBINE_P2P) | COMBINE_BIT(COMBINE_NCCL)));
}

static void gpus_should_take_a_count_or_all_with_its_options(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "--gpus 2") == CLI_OK);
    CHECK(o.multi_gpu && o.gpus == 2 && o.combines == ALL_COMBINES && !o.ladder);
    CHECK(parse(&o, err, "--gpus all") == CLI_OK && o.multi_gpu && o.gpus == GPUS_ALL);
    CHECK(parse(&o, err, "--gpus=1") == CLI_OK && o.multi_gpu && o.gpus == 1); /* one rank */
    CHECK(parse(&o, err, "--gpus 16") == CLI_OK && o.gpus == 16);
    CHECK(parse(&o, err, "--gpus 2 --combine p2p") == CLI_OK);
    CHECK(o.combines == COMBINE_BIT(COMBINE_P2P));
    CHECK(parse(&o, err, "--gpus 2 --combine=nccl") == CLI_OK);
    CHECK(o.combines == COMBINE_BIT(COMBINE_NCCL));
    CHECK(parse(&o, err, "--gpus 2 --combine p2p --combine all") == CLI_ERROR);
    CHECK(strstr(err, "--combine is given twice") != NULL); /* not: the last wins */
    CHECK(parse(&o, err, "--gpus all --ladder -m cub -t half -o max -S 20 -w 2") == CLI_OK);
    CHECK(o.ladder && o.method_count == 1 && o.type == TYPE_HALF && o.op == OP_MAX);
    CHECK(o.samples == 20 && o.warmup == 2);
    /* what a scaling run does take: size, data, flush, strategy, offset */
    CHECK(parse(&o, err, "--gpus 2 -n 1000003 --hot --dist signed --seed 4 --strategy "
                         "pow2-split --offset 1 -t double") == CLI_OK);
    CHECK(o.n == 1000003 && o.hot && o.dist == DIST_SIGNED && o.seed == 4);
    CHECK(o.strategy == PASS_POW2_SPLIT && o.offset == 1 && o.type == TYPE_DOUBLE);
    CHECK(parse(&o, err, "--gpus 2 --bytes 1073741824") == CLI_OK && o.bytes == 1073741824);
}

static void version_should_be_recognised(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "--version") == CLI_VERSION);
    CHECK(parse(&o, err, "-n 5 --version") == CLI_VERSION);
}

static void help_should_be_recognised_anywhere(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-n 5 --help") == CLI_HELP);
    CHECK(parse(&o, err, "-h") == CLI_HELP);
}

struct bad_case {
    const char *line;
    const char *message_part;
};

/* Each line, and a part of the message it must fail with. */
static const struct bad_case BAD_INPUTS[] = {
    {"-n 0", "at least 1"},
    {"-n -5", "'-5' is not a whole non-negative number"},
    {"-n abc", "'abc' is not a whole"},
    {"-n 12x", "'12x' is not a whole"},
    {"-n 1e6", "'1e6' is not a whole"},
    {"-n 99999999999999999999999", "too large"},
    {"-n", "-n needs a value"},
    {"-s", "-s needs a value"},
    {"-m cub,,vec4", "empty method name"},
    {"-m cub -m cub", "'cub' is named twice"},
    {"-r 3 -m reduce3", "'reduce3' is named twice"},
    {"-S 0", "samples: 0 is out of range"},
    {"-S many", "'many' is not a whole"},
    {"-w 0", "warmup: 0 is out of range"},
    {"-S 3000000000", "out of range"},
    {"--offset 4", "--offset: 4 float elements is 16 bytes or more (at most 3)"},
    {"-b 7", "--bytes: 7 is out of range (at least 8: one element of every type)"},
    {"-b 0", "at least 8"},
    {"--bytes", "--bytes needs a value"},
    {"-n 5 -b 1024", "pick one"},
    {"-n 5 -b 67108864", "pick one"}, /* --bytes at its default still conflicts */
    {"--type half --offset 9223372036854775808", "--offset: 9223372036854775808 half"},
    {"-b 1024 -n 5", "pick one"},
    {"--type", "--type needs a value"},
    {"-t", "-t needs a value"},
    {"--op", "--op needs a value"},
    {"-o", "-o needs a value"},
    {"--dist gaussian", "unknown distribution 'gaussian'"},
    {"--dist gaussian", "(uniform, small-ints, wide-range, signed, ill-conditioned)"},
    {"--strategy fast", "unknown strategy 'fast'"},
    {"--frobnicate", "unknown option '--frobnicate'"},
    {"extra", "unexpected argument 'extra'"},
    {"-n 5 -- extra", "unexpected argument 'extra'"},
    {"--size", "--size needs a value"},
    {"--size=", "expected a number, got nothing"},
    {"--size=12x", "'12x' is not a whole"},
    {"-q", "unknown option '-q'"},
    {"--compare a.csv b.csv -n 5", "--compare takes only -m and --ignore-device"},
    {"-n 5 --compare a.csv b.csv --csv x.csv", "--compare takes only -m and --ignore-device"},
    {"--ignore-device", "--ignore-device only applies to --compare and --baseline"},
    {"--device -1", "'-1' is not a whole"},
    {"--max-noise 0", "max-noise: '0' is not a positive number"},
    {"--batch 0", "batch: 0 is out of range"},
    {"--batch 10 --sweep", "--batch prints its own table beside one run's: not with --sweep"},
    {"--batch 10 --type all", "not with --type all"},
    {"--max-noise 1%", "'1%' is not a positive number"},
    {"--max-noise nan", "not a positive number"},
    {"--min-samples 20", "only apply to --max-noise"},
    {"--timeout 5", "only apply to --max-noise"},
    {"--max-noise 1 -S 50", "pick one"},
    {"--max-noise 1 --min-samples 50 --max-samples 20", "--min-samples 50 is more than --max-samples 20"},
    {"--max-noise 1 --min-samples 1", "min-samples: 1 is out of range"},
    {"--device gpu1", "'gpu1' is not a whole"},
    {"--device", "--device needs a value"},
    {"--list-devices -n 5", "--list-devices takes no other options"},
    {"-n 5 --ignore-device", "only applies to --compare"},
    {"--list -m cub", "--list takes no other options"},
    {"--sweep --sweep-csv s.csv", "unknown option '--sweep-csv'"},
    {"--sweep-max 2048", "--sweep-max only applies to --sweep"},
    {"--csv - --json -", "only one output can go to standard output"},
    {"--compare only.csv", "needs two files"},
    {"--sweep --progression", "pick one"},
    {"--sweep-max 100", "at least 1024"},
    {"--gpus 0", "gpus: 0 is out of range"},
    {"--gpus 17", "--gpus: 17 is out of range (at most 16: the most one process drives)"},
    {"--gpus two", "'two' is not a whole"},
    {"--gpus -1", "'-1' is not a whole"},
    {"--gpus", "--gpus needs a value"},
    {"--gpus 2 --sweep", "--sweep is not for --gpus, which prints a scaling table; --ladder"},
    {"--gpus 2 --sweep-max 4096", "--sweep-max is not for --gpus"},
    {"--gpus 2 --progression", "--progression is not for --gpus"},
    {"--gpus 2 --batch 10", "--batch is not for --gpus"},
    {"--gpus all --csv x.csv", "--csv is not for --gpus"},
    {"--gpus 2 --json -", "--json is not for --gpus"},
    {"--gpus 2 --markdown m.md", "--markdown is not for --gpus"},
    {"--gpus 2 --baseline b.csv", "--baseline is not for --gpus"},
    {"--gpus 2 --device 1", "--device is not for --gpus, which prints a scaling table; choose the GPUs with CUDA_VISIBLE_DEVICES"},
    {"--gpus 2 --max-noise 1", "--max-noise is not for --gpus"},
    {"--gpus 2 --type all", "--gpus needs one type and one operator, not --type all"},
    {"--gpus 2 -o all", "--gpus needs one type and one operator, not --op all"},
    {"--combine p2p", "--combine only applies to --gpus"},
    {"--ladder", "--ladder only applies to --gpus"},
    {"-n 5 --ladder", "--ladder only applies to --gpus"},
    {"--gpus 2 --combine mpi", "--combine: unknown combine 'mpi' (p2p, nccl, all)"},
    {"--gpus 2 --combine", "--combine needs a value"},
    {"--gpus 2 --ladder -n 5", "--ladder chooses the sizes: not with -n"},
    {"--gpus 2 --bytes 1024 --ladder", "--ladder chooses the sizes: not with --bytes"},
    {"--list --gpus 2", "--list takes no other options"},
    {"--compare a.csv b.csv --gpus 2", "--compare takes only -m"},
};

static void bad_input_should_fail_with_a_message_naming_the_problem(void)
{
    for (size_t i = 0; i < sizeof BAD_INPUTS / sizeof BAD_INPUTS[0]; ++i) {
        char err[CLI_ERROR_LEN];
        check_refused(BAD_INPUTS[i].line, BAD_INPUTS[i].message_part, err);
    }
}

/* Property: parse_count accepts exactly the non-empty all-digit strings whose
 * value fits in size_t, and then returns that value. Random strings over an
 * alphabet of digits and troublemakers, checked against a slow model. */
static void parse_count_should_agree_with_a_model_on_random_strings(void)
{
    static const char ALPHABET[] = "0123456789-+ .xeK\t";
    uint64_t state = 12345;
    for (int trial = 0; trial < 200000; ++trial) {
        char text[28];
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const size_t len = (size_t)(state >> 59) % 26; /* 0..25 characters */
        int all_digits = len > 0;
        for (size_t i = 0; i < len; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const int pick = (int)((state >> 33) % (trial % 3 ? 10 : sizeof ALPHABET - 1));
            text[i] = ALPHABET[pick];
            all_digits &= text[i] >= '0' && text[i] <= '9';
        }
        text[len] = '\0';
        /* model: accumulate with an overflow check */
        int fits = all_digits;
        size_t model = 0;
        for (size_t i = 0; fits && i < len; ++i) {
            const size_t digit = (size_t)(text[i] - '0');
            if (model > (SIZE_MAX - digit) / 10)
                fits = 0;
            else
                model = model * 10 + digit;
        }
        size_t got = 0;
        char err[CLI_ERROR_LEN];
        const bool ok = parse_count(text, "size", &got, err, sizeof err);
        CHECK(ok == (bool)fits);
        if (ok && fits)
            CHECK(got == model);
        if (ok != (bool)fits) {
            fprintf(stderr, "  parse_count('%s') = %d, model %d\n", text, ok, fits);
            return;
        }
    }
}

/* ---- --type and --op */

static void type_should_accept_every_name_in_both_spellings(void)
{
    for (int t = 0; t < TYPE_COUNT; ++t) {
        struct bench_options o;
        char err[CLI_ERROR_LEN], line[64];
        const char *name = element_type_name((enum element_type)t);
        snprintf(line, sizeof line, "--type %s", name);
        CHECK(parse(&o, err, line) == CLI_OK);
        CHECK((int)o.type == t && o.op == OP_SUM && !runs_matrix(&o));
        snprintf(line, sizeof line, "-t %s", name);
        CHECK(parse(&o, err, line) == CLI_OK);
        CHECK((int)o.type == t);
    }
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-t half -t int64") == CLI_ERROR); /* not: the last wins */
    CHECK(strstr(err, "-t is given twice") != NULL);
}

static void op_should_accept_every_name_in_both_spellings(void)
{
    for (int op = 0; op < OP_COUNT; ++op) {
        struct bench_options o;
        char err[CLI_ERROR_LEN], line[64];
        const char *name = reduce_op_name((enum reduce_op)op);
        snprintf(line, sizeof line, "--op %s", name);
        CHECK(parse(&o, err, line) == CLI_OK);
        CHECK((int)o.op == op && o.type == TYPE_FLOAT && !runs_matrix(&o));
        snprintf(line, sizeof line, "-o %s", name);
        CHECK(parse(&o, err, line) == CLI_OK);
        CHECK((int)o.op == op);
    }
}

static void all_should_select_every_type_or_op_and_run_the_matrix(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "--type all") == CLI_OK);
    CHECK(o.type == TYPE_COUNT && o.op == OP_SUM && runs_matrix(&o));
    CHECK(parse(&o, err, "-o all") == CLI_OK);
    CHECK(o.type == TYPE_FLOAT && o.op == OP_COUNT && runs_matrix(&o));
    CHECK(parse(&o, err, "-t all -o all -m cub -n 4096 --hot -S 3") == CLI_OK);
    CHECK(o.type == TYPE_COUNT && o.op == OP_COUNT && runs_matrix(&o) && o.n == 4096);
    CHECK(parse(&o, err, "-t double -o max") == CLI_OK);
    CHECK(o.type == TYPE_DOUBLE && o.op == OP_MAX && !runs_matrix(&o));
}

static void runs_matrix_should_be_true_exactly_when_a_side_is_all(void)
{
    struct bench_options o = {.type = TYPE_HALF, .op = OP_MIN};
    CHECK(!runs_matrix(&o));
    o.type = TYPE_COUNT;
    CHECK(runs_matrix(&o));
    o.op = OP_COUNT;
    CHECK(runs_matrix(&o));
    o.type = TYPE_INT32;
    CHECK(runs_matrix(&o));
}

static void unknown_type_or_op_should_be_rejected_naming_the_option(void)
{
    static const struct bad_case CASES[] = {
        {"--type nosuch", "--type: unknown type 'nosuch'"},
        {"-t nosuch", "--type: unknown type 'nosuch'"},
        {"--type Float", "unknown type 'Float'"},
        {"--type ALL", "unknown type 'ALL'"},
        {"--type float32", "unknown type 'float32'"},
        {"--op nosuch", "--op: unknown operator 'nosuch'"},
        {"-o product", "--op: unknown operator 'product'"},
        {"--op Sum", "unknown operator 'Sum'"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        char err[CLI_ERROR_LEN];
        check_refused(CASES[i].line, CASES[i].message_part, err);
        /* the message lists what is accepted */
        CHECK(strstr(err, "all") != NULL);
    }
    struct bench_options o;
    char err[CLI_ERROR_LEN] = "";
    CHECK(parse(&o, err, "--type nosuch") == CLI_ERROR);
    CHECK(strstr(err, "bfloat16") != NULL && strstr(err, "half") != NULL);
    CHECK(parse(&o, err, "--op nosuch") == CLI_ERROR);
    CHECK(strstr(err, "(sum, max, min, argmax, argmin, all)") != NULL);
    CHECK(parse(&o, err, "--op arg_max") == CLI_ERROR && strstr(err, "'arg_max'") != NULL);
}

/* argmax and argmin in both spellings; `all` is still every operator,
 * argmax and argmin included (OP_COUNT). */
static void argmax_and_argmin_should_parse_and_all_should_mean_every_operator(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-o argmax") == CLI_OK && o.op == OP_ARGMAX && !runs_matrix(&o));
    CHECK(parse(&o, err, "--op argmin") == CLI_OK && o.op == OP_ARGMIN && !runs_matrix(&o));
    CHECK(parse(&o, err, "--op=argmax -t int64") == CLI_OK);
    CHECK(o.op == OP_ARGMAX && o.type == TYPE_INT64);
    CHECK(parse(&o, err, "--op all") == CLI_OK && o.op == OP_COUNT && runs_matrix(&o));
    CHECK(OP_COUNT == 5 && OP_ARGMAX < OP_COUNT && OP_ARGMIN < OP_COUNT);
}

/* --gpus combines one value from each GPU: an index is refused, naming
 * both; the value operators still run there. */
static void gpus_should_refuse_argmax_and_argmin(void)
{
    static const struct bad_case CASES[] = {
        {"--gpus 2 -o argmax", "--op argmax is not for it"},
        {"--gpus all --op argmin", "--op argmin is not for it"},
        {"--gpus 2 --ladder -o argmax -t double", "--op argmax"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        char err[CLI_ERROR_LEN];
        check_refused(CASES[i].line, CASES[i].message_part, err);
        CHECK(strstr(err, "--gpus") != NULL);
    }
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "--gpus 2 -o max") == CLI_OK && o.op == OP_MAX);
    CHECK(parse(&o, err, "--gpus 2 -o min") == CLI_OK && o.op == OP_MIN);
    CHECK(parse(&o, err, "-o argmax -m cpu_loop") == CLI_OK && !o.multi_gpu);
}

/* ---- --offset: under 16 bytes of the element type */

static void offset_should_be_accepted_up_to_16_bytes_of_the_type(void)
{
    static const struct {
        const char *type;
        size_t largest;
    } LIMITS[] = {{"float", 3}, {"int32", 3}, {"uint32", 3}, {"half", 7},
                  {"bfloat16", 7}, {"double", 1}, {"int64", 1}};
    for (size_t i = 0; i < sizeof LIMITS / sizeof LIMITS[0]; ++i) {
        struct bench_options o;
        char err[CLI_ERROR_LEN] = "", line[64], message[128];
        snprintf(line, sizeof line, "--type %s --offset %zu", LIMITS[i].type, LIMITS[i].largest);
        CHECK(parse(&o, err, line) == CLI_OK);
        CHECK(o.offset == LIMITS[i].largest);
        snprintf(line, sizeof line, "--offset %zu -t %s", LIMITS[i].largest + 1, LIMITS[i].type);
        CHECK(parse(&o, err, line) == CLI_ERROR);
        snprintf(message, sizeof message, "--offset: %zu %s elements is 16 bytes or more (at most %zu)",
                 LIMITS[i].largest + 1, LIMITS[i].type, LIMITS[i].largest);
        CHECK(strstr(err, message) != NULL);
        if (!strstr(err, message))
            fprintf(stderr, "  '%s' -> '%s'\n", line, err);
    }
}

static void offset_with_every_type_should_fit_the_widest(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN] = "";
    CHECK(parse(&o, err, "--type all --offset 1") == CLI_OK);
    CHECK(parse(&o, err, "--type all --offset 2") == CLI_ERROR);
    CHECK(strstr(err, "--offset: 2 double elements") != NULL);
    CHECK(parse(&o, err, "--op all --type half --offset 7") == CLI_OK);
    CHECK(parse(&o, err, "--type half --offset 8") == CLI_ERROR);
    CHECK(strstr(err, "8 half elements") != NULL && strstr(err, "at most 7") != NULL);
    CHECK(parse(&o, err, "--offset 16") == CLI_ERROR); /* default float */
    CHECK(parse(&o, err, "--offset 0 --type int64") == CLI_OK);
}

/* ---- what needs one (type, operator) */

static void all_should_be_rejected_with_single_run_outputs(void)
{
    static const char *const SINGLE[] = {"--progression", "--sweep", "--csv out.csv", "--json out.json",
                                         "--markdown out.md", "--baseline base.csv"};
    static const char *const NAMES[] = {"--progression", "--sweep", "--csv", "--json", "--markdown",
                                        "--baseline"};
    static const char *const ALL[] = {"--type all", "--op all", "-t all -o all", "-o all -t half"};
    for (size_t i = 0; i < sizeof SINGLE / sizeof SINGLE[0]; ++i)
        for (size_t a = 0; a < sizeof ALL / sizeof ALL[0]; ++a) {
            struct bench_options o;
            char err[CLI_ERROR_LEN] = "", line[96], message[96];
            snprintf(line, sizeof line, "%s %s", ALL[a], SINGLE[i]);
            const enum cli_status status = parse(&o, err, line);
            snprintf(message, sizeof message, "%s needs one type and one operator, not --%s all",
                     NAMES[i], a == 1 || a == 3 ? "op" : "type");
            CHECK(status == CLI_ERROR);
            CHECK(strstr(err, message) != NULL);
            if (status != CLI_ERROR || !strstr(err, message))
                fprintf(stderr, "  '%s' -> status %d, message '%s'\n", line, status, err);
            /* the same option with one (type, operator) is fine */
            snprintf(line, sizeof line, "-t int32 -o min %s", SINGLE[i]);
            CHECK(parse(&o, err, line) == CLI_OK);
        }
}

/* --cols with the total or --rows, --segments drawn from the seed: the
 * shape a run gets (options_shape), the same offsets for the same seed. */
static void shape_options_should_give_rows_and_segments(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    struct reduce_shape shape;
    segment_offset *offsets = NULL;
    CHECK(parse(&o, err, "--cols 32") == CLI_OK);
    size_t n = default_n(&o, TYPE_FLOAT);
    CHECK(options_shape(&o, &n, &shape, &offsets, err, sizeof err));
    CHECK(shape.kind == SHAPE_ROWS && shape.cols == 32 && shape.count == n / 32 && !offsets);
    CHECK(parse(&o, err, "--cols 33 --rows 5") == CLI_OK);
    n = default_n(&o, TYPE_DOUBLE);
    CHECK(n == 165);
    CHECK(options_shape(&o, &n, &shape, &offsets, err, sizeof err) && shape.count == 5);
    CHECK(parse(&o, err, "--segments powerlaw:100 -n 100003 --seed 4") == CLI_OK);
    n = default_n(&o, TYPE_FLOAT);
    CHECK(options_shape(&o, &n, &shape, &offsets, err, sizeof err));
    CHECK(shape.kind == SHAPE_SEGMENTS && offsets && shape.offsets == offsets);
    CHECK(offsets && offsets[0] == 0 && offsets[shape.count] == 100003);
    free(offsets);
    CHECK(parse(&o, err, "") == CLI_OK);
    n = default_n(&o, TYPE_FLOAT);
    CHECK(options_shape(&o, &n, &shape, &offsets, err, sizeof err));
    CHECK(shape.kind == SHAPE_WHOLE && shape.count == 1 && !offsets);
    CHECK(parse(&o, err, "--row-sweep --baseline old.csv") == CLI_OK && o.width_sweep);
}

/* --axis 0 with --cols: the columns shape over the same matrix (count =
 * cols, n / cols rows); --axis 1 and no --axis: rows; --col-sweep: a width
 * sweep of columns; what does not fit together is refused, naming it. */
static void axis_should_pick_the_columns_and_refuse_what_does_not_fit(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN] = "";
    struct reduce_shape shape;
    segment_offset *offsets = NULL;
    CHECK(parse(&o, err, "--cols 128 --axis 0") == CLI_OK && o.axis == AXIS_COLUMNS);
    size_t n = default_n(&o, TYPE_FLOAT);
    CHECK(options_shape_kind(&o) == SHAPE_COLUMNS);
    CHECK(options_shape(&o, &n, &shape, &offsets, err, sizeof err));
    CHECK(shape.kind == SHAPE_COLUMNS && shape.cols == 128 && shape.count == 128 && !offsets);
    CHECK(parse(&o, err, "--cols 33 --rows 5 --axis 0") == CLI_OK);
    n = default_n(&o, TYPE_DOUBLE);
    CHECK(n == 165 && options_shape(&o, &n, &shape, &offsets, err, sizeof err));
    CHECK(shape.kind == SHAPE_COLUMNS && shape.count == 33 && shape_length(&shape, 0, n) == 5);
    CHECK(parse(&o, err, "--cols 32 --axis 1") == CLI_OK && options_shape_kind(&o) == SHAPE_ROWS);
    CHECK(parse(&o, err, "--cols 32") == CLI_OK && o.axis == AXIS_ROWS);
    CHECK(parse(&o, err, "--col-sweep") == CLI_OK && o.width_sweep && o.axis == AXIS_COLUMNS);
    CHECK(options_shape_kind(&o) == SHAPE_COLUMNS);
    CHECK(parse(&o, err, "--row-sweep") == CLI_OK && options_shape_kind(&o) == SHAPE_ROWS);
    static const struct { const char *line, *message; } BAD[] = {
        {"--axis 0", "--axis needs --cols"},
        {"--axis 1 --segments uniform:8", "--axis needs --cols"},
        {"--cols 32 --axis 2", "--axis: 2 is out of range (at most 1"},
        {"--cols 33 --axis 0", "are not whole rows"},
        {"--col-sweep --cols 32", "--col-sweep chooses the widths: not with --cols"},
        {"--col-sweep --segments uniform:8", "--col-sweep chooses the widths"},
        {"--col-sweep --row-sweep", "--row-sweep and --col-sweep sweep two axes: pick one"},
        {"--col-sweep --type all", "--col-sweep needs one type and one operator"},
        {"--col-sweep --sweep", "--sweep is for the whole array, not with --col-sweep"},
        {"--cols 32 --axis 0 --gpus 2", "--gpus is for the whole array, not with --cols"},
        {"--cols 32 --axis 0 --axis 0", "--axis is given twice"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; ++i) {
        const enum cli_status status = parse(&o, err, BAD[i].line);
        CHECK(status == CLI_ERROR && strstr(err, BAD[i].message) != NULL);
        if (status != CLI_ERROR || !strstr(err, BAD[i].message))
            fprintf(stderr, "  '%s' -> status %d, message '%s'\n", BAD[i].line, status, err);
    }
}

/* ---- the numeric options' bounds (cli_options.c's table) */

enum stored_as { AS_SIZE, AS_U64, AS_INT, AS_DOUBLE, AS_STEP };

/* The bounds bench_compare promises, written out here (not read from the
 * table) so that a changed bound fails until this spec changes too. */
struct bound_case {
    const char *name;    /* as the table names it, and as typed */
    const char *context; /* other options that make both edges valid */
    size_t min, max;     /* AS_DOUBLE: above 0 */
    enum stored_as as;
    size_t field;
};

#define AT(field) offsetof(struct bench_options, field)
static const struct bound_case BOUNDS[] = {
    {"--size", "", 1, SIZE_MAX, AS_SIZE, AT(n)},
    {"--bytes", "", 8, SIZE_MAX, AS_SIZE, AT(bytes)},
    {"-r", "", 0, 99, AS_STEP, 0},
    {"--samples", "", 1, INT_MAX, AS_INT, AT(samples)},
    {"--warmup", "", 1, INT_MAX, AS_INT, AT(warmup)},
    {"--max-noise", "", 0, 1000000000, AS_DOUBLE, AT(max_noise_pct)},
    {"--min-samples", "--max-noise 1 --max-samples 2147483647", 2, INT_MAX, AS_INT,
     AT(min_samples)},
    {"--max-samples", "--max-noise 1 --min-samples 2", 2, INT_MAX, AS_INT, AT(max_samples)},
    {"--timeout", "--max-noise 1", 0, 1000000000, AS_DOUBLE, AT(timeout_s)},
    {"--batch", "", 1, INT_MAX, AS_INT, AT(batch)},
    {"--seed", "", 0, SIZE_MAX, AS_U64, AT(seed)},
    {"--offset", "-t half", 0, 7, AS_SIZE, AT(offset)}, /* the widest type's bound */
    {"--sweep-max", "--sweep", 1024, SIZE_MAX, AS_SIZE, AT(sweep_max)},
    {"--device", "", 0, INT_MAX, AS_INT, AT(device)},
    {"--gpus", "", 1, 16, AS_INT, AT(gpus)},
    {"--cols", "-n 18446744073709551615", 1, SIZE_MAX, AS_SIZE, AT(cols)},
    {"--rows", "--cols 1", 1, SIZE_MAX, AS_SIZE, AT(rows)},
    {"--axis", "--cols 1", 0, 1, AS_INT, AT(axis)},
};

/* Whether o holds the value typed as text. */
static bool holds_value(const struct bench_options *o, const struct bound_case *c, const char *text)
{
    const char *field = (const char *)o + c->field;
    const size_t want = (size_t)strtoull(text, NULL, 10);
    char step[16];
    switch (c->as) {
    case AS_SIZE: return *(const size_t *)field == want;
    case AS_U64: return *(const uint64_t *)field == want;
    case AS_INT: return *(const int *)field == (int)want;
    case AS_DOUBLE: return *(const double *)field == strtod(text, NULL);
    case AS_STEP:
        snprintf(step, sizeof step, "reduce%zu", want);
        return o->method_count == 1 && strcmp(o->methods[0], step) == 0;
    }
    return false;
}

/* The option with its context and value: parsed and held, or refused
 * naming the option. */
static void check_edge(const struct bound_case *c, const char *value, bool valid)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN] = "", line[256];
    snprintf(line, sizeof line, "%s %s %s", c->context, c->name, value);
    const enum cli_status status = parse(&o, err, line);
    const bool ok = valid ? status == CLI_OK && holds_value(&o, c, value)
                          : status == CLI_ERROR && strstr(err, c->name) != NULL;
    if (!ok)
        fprintf(stderr, "  '%s' -> status %d, message '%s'\n", line, status, err);
    CHECK(ok);
}

static void every_numeric_option_should_take_its_bounds_and_refuse_one_past(void)
{
    for (size_t i = 0; i < sizeof BOUNDS / sizeof BOUNDS[0]; ++i) {
        const struct bound_case *c = &BOUNDS[i];
        char text[32];
        if (c->as == AS_DOUBLE) { /* above 0: 0 is out, the smallest double in */
            check_edge(c, "0", false);
            check_edge(c, "1e-300", true);
        } else {
            snprintf(text, sizeof text, "%zu", c->min);
            check_edge(c, text, true);
        }
        if (c->min > 0 && c->as != AS_DOUBLE) {
            snprintf(text, sizeof text, "%zu", c->min - 1);
            check_edge(c, text, false);
        }
        snprintf(text, sizeof text, "%zu", c->max);
        check_edge(c, text, true);
        if (c->max < SIZE_MAX)
            snprintf(text, sizeof text, "%zu", c->max + 1);
        else
            snprintf(text, sizeof text, "18446744073709551616"); /* 2^64: past size_t */
        check_edge(c, text, false);
    }
}

/* The spec above covers every row of the table: a new numeric option needs
 * its bounds written down there. */
static void every_table_option_should_have_its_bounds_tested(void)
{
    CHECK(NUMERIC_OPTION_COUNT == sizeof BOUNDS / sizeof BOUNDS[0]);
    for (size_t t = 0; t < NUMERIC_OPTION_COUNT; ++t) {
        bool found = false;
        for (size_t i = 0; i < sizeof BOUNDS / sizeof BOUNDS[0]; ++i)
            found |= strcmp(BOUNDS[i].name, NUMERIC_OPTIONS[t].name) == 0;
        if (!found)
            fprintf(stderr, "  %s has no bounds in BOUNDS\n", NUMERIC_OPTIONS[t].name);
        CHECK(found);
    }
}

static void out_of_range_should_say_which_bound_and_why(void)
{
    static const struct bad_case CASES[] = {
        {"-S 0", "--samples: 0 is out of range (at least 1)"},
        {"-S 2147483648", "--samples: 2147483648 is out of range (at most 2147483647)"},
        {"--sweep --sweep-max 1023", "(at least 1024: the sweep starts at 2^10)"},
        {"-r 100", "-r: 100 is out of range (at most 99"},
        {"--max-noise 1000000001", "--max-noise: 1000000001 is out of range (at most 1000000000)"},
        {"--timeout -1", "--timeout: '-1' is not a positive number"},
        {"--seed 18446744073709551616", "--seed: '18446744073709551616' is too large"},
        {"--gpus 0", "--gpus: 0 is out of range (at least 1)"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        char err[CLI_ERROR_LEN];
        check_refused(CASES[i].line, CASES[i].message_part, err);
    }
}

/* ---- each option once, but -m and -r */

static void repeated_options_should_be_refused_naming_the_option(void)
{
    static const struct bad_case CASES[] = {
        {"-n 5 -n 7", "-n is given twice"},
        {"-n 5 -n 5", "-n is given twice"}, /* even with the same value */
        {"--size=5 -s 7", "-s is given twice"}, /* -s is -n's other spelling */
        {"--segments uniform:8 --segments powerlaw:8", "--segments is given twice"},
        {"--compare a.csv b.csv --compare c.csv d.csv", "--compare is given twice"},
        {"--hot --hot", "--hot is given twice"},
        {"-t half --type int64", "--type is given twice"},
        {"--csv a.csv --csv b.csv", "--csv is given twice"},
        {"--gpus 2 --gpus all", "--gpus is given twice"},
        {"--max-noise 1 --max-noise=2", "--max-noise is given twice"},
        {"--cols 4 --rows 2 --rows 2", "--rows is given twice"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        char err[CLI_ERROR_LEN];
        check_refused(CASES[i].line, CASES[i].message_part, err);
        CHECK(strstr(err, "only -m and -r repeat") != NULL);
    }
}

static void methods_and_steps_should_add_up_when_repeated(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-r 1 -m cub -r 2 -m thrust,tma_ring") == CLI_OK);
    CHECK(o.method_count == 5 && strcmp(o.methods[0], "reduce1") == 0);
    CHECK(strcmp(o.methods[2], "reduce2") == 0 && strcmp(o.methods[4], "tma_ring") == 0);
}

/* ---- --segments' mean: at most 2^40, so that uniform's 2 MEAN + 1 cannot wrap */

static void segment_mean_should_stop_at_2_to_the_40(void)
{
    static const struct bad_case CASES[] = {
        {"--segments uniform:1099511627777", "--segments uniform:1099511627777: the mean length "
                                             "must be at most 1099511627776"},
        {"--segments powerlaw:1099511627777", "must be at most 1099511627776"},
        {"--segments uniform:9223372036854775808", "must be at most"}, /* 2 MEAN + 1 wrapped to 1 */
        {"--segments uniform:9223372036854775813", "must be at most"}, /* wrapped to a mean of 5 */
        {"--segments powerlaw:18446744073709551615", "must be at most"},
        {"--segments uniform:18446744073709551616", "too large"},
        {"--segments uniform:0", "the mean length must be 1 or more"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        char err[CLI_ERROR_LEN];
        check_refused(CASES[i].line, CASES[i].message_part, err);
        CHECK(strstr(err, "--segments") != NULL);
    }
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "--segments uniform:1099511627776") == CLI_OK);
    CHECK(o.segmented && o.segments.mean == SEGMENT_MEAN_MAX);
    CHECK(parse(&o, err, "--segments powerlaw:1") == CLI_OK && o.segments.mean == 1);
}

/* A shape that asks for more segments than a shape may have fails at once
 * through options_shape, before any offsets are drawn. */
static void segments_past_the_count_bound_should_fail_at_once(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN] = "";
    struct reduce_shape shape;
    segment_offset *offsets = NULL;
    CHECK(parse(&o, err, "--segments uniform:1 -n 18446744073709551615") == CLI_OK);
    size_t n = default_n(&o, TYPE_FLOAT);
    CHECK(!options_shape(&o, &n, &shape, &offsets, err, sizeof err) && offsets == NULL);
    CHECK(strstr(err, "--segments uniform:1: 18446744073709551615 elements make about") != NULL);
    CHECK(strstr(err, "more than the 4294967296 a shape may have") != NULL);
}

/* ---- --help: the limits come from the table; the exit codes as the code has them */

static char *help_text(void)
{
    static char text[16384];
    FILE *capture = tmpfile();
    CHECK(capture != NULL);
    fflush(stdout);
    const int saved = dup(STDOUT_FILENO);
    dup2(fileno(capture), STDOUT_FILENO);
    print_usage("bench_compare");
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    rewind(capture);
    const size_t len = fread(text, 1, sizeof text - 1, capture);
    text[len] = '\0';
    fclose(capture);
    return text;
}

/* The line of the limits list that starts with usage. */
static const char *limit_line(const char *help, const char *usage)
{
    char start[64];
    snprintf(start, sizeof start, "\n  %s ", usage);
    const char *line = strstr(help, "\nLimits");
    return line ? strstr(line, start) : NULL;
}

static void help_should_list_every_limit_and_what_exit_0_means(void)
{
    const char *help = help_text();
    for (size_t i = 0; i < NUMERIC_OPTION_COUNT; ++i) {
        const bool listed = limit_line(help, NUMERIC_OPTIONS[i].usage) != NULL;
        if (!listed)
            fprintf(stderr, "  --help lists no limit for '%s'\n", NUMERIC_OPTIONS[i].usage);
        CHECK(listed);
    }
    static const struct { const char *usage, *range; } RANGES[] = {
        {"-n, --size N, -s N", "1 .. 2^64 - 1\n"},
        {"-b, --bytes N", "8 (one element of every type) .. 2^64 - 1\n"},
        {"-S, --samples N", "1 .. 2^31 - 1\n"},
        {"--max-noise P", "above 0 .. 1000000000\n"},
        {"--gpus N (or all)", "1 .. 16 (the most one process drives)\n"},
        {"--offset K", "0 .. under 16 bytes:\n                          float 3, double 1, "
                       "int32 3, int64 1, uint32 3, half 7, bfloat16 7\n"},
        {"--segments SPEC", "MEAN 1 .. 2^40 (uniform:MEAN, powerlaw:MEAN); at most 2^32 segments"},
    };
    for (size_t i = 0; i < sizeof RANGES / sizeof RANGES[0]; ++i) {
        const char *line = limit_line(help, RANGES[i].usage);
        const char *end = line ? strchr(line + 1, '\n') : NULL;
        const char *range = line ? strstr(line, RANGES[i].range) : NULL;
        if (!range || range > end)
            fprintf(stderr, "  --help: '%s' without '%s'\n", RANGES[i].usage, RANGES[i].range);
        CHECK(range && range <= end);
    }
    CHECK(strstr(help, "Exit status: 0 all PASS or REFUSED, 1") != NULL);
    CHECK(strstr(help, "Each option is given once") != NULL);
}

/* --op's line names every operator and says what argmax and argmin give. */
static void help_should_name_argmax_and_argmin_and_their_index(void)
{
    const char *help = help_text();
    CHECK(strstr(help, "-o, --op OP         sum | max | min | argmax | argmin | all") != NULL);
    CHECK(strstr(help, "first index") != NULL && strstr(help, "index -1") != NULL);
}

int main(void)
{
    RUN_TEST(no_arguments_should_give_64_mib_and_100_cold_samples);
    RUN_TEST(shape_options_should_give_rows_and_segments);
    RUN_TEST(default_n_should_be_64_mib_of_each_type);
    RUN_TEST(explicit_n_should_hold_for_every_type);
    RUN_TEST(bytes_should_set_n_per_element_size);
    RUN_TEST(seed_000_spelling_should_select_step_and_size);
    RUN_TEST(every_option_should_be_read);
    RUN_TEST(values_should_be_accepted_in_every_gnu_spelling);
    RUN_TEST(gpus_should_default_to_todays_one_gpu_path);
    RUN_TEST(gpus_should_take_a_count_or_all_with_its_options);
    RUN_TEST(version_should_be_recognised);
    RUN_TEST(help_should_be_recognised_anywhere);
    RUN_TEST(bad_input_should_fail_with_a_message_naming_the_problem);
    RUN_TEST(parse_count_should_agree_with_a_model_on_random_strings);
    RUN_TEST(type_should_accept_every_name_in_both_spellings);
    RUN_TEST(op_should_accept_every_name_in_both_spellings);
    RUN_TEST(all_should_select_every_type_or_op_and_run_the_matrix);
    RUN_TEST(runs_matrix_should_be_true_exactly_when_a_side_is_all);
    RUN_TEST(unknown_type_or_op_should_be_rejected_naming_the_option);
    RUN_TEST(argmax_and_argmin_should_parse_and_all_should_mean_every_operator);
    RUN_TEST(gpus_should_refuse_argmax_and_argmin);
    RUN_TEST(offset_should_be_accepted_up_to_16_bytes_of_the_type);
    RUN_TEST(offset_with_every_type_should_fit_the_widest);
    RUN_TEST(all_should_be_rejected_with_single_run_outputs);
    RUN_TEST(every_numeric_option_should_take_its_bounds_and_refuse_one_past);
    RUN_TEST(every_table_option_should_have_its_bounds_tested);
    RUN_TEST(out_of_range_should_say_which_bound_and_why);
    RUN_TEST(repeated_options_should_be_refused_naming_the_option);
    RUN_TEST(methods_and_steps_should_add_up_when_repeated);
    RUN_TEST(segment_mean_should_stop_at_2_to_the_40);
    RUN_TEST(segments_past_the_count_bound_should_fail_at_once);
    RUN_TEST(help_should_list_every_limit_and_what_exit_0_means);
    RUN_TEST(help_should_name_argmax_and_argmin_and_their_index);
    RUN_TEST(axis_should_pick_the_columns_and_refuse_what_does_not_fit);
    return test_exit_code();
}
