/* Element types and operators: half and bfloat16 conversions bit for bit,
 * names, sizes, accumulators, loads and stores of every type, identities;
 * results: the accumulator, or argmax's and argmin's 16-byte arg result. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "element_type.h"

static bool is_half_nan(unsigned bits) { return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu); }
static bool is_bfloat16_nan(unsigned bits) { return (bits & 0x7f80u) == 0x7f80u && (bits & 0x7fu); }

static uint32_t bits_of_float(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* binary16 decoded from its definition, in double: (-1)^s 2^(e-15) 1.m, or
 * 2^-14 0.m for subnormals. */
static double half_by_definition(unsigned bits)
{
    const int e = (int)(bits >> 10) & 0x1f;
    const double m = (double)(bits & 0x3ffu);
    const double magnitude = e == 0x1f ? INFINITY : e ? ldexp(1.0 + m / 1024.0, e - 15)
                                                      : ldexp(m / 1024.0, -14);
    return bits & 0x8000u ? -magnitude : magnitude;
}

/* ---- half */

static void half_should_round_trip_every_finite_value(void)
{
    int mismatches = 0;
    for (unsigned bits = 0; bits <= 0xffffu; ++bits) {
        if (is_half_nan(bits))
            continue;
        const float f = half_to_float((unsigned short)bits);
        if (float_to_half(f) != bits || (double)f != half_by_definition(bits) ||
            (signbit(f) != 0) != ((bits & 0x8000u) != 0))
            ++mismatches;
    }
    CHECK(mismatches == 0);
}

static void half_values_should_increase_with_their_bits(void)
{
    /* 0x0000 .. 0x7c00 (+0 to +infinity): strictly increasing, no gaps */
    int out_of_order = 0;
    for (unsigned bits = 1; bits <= 0x7c00u; ++bits)
        out_of_order += !(half_to_float((unsigned short)bits) > half_to_float((unsigned short)(bits - 1)));
    CHECK(out_of_order == 0);
    CHECK(half_to_float(0x7c00) == INFINITY && half_to_float(0xfc00) == -INFINITY);
}

static void half_should_encode_known_values(void)
{
    CHECK(float_to_half(1.0f) == 0x3c00);
    CHECK(float_to_half(-1.0f) == 0xbc00);
    CHECK(float_to_half(2.0f) == 0x4000);
    CHECK(float_to_half(0.5f) == 0x3800);
    CHECK(float_to_half(0.0f) == 0x0000);
    CHECK(float_to_half(-0.0f) == 0x8000);
    CHECK(float_to_half(65504.0f) == 0x7bff);               /* the largest half */
    CHECK(float_to_half(-65504.0f) == 0xfbff);
    CHECK(float_to_half(0.1f) == 0x2e66);                    /* 0.0999755859375 */
    CHECK(half_to_float(0x2e66) == 0.0999755859375f);
    CHECK(float_to_half(0x1p-14f) == 0x0400);                /* smallest normal */
    CHECK(float_to_half(3.140625f) == 0x4248);
    CHECK(half_to_float(0x3555) == 0x1.554p-2f);             /* ~1/3 */
}

static void half_should_overflow_to_infinity_from_65520(void)
{
    CHECK(float_to_half(65520.0f) == 0x7c00);                 /* the tie rounds to even: 2^16 */
    CHECK(float_to_half(-65520.0f) == 0xfc00);
    CHECK(float_to_half(nextafterf(65520.0f, 0.0f)) == 0x7bff); /* just below the tie */
    CHECK(float_to_half(65519.0f) == 0x7bff);
    CHECK(float_to_half(1e10f) == 0x7c00);
    CHECK(float_to_half(FLT_MAX) == 0x7c00);
    CHECK(float_to_half(INFINITY) == 0x7c00);
    CHECK(float_to_half(-INFINITY) == 0xfc00);
}

static void half_should_round_ties_to_even(void)
{
    /* 2048..4096: a step of 2 */
    CHECK(float_to_half(2048.0f) == 0x6800);
    CHECK(float_to_half(2049.0f) == 0x6800); /* tie: 2048 (even) */
    CHECK(float_to_half(2050.0f) == 0x6801);
    CHECK(float_to_half(2051.0f) == 0x6802); /* tie: 2052 (even) */
    CHECK(half_to_float(0x6802) == 2052.0f);
    CHECK(float_to_half(2049.5f) == 0x6801); /* not a tie: nearest */
    CHECK(float_to_half(2048.5f) == 0x6800);
    CHECK(float_to_half(-2049.0f) == 0xe800);
    CHECK(float_to_half(-2051.0f) == 0xe802);
    /* 1 + 2^-11 is halfway between 1 and 1 + 2^-10 */
    CHECK(float_to_half(1.0f + 0x1p-11f) == 0x3c00);
    CHECK(float_to_half(1.0f + 3 * 0x1p-11f) == 0x3c02);
    CHECK(float_to_half(nextafterf(1.0f + 0x1p-11f, 2.0f)) == 0x3c01);
    /* a carry into the next binade: 2047.5 is halfway between 2047 and 2048 */
    CHECK(float_to_half(2047.5f) == 0x6800);
    CHECK(float_to_half(2046.5f) == 0x67fe);
}

