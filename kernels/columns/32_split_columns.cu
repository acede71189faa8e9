/* Step 32 - columns over the whole GPU: 16-byte loads, the rows split into
 * parts, one combine per tile.
 *
 * Idea: a warp reads a stretch of 32 16-byte vectors at a time (span = 32
 * x VECTOR_WIDTH elements, 128 floats): in a wide matrix one row's piece of a
 * tile of `span` columns, in a narrow one (span a multiple of the width:
 * 1, 2, 4, ... 128 floats) span / cols whole rows. Either way each lane's
 * elements sit in the same columns at every stretch, so a lane keeps one
 * accumulator per element of its vector, four stretches in flight (eight
 * in a narrow matrix). A narrow matrix's lanes that share columns then meet
 * by shuffles. A block's warps
 * split a tile's stretches (or, when a matrix has fewer rows than warps,
 * take neighbouring tiles) and add their totals in shared memory in warp
 * order; the stretches of a tile go to `parts` blocks, so that a few
 * hundred columns still fill every SM - dealt in turn, so that the whole
 * grid reads the matrix from the top down together, or for 8-byte elements
 * a band of rows each - and the tile's last part done
 * adds the parts' totals in part order (the counter pattern of
 * last_block_done.cuh, for a tile of columns instead of one value). A wide
 * matrix of too few tiles to fill the GPU alone (4096 floats: 32) is cut
 * instead into strips of 2 or 4 rows of span / 2 or span / 4 columns, so
 * that a stretch is 2 or 4 rows' pieces of at least 128 bytes and the tiles
 * fill the GPU with no parts; one of more tiles than resident blocks (65536
 * floats: 512) gives a block two or four, so that they are read in one
 * wave; one of so few tiles that each would need 64 parts or more (256
 * floats: 2 of 128) takes strips of 4 rows with a quarter of the parts
 * (column_cuts.cuh, where every cut is chosen). A
 * matrix of a few rows (up to FEW_ROWS) has too little down each column for
 * that machinery: a thread takes a vector of columns down every row
 * (few_rows_columns.cuh).
 *
 * Fixes from block_columns (step 31): a tile had one block and four-byte
 * loads; 128 floats of columns were four blocks for the whole GPU. Here a
 * tall matrix of any width is one resident wave of blocks, each thread with
 * four or eight 16-byte loads in flight. For those loads to be in flight
 * together, the narrow builds and those of 8-byte elements test a batch of
 * them once, not each (load_stretches), and the narrow sums, max and min
 * add a batch that passed it with no test an element (WHOLE_BATCH_ADDS;
 * both builds timed back to back:
 * bench/results/experiments/h200_split_columns_whole_batch_adds_05f2400.log);
 * the arg operators, whose compares cost more an
 * element, and the build of four vectors a lane (below) load whole batches
 * with no test at all and leave the last stretches to a bounded loop
 * (lane_columns_whole_batches). An element of argmax or argmin wins by
 * its value alone (a lane reads its rows in order: add_stretch); the
 * totals of lanes, warps and parts compare their pairs with no branch
 * (combine_without_branch), which measured faster than arg_wins' branches
 * (bench/results/experiments/h200_arg_wins_without_branch_0c69549.log).
 *
 * What it costs: the bytes, plus the parts' totals written and read once
 * more by the last part (parts x span results a tile), plus a launch. The
 * last part's combine is a tail the whole kernel waits for, which is why
 * strips are preferred where they fill the GPU; their lanes that share
 * columns meet by shuffles once a tile, as a narrow matrix's do. A
 * narrow width whose runs of whole vectors do not fill the span leaves lanes
 * idle, the more so where its stretch keeps to whole 128-byte lines (3
 * floats: 24 of 32, which measured faster than 30 lanes on stretches that
 * start inside a line). A width over 32 that is not a whole number of
 * vectors but whose runs are under 512 floats (33 floats: 132) takes, for
 * the sums, max and min, a build whose lanes read four neighbouring vectors
 * a stretch (three runs of 33 floats fill 99 of its 128 vectors). The arg
 * operators at those widths, wider ones (100003 floats) and an input that
 * is not 16-byte aligned take four-byte loads, sixteen in
 * flight, tested once a batch: a warp's load then covers 32 columns. The
 * parts and the strips follow the GPU's resident blocks and SMs, so a
 * column's bits depend on the GPU model, not on the grid.
 *   bench_compare --cols 128 --axis 0 -m split_columns
 *   bench_compare --cols 4096 --axis 0 -m split_columns,cublas_columns
 */
#include "block_reduce.cuh"
#include "column_cuts.cuh"
#include "cuda_check.h"
#include "few_rows_columns.cuh"
#include "grid_size.cuh"
#include "last_block_done.cuh"
#include "method.cuh"
#include "vector_loads.cuh"

