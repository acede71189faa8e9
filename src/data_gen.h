/* Seeded input data. The same (distribution, n, seed) gives the same floats on
 * every machine: the generator is splitmix64, not the C library's rand(). */
#ifndef DATA_GEN_H
#define DATA_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum distribution {
    DIST_UNIFORM,     /* uniform in [0, 1): the default, every method sees the same sum */
    DIST_SMALL_INTS,  /* integers 0..m stored as floats: an exactly known sum */
    DIST_WIDE_RANGE,  /* positive, exponents spread over 2^-20..2^20: mixes magnitudes */
    DIST_SIGNED,      /* uniform in [-1, 1): cancellation; sum |x| >> |sum x| */
    DIST_COUNT
};

struct data_info {
    bool exact_sum_known; /* every partial sum in any order is exact in float */
    double exact_sum;     /* valid when exact_sum_known */
};

/* Fills h[0..n) and says whether its sum is known exactly. For DIST_SMALL_INTS
 * the largest value m is chosen so that n * m <= 2^24: then every partial sum,
 * in any order, is an integer a float holds exactly. Past 2^24 elements m = 1
 * and the sum is no longer exact in float (exact_sum_known is false). */
struct data_info fill_data(float *h, size_t n, enum distribution dist, uint64_t seed);

const char *distribution_name(enum distribution dist);
/* Returns DIST_COUNT if the name is unknown. */
enum distribution distribution_from_name(const char *name);

#endif
