/* How split_columns cuts a matrix (kernels/blocks/column_cuts.cuh), on the
 * CPU, for a GPU described by its resident blocks: an H100's 132 SMs with two
 * blocks an SM of either kernel unless said. Wide floats whose tiles of a
 * span are too few to fill it are cut into strips that need no parts (4096:
 * strips of 4 rows; 8192: of 2; 16384: rows of one on the narrow builds'
 * kernel), those that fill it keep one part (32768; 65536, more tiles than
 * a wave, two a block; 100003 by four-byte loads, sixteen a block), the
 * others take parts (2048 and misaligned builds short of loads in flight,
 * on the narrow builds' kernel; 256 and 512
 * in strips of 4 rows, fewer parts; kernels of one block an SM never strips
 * that leave SMs idle);
 * narrow widths keep their stretches of whole rows (3 floats: 96 a stretch);
 * and every cut covers the whole matrix. */
#include "check.h"
#include "column_cuts.cuh"

/* Float sums' builds: a lane's one vector (16-byte loads) or one element
 * (4-byte loads, for misaligned inputs); four or eight loads a lane. */
static const column_build FLOAT_VECTORS = {.element_bytes = 4, .vector_width = 4, .vec = 4,
                                           .warps = 16, .loads = {4, 8}, .resident = {264, 264},
                                           .sms = 132};
static const column_build FLOAT_SCALARS = {.element_bytes = 4, .vector_width = 4, .vec = 1,
                                           .warps = 16, .loads = {16, 16}, .resident = {264, 264},
                                           .sms = 132};

/* A plan reads every element once: its tiles span the columns, its
 * stretches the rows, and a warp at least four batches where warps share
 * a tile. */
static void check_covers(const column_build &b, const column_plan &p, size_t n, size_t cols)
{
    const size_t rows = n / cols;
    CHECK(p.n == n && p.cols == cols && p.parts >= 1 && p.parts <= MAX_PARTS);
    CHECK(p.warps_per_tile >= 1 && b.warps % p.warps_per_tile == 0);
    CHECK(p.warps_per_tile == 1 || p.stretches / p.warps_per_tile >= 4 * p.loads);
    CHECK(p.loads == b.loads[p.narrow_kernel]);
    if (p.narrow) {
        CHECK(p.tiles == 1 && p.tile_cols == cols && p.pitch % cols == 0);
        CHECK(p.pitch <= 32 * b.vec && p.stretches * p.pitch >= n);
    } else {
        CHECK(p.tile_cols * p.rows_per_stretch == 32 * b.vec);
        CHECK(p.tiles * p.tile_cols >= cols && (p.tiles - 1) * p.tile_cols < cols);
        CHECK(p.pitch == p.rows_per_stretch * cols);
        CHECK(p.stretches * p.rows_per_stretch >= rows &&
              (p.stretches - 1) * p.rows_per_stretch < rows);
    }
}

static column_plan plan(const column_build &b, size_t rows, size_t cols)
{
    const column_plan p = plan_columns(b, rows * cols, cols);
    check_covers(b, p, rows * cols, cols);
    return p;
}

static void few_wide_tiles_are_cut_into_strips_with_no_parts()
{
    const column_plan p4096 = plan(FLOAT_VECTORS, 4096, 4096);
    CHECK(p4096.rows_per_stretch == 4 && p4096.tile_cols == 32 && p4096.tiles == 128);
    CHECK(p4096.narrow_kernel && p4096.parts == 1 && !p4096.narrow);
    const column_plan p8192 = plan(FLOAT_VECTORS, 2048, 8192);
    CHECK(p8192.rows_per_stretch == 2 && p8192.tiles == 128 && p8192.narrow_kernel);
    CHECK(p8192.parts == 1);
    const column_plan p16384 = plan(FLOAT_VECTORS, 1024, 16384);
    CHECK(p16384.rows_per_stretch == 1 && p16384.tiles == 128 && p16384.narrow_kernel);
    CHECK(p16384.parts == 1);
    /* a width that is not whole strips: the last tile holds 4 columns, the
     * last strip one row */
    const column_plan odd = plan(FLOAT_VECTORS, 2049, 4100);
    CHECK(odd.rows_per_stretch == 4 && odd.tiles == 129 && odd.stretches == 513);
    CHECK(odd.parts == 1 && odd.narrow_kernel);
}

static void tiles_that_fill_the_gpu_keep_rows_of_one()
{
    const column_plan p = plan(FLOAT_VECTORS, 512, 32768);
    CHECK(p.rows_per_stretch == 1 && p.tiles == 256 && !p.narrow_kernel && p.parts == 1);
    /* more tiles than a wave: two a block, one wave */
    const column_plan wider = plan(FLOAT_VECTORS, 256, 65536);
    CHECK(wider.rows_per_stretch == 1 && wider.tiles == 512 && wider.parts == 1);
    CHECK(!wider.narrow_kernel && wider.warps_per_tile == 8 && wider.groups(16) == 256);
}