namespace {

/* Stretches in flight per warp: more for a narrow matrix, whose warps
 * each read whole rows, fewer for a wide one, where more loads a lane cost
 * occupancy that the many tiles needed; four-byte loads (one element a lane)
 * need the most to keep as many bytes in flight. */
constexpr unsigned NARROW_LOADS = 8;
constexpr unsigned WIDE_LOADS = 4;
constexpr unsigned SCALAR_LOADS = 16;
/* A third build for widths over 32 floats that are not whole vectors (33,
 * 65): a lane reads RUN_VECTORS neighbouring vectors a stretch, so that a
 * stretch of 32 x RUN_VECTORS vectors holds runs of whole rows that are
 * whole vectors (33 floats: runs of 132, three a stretch of 512), RUN_LOADS
 * stretches in flight. Built for the sums, max and min of 4- and 8-byte
 * elements. */
constexpr int RUN_VECTORS = 4;
constexpr unsigned RUN_LOADS = 2;
constexpr size_t SMEM_BYTES = 48 * 1024;    /* the static shared-memory limit */
/* A matrix of at most this many rows takes few_rows_columns.cuh's kernel: a
 * thread a vector of columns down every row, with no parts, no shared memory
 * and no barrier, as a stretch a warp leaves too little work to pay for them. */
constexpr size_t FEW_ROWS = 64;

/* Warps a block: 16, fewer where a warp total per column of a span would
 * not fit shared memory (arg results of 8 halves a lane: 8). */
template <class T, class Op, int VEC> constexpr int warps_for()
{
    int warps = 16;
    while (warps > 1 && (size_t)warps * 32 * VEC * sizeof(result_t<T, Op>) > SMEM_BYTES)
        warps /= 2;
    return warps;
}

/* The narrow and the four-byte-load builds of the sums, max and min (a
 * batch tested once, eight or sixteen loads): a batch that lies wholly in
 * the array is added with no test an element, where a test an element was
 * a 64-bit multiply, add and compare (the instructions a batch, both ways, in
 * bench/results/experiments/sass_split_columns_whole_batch_adds_sm90.txt). */
template <class Op, unsigned LOADS, bool ONE_TEST>
constexpr bool WHOLE_BATCH_ADDS =
    ONE_TEST && (LOADS == NARROW_LOADS || LOADS == SCALAR_LOADS) && !is_arg_op_v<Op>;

/* One lane's elements of the LOADS stretches from s (every `step`-th), all
 * of them in the array: the loads with nothing between them. */
template <class T, int VEC, unsigned LOADS>
__device__ __forceinline__ void load_whole_batch(const T *__restrict__ in, const column_plan &p,
                                                 size_t s, size_t step, size_t lane_col,
                                                 T (&e)[LOADS][VEC])
{
#pragma unroll
    for (unsigned k = 0; k < LOADS; ++k) {
        const T *at = in + (s + k * step) * p.pitch + lane_col;
        if constexpr (VEC == 1)
            e[k][0] = *at;
        else
            load_vectors<T, VEC>(at, e[k]);
    }
}

/* One lane's elements of the LOADS stretches from s (every `step`-th) into
 * e, 16-byte loads where the elements are whole, element by element (and
 * bounded) where not. ONE_TEST: one bounds test for the whole batch, then
 * the loads with nothing between them, and a test a load only for a batch
 * that fails it (the last); else a test a load, which let the compiler
 * wait for each 16-byte load before the next in the 8-byte and narrow
 * builds, and costs fewer registers in the others (one_test_a_batch). */
template <class T, int VEC, unsigned LOADS, bool ONE_TEST>
__device__ __forceinline__ bool load_stretches(const T *__restrict__ in, const column_plan &p,
                                               size_t s, size_t end, size_t step,
                                               size_t lane_col, bool lane_in,
                                               T (&e)[LOADS][VEC])
{
    if constexpr (ONE_TEST) {
        /* a lane past a narrow stretch (3 floats: lanes 30 and 31) loads
         * the next stretch's first elements with the others, in the array
         * but never added (lane_columns tests lane_in): a test of lane_in
         * here sent it, and its warp, element by element every batch */
        const size_t last = s + (LOADS - 1) * step;
        if (last < end && last * p.pitch + lane_col + VEC <= p.n) {
            load_whole_batch<T, VEC, LOADS>(in, p, s, step, lane_col, e);
            return true;
        }
    }
#pragma unroll
    for (unsigned k = 0; k < LOADS; ++k) {
        const size_t at = (s + k * step) * p.pitch + lane_col;
        const bool whole = s + k * step < end && lane_in && at + VEC <= p.n;
        if (VEC > 1 && whole) {
            load_vectors<T, VEC>(in + at, e[k]);
        } else {
#pragma unroll
            for (int j = 0; j < VEC; ++j)
                e[k][j] = s + k * step < end && lane_in && at + j < p.n ? in[at + j] : T{};
        }
    }
    return false;
}

/* The row of element j of this lane's VEC in stretch `stretch`. */
template <int VEC>
__device__ __forceinline__ size_t element_row(const column_plan &p, size_t stretch, int j)
{
    const unsigned lane = threadIdx.x % 32;
    return stretch * p.rows_per_stretch +
           (p.rows_per_stretch > 1 ? (lane * VEC + j) / p.tile_cols : 0);
}

/* Whether element j of this lane's VEC lies in the stretch (a lane of
 * several vectors may reach past a narrow one) and, when `bounded`, in the
 * array. */
template <class T, int VEC>
__device__ __forceinline__ bool element_in(const column_plan &p, size_t stretch,
                                           size_t lane_col, bool bounded, int j)
{
    const unsigned lane = threadIdx.x % 32;
    const bool in_stretch = VEC <= VECTOR_WIDTH<T> || !p.narrow || lane * VEC + j < p.pitch;
    return in_stretch && (!bounded || stretch * p.pitch + lane_col + j < p.n);
}

/* Whether an arg element's test also takes it into a slot still empty
 * (one equal to the identity's value: -inf for an argmax of floats). The
 * builds of 16-byte loads leave that to first_rows_found, after the loop:
 * faster for halves, bfloat16 and floats, level for 8-byte elements,
 * int32 either side; the four-byte-load builds (sixteen loads in flight)
 * were slower without the test
 * (bench/results/experiments/h200_split_columns_two_patches_9fc120d.log,
 * h200_split_columns_kept_patches_9fc120d.log). */
template <int VEC> constexpr bool TESTS_EMPTY_SLOT = VEC == 1;

/* One lane's VEC elements of stretch `stretch` added into acc, when `live`,
 * those element_in. A lane reads its stretches in row order, so an argmax
 * or argmin element wins by its value alone, tested without a branch: the
 * pair compare of value and index it replaced was slower at every width
 * and type timed, most for halves, and combine_later, whose test for a
 * 64-bit index has branches, slower still at most
 * (bench/results/experiments/h200_split_columns_value_first_b2f2f8c.log,
 * h200_split_columns_combine_later_b127b6d.log). The test is then steps 38
 * and 39's combine_later_without_branch written out (called here, that
 * helper compiled the 2-byte types' kernels to 126-128 registers, not
 * 116-118), less the empty slot's test where TESTS_EMPTY_SLOT is false. */
template <class T, class Op, int VEC>
__device__ __forceinline__ void add_stretch(const column_plan &p, size_t stretch,
                                            size_t lane_col, bool live, bool bounded,
                                            const T (&e)[VEC], result_t<T, Op> (&acc)[VEC])
{
    const combine_without_branch<Op> op;
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
        if (live && element_in<T, VEC>(p, stretch, lane_col, bounded, j)) {
            const auto x = lift<Op>(e[j], element_row<VEC>(p, stretch, j));
            if constexpr (is_arg_op_v<Op>)
                acc[j] = (TESTS_EMPTY_SLOT<VEC> && acc[j].index == NO_INDEX) |
                                 arg_beats_without_branch<Op::is_max>(x.value, acc[j].value)
                             ? x
                             : acc[j];
            else
                acc[j] = op(acc[j], x);
        }
    }
}

