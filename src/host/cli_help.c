/* bench_compare --help: the options, the rules they follow, and the limits
 * of every numeric option, printed from the same table the parser enforces
 * (cli_options.c), so the two cannot drift apart. */
#include <stdio.h>

#include "cli_options.h"

/* A bound as a reader takes it in: 2^31 - 1 or 2^40 for the large round
 * ones, decimal for the rest. */
static void format_bound(size_t value, char *text, size_t len)
{
    int bits = 0;
    while (bits < 63 && ((size_t)1 << (bits + 1)) <= value)
        ++bits;
    const size_t power = (size_t)1 << bits;
    if (value >= 65536 && value == power)
        snprintf(text, len, "2^%d", bits);
    else if (value >= 65535 && (value == SIZE_MAX || value + 1 == power << 1))
        snprintf(text, len, "2^%d - 1", bits + 1);
    else
        snprintf(text, len, "%zu", value);
}

/* What the run measures: size, type, sampling, data. */
static void print_run_options(const char *program)
{
    printf("Usage: %s [options]\n"
           "Times every registered reduction method on one buffer and prints one table:\n"
           "median/min/max time, GB/s, %% of peak, time relative to CUB, result, its error in\n"
           "ulps of the exactly rounded answer, check, determinism (repeat; grid: other GPUs).\n"
           "\n"
           "  -t, --type T        float | double | int32 | int64 | uint32 | half | bfloat16 | all\n"
           "                      (default float; half and bfloat16 are reduced in float)\n"
           "  -o, --op OP         sum | max | min | argmax | argmin | all (default sum);\n"
           "                      argmax/argmin give the value and its first index (a NaN\n"
           "                      wins both; an empty row gives index -1)\n"
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
           "      --offset K      shift the input pointer by K elements (under 16 bytes): misaligned\n",
           program, DEFAULT_BYTES / sizeof(float), DEFAULT_SAMPLES, CPU_MAX_SAMPLES, DEFAULT_WARMUP,
           DEFAULT_SEED);
}

/* Views, result files, other GPUs, shapes and the modes that exit at once. */
static void print_mode_options(void)
{
    printf("      --progression   the story view: step and cumulative speedups\n"
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
           "      --axis A        with --cols: 1 reduces the rows (default), 0 the C columns\n"
           "                      (element (r, c) at r x C + c; one result a column)\n"
           "      --segments SPEC one result a segment, lengths from SPEC: uniform:MEAN (0 ..\n"
           "                      2 MEAN, empty ones included), powerlaw:MEAN (most short, a few\n"
           "                      very long), file:PATH (one length a line; n is their total)\n"
           "      --row-sweep     widths 1 .. n at a fixed total: powers of two and 3, 33, 1000,\n"
           "                      100003 (rows = n / width); saved as a sweep, keyed by width\n"
           "      --col-sweep     the same widths, reducing the columns (--axis 0)\n"
           "                      Shapes: GB/s counts n x element size read, plus one\n"
           "                      accumulator a result written (+ 8-byte offsets for\n"
           "                      segments); a method that does not take the shape is REFUSED.\n"
           "                      Not with --gpus, --sweep or --batch.\n"
           "      --list          list the methods and the shapes each takes, and exit\n"
           "      --version       the suite's commit and the CUDA, CCCL and cuBLAS it was built with\n"
           "  -h, --help          this text\n");
}

/* Where the limits list's ranges start. */
#define LIMITS_INDENT 26

/* --offset's bound for every element type: "float 3, double 1, ...". */
static void print_per_type_bounds(const struct numeric_option *opt)
{
    for (int t = 0; t < TYPE_COUNT; ++t)
        printf("%s%s %zu", t ? ", " : "", element_type_name((enum element_type)t),
               opt->max_for_type((enum element_type)t));
}

/* "8 (one element of every type)": a bound and what it stands for. */
static void print_bound(size_t value, const char *why)
{
    char text[32];
    format_bound(value, text, sizeof text);
    if (why)
        printf("%s (%s)", text, why);
    else
        printf("%s", text);
}

/* "8 (one element of every type) .. 2^64 - 1" */
static void print_range(const struct numeric_option *opt)
{
    if (opt->kind == NUMERIC_POSITIVE)
        printf("above 0");
    else
        print_bound(opt->min, opt->min_why);
    printf(" .. ");
    if (opt->max_for_type) {
        printf("%s:\n%*s", opt->max_why, LIMITS_INDENT, "");
        print_per_type_bounds(opt);
    } else {
        print_bound(opt->max, opt->max_why);
    }
}

static void print_limits(void)
{
    printf("\nLimits (a value past one is an error, exit 2):\n");
    for (size_t i = 0; i < NUMERIC_OPTION_COUNT; ++i) {
        printf("  %-*s", LIMITS_INDENT - 2, NUMERIC_OPTIONS[i].usage);
        print_range(&NUMERIC_OPTIONS[i]);
        printf("\n");
    }
    char mean[32], count[32];
    format_bound(SEGMENT_MEAN_MAX, mean, sizeof mean);
    format_bound(SEGMENT_COUNT_MAX, count, sizeof count);
    printf("  %-*sMEAN 1 .. %s (uniform:MEAN, powerlaw:MEAN); at most %s segments\n",
           LIMITS_INDENT - 2, "--segments SPEC", mean, count);
}

void print_usage(const char *program)
{
    print_run_options(program);
    print_mode_options();
    print_limits();
    printf("\nEach option is given once (a second is an error, exit 2), but -m and -r, which\n"
           "add to one list of methods.\n"
           "Exit status: 0 all PASS or REFUSED, 1 a method failed or is SLOWER than the\n"
           "baseline, 2 bad input or no usable GPU.\n");
}