static void half_should_encode_subnormals_and_round_them_to_even(void)
{
    CHECK(float_to_half(0x1p-24f) == 0x0001);                /* smallest subnormal */
    CHECK(half_to_float(0x0001) == 0x1p-24f);
    CHECK(float_to_half(-0x1p-24f) == 0x8001);
    CHECK(float_to_half(1023 * 0x1p-24f) == 0x03ff);         /* largest subnormal */
    CHECK(half_to_float(0x03ff) == 1023 * 0x1p-24f);
    CHECK(float_to_half(0x1p-25f) == 0x0000);                /* tie between 0 and 2^-24: 0 */
    CHECK(float_to_half(-0x1p-25f) == 0x8000);
    CHECK(float_to_half(nextafterf(0x1p-25f, 1.0f)) == 0x0001);
    CHECK(float_to_half(3 * 0x1p-25f) == 0x0002);            /* tie between 1 and 2 units: 2 */
    CHECK(float_to_half(5 * 0x1p-25f) == 0x0002);            /* tie between 2 and 3 units: 2 */
    CHECK(float_to_half(0x1p-26f) == 0x0000);
    CHECK(float_to_half(1023.5f * 0x1p-24f) == 0x0400);      /* rounds up into the normals */
    CHECK(float_to_half(FLT_TRUE_MIN) == 0x0000);
}

static void half_nan_should_stay_nan(void)
{
    CHECK(is_half_nan(float_to_half(NAN)));
    CHECK(is_half_nan(float_to_half(-NAN)));
    CHECK(is_half_nan(float_to_half(float_of_bits(0x7f800001u)))); /* low payload only */
    CHECK(isnan(half_to_float(0x7e00)) && isnan(half_to_float(0x7c01)) && isnan(half_to_float(0xfc01)));
    int lost = 0;
    for (unsigned bits = 0; bits <= 0xffffu; ++bits)
        if (is_half_nan(bits)) {
            const float f = half_to_float((unsigned short)bits);
            lost += !isnan(f) || !is_half_nan(float_to_half(f));
        }
    CHECK(lost == 0);
}

/* ---- bfloat16 */

static void bfloat16_should_round_trip_every_finite_value(void)
{
    int mismatches = 0;
    for (unsigned bits = 0; bits <= 0xffffu; ++bits) {
        if (is_bfloat16_nan(bits))
            continue;
        const float f = bfloat16_to_float((unsigned short)bits);
        if (float_to_bfloat16(f) != bits || bits_of_float(f) != (uint32_t)bits << 16)
            ++mismatches;
    }
    CHECK(mismatches == 0);
}

static void bfloat16_should_encode_known_values(void)
{
    CHECK(float_to_bfloat16(1.0f) == 0x3f80);
    CHECK(float_to_bfloat16(-2.0f) == 0xc000);
    CHECK(float_to_bfloat16(0.0f) == 0x0000 && float_to_bfloat16(-0.0f) == 0x8000);
    CHECK(float_to_bfloat16(0x1.fep127f) == 0x7f7f);          /* the largest bfloat16 */
    CHECK(float_to_bfloat16(FLT_MAX) == 0x7f80);              /* past the last tie: infinity */
    CHECK(float_to_bfloat16(INFINITY) == 0x7f80 && float_to_bfloat16(-INFINITY) == 0xff80);
    CHECK(float_to_bfloat16(0.1f) == 0x3dcd);                 /* 0x3dcccccd rounds up */
    CHECK(float_to_bfloat16(0x1p-133f) == 0x0001);            /* smallest subnormal */
    CHECK(bfloat16_to_float(0x4049) == 3.140625f);
}

static void bfloat16_should_round_to_nearest_even(void)
{
    /* 1 + 2^-8 is halfway between 1 and 1 + 2^-7 */
    CHECK(float_to_bfloat16(float_of_bits(0x3f808000u)) == 0x3f80); /* tie: even */
    CHECK(float_to_bfloat16(float_of_bits(0x3f818000u)) == 0x3f82); /* tie: even, upward */
    CHECK(float_to_bfloat16(float_of_bits(0x3f808001u)) == 0x3f81); /* above the tie */
    CHECK(float_to_bfloat16(float_of_bits(0x3f807fffu)) == 0x3f80); /* below the tie */
    CHECK(float_to_bfloat16(float_of_bits(0xbf818000u)) == 0xbf82);
    CHECK(float_to_bfloat16(float_of_bits(0x3fff8000u)) == 0x4000); /* carry into the exponent */
    CHECK(float_to_bfloat16(float_of_bits(0x00008000u)) == 0x0000); /* subnormal tie */
    CHECK(float_to_bfloat16(float_of_bits(0x00018000u)) == 0x0002);
    CHECK(float_to_bfloat16(257.0f) == float_to_bfloat16(256.0f));  /* 257: tie, down to 256 */
    CHECK(float_to_bfloat16(259.0f) == float_to_bfloat16(260.0f));  /* 259: tie, up to 260 */
}