/* After a lane's loop, an arg slot still empty that met elements met only
 * the identity's value (-inf for argmax of floats, the lowest integer):
 * its index is then its first element's row, in stretch `first` - the
 * first a slot meets, if any, as a later stretch lies further into the
 * array. */
template <class T, class Op, int VEC>
__device__ __forceinline__ void first_rows_found(const column_plan &p, size_t first, size_t end,
                                                 size_t lane_col, bool lane_in,
                                                 result_t<T, Op> (&acc)[VEC])
{
#pragma unroll
    for (int j = 0; j < VEC; ++j)
        if (acc[j].index == NO_INDEX && lane_in && first < end &&
            element_in<T, VEC>(p, first, lane_col, true, j))
            acc[j].index = (decltype(acc[j].index))element_row<VEC>(p, first, j);
}

/* One lane's stretches [first, end) that its warp takes (every `step`-th)
 * added into acc, LOADS of them in flight. */
template <class T, class Op, int VEC, unsigned LOADS, bool ONE_TEST>
__device__ __forceinline__ void lane_columns(const T *__restrict__ in, const column_plan &p,
                                             size_t first, size_t end, size_t step,
                                             size_t lane_col, bool lane_in,
                                             result_t<T, Op> (&acc)[VEC])
{
    for (size_t s = first; s < end; s += LOADS * step) {
        T e[LOADS][VEC];
        const bool whole =
            load_stretches<T, VEC, LOADS, ONE_TEST>(in, p, s, end, step, lane_col, lane_in, e);
        if (WHOLE_BATCH_ADDS<Op, LOADS, ONE_TEST> && whole) {
#pragma unroll
            for (unsigned k = 0; k < LOADS; ++k)
                add_stretch<T, Op, VEC>(p, s + k * step, lane_col, lane_in, false, e[k], acc);
            continue;
        }
#pragma unroll
        for (unsigned k = 0; k < LOADS; ++k)
            add_stretch<T, Op, VEC>(p, s + k * step, lane_col, s + k * step < end && lane_in,
                                    true, e[k], acc);
    }
}

