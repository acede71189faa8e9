/* How split_columns (step 32) cuts the columns of a row-major matrix into
 * tiles, stretches, strips and parts: host code that depends on the GPU
 * only through the resident blocks of its two kernels, so that
 * tests/test_column_cuts.cu checks every choice on the CPU.
 *
 * A warp reads a stretch of 32 lanes x VEC elements (the span) at a time. A
 * narrow matrix (a run of whole rows and whole vectors fits the span) is
 * one tile whose stretches are whole rows, `pitch` elements apart. A wide
 * one is cut into tiles of columns, a stretch one row's piece of a tile -
 * or, cut into strips of 2 or 4 rows, 2 or 4 rows' pieces of a tile of
 * span / 2 or span / 4 columns. The blocks split each tile's stretches into
 * `parts`, whose last one adds the others (the kernel's combine), unless a
 * cut's tiles alone fill the GPU (strips_fill_gpu). */
#ifndef COLUMN_CUTS_CUH
#define COLUMN_CUTS_CUH

#include <stddef.h>

#include "cuda_check.h"
#include "vector_loads.cuh"

/* Parts a tile's rows are cut into, at most: the last part alone reads
 * every part's totals once the others are done, so at a few hundred columns
 * more parts cost that one block more than their loads in flight gain. */
constexpr unsigned MAX_PARTS = 128;
/* A wide matrix's strips hold at most this many rows: a row's piece of a
 * tile is then 8 lanes' vectors, 128 bytes (64-byte pieces measured
 * slower: bench/NOTES.md, session 37). */
constexpr unsigned MAX_STRIP_ROWS = 4;
/* A wide cut needing this many parts or more is cut into strips instead:
 * the last part's combine chains every part of a column. 256 and 512
 * floats (128 and 66 parts) in strips of 4 rows, of 33 and 16 parts,
 * measured faster; 1024 (33 parts; 8 in strips) not; 2048 and 4096 in
 * strips slower (bench/NOTES.md, sessions 37 and 39). */
constexpr unsigned MANY_PARTS = 64;
/* The memory's line: a narrow width's stretches start on one where they can. */
constexpr size_t LINE_BYTES = 128;

/* How the matrix is cut (computed on the host, passed to the kernel by value). */
struct column_plan {
    size_t n, cols;
    size_t pitch;              /* elements from one stretch to the next */
    size_t stretches;          /* ceil(rows / rows_per_stretch) (wide), or
                                  ceil(n / pitch) (narrow) */
    size_t tiles;              /* ceil(cols / tile_cols) (wide), 1 (narrow) */
    unsigned tile_cols;        /* a tile's columns: span / rows_per_stretch
                                  (wide), cols (narrow) */
    unsigned rows_per_stretch; /* wide: 1, or the rows of a strip (strips_fill_gpu);
                                  narrow: pitch / cols */
    unsigned warps_per_tile;   /* a power of two; the block holds warps / it tiles */
    unsigned parts;            /* blocks that split one tile's stretches */
    unsigned loads;            /* the kernel's stretches in flight a lane */
    bool narrow;
    bool narrow_kernel;        /* the narrow builds' kernel: a narrow matrix,
                                  or a wide one's strips (strips_fill_gpu) */

    __host__ __device__ size_t groups(unsigned warps) const
    {
        const size_t tiles_per_block = warps / warps_per_tile;
        return (tiles + tiles_per_block - 1) / tiles_per_block;
    }
};

/* What one build of split_columns brings to a cut. Index 0 of loads and
 * resident is the wide builds' kernel, 1 the narrow builds'. */
struct column_build {
    size_t element_bytes;
    unsigned vector_width; /* elements a 16-byte vector */
    unsigned vec;          /* elements a lane a stretch: the span is 32 x vec */
    unsigned warps;        /* a block's */
    unsigned loads[2];     /* stretches in flight a lane */
    size_t resident[2];    /* the GPU's resident blocks of each kernel */
    size_t sms;            /* the GPU's SMs */
};

/* A cut with one part: a narrow matrix's stretches of whole rows `pitch`
 * elements apart, or a wide one's strips of strip_rows rows. */
static inline column_plan column_cut(const column_build &b, size_t n, size_t cols, bool narrow,
                                     size_t pitch, unsigned strip_rows, bool narrow_kernel)
{
    const size_t rows = n / cols, tile_cols = narrow ? cols : 32 * b.vec / strip_rows;
    column_plan p{.n = n, .cols = cols, .pitch = narrow ? pitch : strip_rows * cols,
                  .stretches = narrow ? ceil_div(n, pitch) : ceil_div(rows, strip_rows),
                  .tiles = narrow ? 1 : ceil_div(cols, tile_cols),
                  .tile_cols = (unsigned)tile_cols,
                  .rows_per_stretch = (unsigned)(narrow ? pitch / cols : strip_rows),
                  .warps_per_tile = b.warps, .parts = 1, .loads = b.loads[narrow_kernel],
                  .narrow = narrow, .narrow_kernel = narrow_kernel};
    /* each warp at least four batches of loads: a short matrix's warps
     * take neighbouring tiles rather than a row or two each */
    while (p.warps_per_tile > 1 && p.stretches / p.warps_per_tile < 4 * p.loads)
        p.warps_per_tile /= 2;
    return p;
}

