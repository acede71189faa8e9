/* Rows, columns and segments on the GPU, driven by the registry: every
 * method that declares SHAPE_ROWS, SHAPE_COLUMNS or SHAPE_SEGMENTS, for
 * every (type, operator) pair it declares, at awkward shapes:
 *   rows: 1 row; 1 column; widths 1, 2, 3, 4, 8, 16, 31, 32, 33, 255, 256, 257,
 *   1023, 1024, 1025, 2048, 4096, 4097, 8191, 8193, 100003, the odd ones, 32
 *   and 2048 also from an input pointer one element off 16 bytes (misaligned
 *   rows; 32 and 2048: whole vectors a row, none of them aligned); one very
 *   long row (2^20 + 3);
 *   columns: 1 column of 100003 rows; 1 row of 100003 columns; no rows; widths
 *   1, 2, 3, 12, 31, 32, 33, 255, 256, 257, 1025, 4097, the odd ones and 32 also
 *   from an input pointer one element off 16 bytes; one tall column (2^20 + 3
 *   rows, misaligned); 1, 2 (misaligned), 5, 64 and 65 rows of 4100 columns
 *   (--quick: 1028), and 64 and 65 rows of 3;
 *   segments: many empty (uniform:1), empty first and last, one long among
 *   a thousand short, 20000 empty between two of 300001 (tiles of ends
 *   alone, segments across more than 32 tiles), uniform:8, uniform:1000,
 *   powerlaw:100;
 * on fresh random data (signed, seed printed) and on data with an exact
 * answer (small-ints; for argmax and argmin every fifth row, column or
 * segment of it nothing but the operator's identity, which no element
 * beats: -inf for an argmax of floats, the lowest integer). Each case is
 * called twice, the results poisoned with different bytes each time (an
 * unwritten row cannot match twice), and every row is checked
 * (shape_reference.h: integers, max and min bit for bit, sums within the
 * method's order at the row's length). A METHOD_GRID_INDEPENDENT
 * method is called again on the signed data under forced grids of 7 and 300
 * blocks (grid_override.h) and must give the same bits; the other column
 * steps, whose blocks then take many tiles' parts or chunks each, must give
 * right ones.
 * It FAILS when no registry method declares rows: a test of nothing must
 * not pass. Before the registry, the harness's own shaped path
 * (measure_method) is checked with the test-only methods of
 * shaped_methods.cu: right ones PASS, a wrong one FAILs naming its row, a
 * whole-array method reads REFUSED "whole array only".
 *   test_shapes_gpu [--seed N] [--method NAME] [--shape rows|segments|columns]
 *                   [--quick | --large]
 * --shape keeps the cases of one kind (ctest runs --large as three tests, one
 * a kind, so they can run side by side).
 * --quick (for compute-sanitizer, 10-100x slower): widths 1, 3, 4, 16, 32, 33, 257,
 * 2048 and 4097 of 2^14 elements, columns 1, 3, 32, 33 and 257 (and 3 of 2^15 rows,
 * for a forced grid of one block), a long row of 2^18 + 3, the segment edges, one
 * long segment among short ones, the empty run between two of 140001, uniform:8 and powerlaw:100, one pair per element type, signed data.
 * --large (label exhaustive): more than 2^31 elements in all, rows of
 * 2^20 + 1 (shorter than 2^31), 16 columns of 2^27 + 1 rows and powerlaw:100
 * segments from an input one element off 16 bytes, the float
 * sum and argmax alone, every method but a thread per column and the CPU
 * loop (minutes a call at this size). Every operator but the sum of floating
 * types also meets signed data with a NaN every 61 elements: argmax and
 * argmin return each row's first NaN, max and min ignore NaNs (a row of
 * nothing else gives the identity) - but not a library with a rule of its
 * own (has_own_nan_rule). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_test_support.h"
#include "grid_override.h"
#include "registry.h"
#include "shape_reference.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define CASE_ELEMENTS ((size_t)1 << 18) /* about this many elements a rows case */
#define QUICK_CASE_ELEMENTS ((size_t)1 << 14) /* --quick's, under a sanitizer */

extern const struct method method_test_row_per_thread, method_test_row_drops_last,
    method_test_row_on_host;

/* 8191 and 8193: either side of the longest float argmax row that takes
 * block_per_row's 128-thread block (ROW_NARROW_LONGEST, row_parts.cuh).
 * 2048 and 4096: argmax and argmin rows of whole 8 KiB batches
 * (whole_batch_rows.cuh: 2048 floats, 1024 and 2048 doubles, 4096 halves;
 * 2048 also misaligned, where block_per_row keeps its general kernel). */
static const size_t WIDTHS[] = {1,   2,    3,    4,    8,    16,   31,   32,   33,   255,  256,
                                257, 1023, 1024, 1025, 2048, 4096, 4097, 8191, 8193, 100003};
