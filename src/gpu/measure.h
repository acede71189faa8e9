/* The measurement policy, in one place: methods never time themselves.
 *
 * For a GPU method: allocate its workspace (outside timing, zeroed once);
 * `warmup` untimed calls; then `samples` timed calls (or, with the stopping
 * rule, as many as the median's noise needs, within bounds), each one
 *   poison d_out with NaN -> flush L2 with a clean read sweep (unless hot) ->
 *   event -> the method -> event -> read back and validate the result,
 * so every timed result is checked, not just one. Times are the events'
 * elapsed time: the GPU's view, including every launch the method makes.
 * With `batch` K > 0, a GPU method is then also timed the way public kernel
 * results are reported: K calls back to back between two events, no flush,
 * per-call time = total / K, BATCH_SAMPLES times (the last result checked);
 * kept apart from the cold times (batch_us).
 * After every timed sample (outside the timing) the clocks are read through
 * NVML, when the session has them: a row whose readings carry a throttling
 * reason is THROTTLED (clock_conditions.h).
 * Then determinism's second level: the method once on each grid the hook
 * forces (grid_override.h: 1, 7, SMs/2, SMs, 2 SMs blocks), untimed, its bits
 * against its own grid's (grid: same, differs, or unforced).
 * A CPU method is timed with the monotonic host clock, on a host copy of the
 * same data, with at most CPU_MAX_SAMPLES samples (it is 100x slower). */
#ifndef MEASURE_H
#define MEASURE_H

#include <stdbool.h>

#include "cli.h" /* CPU_MAX_SAMPLES */
#include "gpu_clocks.h"
#include "l2_flush.h"
#include "pass_driver.h"
#include "reference.h"
#include "reduce_method.h"
#include "run_result.h"
#include "shape_reference.h"

#define BATCH_SAMPLES 20

struct measure_setup {
    int warmup;
    int samples;                  /* exactly this many, unless max_noise_pct > 0 */
    double max_noise_pct;         /* > 0: sample until median_noise_pct() is below it ... */
    int min_samples, max_samples; /* ... with at least / at most this many samples ... */
    double timeout_s;             /* ... or until a method has sampled this long */
    int batch;                    /* > 0: also time this many back-to-back calls, no flush */
    bool flush_l2;               /* false with --hot */
    enum pass_strategy strategy; /* how pass kernels are driven */
    double peak_gbs;             /* for % of peak */
    struct clock_monitor *clocks; /* read after every timed sample; NULL: not read */
    int sm_count;
    bool check_grids;            /* the forced-grid calls (a sweep skips them: its rows
                                    are about speed, and one block over 2^30 elements
                                    takes seconds) */                /* the forced grids' scale */
};

/* A rows or segments input (shape.kind not SHAPE_WHOLE) is measured the same
 * way, with these differences: the offsets are on the device before any
 * timing (d_offsets, uploaded once by the caller); a device array of
 * shape.count accumulators is poisoned before every call - all ones (NaN for
 * floating point) and 0xA5 bytes on alternate calls, so a row left unwritten
 * cannot match its answer twice - and every row of every sample is read back
 * and checked against shape_ref (shape_reference.h) at its own length; the
 * workspace is workspace_shaped's, allocated outside the timing; a CPU method
 * runs host_shaped on the host offsets. No batch or forced-grid calls: those
 * are whole-array questions today. */
struct measure_input {
    struct reduce_spec spec; /* element type and operator */
    const void *d_in;        /* device copy */
    const void *h_in;        /* host copy, same values */
    size_t n;
    const struct reference *ref;         /* whole array */
    struct reduce_shape shape;           /* whole_shape() for today's reduction; rows and
                                            segments: offsets in host memory */
    const segment_offset *d_offsets;     /* segments: the same offsets on the device */
    const struct shape_reference *shape_ref; /* rows and segments */
    size_t longest;                      /* rows and segments: the longest row's length
                                            (the serial chain limit applies to it) */
};

/* Bytes counted for GB/s: n x element size read, plus what a shape must
 * write and read beside it - count accumulators, and (count + 1) 8-byte
 * offsets for segments. The whole array counts its input alone. */
double counted_bytes(struct reduce_spec spec, const struct reduce_shape *shape, size_t n);

/* Measures one method into r (name, family, times, bandwidth, result, its
 * accuracy, status, determinism run to run and across grids, note); a pair
 * the method does not support, or an n past its chain limit, is REFUSED with
 * the reason. Returns 0 when the device is still usable afterwards, or the
 * CUDA error that broke the context (the run must stop). */
int measure_method(const struct method *m, const struct measure_input *in,
                   const struct measure_setup *setup, const struct l2_flusher *flusher,
                   cudaStream_t stream, struct method_result *r);

/* The two figures every table is read against, measured with the same
 * protocol as the methods (flush, events, median of `samples`): the read
 * bandwidth of the flusher's own sweep (a plain float4 streaming read of
 * 4 x L2) and the time of an empty kernel. */
int measure_ceiling_and_floor(const struct l2_flusher *flusher, cudaStream_t stream, int samples,
                              double *read_ceiling_gbs, double *launch_floor_us);

/* Runs a device method once: the launch, or the pass driver for pass kernels. */
int run_method_once(const struct method *m, enum pass_strategy strategy, struct reduce_spec spec,
                    const void *d_in, size_t n, void *d_out, void *workspace, cudaStream_t stream);

/* Workspace bytes a device method needs for n elements. */
int method_workspace_bytes(const struct method *m, struct reduce_spec spec, size_t n,
                           size_t *bytes);

/* Why m does not take this shape ("whole array only", or the shapes it
 * takes) written to reason; false if it does. */
bool method_refuses_shape(const struct method *m, enum shape_kind kind, char *reason,
                          size_t reason_len);

/* Why m does not run (spec, n) - the pair is unsupported, or n is past its
 * chain limit - written to reason; false if it runs. */
bool method_refuses(const struct method *m, struct reduce_spec spec, size_t n, char *reason,
                    size_t reason_len);

#endif