static void bfloat16_nan_should_stay_nan(void)
{
    CHECK(is_bfloat16_nan(float_to_bfloat16(NAN)));
    CHECK(is_bfloat16_nan(float_to_bfloat16(float_of_bits(0x7f800001u)))); /* would truncate to inf */
    CHECK(is_bfloat16_nan(float_to_bfloat16(float_of_bits(0xff800001u))));
    CHECK(float_to_bfloat16(float_of_bits(0xff800001u)) & 0x8000u);
    CHECK(is_bfloat16_nan(float_to_bfloat16(float_of_bits(0x7fffffffu)))); /* would carry to 0x8000 */
    int lost = 0;
    for (unsigned bits = 0; bits <= 0xffffu; ++bits)
        if (is_bfloat16_nan(bits)) {
            const float f = bfloat16_to_float((unsigned short)bits);
            lost += !isnan(f) || !is_bfloat16_nan(float_to_bfloat16(f));
        }
    CHECK(lost == 0);
}

/* ---- names, sizes, accumulators */

static void type_names_should_round_trip(void)
{
    static const char *const NAMES[TYPE_COUNT] = {"float", "double", "int32", "int64",
                                                  "uint32", "half", "bfloat16"};
    for (int t = 0; t < TYPE_COUNT; ++t) {
        CHECK(strcmp(element_type_name((enum element_type)t), NAMES[t]) == 0);
        CHECK((int)element_type_from_name(NAMES[t]) == t);
    }
    CHECK(element_type_from_name("nosuch") == TYPE_COUNT);
    CHECK(element_type_from_name("") == TYPE_COUNT);
    CHECK(element_type_from_name("Float") == TYPE_COUNT);
    CHECK(element_type_from_name("floats") == TYPE_COUNT);
    CHECK(element_type_from_name("all") == TYPE_COUNT);
    CHECK(strcmp(element_type_name(TYPE_COUNT), "?") == 0);
}

static void op_names_should_round_trip(void)
{
    static const char *const NAMES[OP_COUNT] = {"sum", "max", "min", "argmax", "argmin"};
    for (int op = 0; op < OP_COUNT; ++op) {
        CHECK(strcmp(reduce_op_name((enum reduce_op)op), NAMES[op]) == 0);
        CHECK((int)reduce_op_from_name(NAMES[op]) == op);
    }
    CHECK(reduce_op_from_name("product") == OP_COUNT);
    CHECK(reduce_op_from_name("") == OP_COUNT);
    CHECK(reduce_op_from_name("SUM") == OP_COUNT);
    CHECK(reduce_op_from_name("all") == OP_COUNT);
    CHECK(strcmp(reduce_op_name(OP_COUNT), "?") == 0);
}

static void element_size_should_match_each_type(void)
{
    CHECK(element_size(TYPE_FLOAT) == sizeof(float) && element_size(TYPE_FLOAT) == 4);
    CHECK(element_size(TYPE_DOUBLE) == sizeof(double) && element_size(TYPE_DOUBLE) == 8);
    CHECK(element_size(TYPE_INT32) == sizeof(int32_t));
    CHECK(element_size(TYPE_INT64) == sizeof(int64_t));
    CHECK(element_size(TYPE_UINT32) == sizeof(uint32_t));
    CHECK(element_size(TYPE_HALF) == 2);
    CHECK(element_size(TYPE_BFLOAT16) == 2);
    CHECK(element_size(TYPE_COUNT) == 0);
    for (int t = 0; t < TYPE_COUNT; ++t)
        CHECK(element_size((enum element_type)t) <= MAX_RESULT_BYTES);
}

static void accumulator_should_be_float_for_half_and_bfloat16_only(void)
{
    CHECK(accumulator_type(TYPE_HALF) == TYPE_FLOAT);
    CHECK(accumulator_type(TYPE_BFLOAT16) == TYPE_FLOAT);
    CHECK(accumulator_type(TYPE_FLOAT) == TYPE_FLOAT);
    CHECK(accumulator_type(TYPE_DOUBLE) == TYPE_DOUBLE);
    CHECK(accumulator_type(TYPE_INT32) == TYPE_INT32);
    CHECK(accumulator_type(TYPE_INT64) == TYPE_INT64);
    CHECK(accumulator_type(TYPE_UINT32) == TYPE_UINT32);
    for (int t = 0; t < TYPE_COUNT; ++t)
        CHECK(element_size(accumulator_type((enum element_type)t)) <= MAX_RESULT_BYTES);
}

static void only_int32_int64_and_uint32_should_be_integer_types(void)
{
    for (int t = 0; t < TYPE_COUNT; ++t)
        CHECK(is_integer_type((enum element_type)t) ==
              (t == TYPE_INT32 || t == TYPE_INT64 || t == TYPE_UINT32));
}