static const size_t QUICK_WIDTHS[] = {1, 3, 4, 16, 32, 33, 257, 2048, 4097};
static const size_t COLUMN_WIDTHS[] = {1, 2, 3, 12, 31, 32, 33, 64, 255, 256, 257, 1000, 1024, 1025, 4097};
static const size_t QUICK_COLUMN_WIDTHS[] = {1, 3, 32, 33, 257};
static const char *const SEGMENT_SPECS[] = {"uniform:1", "uniform:8", "uniform:1000", "powerlaw:100"};
static const enum distribution DISTS[] = {DIST_SIGNED, DIST_SMALL_INTS};
/* The most cases make_cases writes (the default set; the quick one has
 * fewer widths): rows and columns four fixed ones and up to two a width,
 * seven short matrices of columns and one cut into strips, three fixed
 * segment cases and one a spec;
 * and the most offset lists, the last entry NULL. */
enum {
    MAX_CASES = 4 + 2 * COUNT(WIDTHS) + 4 + 2 * COUNT(COLUMN_WIDTHS) + 8 + 3 + COUNT(SEGMENT_SPECS),
    MAX_OFFSET_LISTS = 3 + COUNT(SEGMENT_SPECS) + 1
};
_Static_assert(COUNT(QUICK_WIDTHS) <= COUNT(WIDTHS) &&
                   COUNT(QUICK_COLUMN_WIDTHS) <= COUNT(COLUMN_WIDTHS),
               "MAX_CASES counts the default set's widths");

struct shape_case {
    struct reduce_shape shape;     /* host offsets */
    size_t n, offset;              /* elements; input pointer shifted by offset elements */
    char label[96];
};

struct device_input {
    void *d_base, *d_out, *h_in, *h_out;
    segment_offset *d_offsets;
    struct device_scratch workspace;
    const struct method *workspace_user; /* the method that used it last */
};

/* The workspace for m's call: as large as m asks, and zeroed when another
 * method used it last (the contract: a method's workspace starts zeroed,
 * and the method leaves its counters at 0 for its own next call - not the
 * rest of it for another method's). */
static bool workspace_for(const struct method *m, struct device_input *d, size_t bytes)
{
    if (!ensure_scratch(&d->workspace, bytes))
        return false;
    if (d->workspace_user != m && d->workspace.bytes > 0 &&
        cudaMemset(d->workspace.ptr, 0, d->workspace.bytes) != cudaSuccess)
        return false;
    d->workspace_user = m;
    return true;
}

/* The row, segment and column steps write an arg result whole, its padding
 * as 0 (element_traits.cuh's store_result): a result written as a value and
 * an index alone leaves the poison there, and a run of such results is never
 * a whole 32-byte sector, which made narrow argmax rows pay for their results
 * twice (bench/NOTES.md, session 28). Vendors and the whole-array steps are
 * not held to it. True when every padding byte of results is 0. */
static bool padding_is_written(const struct method *m, struct reduce_spec spec,
                               const struct shape_case *c, const unsigned char *results)
{
    if (m->family != FAMILY_ROWS && m->family != FAMILY_COLUMNS)
        return true;
    const size_t bad = first_nonzero_padding(spec, results, c->shape.count);
    if (bad == c->shape.count)
        return true;
    printf("  FAIL %s %s %s, %s: result %zu's padding is not 0\n", m->name,
           element_type_name(spec.type), reduce_op_name(spec.op), c->label, bad);
    return false;
}

