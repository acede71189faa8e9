/* The grid flat_columns (step 39) launches, whole_rows_grid.cuh, on the CPU:
 * its stride is whole rows for every width it takes, with as many blocks as
 * that allows up to the ones wanted, and a few known cuts of an H100's 132
 * SMs. */
#include "check.h"
#include "whole_rows_grid.cuh"

/* Step 39's blocks: 1024 threads. */
static const size_t THREADS = 1024;

/* The answer by search: the most blocks up to `wanted` whose stride is
 * whole rows, or the fewest above it where there are none. */
static size_t most_blocks_by_search(size_t wanted, size_t cols, size_t width)
{
    for (size_t b = wanted; b >= 1; --b)
        if (width * b * THREADS % cols == 0)
            return b;
    size_t b = wanted + 1;
    while (width * b * THREADS % cols != 0)
        ++b;
    return b;
}

static void the_stride_is_whole_rows_with_the_most_blocks()
{
    const size_t widths[] = {2, 4, 8}; /* a 16-byte vector of 8-, 4- and 2-byte elements */
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w)
        for (size_t cols = 1; cols <= 128; ++cols)
            for (size_t wanted = 1; wanted <= 300; ++wanted)
                CHECK(whole_rows_grid(wanted, cols, widths[w]) ==
                      most_blocks_by_search(wanted, cols, widths[w]));
}

static void known_cuts_of_132_blocks()
{
    CHECK(whole_rows_grid(132, 1, 4) == 132);
    CHECK(whole_rows_grid(132, 3, 4) == 132);    /* 132 = 3 x 44 */
    CHECK(whole_rows_grid(132, 33, 4) == 132);   /* 132 = 33 x 4 */
    CHECK(whole_rows_grid(132, 5, 4) == 130);
    CHECK(whole_rows_grid(132, 100, 4) == 125);  /* 100 / 4 = 25 */
    CHECK(whole_rows_grid(132, 125, 4) == 125);
    CHECK(whole_rows_grid(132, 127, 8) == 127);
    CHECK(whole_rows_grid(132, 128, 2) == 132);  /* a power of two: the threads hold it */
    CHECK(whole_rows_grid(9, 12, 2) == 9);       /* 12 / 2 = 6: its 2 is the threads' */
    CHECK(whole_rows_grid(7, 3, 4) == 6);        /* a grid a test forces */
    CHECK(whole_rows_grid(1, 33, 4) == 33);
}

int main()
{
    RUN_TEST(the_stride_is_whole_rows_with_the_most_blocks);
    RUN_TEST(known_cuts_of_132_blocks);
    return test_exit_code();
}