/* lane_columns for the arg operators, whose compares of value and index
 * make each element cost more than a sum's: while LOADS stretches lie wholly
 * in the array they are loaded and added with no bounds test at all; the
 * few left over go one at a time, element by element. */
template <class T, class Op, int VEC, unsigned LOADS>
__device__ __forceinline__ void lane_columns_whole_batches(const T *__restrict__ in,
                                                           const column_plan &p, size_t first,
                                                           size_t end, size_t step,
                                                           size_t lane_col, bool lane_in,
                                                           result_t<T, Op> (&acc)[VEC])
{
    if (!lane_in)
        return;
    /* the stretches before `whole` hold all VEC of this lane's elements */
    const size_t whole = p.n >= lane_col + VEC ? (p.n - lane_col - VEC) / p.pitch + 1 : 0;
    const size_t batched_end = whole < end ? whole : end;
    size_t s = first;
    for (; s + (LOADS - 1) * step < batched_end; s += LOADS * step) {
        T e[LOADS][VEC];
        load_whole_batch<T, VEC, LOADS>(in, p, s, step, lane_col, e);
#pragma unroll
        for (unsigned k = 0; k < LOADS; ++k)
            add_stretch<T, Op, VEC>(p, s + k * step, lane_col, true, false, e[k], acc);
    }
    for (; s < end; s += step) {
        const size_t at = s * p.pitch + lane_col;
        T e[VEC];
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            e[j] = at + j < p.n ? in[at + j] : T{};
        add_stretch<T, Op, VEC>(p, s, lane_col, true, true, e, acc);
    }
}

/* One lane's accumulators over the stretches [first, end) of tile `tile`
 * that its warp takes (every `step`-th), by the loop measured fastest for
 * its build: whole batches for the arg operators and the build of several
 * vectors a lane (33 floats), whose elements each had a test of their own;
 * lane_columns for the rest. */
template <class T, class Op, int VEC, unsigned LOADS, bool ONE_TEST>
__device__ __forceinline__ void lane_totals(const T *__restrict__ in, const column_plan &p,
                                            size_t tile, size_t first, size_t end, size_t step,
                                            result_t<T, Op> (&acc)[VEC])
{
    const unsigned lane = threadIdx.x % 32;
    /* wide: the lane's first element - tile_cols / VEC lanes a row of the
     * stretch, so lane l reads row l / (tile_cols / VEC) of it - and whether
     * its column is in the matrix (cols % VEC == 0); narrow: the stretch may
     * end before the last lane */
    const unsigned row_lanes = p.tile_cols / VEC;
    const size_t col = p.narrow ? 0 : tile * p.tile_cols + lane % row_lanes * VEC;
    const size_t lane_col = p.narrow ? lane * VEC : lane / row_lanes * p.cols + col;
    const bool lane_in = p.narrow ? lane * VEC < p.pitch : col < p.cols;
#pragma unroll
    for (int j = 0; j < VEC; ++j)
        acc[j] = identity<Op, result_t<T, Op>>();
    if constexpr (is_arg_op_v<Op> || VEC > VECTOR_WIDTH<T>) {
        lane_columns_whole_batches<T, Op, VEC, LOADS>(in, p, first, end, step, lane_col, lane_in,
                                                      acc);
        if constexpr (is_arg_op_v<Op> && !TESTS_EMPTY_SLOT<VEC>)
            first_rows_found<T, Op, VEC>(p, first, end, lane_col, lane_in, acc);
    } else
        lane_columns<T, Op, VEC, LOADS, ONE_TEST>(in, p, first, end, step, lane_col, lane_in,
                                                  acc);
}

/* A narrow matrix whose width divides the span, or a wide one cut into
 * strips: lanes (and a lane's elements) that share columns meet by
 * shuffles, so that lane l's slot j holds tile column l x VEC + j, as in a
 * wide one. (Other narrow widths meet in shared memory: block_totals.) */