/* One call of m into d_out poisoned with `poison`, results back in h_out. */
static bool call_shaped(const struct method *m, struct reduce_spec spec, const struct shape_case *c,
                        struct device_input *d, const void *d_in, int poison)
{
    const size_t out_bytes = c->shape.count * result_size(spec);
    memset(d->h_out, poison, out_bytes ? out_bytes : 1);
    if (m->host) {
        m->host(spec, c->shape, d->h_in, c->n, d->h_out);
        clear_result_padding(spec, d->h_out, c->shape.count);
        return true;
    }
    struct reduce_shape device_shape = c->shape;
    device_shape.offsets = d->d_offsets;
    size_t ws = 0;
    const bool ok =
        method_workspace_bytes(m, spec, device_shape, c->n, &ws) == 0 &&
        workspace_for(m, d, ws) &&
        cudaMemset(d->d_out, poison, out_bytes ? out_bytes : 1) == cudaSuccess &&
        m->launch(spec, device_shape, d_in, c->n, d->d_out, d->workspace.ptr, 0) == 0 &&
        cudaDeviceSynchronize() == cudaSuccess &&
        (out_bytes == 0 ||
         cudaMemcpy(d->h_out, d->d_out, out_bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(ok);
    if (ok && !padding_is_written(m, spec, c, d->h_out)) {
        ++check_failures;
        return false;
    }
    clear_result_padding(spec, d->h_out, c->shape.count);
    return ok;
}

/* One case's input for one pair and distribution, made once and checked
 * against every method: the data on the host and the device (shifted by the
 * case's offset), the offsets on the device, the per-row reference. */
struct prepared_case {
    struct device_input d;
    const char *d_in;
    struct shape_reference ref;
};

/* Every NAN_STRIDE-th element a NaN, from a seeded start: rows with none,
 * one or several (argmax and argmin return each row's first). */
#define NAN_STRIDE 61

/* argmax and argmin of small integers: every IDENTITY_STRIDE-th row, column
 * or segment holds nothing but the operator's identity (-inf for an argmax
 * of floats, the lowest integer), a value no element beats: its index must
 * come from the tie rule (the first element), not from an empty accumulator. */
#define IDENTITY_STRIDE 5

static void plant_identity_lines(void *h, struct reduce_spec spec, const struct shape_case *c)
{
    const double identity = identity_as_double(spec.op, spec.type);
    const struct reduce_shape *s = &c->shape;
    if (s->kind == SHAPE_SEGMENTS) {
        for (size_t g = 0; g < s->count; g += IDENTITY_STRIDE)
            for (segment_offset i = s->offsets[g]; i < s->offsets[g + 1]; ++i)
                store_from_double(spec.type, h, (size_t)i, identity);
        return;
    }
    for (size_t i = 0; i < c->n; ++i) {
        const size_t line = s->kind == SHAPE_ROWS ? i / s->cols : i % s->cols;
        if (line % IDENTITY_STRIDE == 0)
            store_from_double(spec.type, h, i, identity);
    }
}

static bool prepare_case(struct prepared_case *p, struct reduce_spec spec,
                         const struct shape_case *c, enum distribution dist, bool nans,
                         uint64_t seed)
{
    const size_t size = element_size(spec.type);
    const size_t out_bytes = c->shape.count * result_size(spec);
    struct device_input *d = &p->d;
    *p = (struct prepared_case){0};
    d->h_in = malloc(c->n * size + 1);
    d->h_out = malloc(out_bytes + 1);
    bool ok = d->h_in && d->h_out &&
              cudaMalloc(&d->d_base, (c->n + c->offset) * size + 1) == cudaSuccess &&
              cudaMalloc(&d->d_out, out_bytes + 1) == cudaSuccess;
    const struct data_info info = ok ? fill_data(d->h_in, c->n, spec.type, dist, seed)
                                     : (struct data_info){0};
    if (ok && is_arg_op(spec.op) && dist == DIST_SMALL_INTS)
        plant_identity_lines(d->h_in, spec, c);
    for (size_t i = seed % NAN_STRIDE; ok && nans && i < c->n; i += NAN_STRIDE)
        store_from_double(spec.type, d->h_in, i, NAN);
    p->d_in = (const char *)d->d_base + c->offset * size;
    ok = ok && cudaMemcpy((void *)p->d_in, d->h_in, c->n * size, cudaMemcpyHostToDevice) ==
                   cudaSuccess;
    if (ok && c->shape.kind == SHAPE_SEGMENTS) {
        const size_t bytes = (c->shape.count + 1) * sizeof(segment_offset);
        ok = cudaMalloc((void **)&d->d_offsets, bytes) == cudaSuccess &&
             cudaMemcpy(d->d_offsets, c->shape.offsets, bytes, cudaMemcpyHostToDevice) ==
                 cudaSuccess;
    }
    ok = ok && compute_shape_reference(&p->ref, spec, c->shape, d->h_in, c->n, info);
    CHECK(ok);
    return ok;
}

static void release_case(struct prepared_case *p)
{
    free_shape_reference(&p->ref);
    cudaFree(p->d.d_offsets);
    cudaFree(p->d.d_out);
    cudaFree(p->d.d_base);
    cudaFree(p->d.workspace.ptr);
    free(p->d.h_out);
    free(p->d.h_in);
}

/* Which cases: the default set, the sanitizers' few small ones, or one
 * past 2^31 elements. */
enum case_set { CASES_DEFAULT, CASES_QUICK, CASES_LARGE };

/* Grids forced on a METHOD_GRID_INDEPENDENT method (grid_override.h): its
 * rows must keep their bits, as another GPU would run them. Not 1: a
 * single block walking 2^18 rows of one element, a barrier each
 * (block_per_row), would add about a second a pair to the default set. */
static const int FORCED_GRIDS[] = {7, 300};
/* Grids forced on the other column steps, whose results must stay right:
 * 1 (one block takes every chunk or part of a matrix), 7, and 300 (more
 * blocks than the default set's matrices have chunks). */
static const int COLUMN_FORCED_GRIDS[] = {1, 7, 300};

/* One more call of m under each forced grid; false when a row's bits differ
 * from the launcher's own grid's (in p->d.h_out, copied first). */
static bool keeps_bits_on_forced_grids(const struct method *m, struct reduce_spec spec,
                                       const struct shape_case *c, struct prepared_case *p)
{
    const size_t bytes = c->shape.count * result_size(spec);
    unsigned char *own = malloc(bytes ? bytes : 1);
    CHECK(own != NULL);
    memcpy(own, p->d.h_out, bytes);
    bool ok = true;
    for (size_t g = 0; ok && g < COUNT(FORCED_GRIDS); ++g) {
        set_grid_override(FORCED_GRIDS[g]);
        ok = call_shaped(m, spec, c, &p->d, p->d_in, 0x5A);
        set_grid_override(0);
        const unsigned char *forced = p->d.h_out;
        if (ok && memcmp(own, forced, bytes) != 0) {
            size_t row = 0;
            const size_t size = result_size(spec);
            while (memcmp(own + row * size, forced + row * size, size) == 0)
                ++row;
            printf("  FAIL %s %s %s, %s: a grid of %d blocks changes the bits of result %zu\n",
                   m->name, element_type_name(spec.type), reduce_op_name(spec.op), c->label,
                   FORCED_GRIDS[g], row);
            ok = false;
            ++check_failures;
        }
    }
    free(own);
    return ok;
}

/* One call of m on a prepared case (its results poisoned with `poison`
 * first), every row checked; false on a wrong row (printed) or a failed
 * call. `when` names the call in the message. */
static bool call_is_right(const struct method *m, struct reduce_spec spec,
                          const struct shape_case *c, enum distribution dist,
                          struct prepared_case *p, unsigned char poison, const char *when)
{
    if (!call_shaped(m, spec, c, &p->d, p->d_in, poison))
        return false;
    struct result_mismatch bad;
    if (check_shaped_results(&p->ref, p->d.h_out, m->order, (m->flags & METHOD_SUMS_ABS) != 0,
                             &bad, NULL))
        return true;
    printf("  FAIL %s %s %s, %s, %s: %s: result %zu (%zu elements): got %.17g at %lld, want "
           "%.17g at %lld (bound %.3g)\n",
           m->name, element_type_name(spec.type), reduce_op_name(spec.op), c->label,
           distribution_name(dist), when, bad.index, bad.length, bad.got, bad.got_index, bad.want,
           bad.want_index, bad.bound);
    ++check_failures;
    return false;
}

/* The column steps cut their work by the grid (a tile's parts, the chunks
 * each block takes), and the default set's matrices are too small for a
 * resident wave to give a block more than a few: under the forced grids
 * each block takes many, and every column must still be right. */
static bool right_on_forced_grids(const struct method *m, struct reduce_spec spec,
                                  const struct shape_case *c, enum distribution dist,
                                  struct prepared_case *p)
{
    bool ok = true;
    for (size_t g = 0; ok && g < COUNT(COLUMN_FORCED_GRIDS); ++g) {
        char when[32];
        snprintf(when, sizeof when, "a grid of %d blocks", COLUMN_FORCED_GRIDS[g]);
        set_grid_override(COLUMN_FORCED_GRIDS[g]);
        ok = call_is_right(m, spec, c, dist, p, 0x5A, when);
        set_grid_override(0);
    }
    return ok;
}

/* Two calls of m on a prepared case, every row checked after each, then,
 * on the first distribution of a case (`forced_grids`), the calls under
 * forced grids: the same bits for a method that promises grid independence
 * (the default set), right rows for the other column steps (the default and
 * the quick set); false on a wrong row (printed) or a failed call. */
static bool check_method(const struct method *m, struct reduce_spec spec,
                         const struct shape_case *c, enum distribution dist,
                         struct prepared_case *p, enum case_set set, bool forced_grids)
{
    bool ok = call_is_right(m, spec, c, dist, p, 0xFF, "call 0") &&
              call_is_right(m, spec, c, dist, p, 0xA5, "call 1");
    if (!ok || !forced_grids || m->host || set == CASES_LARGE)
        return ok;
    if (m->flags & METHOD_GRID_INDEPENDENT)
        return set == CASES_DEFAULT ? keeps_bits_on_forced_grids(m, spec, c, p) : true;
    if (c->shape.kind == SHAPE_COLUMNS)
        return right_on_forced_grids(m, spec, c, dist, p);
    return true;
}

static struct shape_case rows_case(size_t rows, size_t cols, size_t offset)
{
    struct shape_case c = {.shape = {.kind = SHAPE_ROWS, .count = rows, .cols = cols},
                           .n = rows * cols, .offset = offset};
    snprintf(c.label, sizeof c.label, "%zu rows x %zu cols, offset %zu", rows, cols, offset);
    return c;
}

/* The columns of a rows x cols row-major matrix. */
static struct shape_case columns_case(size_t rows, size_t cols, size_t offset)
{
    struct shape_case c = {.shape = {.kind = SHAPE_COLUMNS, .count = cols, .cols = cols},
                           .n = rows * cols, .offset = offset};
    snprintf(c.label, sizeof c.label, "columns of %zu rows x %zu cols, offset %zu", rows, cols,
             offset);
    return c;
}

/* The column cases of the default or the quick set into cases[]; returns
 * how many. */
static size_t make_column_cases(struct shape_case *cases, bool quick)
{
    const size_t elements = quick ? QUICK_CASE_ELEMENTS : CASE_ELEMENTS;
    const size_t *widths = quick ? QUICK_COLUMN_WIDTHS : COLUMN_WIDTHS;
    const size_t width_count = quick ? COUNT(QUICK_COLUMN_WIDTHS) : COUNT(COLUMN_WIDTHS);
    size_t count = 0;
    if (!quick) {
        cases[count++] = columns_case(100003, 1, 0);
        cases[count++] = columns_case(1, 100003, 0);
    }
    cases[count++] = columns_case(0, 32, 0);
    cases[count++] = columns_case(((size_t)1 << (quick ? 18 : 20)) + 3, 1, 1);
    if (quick) /* a matrix of many chunks of staged_columns' ring, for one block */
        cases[count++] = columns_case((size_t)1 << 15, 3, 0);
    for (size_t i = 0; i < width_count; ++i) {
        const size_t rows = elements / widths[i] ? elements / widths[i] : 1;
        cases[count++] = columns_case(rows, widths[i], 0);
        if (widths[i] % 2 || widths[i] == 32 || widths[i] == 2048)
            cases[count++] = columns_case(rows > 1000 ? 1000 : rows, widths[i], 1);
    }
    /* Short matrices of whole 16-byte vectors a row (split_columns takes up
     * to 64 rows a thread a vector of columns): 1 and 5 rows (not a whole
     * number of its 4-row batches), 64 and 65, and 2 rows one element off
     * 16 bytes. */
    const size_t short_cols = quick ? 1028 : 4100;
    const size_t short_rows[] = {1, 5, 64, 65};
    for (size_t i = 0; i < COUNT(short_rows); ++i)
        cases[count++] = columns_case(short_rows[i], short_cols, 0);
    cases[count++] = columns_case(2, short_cols, 1);
    /* ... and a narrow one at the same edge (staged_columns takes more
     * than 64 rows) */
    cases[count++] = columns_case(64, 3, 0);
    cases[count++] = columns_case(65, 3, 0);
    /* A matrix wide and tall enough that split_columns cuts it into strips
     * of several rows with no parts on a GPU of a hundred SMs or more (an
     * H100: strips of 4 rows, 129 tiles, the last of 4 columns; the last
     * strip 1 row) */
    if (!quick)
        cases[count++] = columns_case(2049, 4100, 0);
    return count;
}

/* Past 2^31 elements a thread per column chains 2^27 rows, and the CPU
 * loop walks 8 GiB a call, twice a pair: minutes each, where the other
 * methods take milliseconds. Their index arithmetic is the default set's. */
static bool too_slow_past_2_31(const struct method *m)
{
    return strcmp(m->name, "thread_per_column") == 0 || m->family == FAMILY_CPU;
}

/* A run of empty segments longer than any tile (a tile of ends alone)
 * between two segments longer than 32 tiles (the cross-tile combine's
 * later rounds), from an input pointer one element off 16 bytes. */
static struct shape_case empty_run_case(segment_offset **offsets, bool quick)
{
    const size_t empty = 20000, long_length = quick ? 140001 : 300001;
    segment_offset *o = malloc((empty + 4) * sizeof *o);
    CHECK(o != NULL);
    o[0] = 0;
    o[1] = long_length;
    for (size_t i = 2; i <= empty + 1; ++i)
        o[i] = long_length;
    o[empty + 2] = 2 * long_length;
    o[empty + 3] = 2 * long_length + 3;
    *offsets = o;
    struct shape_case c = {.shape = {.kind = SHAPE_SEGMENTS, .count = empty + 3, .offsets = o},
                           .n = 2 * long_length + 3, .offset = 1};
    snprintf(c.label, sizeof c.label, "segments: %zu empty between two of %zu, offset 1", empty,
             long_length);
    return c;
}

/* Segments of the lengths `text` draws (a spec of bench_compare's
 * --segments) over about n elements; the offsets malloc'd into *offsets. */
static struct shape_case drawn_segments_case(const char *text, size_t n, size_t offset,
                                             uint64_t seed, segment_offset **offsets)
{
    struct segment_spec spec;
    char err[256];
    size_t segments = 0;
    CHECK(parse_segment_spec(text, &spec, err, sizeof err));
    *offsets = make_segment_offsets(&spec, seed, &n, &segments, err, sizeof err);
    CHECK(*offsets != NULL);
    struct shape_case c = {.shape = {.kind = SHAPE_SEGMENTS, .count = segments, .offsets = *offsets},
                           .n = n, .offset = offset};
    snprintf(c.label, sizeof c.label, "segments %s, offset %zu", text, offset);
    return c;
}

/* The default and quick sets' segment cases: the edges, one long segment
 * among short ones, a run of empties, and the drawn distributions; their
 * offsets malloc'd into offsets[], which ends with NULL. */
static size_t make_segment_cases(struct shape_case *cases, segment_offset **offsets,
                                 uint64_t seed, bool quick, size_t elements)
{
    size_t count = 0, lists = 0;
    /* Empty first and last, and a run of empties in between. */
    static const segment_offset EDGES[] = {0, 0, 0, 5, 5, 5, 40, 41, 41, 1000, 1000};
    offsets[lists] = malloc(sizeof EDGES);
    CHECK(offsets[lists] != NULL);
    memcpy(offsets[lists], EDGES, sizeof EDGES);
    cases[count] = (struct shape_case){
        .shape = {.kind = SHAPE_SEGMENTS, .count = COUNT(EDGES) - 1, .offsets = offsets[lists++]},
        .n = 1000};
    snprintf(cases[count++].label, sizeof cases[0].label, "segments empty first and last");
    /* One long segment among a thousand short ones: the mean is short, so a
     * method sized for it must still get the long one right (adaptive_rows
     * splits it over the grid: 100003 floats are 13 parts of 32 KiB). */
    const size_t short_segments = 1000, long_length = 100003;
    offsets[lists] = malloc((short_segments + 2) * sizeof(segment_offset));
    CHECK(offsets[lists] != NULL);
    offsets[lists][0] = 0;
    for (size_t i = 0; i <= short_segments; ++i)
        offsets[lists][i + 1] = offsets[lists][i] + (i == short_segments / 2 ? long_length : i * 7 % 21);
    cases[count] = (struct shape_case){
        .shape = {.kind = SHAPE_SEGMENTS, .count = short_segments + 1, .offsets = offsets[lists]},
        .n = offsets[lists][short_segments + 1], .offset = 1};
    ++lists;
    snprintf(cases[count++].label, sizeof cases[0].label, "segments: one long among short, offset 1");
    cases[count++] = empty_run_case(&offsets[lists++], quick);
    for (size_t i = 0; i < COUNT(SEGMENT_SPECS); ++i) {
        if (quick && strcmp(SEGMENT_SPECS[i], "uniform:1000") == 0)
            continue; /* a few segments of 2^14 elements: the long ones are powerlaw's */
        cases[count++] = drawn_segments_case(SEGMENT_SPECS[i], elements + 7, i % 2, seed,
                                             &offsets[lists++]);
    }
    offsets[lists] = NULL;
    return count;
}

/* The cases, offsets malloc'd into offsets[] (free them). */
static size_t make_cases(struct shape_case *cases, segment_offset **offsets, uint64_t seed,
                         enum case_set set)
{
    size_t count = 0;
    if (set == CASES_LARGE) {
        const size_t cols = ((size_t)1 << 20) + 1, rows = ((size_t)1 << 11) + 1;
        cases[count++] = rows_case(rows, cols, 0); /* 2^31 + 2^20 + 2^11 + 1 elements */
        /* 2^31 + 16 elements: the last rows lie past 2^31, each column
         * reads every 64-byte line of the input once (a short stride keeps
         * the strided CPU reference a stream, not a miss per element) */
        cases[count++] = columns_case(((size_t)1 << 27) + 1, 16, 0);
        /* 2^31 + 2^20 + 7 elements, one off 16 bytes, in ragged segments */
        cases[count++] = drawn_segments_case("powerlaw:100", ((size_t)1 << 31) + ((size_t)1 << 20) + 7,
                                             1, seed, &offsets[0]);
        offsets[1] = NULL;
        return count;
    }
    const bool quick = set == CASES_QUICK;
    const size_t elements = quick ? QUICK_CASE_ELEMENTS : CASE_ELEMENTS;
    const size_t *widths = quick ? QUICK_WIDTHS : WIDTHS;
    const size_t width_count = quick ? COUNT(QUICK_WIDTHS) : COUNT(WIDTHS);
    if (!quick) {
        cases[count++] = rows_case(1, 100003, 0);
        cases[count++] = rows_case(100003, 1, 0);
    }
    cases[count++] = rows_case(0, 32, 0);
    cases[count++] = rows_case(1, ((size_t)1 << (quick ? 18 : 20)) + 3, 1);
    for (size_t i = 0; i < width_count; ++i) {
        const size_t rows = elements / widths[i] ? elements / widths[i] : 1;
        cases[count++] = rows_case(rows, widths[i], 0);
        if (widths[i] % 2 || widths[i] == 32 || widths[i] == 2048)
            cases[count++] = rows_case(rows > 1000 ? 1000 : rows, widths[i], 1);
    }
    count += make_column_cases(cases + count, quick);
    count += make_segment_cases(cases + count, offsets, seed, quick, elements);
    return count;
}

/* The cases of one kind moved to the front (--shape); their count. */
static size_t keep_kind(struct shape_case *cases, size_t count, enum shape_kind kind)
{
    size_t kept = 0;
    for (size_t i = 0; i < count; ++i)
        if (cases[i].shape.kind == kind)
            cases[kept++] = cases[i];
    return kept;
}

/* The harness's shaped path with the test-only methods: PASS, FAIL naming
 * the row, REFUSED for a whole-array method. */
static void harness_should_check_every_row(uint64_t seed)
{
    const size_t cols = 33, rows = 1000, n = rows * cols;
    float *h = malloc(n * sizeof *h);
    void *d = NULL;
    const struct data_info info = fill_data(h, n, TYPE_FLOAT, DIST_SIGNED, seed);
    CHECK(cudaMalloc(&d, n * sizeof *h) == cudaSuccess &&
          cudaMemcpy(d, h, n * sizeof *h, cudaMemcpyHostToDevice) == cudaSuccess);
    const struct reduce_spec spec = {TYPE_FLOAT, OP_SUM};
    const struct reduce_shape shape = {.kind = SHAPE_ROWS, .count = rows, .cols = cols};
    struct shape_reference shape_ref;
    CHECK(compute_shape_reference(&shape_ref, spec, shape, h, n, info));
    const struct reference ref = compute_reference(spec, h, n, info);
    const struct measure_input in = {.spec = spec, .d_in = d, .h_in = h, .n = n, .ref = &ref,
                                     .shape = shape, .shape_ref = &shape_ref, .longest = cols};
    const struct measure_setup setup = {.warmup = 1, .samples = 5, .flush_l2 = false};
    struct method_result r;
    CHECK(measure_method(&method_test_row_per_thread, &in, &setup, NULL, 0, &r) == 0);
    CHECK(r.status == STATUS_PASS && r.time_us.count == 5 && r.gbps > 0.0);
    CHECK(measure_method(&method_test_row_on_host, &in, &setup, NULL, 0, &r) == 0);
    CHECK(r.status == STATUS_PASS);
    CHECK(measure_method(&method_test_row_drops_last, &in, &setup, NULL, 0, &r) == 0);
    CHECK(r.status == STATUS_FAIL && strstr(r.note, "row 0 of 1000") != NULL);
    printf("  wrong method: %s\n", r.note);
    CHECK(measure_method(find_method("cub"), &in, &setup, NULL, 0, &r) == 0);
    CHECK(r.status == STATUS_REFUSED && strcmp(r.note, "refused: whole array only") == 0);
    /* GB/s counts the input and the results written. */
    CHECK(counted_bytes(spec, &shape, n) == (double)n * 4 + (double)rows * 4);
    free_shape_reference(&shape_ref);
    cudaFree(d);
    free(h);
}

/* Whether m's NaN rule is not the suite's, so data with NaNs tests nothing
 * of it: argmax and argmin of the libraries flagged METHOD_OWN_NAN_RULE;
 * max and min of every library (CUB's cuda::maximum keeps a NaN or drops
 * it by where it stands, PyTorch's amax returns it), where the suite
 * ignores a NaN as fmax does. */
static bool has_own_nan_rule(const struct method *m, struct reduce_spec spec)
{
    return is_arg_op(spec.op) ? (m->flags & METHOD_OWN_NAN_RULE) != 0 : m->family == FAMILY_VENDOR;
}

/* Whether m computes case c of this pair (its shape, its size, its NaN
 * rule). */
static bool takes_case(const struct method *m, struct reduce_spec spec, const struct shape_case *c,
                       enum case_set set, bool nans)
{
    char reason[256];
    return (m->shapes & SHAPE_BIT(c->shape.kind)) && method_supports(m, spec) &&
           !(set == CASES_LARGE && too_slow_past_2_31(m)) &&
           !method_refuses_extent(m, spec, c->shape, c->n, reason, sizeof reason) &&
           !(nans && has_own_nan_rule(m, spec));
}

/* A line before each input past 2^31 is made, so a long run cut short
 * shows where it was. */
static void print_progress(struct reduce_spec spec, const struct shape_case *c, bool nans)
{
    static time_t start;
    if (start == 0)
        start = time(NULL);
    printf("  [%4.0f s] %s %s%s, %s\n", difftime(time(NULL), start), element_type_name(spec.type),
           reduce_op_name(spec.op), nans ? " with NaNs" : "", c->label);
    fflush(stdout);
}

/* Every case of one (type, operator) pair, in each distribution the set
 * uses, against every method that takes it (or `only`): counts each
 * method's cases run and passed. */
static void check_pair(struct reduce_spec spec, enum case_set set, const struct shape_case *cases,
                       size_t case_count, const char *only, uint64_t seed, size_t *passed,
                       size_t *run)
{
    /* --large and --quick: signed data alone; floating types' max, min,
     * argmax and argmin also signed data with NaNs (the last variant) */
    const size_t dists = set == CASES_DEFAULT ? COUNT(DISTS) : 1;
    const bool nan_variant = spec.op != OP_SUM && !is_integer_type(spec.type);
    for (size_t c = 0; c < case_count; ++c)
        for (size_t k = 0; k < dists + nan_variant; ++k) {
            const bool nans = k == dists;
            const enum distribution dist = nans ? DIST_SIGNED : DISTS[k];
            struct prepared_case p;
            bool prepared = false, ready = false;
            for (size_t i = 0; i < METHOD_COUNT; ++i) {
                const struct method *m = METHODS[i];
                if (!takes_case(m, spec, &cases[c], set, nans) || (only && strcmp(only, m->name) != 0))
                    continue;
                if (!prepared) {
                    prepared = true;
                    if (set == CASES_LARGE)
                        print_progress(spec, &cases[c], nans);
                    ready = prepare_case(&p, spec, &cases[c], dist, nans, seed + c);
                }
                if (!ready)
                    break;
                ++run[i];
                /* forced grids: the signed data */
                passed[i] += check_method(m, spec, &cases[c], dist, &p, set, k == 0);
            }
            if (prepared)
                release_case(&p);
        }
}

/* The command line: which cases, which methods, which seed. */
struct options {
    uint64_t seed;
    const char *only;         /* one method's name, or NULL for every one */
    enum case_set set;
    enum shape_kind only_kind; /* SHAPE_KIND_COUNT: every kind */
};

/* false (after a message) on a bad command line */
static bool parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){.seed = (uint64_t)time(NULL), .set = CASES_DEFAULT,
                          .only_kind = SHAPE_KIND_COUNT};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            o->seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--method") == 0 && i + 1 < argc)
            o->only = argv[++i];
        else if (strcmp(argv[i], "--quick") == 0)
            o->set = CASES_QUICK;
        else if (strcmp(argv[i], "--large") == 0)
            o->set = CASES_LARGE;
        else if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc) {
            o->only_kind = shape_kind_from_name(argv[++i]);
            if (o->only_kind == SHAPE_KIND_COUNT || o->only_kind == SHAPE_WHOLE) {
                fprintf(stderr, "test_shapes_gpu: --shape %s: not rows, segments or columns\n",
                        argv[i]);
                return false;
            }
        } else {
            fprintf(stderr, "usage: test_shapes_gpu [--seed N] [--method NAME] "
                            "[--shape rows|segments|columns] [--quick | --large]\n");
            return false;
        }
    }
    return true;
}