/* A wide matrix of 16-byte vectors cut into strips so that its tiles alone
 * fill the GPU, with no parts (whose combine at the end measured slower):
 * of the cuts of 1, 2 or 4 rows a strip (a row's piece 128 bytes at least)
 * by either kernel, one wave each, the one whose loads in flight come
 * closest to a whole wave of the wide kernel's, and at least three
 * quarters of it (4096 floats: strips of 4 rows, 128 tiles, the narrow
 * builds' kernel; 65536: rows of one, two tiles a block), with a block
 * for three SMs in four at least: the arg builds' kernels keep one block
 * an SM, and 64 tiles of eight loads a lane, as many loads as a wave of
 * theirs, left half an H200's SMs idle, and the argmax down 2048-8192
 * floats far slower than down 1024 or 16384
 * (bench/results/experiments/h200_split_columns_strips_sms_022812b.log).
 * Returns false where none does. */
static inline bool strips_fill_gpu(const column_build &b, size_t n, size_t cols,
                                   column_plan *best)
{
    const size_t wave = b.resident[0] * b.loads[0];
    size_t best_gap = wave / 4 + 1;
    for (unsigned rows = 1; rows <= MAX_STRIP_ROWS; rows *= 2)
        for (const bool narrow_kernel : {false, true}) {
            column_plan c = column_cut(b, n, cols, false, 0, rows, narrow_kernel);
            /* and with a half or a quarter of the warps a tile, so that a
             * block takes 2 or 4 tiles: a matrix of more tiles than resident
             * blocks (65536 floats: 512) in one wave */
            for (const unsigned most = c.warps_per_tile;
                 c.warps_per_tile > 0 && 4 * c.warps_per_tile >= most; c.warps_per_tile /= 2) {
                const size_t blocks = c.groups(b.warps);
                const size_t loads = blocks * c.loads;
                const size_t gap = loads > wave ? loads - wave : wave - loads;
                if (blocks <= b.resident[narrow_kernel] && 4 * blocks >= 3 * b.sms &&
                    gap < best_gap) {
                    best_gap = gap;
                    *best = c;
                }
            }
        }
    return best_gap <= wave / 4;
}

/* Cut c with its parts: as many as the resident blocks hold beside the
 * other tiles, at most one a batch of loads for each warp, MAX_PARTS. */
static inline column_plan with_parts(const column_build &b, column_plan c)
{
    const size_t by_wave = b.resident[c.narrow_kernel] / c.groups(b.warps);
    const size_t by_rows = c.stretches / ((size_t)c.loads * c.warps_per_tile);
    const size_t parts = by_wave < by_rows ? by_wave : by_rows;
    c.parts = (unsigned)(parts < 1 ? 1 : parts > MAX_PARTS ? MAX_PARTS : parts);
    return c;
}

/* Cut c with fewer warps a tile, and so more tiles a block, where that
 * reads its tiles in fewer waves of resident blocks, as strips_fill_gpu
 * does for 16-byte loads (100003 floats by four-byte loads: 3126 tiles, 391
 * blocks of 8 tiles, two waves; 196 of 16, one). A warp of fewer a tile
 * reads more of its stretches, so each still has four batches of loads. */
static inline column_plan in_fewest_waves(const column_build &b, column_plan c)
{
    const size_t resident = b.resident[c.narrow_kernel];
    while (c.warps_per_tile > 1) {
        column_plan fewer = c;
        fewer.warps_per_tile /= 2;
        if (ceil_div(fewer.groups(b.warps), resident) >= ceil_div(c.groups(b.warps), resident))
            break;
        c = fewer;
    }
    return c;
}

/* The cut of an n-element matrix of `cols` columns for build b. */
static inline column_plan plan_columns(const column_build &b, size_t n, size_t cols)
{
    const size_t span = 32 * (size_t)b.vec;
    /* narrow: whole rows a stretch, in whole vectors - the width divides
     * the span, or a run of whole rows and whole vectors fits it (four-byte
     * loads: 10 rows of 3, 30 floats a stretch) - and, where whole runs can,
     * whole 128-byte lines, so that every stretch starts on one (3 floats: 8
     * runs of 12, 96 floats, not 10 runs, 120 floats, three stretches in
     * four starting inside a line) */
    const size_t run = lcm(cols, b.vec == 1 ? 1 : b.vector_width);
    const size_t line_run = lcm(run, LINE_BYTES / b.element_bytes);
    const bool narrow = run <= span;
    const size_t pitch = !narrow            ? cols
                         : line_run <= span ? span / line_run * line_run
                                            : span / run * run;
    const bool strips = !narrow && b.vec == b.vector_width;
    column_plan p{};
    if (strips && strips_fill_gpu(b, n, cols, &p))
        return p;
    /* rows of one with parts, on the narrow builds' kernel: where it holds
     * as many blocks as the wide one (the arg builds) the same parts with
     * eight loads a lane in flight, not four; where it holds half as many
     * (the sums) half the parts, which once its part-empty last batches
     * took 16-byte loads was faster at most widths timed, level at the
     * others, and 1000 floats either side of the wide kernel from one
     * timing to the next (bench/results/experiments/h200_split_columns_two_patches_9fc120d.log,
     * h200_split_columns_kept_patches_9fc120d.log; before those loads,
     * slower at some: h200_split_columns_narrow_kernel_cut_b127b6d.log) */
    const bool narrow_kernel = narrow || strips;
    p = with_parts(b, in_fewest_waves(b, column_cut(b, n, cols, narrow, pitch, 1, narrow_kernel)));
    /* a wide matrix of very few tiles (256 floats: 2, of 128 parts each):
     * strips of the most rows, a quarter of the parts to combine */
    if (strips && p.parts >= MANY_PARTS)
        p = with_parts(b, column_cut(b, n, cols, false, 0, MAX_STRIP_ROWS, false));
    return p;
}

#endif
