/* The measurement policy, in one place: methods never time themselves.
 *
 * For a GPU method: allocate its workspace (outside timing, zeroed once);
 * `warmup` untimed calls; then `samples` timed calls (or, with the stopping
 * rule, as many as the median's noise needs, within bounds), each one
 *   poison the results (NaN and 0xA5 bytes in turn: a result left unwritten
 *   cannot match twice) -> flush L2 with a clean read sweep (unless hot) ->
 *   event -> the method -> event -> validate every result,
 * so every timed result is checked, not just one: the first call's read back
 * and checked one by one; a later call's compared with the first's bits, on
 * the GPU when they are many (results_match.h), and checked one by one when
 * they differ. Times are the events'
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
#include "method_call.h"
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
    bool check_grids;            /* the forced-grid calls (not in a sweep: its rows are
                                    about speed; one block over 2^30 elements: seconds) */
};

/* Every shape is measured by the same loop: the whole array is a shape of
 * one result. The offsets of segments are on the device before any timing
 * (d_offsets, uploaded once by the caller); the results are checked against
 * ref for the whole array, against shape_ref (shape_reference.h) row by row
 * at each row's length. A CPU method gets the host offsets. Batch and
 * forced-grid calls are whole-array questions only. */
struct measure_input {
    struct reduce_spec spec; /* element type and operator */
    const void *d_in;        /* device copy */
    const void *h_in;        /* host copy, same values */
    size_t n;
    const struct reference *ref;         /* the whole array's reference */
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

#endif