template <class Op, int VEC, class R>
__device__ __forceinline__ void join_shared_columns(const column_plan &p, R (&acc)[VEC])
{
    const combine_without_branch<Op> op;
    const unsigned width = p.tile_cols;
    if (p.narrow ? 32 * VEC != p.pitch : p.rows_per_stretch == 1)
        return;
    /* width < VEC: a lane's vector holds VEC / width rows; slot j's column
     * is j % width. Both indices compile-time constants: acc stays in
     * registers. */
#pragma unroll
    for (int t = 0; t < VEC; ++t)
#pragma unroll
        for (int j = t + 1; j < VEC; ++j)
            if (t < (int)width && j >= (int)width && j % width == (unsigned)t)
                acc[t] = op(acc[t], acc[j]);
    const unsigned holders = width >= VEC ? width / VEC : 1u;
    for (unsigned offset = holders; offset < 32; offset *= 2)
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            acc[j] = op(acc[j], shuffle_xor(acc[j], (int)offset));
}

/* Shared memory: each warp's total per position of its tile's span; the
 * last part's combine reuses it as scratch. */
template <class R, int WARPS, int VEC> struct split_columns_storage {
    R totals[WARPS][32 * VEC];
};

/* The block's per-column totals of its tiles, into the first warp's row of
 * each tile (totals[ti x warps_per_tile][c], c < tile_cols): first each
 * span position over the tile's warps, in warp order; then, for a narrow
 * width that does not divide the span (3 floats: 10 rows of 3 in a stretch
 * of 30), each column over the positions that hold it, in order. */
template <class Op, int WARPS, int VEC, class R>
__device__ __forceinline__ void block_totals(split_columns_storage<R, WARPS, VEC> &s,
                                             const column_plan &p, unsigned tiles_per_block)
{
    constexpr unsigned SPAN = 32 * VEC;
    const combine_without_branch<Op> op;
    for (unsigned i = threadIdx.x; i < tiles_per_block * SPAN; i += WARPS * 32) {
        const unsigned ti = i / SPAN, c = i % SPAN;
        R total = s.totals[ti * p.warps_per_tile][c];
        for (unsigned w = 1; w < p.warps_per_tile; ++w)
            total = op(total, s.totals[ti * p.warps_per_tile + w][c]);
        s.totals[ti * p.warps_per_tile][c] = total;
    }
    __syncthreads();
    if (!p.narrow || p.pitch == SPAN)
        return;
    R joined = identity<Op, R>();
    if (threadIdx.x < p.cols)
        for (unsigned c = threadIdx.x; c < p.pitch; c += (unsigned)p.cols)
            joined = op(joined, s.totals[0][c]);
    __syncthreads();
    if (threadIdx.x < p.cols)
        s.totals[0][threadIdx.x] = joined;
    __syncthreads();
}

/* Where tile column c of tile `tile` lands in the output; cols past the
 * last column: none. */
__device__ __forceinline__ bool output_column(const column_plan &p, size_t tile, unsigned c,
                                              size_t *col)
{
    *col = p.narrow ? c : tile * p.tile_cols + c;
    return c < p.tile_cols && *col < p.cols;
}

/* The last part of a tile group: every column's parts added, the block's
 * threads split into `slices` that each chain every slices-th part, then the
 * slices joined by a tree in shared memory - a fixed order, and a chain of
 * parts / slices L2 reads a thread instead of parts. */
template <class Op, int WARPS, int VEC, class R>
__device__ __forceinline__ void add_parts(split_columns_storage<R, WARPS, VEC> &s,
                                          const column_plan &p, size_t group,
                                          unsigned tiles_per_block, const R *partials, R *out)
{
    constexpr unsigned SPAN = 32 * VEC, BLOCK = WARPS * 32;
    const combine_without_branch<Op> op;
    const unsigned columns = tiles_per_block * p.tile_cols;
    if (columns > BLOCK / 2) { /* no room for two slices: a chain a column */
        for (unsigned k = threadIdx.x; k < columns; k += BLOCK) {
            const size_t t = group * tiles_per_block + k / p.tile_cols;
            size_t col;
            if (t >= p.tiles || !output_column(p, t, k % p.tile_cols, &col))
                continue;
            R total = identity<Op, R>();
            for (unsigned q = 0; q < p.parts; ++q)
                total = op(total, load_at_l2(&partials[(t * p.parts + q) * SPAN + k % p.tile_cols]));
            store_result(&out[col], total);
        }
        return;
    }
    unsigned slices = 1;
    while (slices * 2 * columns <= BLOCK)
        slices *= 2;
    R *scratch = &s.totals[0][0]; /* slices x columns entries, <= WARPS x SPAN */
    const unsigned slice = threadIdx.x / columns, k = threadIdx.x % columns;
    const unsigned ti = k / p.tile_cols, c = k % p.tile_cols;
    const size_t t = group * tiles_per_block + ti;
    if (slice < slices) {
        /* PART_LOADS reads in flight, then their adds: a chain that waited
         * for each read cost an L2 round trip a part, the most at 64 and 128
         * columns, whose parts are many (bench/NOTES.md, session 11) */
        constexpr unsigned PART_LOADS = 8;
        R total = identity<Op, R>();
        for (unsigned q = slice; t < p.tiles && q < p.parts; q += PART_LOADS * slices) {
            R v[PART_LOADS];
#pragma unroll
            for (unsigned u = 0; u < PART_LOADS; ++u)
                v[u] = q + u * slices < p.parts
                           ? load_at_l2(&partials[(t * p.parts + q + u * slices) * SPAN + c])
                           : identity<Op, R>();
#pragma unroll
            for (unsigned u = 0; u < PART_LOADS; ++u)
                total = op(total, v[u]);
        }
        scratch[slice * columns + k] = total;
    }
    __syncthreads();
    for (unsigned half = slices / 2; half > 0; half /= 2) {
        if (slice < half)
            scratch[slice * columns + k] = op(scratch[slice * columns + k],
                                              scratch[(slice + half) * columns + k]);
        __syncthreads();
    }
    size_t col;
    if (slice == 0 && t < p.tiles && output_column(p, t, c, &col))
        store_result(&out[col], scratch[k]);
}

