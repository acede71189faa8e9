#include "data_gen.h"

#include <math.h>
#include <string.h>

#define FLOAT_EXACT_INTS (1u << 24) /* every integer up to 2^24 is a float */

static const char *const DIST_NAMES[DIST_COUNT] = {"uniform", "small-ints", "wide-range", "signed"};

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 24 random bits: exactly representable in [0, 1). */
static float unit_float(uint64_t *state) { return (float)(splitmix64(state) >> 40) * 0x1p-24f; }

struct data_info fill_data(float *h, size_t n, enum distribution dist, uint64_t seed)
{
    uint64_t state = seed;
    struct data_info info = {.exact_sum_known = false, .exact_sum = 0.0};
    switch (dist) {
    case DIST_UNIFORM:
        for (size_t i = 0; i < n; ++i)
            h[i] = unit_float(&state);
        break;
    case DIST_SMALL_INTS: {
        size_t max_value = n > 0 ? FLOAT_EXACT_INTS / n : 15;
        max_value = max_value > 15 ? 15 : max_value < 1 ? 1 : max_value;
        uint64_t total = 0;
        for (size_t i = 0; i < n; ++i) {
            const uint64_t v = splitmix64(&state) % (max_value + 1);
            h[i] = (float)v;
            total += v;
        }
        info.exact_sum_known = (uint64_t)n * max_value <= FLOAT_EXACT_INTS;
        info.exact_sum = (double)total;
        break;
    }
    case DIST_WIDE_RANGE:
        for (size_t i = 0; i < n; ++i) {
            const int exponent = (int)(splitmix64(&state) % 41) - 20;
            h[i] = ldexpf(1.0f + unit_float(&state), exponent);
        }
        break;
    case DIST_SIGNED:
        for (size_t i = 0; i < n; ++i)
            h[i] = 2.0f * unit_float(&state) - 1.0f;
        break;
    case DIST_COUNT:
        break;
    }
    return info;
}

const char *distribution_name(enum distribution dist)
{
    return dist < DIST_COUNT ? DIST_NAMES[dist] : "?";
}

enum distribution distribution_from_name(const char *name)
{
    for (int d = 0; d < DIST_COUNT; ++d)
        if (strcmp(name, DIST_NAMES[d]) == 0)
            return (enum distribution)d;
    return DIST_COUNT;
}