/* ---- loads and stores */

/* Stores v at index 1 of a zeroed 3-element array and loads it back. The
 * neighbours must stay zero (the store writes one element's bytes). */
static double store_and_load(enum element_type t, double v, bool *neighbours_untouched)
{
    unsigned char buf[3 * 8];
    memset(buf, 0, sizeof buf);
    store_from_double(t, buf, 1, v);
    const size_t size = element_size(t);
    bool untouched = true;
    for (size_t i = 0; i < size; ++i)
        untouched &= buf[i] == 0 && buf[2 * size + i] == 0;
    *neighbours_untouched = untouched;
    return load_as_double(t, buf, 1);
}

static void check_round_trips(enum element_type t, const double *values, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        bool untouched = false;
        const double back = store_and_load(t, values[i], &untouched);
        CHECK(untouched);
        if (back != values[i] || !signbit(back) != !signbit(values[i])) {
            fprintf(stderr, "  %s: stored %.17g, loaded %.17g\n", element_type_name(t), values[i], back);
            CHECK(back == values[i]);
        }
    }
}

static void store_then_load_should_round_trip_every_type(void)
{
    const double floats[] = {0.0, -0.0, 1.0, -1.5, 0.1f, FLT_MAX, -FLT_MAX, FLT_MIN, FLT_TRUE_MIN,
                             16777216.0, 16777215.0, INFINITY, -INFINITY};
    const double doubles[] = {0.0, -0.0, 0.1, -1.0 / 3.0, DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN,
                              0x1p53 + 2.0, INFINITY};
    const double int32s[] = {0.0, 1.0, -1.0, -123456.0, 2147483647.0, -2147483648.0};
    const double int64s[] = {0.0, -1.0, 0x1p53, -0x1p53, 0x1p53 - 1.0, -(0x1p53 - 1.0),
                             0x1p62, -0x1p63, 4294967296.0, -4294967297.0};
    const double uint32s[] = {0.0, 1.0, 4294967295.0, 2147483648.0, 123.0};
    const double halves[] = {0.0, -0.0, 1.0, -2.0, 65504.0, -65504.0, 0x1p-24, -0x1p-24, 0x1p-14,
                             1023 * 0x1p-24, 0.0999755859375, 2052.0, INFINITY};
    const double bfloat16s[] = {0.0, -0.0, 1.0, 1.0078125, -3.140625, 0x1.fep127, -0x1.fep127,
                                0x1p-133, 0x1p-126, 256.0, 260.0, -INFINITY};
    check_round_trips(TYPE_FLOAT, floats, sizeof floats / sizeof floats[0]);
    check_round_trips(TYPE_DOUBLE, doubles, sizeof doubles / sizeof doubles[0]);
    check_round_trips(TYPE_INT32, int32s, sizeof int32s / sizeof int32s[0]);
    check_round_trips(TYPE_INT64, int64s, sizeof int64s / sizeof int64s[0]);
    check_round_trips(TYPE_UINT32, uint32s, sizeof uint32s / sizeof uint32s[0]);
    check_round_trips(TYPE_HALF, halves, sizeof halves / sizeof halves[0]);
    check_round_trips(TYPE_BFLOAT16, bfloat16s, sizeof bfloat16s / sizeof bfloat16s[0]);
}

static void store_should_write_the_types_own_encoding(void)
{
    unsigned char buf[8];
    store_from_double(TYPE_INT32, buf, 0, -1.0);
    int32_t i32;
    memcpy(&i32, buf, sizeof i32);
    CHECK(i32 == -1);
    store_from_double(TYPE_INT64, buf, 0, -0x1p53);
    int64_t i64;
    memcpy(&i64, buf, sizeof i64);
    CHECK(i64 == -9007199254740992LL);
    store_from_double(TYPE_INT64, buf, 0, 0x1p53 - 1.0);
    memcpy(&i64, buf, sizeof i64);
    CHECK(i64 == 9007199254740991LL);
    store_from_double(TYPE_UINT32, buf, 0, 4294967295.0);
    uint32_t u32;
    memcpy(&u32, buf, sizeof u32);
    CHECK(u32 == UINT32_MAX);
    unsigned short h;
    store_from_double(TYPE_HALF, buf, 0, 1.0);
    memcpy(&h, buf, sizeof h);
    CHECK(h == 0x3c00);
    store_from_double(TYPE_HALF, buf, 0, -65504.0);
    memcpy(&h, buf, sizeof h);
    CHECK(h == 0xfbff);
    store_from_double(TYPE_BFLOAT16, buf, 0, 1.0);
    memcpy(&h, buf, sizeof h);
    CHECK(h == 0x3f80);
    store_from_double(TYPE_FLOAT, buf, 0, 1.0);
    float f;
    memcpy(&f, buf, sizeof f);
    CHECK(bits_of_float(f) == 0x3f800000u);
}