/* Each method's count of cases passed; FAIL when nothing was tested: no
 * registry method declares rows, or none took a case of this selection. */
static void print_counts(const size_t *passed, const size_t *run)
{
    size_t row_methods = 0, runs = 0;
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        row_methods += (METHODS[i]->shapes & SHAPE_BIT(SHAPE_ROWS)) != 0;
        runs += run[i];
        if (run[i] > 0)
            printf("%s %s: %zu of %zu cases\n", passed[i] == run[i] ? "ok  " : "FAIL",
                   METHODS[i]->name, passed[i], run[i]);
    }
    if (row_methods == 0) {
        printf("FAIL no registry method declares SHAPE_ROWS: nothing was tested\n");
        ++check_failures;
    }
    if (runs == 0) {
        printf("FAIL no method took a case (--method, --shape): nothing was tested\n");
        ++check_failures;
    }
}

int main(int argc, char **argv)
{
    struct options o;
    if (!parse_options(argc, argv, &o))
        return 2;
    skip_without_gpu("test_shapes_gpu");
    printf("seed %" PRIu64 " (replay with --seed %" PRIu64 ")\n", o.seed, o.seed);
    if (o.set != CASES_LARGE)
        harness_should_check_every_row(o.seed);

    struct shape_case cases[MAX_CASES];
    segment_offset *offsets[MAX_OFFSET_LISTS];
    size_t case_count = make_cases(cases, offsets, o.seed, o.set);
    CHECK(case_count <= COUNT(cases)); /* MAX_CASES counted too few: correct its sum */
    if (o.only_kind != SHAPE_KIND_COUNT)
        case_count = keep_kind(cases, case_count, o.only_kind);
    /* Pair, case, distribution outermost: each input and its reference are
     * made once and every method is checked on it. */
    size_t passed[256] = {0}, run[256] = {0};
    CHECK(METHOD_COUNT <= COUNT(run));
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = 0; op < OP_COUNT; ++op) {
            const struct reduce_spec spec = {(enum element_type)t, (enum reduce_op)op};
            if (o.set == CASES_LARGE && (spec.type != TYPE_FLOAT ||
                                         (spec.op != OP_SUM && spec.op != OP_ARGMAX)))
                continue; /* the float sum and argmax: the size is the point */
            if (o.set == CASES_QUICK && !is_quick_pair(spec))
                continue;
            check_pair(spec, o.set, cases, case_count, o.only, o.seed, passed, run);
        }
    print_counts(passed, run);
    for (size_t i = 0; offsets[i]; ++i)
        free(offsets[i]);
    printf("%s\n", check_failures ? "FAIL" : "ok");
    return check_failures ? 1 : 0;
}