static void short_of_loads_in_flight_the_tiles_take_parts()
{
    /* 2048 floats: strips of 4 would be 64 tiles, half a wave's loads;
     * rows of one on the narrow builds' kernel (eight loads a lane): 16
     * parts where it holds as many blocks as the wide one, 8 where it holds
     * half as many (the sums' builds) */
    const column_plan p = plan(FLOAT_VECTORS, 8192, 2048);
    CHECK(p.rows_per_stretch == 1 && p.tiles == 16 && p.parts == 16 && p.narrow_kernel);
    column_build sums = FLOAT_VECTORS;
    sums.resident[1] = 132;
    const column_plan half_the_blocks = plan(sums, 8192, 2048);
    CHECK(half_the_blocks.rows_per_stretch == 1 && half_the_blocks.tiles == 16);
    CHECK(half_the_blocks.parts == 8 && half_the_blocks.narrow_kernel);
    /* 12288 floats: at best 96 tiles of eight loads or 192 of four, under
     * three quarters of a wave's loads */
    const column_plan p12288 = plan(FLOAT_VECTORS, 1365, 12288);
    CHECK(p12288.rows_per_stretch == 1 && p12288.tiles == 96 && p12288.parts == 2);
    /* 256 and 512 floats: 2 and 4 tiles of a span would need 128 and 66
     * parts; strips of 4 rows, 8 and 16 tiles of 33 and 16 parts */
    const column_plan p256 = plan(FLOAT_VECTORS, 65536, 256);
    CHECK(p256.rows_per_stretch == 4 && p256.tiles == 8 && p256.parts == 33);
    CHECK(!p256.narrow_kernel);
    const column_plan p512 = plan(FLOAT_VECTORS, 32768, 512);
    CHECK(p512.rows_per_stretch == 4 && p512.tiles == 16 && p512.parts == 16);
    /* 1024 floats: 8 tiles of 33 parts, fewer than many: rows of one */
    const column_plan p1024 = plan(FLOAT_VECTORS, 16384, 1024);
    CHECK(p1024.rows_per_stretch == 1 && p1024.tiles == 8 && p1024.parts == 33);
    /* four-byte loads of more tiles than a wave (100003 floats: 3126 of
     * 32): a warp a tile, 16 tiles a block, 196 blocks in one wave, not two
     * warps a tile in two (391) */
    const column_plan p100003 = plan(FLOAT_SCALARS, 167, 100003);
    CHECK(p100003.tile_cols == 32 && p100003.tiles == 3126 && p100003.parts == 1);
    CHECK(p100003.warps_per_tile == 1 && p100003.groups(16) == 196);
    /* four-byte loads never take strips: a span of 32 floats, 128 tiles */
    const column_plan scalars = plan(FLOAT_SCALARS, 4096, 4096);
    CHECK(scalars.rows_per_stretch == 1 && scalars.tile_cols == 32 && scalars.parts == 2);
    /* on a GPU of half the SMs 4096 floats fill it in strips of 2 */
    column_build half = FLOAT_VECTORS;
    half.resident[0] = half.resident[1] = 132;
    half.sms = 66;
    const column_plan smaller = plan(half, 4096, 4096);
    CHECK(smaller.rows_per_stretch == 2 && smaller.tiles == 64 && smaller.parts == 1);
    /* on as many SMs, kernels of one block an SM (the arg builds): not 64
     * strips that leave half the SMs idle, but 128 strips of 4 rows on the
     * wide kernel, or at 2048 floats 16 tiles of 8 parts */
    column_build one_block = FLOAT_VECTORS;
    one_block.resident[0] = one_block.resident[1] = 132;
    const column_plan all_sms = plan(one_block, 4096, 4096);
    CHECK(all_sms.rows_per_stretch == 4 && all_sms.tiles == 128 && !all_sms.narrow_kernel);
    CHECK(all_sms.parts == 1);
    const column_plan with_parts_2048 = plan(one_block, 8192, 2048);
    CHECK(with_parts_2048.rows_per_stretch == 1 && with_parts_2048.tiles == 16);
    CHECK(with_parts_2048.parts == 8);
    /* fewer resident blocks of the narrow builds' kernel than 128 tiles:
     * strips of 4 on the wide kernel instead (256 tiles of four loads) */
    column_build heavy = FLOAT_VECTORS;
    heavy.resident[1] = 100;
    const column_plan one_a_sm = plan(heavy, 2048, 8192);
    CHECK(one_a_sm.rows_per_stretch == 4 && one_a_sm.tiles == 256 && !one_a_sm.narrow_kernel);
}

static void narrow_widths_keep_stretches_of_whole_rows()
{
    /* 3 floats: runs of 12 (whole vectors), 8 of them on whole lines: 96 */
    const column_plan three = plan(FLOAT_VECTORS, 1 << 20, 3);
    CHECK(three.narrow && three.pitch == 96 && three.rows_per_stretch == 32);
    CHECK(three.narrow_kernel && three.parts > 1);
    const column_plan wide128 = plan(FLOAT_VECTORS, 1 << 16, 128);
    CHECK(wide128.narrow && wide128.pitch == 128 && wide128.rows_per_stretch == 1);
    /* 33 floats in the build of four vectors a lane: runs of 132, three a
     * stretch of 512 */
    const column_build runs = {.element_bytes = 4, .vector_width = 4, .vec = 16, .warps = 16,
                               .loads = {2, 2}, .resident = {264, 264}, .sms = 132};
    const column_plan p33 = plan(runs, 1000, 33);
    CHECK(p33.narrow && p33.pitch == 396 && p33.rows_per_stretch == 12);
}

int main()
{
    RUN_TEST(few_wide_tiles_are_cut_into_strips_with_no_parts);
    RUN_TEST(tiles_that_fill_the_gpu_keep_rows_of_one);
    RUN_TEST(short_of_loads_in_flight_the_tiles_take_parts);
    RUN_TEST(narrow_widths_keep_stretches_of_whole_rows);
    return test_exit_code();
}
