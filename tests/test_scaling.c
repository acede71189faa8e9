/* The multi-GPU scaling table's arithmetic and text: aggregate GB/s,
 * speedup over the same method on one GPU, efficiency, what reads "-", and
 * the size ladder. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "scaling.h"

#define GIB ((size_t)1 << 30)

static struct scaling_row row(const char *method, enum combine c, int gpus, size_t n,
                              double median_us)
{
    struct scaling_row r = {.combine = c, .gpus = gpus, .n = n, .bytes = 4.0 * (double)n,
                            .status = STATUS_PASS};
    snprintf(r.method, sizeof r.method, "%s", method);
    r.time_us = (struct sample_stats){.count = 100, .median = median_us, .min = median_us,
                                      .max = median_us, .q1 = median_us, .q3 = median_us};
    return r;
}

static bool near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b); }

static void gbs_speedup_and_efficiency_should_follow_from_the_medians(void)
{
    /* 1 GiB of floats: 250 us on one GPU, 128 us on two */
    struct scaling_row rows[] = {row("cub", COMBINE_NONE, 1, GIB / 4, 250.0),
                                 row("cub", COMBINE_NCCL, 2, GIB / 4, 128.0)};
    set_one_gpu_times(rows, 2);
    CHECK(near(scaling_gbs(&rows[1]), (double)GIB / 128e3)); /* bytes per us / 1e3 = GB/s */
    CHECK(near(scaling_gbs(&rows[0]), 4294.967296));
    CHECK(near(scaling_speedup(&rows[1]), 250.0 / 128.0));
    CHECK(near(scaling_efficiency(&rows[1]), 250.0 / 128.0 / 2.0));
    CHECK(near(scaling_speedup(&rows[0]), 1.0) && near(scaling_efficiency(&rows[0]), 1.0));
    /* aggregate GB/s over one GPU's is the speedup: same bytes */
    CHECK(near(scaling_gbs(&rows[1]) / scaling_gbs(&rows[0]), scaling_speedup(&rows[1])));
}

static void one_gpu_time_should_come_from_the_same_method_and_n_only(void)
{
    struct scaling_row rows[] = {
        row("cub", COMBINE_NONE, 1, 1000, 10.0),          row("one_pass_ilp", COMBINE_NONE, 1, 1000, 8.0),
        row("cub", COMBINE_P2P, 2, 1000, 6.0),            row("one_pass_ilp", COMBINE_P2P, 2, 1000, 5.0),
        row("cub", COMBINE_P2P, 2, 4000, 12.0),           /* no one-GPU row at n = 4000 */
        row("tma_ring", COMBINE_NONE, 1, 1000, 9.0),      row("tma_ring", COMBINE_NCCL, 2, 1000, 7.0)};
    rows[5].status = STATUS_FAIL; /* a failed one-GPU row is no baseline */
    set_one_gpu_times(rows, sizeof rows / sizeof rows[0]);
    CHECK(rows[2].one_gpu_us == 10.0 && rows[3].one_gpu_us == 8.0);
    CHECK(rows[4].one_gpu_us == 0.0 && scaling_speedup(&rows[4]) == 0.0);
    CHECK(rows[6].one_gpu_us == 0.0 && scaling_efficiency(&rows[6]) == 0.0);
}

static void rows_without_samples_should_have_no_figures(void)
{
    struct scaling_row r = row("cub", COMBINE_NCCL, 2, 1000, 5.0);
    r.time_us = (struct sample_stats){0};
    r.one_gpu_us = 10.0;
    CHECK(scaling_gbs(&r) == 0.0 && scaling_speedup(&r) == 0.0 && scaling_efficiency(&r) == 0.0);
}

/* The printed table: figures where known, "-" where not, the check and note. */
static void table_should_print_known_figures_and_dashes(void)
{
    struct scaling_row rows[] = {row("cub", COMBINE_NONE, 1, GIB / 4, 250.0),
                                 row("cub", COMBINE_P2P, 2, GIB / 4, 128.0),
                                 row("cub", COMBINE_NCCL, 2, 50 * GIB, 12000.0),
                                 row("cub", COMBINE_NCCL, 2, GIB / 4, 140.0)};
    rows[1].combine_us = (struct sample_stats){.count = 100, .median = 2.75};
    rows[2].bytes = 200.0 * GIB;
    snprintf(rows[2].note, sizeof rows[2].note, "one GPU cannot hold n");
    rows[3].status = STATUS_REFUSED;
    rows[3].time_us = (struct sample_stats){0};
    snprintf(rows[3].note, sizeof rows[3].note, "built without NCCL");
    set_one_gpu_times(rows, 4);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    print_scaling_table(f, rows, 4);
    rewind(f);
    char text[4096] = "";
    const size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    CHECK(strstr(text, "speedup") && strstr(text, "combine us") && strstr(text, "GB/s"));
    CHECK(strstr(text, "1.95x") != NULL);   /* 250 / 128 */
    CHECK(strstr(text, "98%") != NULL);     /* 1.953 / 2 */
    CHECK(strstr(text, "2.75") != NULL);    /* the combine alone */
    CHECK(strstr(text, "8388.6") != NULL);  /* 2^30 bytes / 128 us */
    CHECK(strstr(text, "100.00") != NULL);  /* GiB per GPU of the 200 GiB row */
    CHECK(strstr(text, "one GPU cannot hold n") != NULL);
    CHECK(strstr(text, "REFUSED") != NULL && strstr(text, "built without NCCL") != NULL);
    /* one header and four rows */
    int lines = 0;
    for (const char *c = text; *c; ++c)
        lines += *c == '\n';
    CHECK(lines == 5);
}

