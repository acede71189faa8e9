/* How synced_columns (step 41) cuts a matrix into blocks of whole rows,
 * row_blocks.cuh, on the CPU: every width it takes, on grids from one
 * block to more than a GPU's SMs - a block holds as many whole rows of
 * vectors as fit its threads, its rows' totals fit its shared memory, and
 * after the barrier every column is added by exactly one block. */
#include "check.h"
#include "row_blocks.cuh"

/* Step 41's blocks: 1024 threads; more than 64 rows. */
static const size_t THREADS = 1024, FEW_ROWS = 64;

static void every_width_it_takes_is_cut_into_whole_rows()
{
    const size_t widths[] = {2, 4, 8}; /* a 16-byte vector of 8-, 4- and 2-byte elements */
    const int grids[] = {1, 7, 66, 132, 264, 1025};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w)
        for (size_t cols = widths[w]; cols <= THREADS; cols += widths[w]) {
            const size_t n = cols * (FEW_ROWS + 1);
            CHECK(row_blocks_take(n, cols, widths[w], THREADS, FEW_ROWS));
            for (size_t g = 0; g < sizeof grids / sizeof grids[0]; ++g) {
                const size_t grid = (size_t)grids[g];
                const row_blocks p = plan_row_blocks(n, cols, widths[w], THREADS, grids[g]);
                CHECK(p.rows == FEW_ROWS + 1 && p.cols == cols);
                CHECK((size_t)p.row_vectors * widths[w] == cols);
                /* as many whole rows as the threads hold, one at least */
                CHECK(p.block_rows >= 1 && (size_t)p.block_rows * p.row_vectors <= THREADS);
                CHECK((size_t)(p.block_rows + 1) * p.row_vectors > THREADS);
                /* the rows' totals fit the kernel's W x THREADS of shared memory */
                CHECK(p.block_rows * cols <= widths[w] * THREADS);
                /* every column added by one block: the blocks' equal shares
                 * cover the columns, and are no larger than that needs */
                CHECK(p.block_columns * grid >= cols);
                CHECK((p.block_columns - 1) * grid < cols);
            }
        }
}

static void what_it_leaves_to_split_columns()
{
    CHECK(!row_blocks_take(1001 * 100, 1001, 4, THREADS, FEW_ROWS)); /* not whole vectors */
    CHECK(!row_blocks_take(1028 * 100, 1028, 4, THREADS, FEW_ROWS)); /* wider than the threads */
    CHECK(!row_blocks_take(1000 * 64, 1000, 4, THREADS, FEW_ROWS));  /* 64 rows: few */
    CHECK(!row_blocks_take(1000 * 100 + 4, 1000, 4, THREADS, FEW_ROWS)); /* not whole rows */
    CHECK(!row_blocks_take(0, 4, 4, THREADS, FEW_ROWS));
    CHECK(row_blocks_take(1000 * 65, 1000, 4, THREADS, FEW_ROWS));
    CHECK(row_blocks_take(1024 * 65, 1024, 8, THREADS, FEW_ROWS));
}

static void known_cuts()
{
    const row_blocks floats_1000 = plan_row_blocks(16777000, 1000, 4, THREADS, 132);
    CHECK(floats_1000.row_vectors == 250 && floats_1000.block_rows == 4); /* 24 threads idle */
    CHECK(floats_1000.block_columns == 8 && floats_1000.rows == 16777);
    const row_blocks halves_1000 = plan_row_blocks(16777000, 1000, 8, THREADS, 132);
    CHECK(halves_1000.row_vectors == 125 && halves_1000.block_rows == 8);
    const row_blocks floats_4 = plan_row_blocks(4 * 100, 4, 4, THREADS, 7);
    CHECK(floats_4.row_vectors == 1 && floats_4.block_rows == 1024 && floats_4.block_columns == 1);
}

int main()
{
    RUN_TEST(every_width_it_takes_is_cut_into_whole_rows);
    RUN_TEST(what_it_leaves_to_split_columns);
    RUN_TEST(known_cuts);
    return test_exit_code();
}
