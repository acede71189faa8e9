/* A grid whose stride is whole rows (step 39, flat_columns): threads of a
 * grid of `blocks` x `threads` reading every (blocks x threads)-th vector of
 * `width` elements of a row-major matrix of `cols` columns see each element
 * of their vectors in the same column at every vector when width x blocks x
 * threads is a multiple of cols, that is when blocks x threads is a multiple
 * of cols / gcd(cols, width). `threads` a power of two holds every power of
 * two of that up to itself; the blocks hold its odd part. */
#ifndef WHOLE_ROWS_GRID_CUH
#define WHOLE_ROWS_GRID_CUH

#include <stddef.h>

#include "vector_loads.cuh"

/* The most blocks up to `wanted` that are a multiple of the odd part of
 * cols / gcd(cols, width), or that odd part where `wanted` is fewer. */
static inline size_t whole_rows_grid(size_t wanted, size_t cols, size_t width)
{
    size_t odd = cols / gcd(cols, width);
    while (odd % 2 == 0)
        odd /= 2;
    return wanted >= odd ? wanted / odd * odd : odd;
}

#endif
