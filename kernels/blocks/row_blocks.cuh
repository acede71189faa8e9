/* How synced_columns (step 41) cuts a row-major matrix into blocks of whole
 * rows: host code, so that tests/test_row_blocks.cu checks every width on
 * the CPU.
 *
 * A row of cols elements is cols / width 16-byte vectors (width elements a
 * vector). A block of `threads` threads reads as many whole rows a step as
 * it holds rows of vectors; after the grid barrier, block b adds columns
 * [b x block_columns, (b + 1) x block_columns) over every block's totals. */
#ifndef ROW_BLOCKS_CUH
#define ROW_BLOCKS_CUH

#include <stddef.h>

#include "cuda_check.h"

/* The cut (computed on the host, passed to the kernel by value). */
struct row_blocks {
    size_t rows, cols;
    unsigned row_vectors;   /* V: cols / width */
    unsigned block_rows;    /* k: rows a block reads at a step, threads / V */
    unsigned block_columns; /* columns each block adds after the barrier */
};

/* Whether the cut takes a matrix of n elements, cols wide: whole rows of
 * whole vectors, at most `threads` columns (the folds take a thread a
 * column) and more than few_rows rows. */
static inline bool row_blocks_take(size_t n, size_t cols, size_t width, size_t threads,
                                   size_t few_rows)
{
    return cols >= 1 && cols <= threads && cols % width == 0 && n % cols == 0 &&
           n / cols > few_rows;
}

/* The cut of a matrix the cut takes, for a grid of `grid` blocks. */
static inline row_blocks plan_row_blocks(size_t n, size_t cols, size_t width, size_t threads,
                                         int grid)
{
    const unsigned vectors = (unsigned)(cols / width);
    return {.rows = n / cols, .cols = cols, .row_vectors = vectors,
            .block_rows = (unsigned)(threads / vectors),
            .block_columns = (unsigned)ceil_div(cols, (size_t)grid)};
}

#endif