static void store_should_round_floats_and_truncate_integers(void)
{
    bool untouched = false;
    CHECK(store_and_load(TYPE_FLOAT, 0.1, &untouched) == (double)0.1f);
    CHECK(store_and_load(TYPE_FLOAT, 16777217.0, &untouched) == 16777216.0); /* tie: even */
    CHECK(store_and_load(TYPE_FLOAT, 16777219.0, &untouched) == 16777220.0);
    CHECK(store_and_load(TYPE_HALF, 2049.0, &untouched) == 2048.0);
    CHECK(store_and_load(TYPE_HALF, 2051.0, &untouched) == 2052.0);
    CHECK(store_and_load(TYPE_HALF, 70000.0, &untouched) == INFINITY);
    CHECK(store_and_load(TYPE_BFLOAT16, 257.0, &untouched) == 256.0);
    CHECK(store_and_load(TYPE_BFLOAT16, 259.0, &untouched) == 260.0);
    /* Rounded once, from the double: through float first, the 2^-40 would be
     * lost and the value would read as a tie, going down to even. */
    CHECK(store_and_load(TYPE_HALF, 1.0 + 0x1p-11 + 0x1p-40, &untouched) == 1.0 + 0x1p-10);
    CHECK(store_and_load(TYPE_BFLOAT16, 1.0 + 0x1p-8 + 0x1p-40, &untouched) == 1.0 + 0x1p-7);
    CHECK(store_and_load(TYPE_INT32, 2.9, &untouched) == 2.0);
    CHECK(store_and_load(TYPE_INT32, -2.9, &untouched) == -2.0);
    CHECK(store_and_load(TYPE_INT64, -7.5, &untouched) == -7.0);
    CHECK(store_and_load(TYPE_UINT32, 4294967294.75, &untouched) == 4294967294.0);
}

static void load_should_read_each_types_bits(void)
{
    const int32_t i32[] = {7, -2147483647 - 1};
    const int64_t i64[] = {-9007199254740991LL, 9007199254740992LL};
    const uint32_t u32[] = {0, UINT32_MAX};
    const unsigned short h[] = {0x3c00, 0xfbff, 0x0001};
    const unsigned short b[] = {0x3f80, 0xff7f};
    const float f[] = {-0.5f, FLT_MAX};
    const double d[] = {0.1, -DBL_MAX};
    CHECK(load_as_double(TYPE_INT32, i32, 0) == 7.0 && load_as_double(TYPE_INT32, i32, 1) == -2147483648.0);
    CHECK(load_as_double(TYPE_INT64, i64, 0) == -9007199254740991.0);
    CHECK(load_as_double(TYPE_INT64, i64, 1) == 0x1p53);
    CHECK(load_as_double(TYPE_UINT32, u32, 1) == 4294967295.0 && load_as_double(TYPE_UINT32, u32, 0) == 0.0);
    CHECK(load_as_double(TYPE_HALF, h, 0) == 1.0 && load_as_double(TYPE_HALF, h, 1) == -65504.0);
    CHECK(load_as_double(TYPE_HALF, h, 2) == 0x1p-24);
    CHECK(load_as_double(TYPE_BFLOAT16, b, 0) == 1.0 && load_as_double(TYPE_BFLOAT16, b, 1) == -0x1.fep127);
    CHECK(load_as_double(TYPE_FLOAT, f, 0) == -0.5 && load_as_double(TYPE_FLOAT, f, 1) == FLT_MAX);
    CHECK(load_as_double(TYPE_DOUBLE, d, 0) == 0.1 && load_as_double(TYPE_DOUBLE, d, 1) == -DBL_MAX);
    CHECK(isnan(load_as_double(TYPE_COUNT, d, 0)));
}

/* ---- identities */

static void identity_should_be_neutral_for_every_op_and_type(void)
{
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const enum element_type type = (enum element_type)t;
        CHECK(identity_as_double(OP_SUM, type) == 0.0 && !signbit(identity_as_double(OP_SUM, type)));
    }
    CHECK(identity_as_double(OP_MAX, TYPE_FLOAT) == -INFINITY);
    CHECK(identity_as_double(OP_MIN, TYPE_FLOAT) == INFINITY);
    CHECK(identity_as_double(OP_MAX, TYPE_DOUBLE) == -INFINITY);
    CHECK(identity_as_double(OP_MIN, TYPE_DOUBLE) == INFINITY);
    CHECK(identity_as_double(OP_MAX, TYPE_INT32) == -2147483648.0);
    CHECK(identity_as_double(OP_MIN, TYPE_INT32) == 2147483647.0);
    CHECK(identity_as_double(OP_MAX, TYPE_INT64) == -0x1p63);
    CHECK(identity_as_double(OP_MIN, TYPE_INT64) == 0x1p63); /* INT64_MAX, rounded */
    CHECK(identity_as_double(OP_MAX, TYPE_UINT32) == 0.0);
    CHECK(identity_as_double(OP_MIN, TYPE_UINT32) == 4294967295.0);
    /* half and bfloat16 reduce in float: float's identities */
    CHECK(identity_as_double(OP_MAX, TYPE_HALF) == -INFINITY);
    CHECK(identity_as_double(OP_MIN, TYPE_HALF) == INFINITY);
    CHECK(identity_as_double(OP_MAX, TYPE_BFLOAT16) == -INFINITY);
    CHECK(identity_as_double(OP_MIN, TYPE_BFLOAT16) == INFINITY);
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const enum element_type type = (enum element_type)t;
        const enum element_type acc = accumulator_type(type);
        CHECK(identity_as_double(OP_MAX, type) == identity_as_double(OP_MAX, acc));
        CHECK(identity_as_double(OP_MIN, type) == identity_as_double(OP_MIN, acc));
        CHECK(identity_as_double(OP_MAX, type) < identity_as_double(OP_MIN, type));
    }
}

