/* The row widths step 27 (packed_rows) packs: each instantiated for every
 * (type, operator) pair, so a few - the narrow ones and the 16-byte
 * multiples of one or two vectors of floats. adaptive_rows (step 28) asks
 * the same question. */
#ifndef PACKED_ROWS_CUH
#define PACKED_ROWS_CUH

#include <cstddef>

constexpr bool packs_width(size_t cols)
{
    return cols == 1 || cols == 2 || cols == 3 || cols == 4 || cols == 8 || cols == 16;
}

#endif