static void combine_names_should_round_trip(void)
{
    CHECK(strcmp(combine_name(COMBINE_NONE), "-") == 0);
    CHECK(combine_from_name("p2p") == COMBINE_P2P && combine_from_name("nccl") == COMBINE_NCCL);
    CHECK(combine_from_name("-") == COMBINE_COUNT && combine_from_name("NCCL") == COMBINE_COUNT);
    CHECK(strcmp(combine_name(combine_from_name("nccl")), "nccl") == 0);
}

/* Two H200s (139 GiB free, less a margin): 2^24 .. 2^34 floats on one GPU,
 * then 2 x 103 GiB, past one GPU's memory. */
static void ladder_should_climb_by_four_and_end_past_one_gpu(void)
{
    size_t sizes[32];
    const size_t one_gpu = 138 * GIB;
    const size_t count = ladder_sizes(TYPE_FLOAT, 2, one_gpu, sizes, 32);
    CHECK(count == 7);
    for (size_t i = 0; i < 6 && i < count; ++i)
        CHECK(sizes[i] == (size_t)1 << (24 + 2 * i));
    CHECK(count == 7 && sizes[6] == 2 * (103 * GIB / 4)); /* 3/4 of 138 GiB, whole GiB */
    CHECK(count == 7 && sizes[6] * 4 > one_gpu);           /* one GPU cannot hold it */
    /* doubles: the same bytes, half the elements from 2^24 doubles = 128 MiB */
    const size_t doubles = ladder_sizes(TYPE_DOUBLE, 2, one_gpu, sizes, 32);
    CHECK(doubles == 7 && sizes[0] == (size_t)1 << 24 && sizes[5] == (size_t)1 << 34);
    CHECK(doubles == 7 && sizes[6] == 2 * (103 * GIB / 8));
}

static void ladder_should_have_no_rung_past_one_gpu_for_one_gpu(void)
{
    size_t sizes[32];
    const size_t count = ladder_sizes(TYPE_FLOAT, 1, 70 * GIB, sizes, 32);
    CHECK(count == 6 && sizes[count - 1] == (size_t)1 << 34);
}

static void ladder_should_respect_max_and_tiny_memory(void)
{
    size_t sizes[3];
    CHECK(ladder_sizes(TYPE_FLOAT, 8, 138 * GIB, sizes, 3) == 3);
    CHECK(ladder_sizes(TYPE_FLOAT, 2, 32 << 20, sizes, 3) == 0); /* 32 MiB: nothing fits */
    CHECK(ladder_sizes(TYPE_FLOAT, 2, 2 * GIB, sizes, 3) == 3);  /* 2^24, 2^26, 2^28 */
    size_t more[8];
    /* 2 GiB: 3/4 rounds to 1 GiB per GPU, 2 GiB in all: not past one GPU's 2 GiB */
    CHECK(ladder_sizes(TYPE_FLOAT, 2, 2 * GIB, more, 8) == 3);
    CHECK(ladder_sizes(TYPE_FLOAT, 4, 2 * GIB, more, 8) == 4 && more[3] == 4 * (GIB / 4));
}

int main(void)
{
    RUN_TEST(gbs_speedup_and_efficiency_should_follow_from_the_medians);
    RUN_TEST(one_gpu_time_should_come_from_the_same_method_and_n_only);
    RUN_TEST(rows_without_samples_should_have_no_figures);
    RUN_TEST(table_should_print_known_figures_and_dashes);
    RUN_TEST(combine_names_should_round_trip);
    RUN_TEST(ladder_should_climb_by_four_and_end_past_one_gpu);
    RUN_TEST(ladder_should_have_no_rung_past_one_gpu_for_one_gpu);
    RUN_TEST(ladder_should_respect_max_and_tiny_memory);
    return test_exit_code();
}