/* ---- results: accumulators and arg results */

#define FILL 0xa5 /* what result buffers start as: no result is all 0xa5 bytes */

static void arg_ops_should_be_argmax_and_argmin_of_max_and_min(void)
{
    for (int op = 0; op < OP_COUNT; ++op) {
        const enum reduce_op o = (enum reduce_op)op;
        CHECK(is_arg_op(o) == (o == OP_ARGMAX || o == OP_ARGMIN));
        CHECK(is_arg_op(o) == ((ARG_OPS & OP_BIT(o)) != 0));
        CHECK(((VALUE_OPS | ARG_OPS) & OP_BIT(o)) && ALL_OPS == (VALUE_OPS | ARG_OPS));
        CHECK(!is_arg_op(value_op(o)));
    }
    CHECK((VALUE_OPS & ARG_OPS) == 0);
    CHECK(value_op(OP_ARGMAX) == OP_MAX && value_op(OP_ARGMIN) == OP_MIN);
    CHECK(value_op(OP_SUM) == OP_SUM && value_op(OP_MAX) == OP_MAX && value_op(OP_MIN) == OP_MIN);
    CHECK(NO_INDEX == -1 && ARG_RESULT_BYTES == 16 && ARG_INDEX_OFFSET == 8);
}

/* 16 bytes for argmax and argmin, the accumulator's size otherwise; none
 * past MAX_RESULT_BYTES. */
static void result_size_should_be_16_for_arg_ops_and_the_accumulators_otherwise(void)
{
    static const size_t VALUE_BYTES[TYPE_COUNT] = {4, 8, 4, 8, 4, 4, 4};
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = 0; op < OP_COUNT; ++op) {
            const struct reduce_spec spec = {(enum element_type)t, (enum reduce_op)op};
            const size_t want = is_arg_op(spec.op) ? 16 : VALUE_BYTES[t];
            CHECK(result_size(spec) == want);
            CHECK(result_size(spec) <= MAX_RESULT_BYTES);
        }
    CHECK(result_size((struct reduce_spec){TYPE_HALF, OP_SUM}) == sizeof(float));
    CHECK(result_size((struct reduce_spec){TYPE_HALF, OP_ARGMIN}) == 16);
    CHECK(MAX_RESULT_BYTES == 16);
}

/* Result 1 of 3 stored and read back, its neighbours' bytes untouched. */
static void check_result_round_trip(struct reduce_spec spec, double value, long long index)
{
    unsigned char buf[3 * MAX_RESULT_BYTES];
    memset(buf, FILL, sizeof buf);
    const size_t size = result_size(spec);
    store_result(spec, buf, 1, value, index);
    const double back = load_result_value(spec, buf, 1);
    const long long back_index = load_result_index(spec, buf, 1);
    bool untouched = true;
    for (size_t k = 0; k < size; ++k)
        untouched &= buf[k] == FILL && buf[2 * size + k] == FILL;
    CHECK(untouched);
    const bool same_value =
        isnan(value) ? isnan(back) : back == value && !signbit(back) == !signbit(value);
    const bool same_index = back_index == (is_arg_op(spec.op) ? index : NO_INDEX);
    CHECK(same_value && same_index);
    /* a value operator's result is the accumulator itself */
    if (!is_arg_op(spec.op) && !isnan(value))
        CHECK(back == load_as_double(accumulator_type(spec.type), buf, 1));
    if (!same_value || !same_index)
        fprintf(stderr, "  %s %s: stored %.17g @%lld, loaded %.17g @%lld\n",
                element_type_name(spec.type), reduce_op_name(spec.op), value, index, back,
                back_index);
}

/* Every type and operator: values each accumulator holds exactly (half and
 * bfloat16 results are floats: 1 + 2^-20 is neither a half nor a
 * bfloat16), indices past 2^32 and NO_INDEX; NaN for the floating types. */