/* A lane's totals of its warp's share of part `part` of a tile: the warp is
 * `in_tile` of the tile's warps_per_tile. Elements under 8 bytes: the parts
 * interleave (part q's warps take every parts x warps_per_tile-th stretch),
 * so the whole grid sweeps the matrix from the top down together, which
 * read wide matrices of them faster than a part a band of rows; 8-byte
 * elements read faster a part a band (bench/NOTES.md, sessions 19 and 20). */
template <class T, class Op, int VEC, unsigned LOADS, bool ONE_TEST>
__device__ __forceinline__ void part_totals(const T *__restrict__ in, const column_plan &p,
                                            size_t tile, unsigned part, unsigned in_tile,
                                            result_t<T, Op> (&acc)[VEC])
{
    constexpr bool INTERLEAVE_PARTS = sizeof(T) < 8;
    const size_t first = INTERLEAVE_PARTS ? (size_t)part * p.warps_per_tile + in_tile
                                          : p.stretches * part / p.parts + in_tile;
    const size_t end = INTERLEAVE_PARTS ? p.stretches : p.stretches * (part + 1) / p.parts;
    const size_t stride = INTERLEAVE_PARTS ? (size_t)p.parts * p.warps_per_tile : p.warps_per_tile;
    lane_totals<T, Op, VEC, LOADS, ONE_TEST>(in, p, tile, first, tile < p.tiles ? end : 0, stride,
                                             acc);
}

/* The blocks an SM that ptxas is told to fit a kernel into; 0 leaves it
 * free. One for the narrow sum, max and min builds (WHOLE_BATCH_ADDS):
 * their whole batches then keep all LOADS loads in flight before the first
 * add; left free, ptxas held the kernel to two blocks an SM by issuing the
 * batch's loads in two groups, the first adds between them (registers and
 * SASS: bench/results/experiments/sass_split_columns_whole_batch_adds_sm90.txt).
 * The four-byte-load builds' sixteen loads, left free, took 96 registers
 * and one block an SM, and ran slower than a test a load; two blocks (64
 * registers) read floats fastest, three (40; halves spill a few bytes)
 * halves and doubles
 * (bench/results/experiments/h200_split_columns_scalar_batches_fc042f5.log;
 * the other types follow by size). */
template <class T, class Op, unsigned LOADS, bool ONE_TEST>
constexpr int SPLIT_MIN_BLOCKS = !WHOLE_BATCH_ADDS<Op, LOADS, ONE_TEST> ? 0
                                 : LOADS != SCALAR_LOADS              ? 1
                                 : sizeof(T) == 4                     ? 2
                                                                      : 3;

