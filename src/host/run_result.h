/* What one bench run produced: its context and one row per method. These are
 * plain values (fixed-size strings, no pointers) so a run read back from a
 * saved file is the same struct as one just measured. */
#ifndef RUN_RESULT_H
#define RUN_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock_conditions.h"
#include "element_type.h"
#include "shape.h"
#include "stats.h"

#define NAME_LEN 48
#define TEXT_LEN 160

struct run_context {
    char device_name[TEXT_LEN];
    int device_index;       /* the CUDA device ordinal measured (--device) */
    int sm_count;
    size_t l2_bytes;
    double peak_gbs;        /* theoretical: memory clock x bus width x 2 */
    double read_ceiling_gbs; /* measured: a plain streaming read over 4 x L2 */
    double launch_floor_us;  /* measured: an empty kernel, timed like the methods */
    int driver_version;     /* as cudaDriverGetVersion: 13000 = 13.0 */
    int runtime_version;
    int cccl_version;       /* CCCL_VERSION: 3000000 = 3.0.0 */
    int cublas_version;
    char flush_mode[NAME_LEN]; /* "read-sweep" (cold, the default) or "none" (--hot) */
    char strategy[NAME_LEN];   /* how pass kernels are driven: "padded" or "pow2-split" */
    char element_type[NAME_LEN]; /* element_type_name(): "float", "half", ... */
    char op[NAME_LEN];           /* reduce_op_name(): "sum", "max", "min" */
    size_t n;               /* elements reduced */
    size_t offset;          /* elements the input pointer is shifted by (misalignment) */
    int samples;            /* per method; with max_noise_pct, the most */
    double max_noise_pct;   /* the stopping rule (--max-noise); 0: a fixed count */
    /* What was computed beside (type, op): shape_kind_name() - "whole", "rows"
     * or "segments" - the results (1, the rows, the segments), the row width
     * (rows; 0 otherwise; a row sweep's rows each have their own), and the
     * --segments spec ("" otherwise). */
    char shape[NAME_LEN];
    size_t result_count;
    size_t cols;
    char segments[SEGMENT_SPEC_LEN];
    char distribution[NAME_LEN];
    uint64_t seed;
    char date[NAME_LEN];    /* ISO 8601, UTC */
    /* The device's state when the session opened, through NVML (gpu_clocks.h);
     * clocks says "nvml" or why they are unknown (0 below then). */
    char clocks[TEXT_LEN];
    int sm_clock_mhz, sm_clock_max_mhz, mem_clock_mhz, temperature_c;
    double power_w;
    char git_commit[NAME_LEN];
};

enum method_status {
    STATUS_PASS,    /* every timed sample matched the reference */
    STATUS_FAIL,    /* ran, but some result was outside the error bound */
    STATUS_ERROR,   /* a CUDA/cuBLAS call failed */
    STATUS_REFUSED, /* the method does not take this (type, op) or n (its descriptor) */
    STATUS_COUNT
};

enum determinism {
    DETERMINISM_UNKNOWN, /* fewer than two results */
    DETERMINISM_BITWISE, /* every sample gave the same bits */
    DETERMINISM_VARIES,  /* results differed run to run (atomics) */
};

/* Determinism's second level: the same bits on another GPU, which the run
 * stands in for by forcing other grids on the launcher (grid_override.h). */
enum grid_check {
    GRID_UNCHECKED, /* not a GPU method, or it did not pass */
    GRID_SAME,      /* grids of 1, 7, SMs/2, SMs and 2 SMs blocks gave its own grid's bits */
    GRID_DIFFERS,   /* some forced grid changed the bits: they depend on the GPU */
    GRID_UNFORCED,  /* no grid the hook reaches: one block per fixed number of inputs
                       (pass and atomic kernels: the same grid everywhere) or a library's own */
    GRID_CHECK_COUNT
};

struct method_result {
    char name[NAME_LEN];
    char family[NAME_LEN];
    size_t n;                    /* elements reduced: the run's n; a sweep's rows vary */
    size_t cols;                 /* row width: the run's; a row sweep's rows vary */
    struct sample_stats time_us; /* per-sample times in microseconds */
    double gbps;                 /* n * element size bytes / median time */
    double pct_peak;             /* gbps / context peak_gbs * 100 */
    double ratio_to_cub;         /* median / CUB's median; 0 when CUB did not run */
    double result;               /* the last sample's result (exact for the suite's data); */
    long long result_index;      /* argmax, argmin: its index (NO_INDEX otherwise) */
    double error_ulps;           /* its distance from the exactly rounded answer, in ulps of */
    double rel_error;            /* that answer, and relative to it (reference.h: accuracy) */
    enum method_status status;
    enum determinism determinism;
    enum grid_check grid;
    bool noisy;                  /* stats_too_noisy() */
    bool host_timed;             /* its time includes host work (allocation, sync) */
    struct clock_conditions clocks; /* NVML, read after every timed sample */
    bool throttled;              /* reasons_throttle(clocks.event_reasons): THROTTLED */
    struct sample_stats batch_us; /* --batch: per-call time of K back-to-back calls, no
                                     flush (not in the result files: cold numbers only) */
    char note[TEXT_LEN];         /* the reason for ERROR/REFUSED, or flags */
};

const char *method_status_name(enum method_status s);
const char *determinism_name(enum determinism d);
const char *grid_check_name(enum grid_check g); /* same, differs, unforced, - */

#endif