static void store_result_then_load_should_round_trip_every_type_and_op(void)
{
    const double any[] = {123.0, 4096.0};
    const double floats[] = {1.0 + 0x1p-20, -0.0, -FLT_MAX, INFINITY, NAN};
    const double doubles[] = {0.1, -0.0, -DBL_MAX, 0x1p53 + 2.0, -INFINITY, NAN};
    const double ints[] = {2147483647.0, -2147483648.0};
    const double int64s[] = {-0x1p53, 0x1p62, -0x1p63};
    const long long indices[] = {0, 1, 2147483648LL, 12345678901LL, LLONG_MAX, NO_INDEX};
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = 0; op < OP_COUNT; ++op) {
            const struct reduce_spec spec = {(enum element_type)t, (enum reduce_op)op};
            const enum element_type acc = accumulator_type(spec.type);
            for (size_t k = 0; k < sizeof indices / sizeof indices[0]; ++k)
                check_result_round_trip(spec, any[k % 2], indices[k]);
            for (size_t k = 0; acc == TYPE_FLOAT && k < sizeof floats / sizeof floats[0]; ++k)
                check_result_round_trip(spec, floats[k], 12345678901LL);
            for (size_t k = 0; acc == TYPE_DOUBLE && k < sizeof doubles / sizeof doubles[0]; ++k)
                check_result_round_trip(spec, doubles[k], 7);
            for (size_t k = 0; acc == TYPE_INT32 && k < 2; ++k)
                check_result_round_trip(spec, ints[k], 3);
            for (size_t k = 0; acc == TYPE_INT64 && k < sizeof int64s / sizeof int64s[0]; ++k)
                check_result_round_trip(spec, int64s[k], 3);
            if (acc == TYPE_UINT32)
                check_result_round_trip(spec, 4294967295.0, 2147483648LL);
        }
}

/* The arg result's layout: the value at byte 0 in the accumulator type, the
 * index at byte 8 as an int64, nothing in between. */
static void arg_result_should_hold_the_value_at_0_and_the_index_at_8(void)
{
    unsigned char slot[ARG_RESULT_BYTES];
    memset(slot, FILL, sizeof slot);
    store_result((struct reduce_spec){TYPE_HALF, OP_ARGMAX}, slot, 0, 1.0 + 0x1p-20, 5000000000LL);
    float f;
    int64_t index;
    memcpy(&f, slot, sizeof f);
    memcpy(&index, slot + 8, sizeof index);
    CHECK(bits_of_float(f) == bits_of_float(1.0f + 0x1p-20f) && index == 5000000000LL);
    CHECK(slot[4] == 0 && slot[5] == 0 && slot[6] == 0 && slot[7] == 0);
    memset(slot, FILL, sizeof slot);
    store_result((struct reduce_spec){TYPE_INT64, OP_ARGMIN}, slot, 0, -0x1p53, NO_INDEX);
    memcpy(&index, slot, sizeof index);
    CHECK(index == -9007199254740992LL);
    memcpy(&index, slot + 8, sizeof index);
    CHECK(index == -1);
    /* a NaN stored into a half's arg result is a float NaN */
    store_result((struct reduce_spec){TYPE_HALF, OP_ARGMIN}, slot, 0, NAN, 2);
    memcpy(&f, slot, sizeof f);
    CHECK(isnan(f) && load_result_index((struct reduce_spec){TYPE_HALF, OP_ARGMIN}, slot, 0) == 2);
}

/* Zeroes bytes 4..7 of each 4-byte value's arg result and nothing else: an
 * 8-byte value's arg result and a value operator's results are left alone. */
static void clear_result_padding_should_zero_only_the_bytes_after_a_4_byte_value(void)
{
    unsigned char buf[2 * ARG_RESULT_BYTES];
    for (int t = 0; t < TYPE_COUNT; ++t)
        for (int op = 0; op < OP_COUNT; ++op) {
            const struct reduce_spec spec = {(enum element_type)t, (enum reduce_op)op};
            const bool padded =
                is_arg_op(spec.op) && element_size(accumulator_type(spec.type)) == 4;
            memset(buf, FILL, sizeof buf);
            clear_result_padding(spec, buf, 2);
            size_t wrong = 0;
            for (size_t k = 0; k < sizeof buf; ++k) {
                const bool pad = padded && k % ARG_RESULT_BYTES >= 4 && k % ARG_RESULT_BYTES < 8;
                wrong += buf[k] != (pad ? 0 : FILL);
            }
            if (wrong)
                fprintf(stderr, "  %s %s: %zu bytes wrong\n", element_type_name(spec.type),
                        reduce_op_name(spec.op), wrong);
            CHECK(wrong == 0);
        }
}

/* Finds the first result whose padding holds a nonzero byte - none for
 * results without padding, whatever their bytes - and none once cleared. */