template <class T, class Op, int VEC, int WARPS, unsigned LOADS, bool ONE_TEST>
__global__ __launch_bounds__(WARPS * 32, SPLIT_MIN_BLOCKS<T, Op, LOADS, ONE_TEST>) void split_columns_kernel(
    const T *__restrict__ in, column_plan p, result_t<T, Op> *__restrict__ out, void *workspace)
{
    using R = result_t<T, Op>;
    constexpr int BLOCK = WARPS * 32;
    constexpr unsigned SPAN = 32 * VEC;
    __shared__ split_columns_storage<R, WARPS, VEC> s;
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const unsigned tiles_per_block = WARPS / p.warps_per_tile;
    const size_t groups = p.groups(WARPS);
    unsigned *parts_done = (unsigned *)workspace;
    R *partials = (R *)((char *)workspace + (groups * sizeof(unsigned) + 15) / 16 * 16);

    /* The trip count is the block's: every thread meets every barrier. */
    for (size_t item = blockIdx.x; item < groups * p.parts; item += gridDim.x) {
        const size_t group = item / p.parts;
        const unsigned part = (unsigned)(item % p.parts);
        const size_t tile = group * tiles_per_block + warp / p.warps_per_tile;
        R acc[VEC];
        part_totals<T, Op, VEC, LOADS, ONE_TEST>(in, p, tile, part, warp % p.warps_per_tile, acc);
        join_shared_columns<Op, VEC>(p, acc);
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            s.totals[warp][lane * VEC + j] = acc[j];
        __syncthreads();
        block_totals<Op>(s, p, tiles_per_block);
        for (unsigned i = threadIdx.x; i < tiles_per_block * SPAN; i += BLOCK) {
            const unsigned ti = i / SPAN, c = i % SPAN;
            const size_t t = group * tiles_per_block + ti;
            size_t col;
            if (t >= p.tiles || !output_column(p, t, c, &col))
                continue;
            const R total = s.totals[ti * p.warps_per_tile][c];
            if (p.parts == 1)
                store_result(&out[col], total);
            else
                store_result(&partials[(t * p.parts + part) * SPAN + c], total);
        }
        if (p.parts > 1) {
            if (draws_last_ticket(&parts_done[group], p.parts)) {
                add_parts<Op>(s, p, group, tiles_per_block, partials, out);
                if (threadIdx.x == 0)
                    parts_done[group] = 0; /* ready for the next call */
            }
        }
        __syncthreads(); /* the totals are written again by the next item */
    }
}

