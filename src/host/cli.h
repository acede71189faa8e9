/* bench_compare's command line: parsed into plain values, validated, with one
 * clear message per problem. Pure host code, tested on the CPU. */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data_gen.h"
#include "element_type.h"
#include "pow2_split.h" /* enum pass_strategy */
#include "scaling.h"
#include "whole_number.h" /* parse_count */
#include "shape.h"

#define DEFAULT_BYTES ((size_t)64 << 20) /* n = bytes / element size unless -n */
#define DEFAULT_SAMPLES 100
#define DEFAULT_WARMUP 5
#define DEFAULT_MIN_SAMPLES 10
#define DEFAULT_MAX_SAMPLES 1000
#define CPU_MAX_SAMPLES 10 /* CPU methods are ~100x slower: at most this many samples */
#define DEFAULT_TIMEOUT_S 10.0
#define DEFAULT_SEED 1
#define MAX_SELECTED 64
#define METHOD_NAME_MAX 48
#define CLI_ERROR_LEN 256
#define GPUS_ALL 0 /* --gpus all: every visible GPU */
#define AXIS_COLUMNS 0 /* --axis 0: one result per column of --cols' matrix */
#define AXIS_ROWS 1    /* --axis 1 (the default): one per row */

struct bench_options {
    size_t n;           /* 0: `bytes` worth of the element type (default_n) */
    size_t bytes;       /* --bytes: input size in bytes; 0: DEFAULT_BYTES */
    enum element_type type; /* TYPE_COUNT: --type all */
    enum reduce_op op;      /* OP_COUNT: --op all */
    char methods[MAX_SELECTED][METHOD_NAME_MAX]; /* empty selection: all methods */
    size_t method_count;
    int samples;
    double max_noise_pct; /* --max-noise: 0 = exactly `samples` samples */
    int min_samples, max_samples; /* with --max-noise */
    double timeout_s;             /* with --max-noise: per method */
    int warmup;
    bool hot;
    int batch;          /* --batch K: also K back-to-back calls per sample, no flush */
    enum distribution dist;
    uint64_t seed;
    enum pass_strategy strategy;
    size_t offset;      /* input pointer shifted by this many elements (under 16 bytes) */
    bool progression;   /* the story-order view */
    bool sweep;         /* sizes 2^10..2^30 and odd sizes */
    size_t sweep_max;   /* largest sweep size */
    bool list;
    bool ignore_device; /* --compare / --baseline across GPU models */
    int device;         /* --device: CUDA ordinal */
    bool list_devices;
    bool multi_gpu;     /* --gpus given: the multi-GPU harness and its scaling table
                           (also for --gpus 1: one rank, a test of the path) */
    int gpus;           /* --gpus N (1 without it: today's one-GPU path); GPUS_ALL */
    unsigned combines;  /* --combine: COMBINE_BIT()s (scaling.h); default p2p and nccl */
    bool ladder;        /* --ladder: with --gpus, sizes 2^24 .. past one GPU's memory */
    size_t cols;        /* --cols: row width; 0: not a matrix */
    size_t rows;        /* --rows (with --cols); 0: the total / cols */
    int axis;           /* --axis (with --cols or a width sweep): AXIS_ROWS or AXIS_COLUMNS */
    bool segmented;     /* --segments given */
    struct segment_spec segments;
    bool width_sweep;   /* --row-sweep, --col-sweep (axis 0): widths 1 .. n at a fixed
                           total (width_sweep_widths) */
    bool help;
    const char *csv_path, *json_path, *markdown_path; /* "-": stdout */
    const char *baseline_path;
    const char *compare_old, *compare_new; /* --compare OLD NEW: no run */
};

enum cli_status { CLI_OK, CLI_HELP, CLI_VERSION, CLI_ERROR };

/* Fills opts from argv (defaults first), GNU style (getopt_long): -n N, -nN,
 * --size N, --size=N, -- ends the options; bench_compare takes no other
 * arguments. Each option is given once (-m and -r add to one list and may
 * repeat); numeric values within their bounds (cli_options.c's table, which
 * --help prints). Options that conflict or would be ignored (anything beside
 * --list, anything but -m and --ignore-device beside --compare, --sweep-max
 * without --sweep, two outputs to '-', --gpus with what only a one-GPU table
 * has) are errors. On CLI_ERROR, err holds one line. */
enum cli_status parse_bench_options(int argc, char **argv, struct bench_options *opts, char *err,
                                    size_t err_len);

/* Splits "a,b,c" into opts->methods, appending; rejects empty and duplicate
 * names (whether a name exists is the registry's to say). */
bool add_method_list(struct bench_options *opts, const char *list, char *err, size_t err_len);

/* Whether a result file goes to standard output (a path of "-"). */
bool writes_to_stdout(const struct bench_options *opts);

/* --type all or --op all: one run per (type, operator) pair, one compact table. */
bool runs_matrix(const struct bench_options *opts);

/* The n a run of type t uses: -n if given, else --rows x --cols, else
 * --bytes (default 64 MiB) / element size. */
size_t default_n(const struct bench_options *opts, enum element_type t);

/* The kind of shape the options ask for: rows or columns (--cols, a width
 * sweep, by the axis), segments, or the whole array. */
enum shape_kind options_shape_kind(const struct bench_options *opts);

/* The shape the options ask for over the n elements a run of that type uses
 * (*n in: default_n; a file of segment lengths sets it to their total):
 * whole, --cols / --rows (rows or columns by --axis), or --segments drawn from the seed. *offsets is
 * malloc'd for segments (free it), NULL otherwise. False with one line in err. */
bool options_shape(const struct bench_options *opts, size_t *n, struct reduce_shape *shape,
                   segment_offset **offsets, char *err, size_t err_len);

void print_usage(const char *program);

#endif