static void first_nonzero_padding_should_name_the_first_result_with_a_padding_byte_set(void)
{
    unsigned char buf[3 * ARG_RESULT_BYTES];
    const struct reduce_spec padded = {TYPE_FLOAT, OP_ARGMAX}, whole = {TYPE_DOUBLE, OP_ARGMIN},
                             value = {TYPE_FLOAT, OP_SUM};
    memset(buf, 0, sizeof buf);
    CHECK(first_nonzero_padding(padded, buf, 3) == 3);
    buf[2 * ARG_RESULT_BYTES + 7] = 1; /* result 2's last padding byte */
    CHECK(first_nonzero_padding(padded, buf, 3) == 2);
    CHECK(first_nonzero_padding(padded, buf, 2) == 2);
    buf[ARG_RESULT_BYTES + 4] = 0xA5; /* result 1's first */
    CHECK(first_nonzero_padding(padded, buf, 3) == 1);
    buf[3] = buf[8] = 0xFF; /* result 0's value and index: not padding */
    CHECK(first_nonzero_padding(padded, buf, 3) == 1);
    memset(buf, FILL, sizeof buf);
    CHECK(first_nonzero_padding(whole, buf, 3) == 3);
    CHECK(first_nonzero_padding(value, buf, 3) == 3);
    CHECK(first_nonzero_padding(padded, buf, 3) == 0);
    clear_result_padding(padded, buf, 3);
    CHECK(first_nonzero_padding(padded, buf, 3) == 3);
    CHECK(first_nonzero_padding(padded, buf, 0) == 0);
}

/* argmax and argmin start from max's and min's identities; int64's min
 * identity, 2^63 as a double, is stored as INT64_MAX. */
static void identity_of_an_arg_op_should_be_its_value_ops(void)
{
    for (int t = 0; t < TYPE_COUNT; ++t) {
        const enum element_type type = (enum element_type)t;
        CHECK(identity_as_double(OP_ARGMAX, type) == identity_as_double(OP_MAX, type));
        CHECK(identity_as_double(OP_ARGMIN, type) == identity_as_double(OP_MIN, type));
    }
    CHECK(identity_as_double(OP_ARGMAX, TYPE_FLOAT) == -INFINITY);
    CHECK(identity_as_double(OP_ARGMIN, TYPE_BFLOAT16) == INFINITY);
    CHECK(identity_as_double(OP_ARGMAX, TYPE_INT32) == -2147483648.0);
    CHECK(identity_as_double(OP_ARGMIN, TYPE_UINT32) == 4294967295.0);
    CHECK(identity_as_double(OP_ARGMAX, TYPE_UINT32) == 0.0);
    unsigned char slot[ARG_RESULT_BYTES];
    memset(slot, FILL, sizeof slot);
    const struct reduce_spec int64_argmin = {TYPE_INT64, OP_ARGMIN};
    store_result(int64_argmin, slot, 0, identity_as_double(OP_ARGMIN, TYPE_INT64), NO_INDEX);
    int64_t stored;
    memcpy(&stored, slot, sizeof stored);
    CHECK(stored == INT64_MAX);
    CHECK(load_result_value(int64_argmin, slot, 0) == identity_as_double(OP_ARGMIN, TYPE_INT64));
}

int main(void)
{
    RUN_TEST(half_should_round_trip_every_finite_value);
    RUN_TEST(half_values_should_increase_with_their_bits);
    RUN_TEST(half_should_encode_known_values);
    RUN_TEST(half_should_overflow_to_infinity_from_65520);
    RUN_TEST(half_should_round_ties_to_even);
    RUN_TEST(half_should_encode_subnormals_and_round_them_to_even);
    RUN_TEST(half_nan_should_stay_nan);
    RUN_TEST(bfloat16_should_round_trip_every_finite_value);
    RUN_TEST(bfloat16_should_encode_known_values);
    RUN_TEST(bfloat16_should_round_to_nearest_even);
    RUN_TEST(bfloat16_nan_should_stay_nan);
    RUN_TEST(type_names_should_round_trip);
    RUN_TEST(op_names_should_round_trip);
    RUN_TEST(element_size_should_match_each_type);
    RUN_TEST(accumulator_should_be_float_for_half_and_bfloat16_only);
    RUN_TEST(only_int32_int64_and_uint32_should_be_integer_types);
    RUN_TEST(store_then_load_should_round_trip_every_type);
    RUN_TEST(store_should_write_the_types_own_encoding);
    RUN_TEST(store_should_round_floats_and_truncate_integers);
    RUN_TEST(load_should_read_each_types_bits);
    RUN_TEST(identity_should_be_neutral_for_every_op_and_type);
    RUN_TEST(arg_ops_should_be_argmax_and_argmin_of_max_and_min);
    RUN_TEST(result_size_should_be_16_for_arg_ops_and_the_accumulators_otherwise);
    RUN_TEST(store_result_then_load_should_round_trip_every_type_and_op);
    RUN_TEST(arg_result_should_hold_the_value_at_0_and_the_index_at_8);
    RUN_TEST(clear_result_padding_should_zero_only_the_bytes_after_a_4_byte_value);
    RUN_TEST(first_nonzero_padding_should_name_the_first_result_with_a_padding_byte_set);
    RUN_TEST(identity_of_an_arg_op_should_be_its_value_ops);
    return test_exit_code();
}