template <class T, class Op> struct split_columns_launch {
    static constexpr int W = VECTOR_WIDTH<T>;

    /* The stretches in flight a lane, for VEC elements a lane. */
    template <int VEC> static constexpr unsigned loads_for(bool narrow)
    {
        return VEC == 1 ? SCALAR_LOADS
               : VEC > W ? RUN_LOADS /* narrow only */
               : narrow  ? NARROW_LOADS
                         : WIDE_LOADS;
    }

    /* Whether a build tests its batch of loads once (load_stretches): the
     * builds of one vector a lane that are narrow or of 8-byte elements,
     * where a test a load left one load in flight at a time, and the
     * four-byte-load builds, where a test an element cost some fifteen
     * instructions a load (bench/results/experiments/h200_split_columns_scalar_batches_fc042f5.log);
     * the wide 2- and 4-byte builds of vectors and the build of four vectors
     * a lane were faster with a test a load, whose loads take fewer
     * registers (bench/NOTES.md, session 17). */
    template <int VEC> static constexpr bool one_test_a_batch(bool narrow)
    {
        return VEC == 1 || (VEC == W && (narrow || sizeof(T) >= 8));
    }

    /* The kernel for VEC elements a lane: the narrow builds' (more loads
     * in flight) or the wide builds'. */
    template <int VEC> static auto kernel_for(bool narrow_kernel)
    {
        constexpr int WARPS = warps_for<T, Op, VEC>();
        return narrow_kernel ? split_columns_kernel<T, Op, VEC, WARPS, loads_for<VEC>(true),
                                                    one_test_a_batch<VEC>(true)>
                             : split_columns_kernel<T, Op, VEC, WARPS, loads_for<VEC>(false),
                                                    one_test_a_batch<VEC>(false)>;
    }

    /* The GPU's resident blocks of that kernel (a wave). */
    template <int VEC> static int resident_for(bool narrow_kernel, size_t *blocks)
    {
        int resident = 0;
        PROPAGATE(resident_grid_size((const void *)kernel_for<VEC>(narrow_kernel),
                                     warps_for<T, Op, VEC>() * 32, 0, &resident));
        *blocks = (size_t)resident;
        return 0;
    }

    /* The cut for VEC elements a lane (column_cuts.cuh). */
    template <int VEC> static int plan_for(reduce_shape shape, size_t n, column_plan *p)
    {
        int sms = 0;
        PROPAGATE(device_sm_count(&sms));
        column_build b{.element_bytes = sizeof(T), .vector_width = W, .vec = VEC,
                       .warps = warps_for<T, Op, VEC>(),
                       .loads = {loads_for<VEC>(false), loads_for<VEC>(true)}, .resident = {},
                       .sms = (size_t)sms};
        PROPAGATE(resident_for<VEC>(false, &b.resident[0]));
        PROPAGATE(resident_for<VEC>(true, &b.resident[1]));
        *p = plan_columns(b, n, shape.cols);
        return 0;
    }

    template <int VEC> static size_t workspace_bytes(const column_plan &p)
    {
        const size_t groups = p.groups(warps_for<T, Op, VEC>());
        return p.parts > 1 ? (groups * sizeof(unsigned) + 15) / 16 * 16 +
                                 p.tiles * p.parts * 32 * VEC * sizeof(result_t<T, Op>)
                           : 0;
    }

    /* 16-byte loads where the input is aligned and the rows are whole
     * vectors, or runs of them are whole vectors within a span (the narrow
     * widths: 3 floats, runs of 4 rows). */
    static bool vectors_fit(const T *d_in, size_t cols)
    {
        return (uintptr_t)d_in % 16 == 0 && (cols % W == 0 || lcm(cols, W) <= 32 * W);
    }

    /* Elements a lane a stretch in the build for runs of several vectors;
     * none for the arg operators, whose 16-byte results a column hold that
     * build's blocks to four warps (warps_for), so that its one tile of at
     * most MAX_PARTS blocks left four warps an SM: they take four-byte loads. */
    static constexpr int RUN = sizeof(T) >= 4 && !is_arg_op_v<Op> ? W * RUN_VECTORS : 0;

    /* The widths that build takes: not whole vectors, with runs of whole
     * rows and whole vectors too long for one vector a lane's stretch but
     * within its own. */
    static bool runs_width(size_t cols)
    {
        return RUN > 0 && cols % W != 0 && lcm(cols, W) > 32 * W &&
               lcm(cols, W) <= 32 * (size_t)RUN;
    }

    /* That build, for an aligned input of such a width. */
    static bool runs_fit(const T *d_in, size_t cols)
    {
        return (uintptr_t)d_in % 16 == 0 && runs_width(cols);
    }

    /* The pointer is not known to the query: room for every cut. */
    static int workspace(reduce_shape shape, size_t n, size_t *bytes)
    {
        column_plan wide{}, narrow{};
        PROPAGATE(plan_for<W>(shape, n, &wide));
        PROPAGATE(plan_for<1>(shape, n, &narrow));
        const size_t a = workspace_bytes<W>(wide), b = workspace_bytes<1>(narrow);
        *bytes = a > b ? a : b;
        if constexpr (RUN > 0)
            if (runs_width(shape.cols)) {
                column_plan runs{};
                PROPAGATE(plan_for<RUN>(shape, n, &runs));
                const size_t c = workspace_bytes<RUN>(runs);
                *bytes = c > *bytes ? c : *bytes;
            }
        return 0;
    }

    template <int VEC>
    static int launch(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out,
                      void *workspace, cudaStream_t stream)
    {
        constexpr int WARPS = warps_for<T, Op, VEC>();
        column_plan p{};
        PROPAGATE(plan_for<VEC>(shape, n, &p));
        const size_t items = p.groups(WARPS) * p.parts;
        size_t resident = 0;
        PROPAGATE(resident_for<VEC>(p.narrow_kernel, &resident));
        const int grid = launch_grid((int)(items < resident ? items : resident));
        kernel_for<VEC>(p.narrow_kernel)<<<grid, WARPS * 32, 0, stream>>>(d_in, p, d_out,
                                                                        workspace);
        CUDA_TRY_LAUNCH();
        return 0;
    }

    static int run(const T *d_in, reduce_shape shape, size_t n, result_t<T, Op> *d_out,
                   void *workspace, cudaStream_t stream)
    {
        if (shape.count == 0)
            return 0;
        const bool vectors = vectors_fit(d_in, shape.cols);
        const size_t cols = shape.cols, rows = n / cols;
        if (rows <= FEW_ROWS)
            return vectors && cols % W == 0
                       ? launch_few_rows_columns<T, Op, W>(d_in, cols, rows, d_out, stream)
                       : launch_few_rows_columns<T, Op, 1>(d_in, cols, rows, d_out, stream);
        if (vectors)
            return launch<W>(d_in, shape, n, d_out, workspace, stream);
        if constexpr (RUN > 0)
            if (runs_fit(d_in, shape.cols))
                return launch<RUN>(d_in, shape, n, d_out, workspace, stream);
        return launch<1>(d_in, shape, n, d_out, workspace, stream);
    }
};

} // namespace

DEFINE_METHOD(split_columns, .family = FAMILY_COLUMNS, .source = "this suite: columns, step 32",
              .idea = "16-byte loads down a tile of columns, rows dealt in turn to parts over the GPU (8-byte elements: a band each); the last part adds them",
              .types = ALL_TYPES, .ops = ALL_OPS,
              .launch = launch_any_pair<split_columns_launch, ALL_OPS>,
              .workspace = workspace_any_pair<split_columns_launch, ALL_OPS>,
              /* no METHOD_GRID_INDEPENDENT: the parts follow the GPU's resident blocks */
              .order = {.kind = ORDER_SERIAL_CHAIN},
              .shapes = SHAPE_BIT(SHAPE_COLUMNS));
