#include "element_type.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const char *const TYPE_NAMES[TYPE_COUNT] = {"float", "double", "int32", "int64",
                                                   "uint32", "half", "bfloat16"};
static const size_t TYPE_SIZES[TYPE_COUNT] = {4, 8, 4, 8, 4, 2, 2};
static const char *const OP_NAMES[OP_COUNT] = {"sum", "max", "min", "argmax", "argmin"};

size_t element_size(enum element_type t) { return t < TYPE_COUNT ? TYPE_SIZES[t] : 0; }

enum element_type accumulator_type(enum element_type t)
{
    return t == TYPE_HALF || t == TYPE_BFLOAT16 ? TYPE_FLOAT : t;
}

bool is_integer_type(enum element_type t)
{
    return t == TYPE_INT32 || t == TYPE_INT64 || t == TYPE_UINT32;
}

bool is_arg_op(enum reduce_op op) { return op == OP_ARGMAX || op == OP_ARGMIN; }

enum reduce_op value_op(enum reduce_op op)
{
    return op == OP_ARGMAX ? OP_MAX : op == OP_ARGMIN ? OP_MIN : op;
}

size_t result_size(struct reduce_spec spec)
{
    return is_arg_op(spec.op) ? ARG_RESULT_BYTES : element_size(accumulator_type(spec.type));
}

double load_result_value(struct reduce_spec spec, const void *results, size_t i)
{
    if (!is_arg_op(spec.op))
        return load_as_double(accumulator_type(spec.type), results, i);
    return load_as_double(accumulator_type(spec.type),
                          (const unsigned char *)results + i * ARG_RESULT_BYTES, 0);
}

long long load_result_index(struct reduce_spec spec, const void *results, size_t i)
{
    if (!is_arg_op(spec.op))
        return NO_INDEX;
    int64_t index;
    memcpy(&index, (const unsigned char *)results + i * ARG_RESULT_BYTES + ARG_INDEX_OFFSET,
           sizeof index);
    return (long long)index;
}

size_t result_padding_bytes(struct reduce_spec spec)
{
    return is_arg_op(spec.op) ? ARG_INDEX_OFFSET - element_size(accumulator_type(spec.type)) : 0;
}

void clear_result_padding(struct reduce_spec spec, void *results, size_t count)
{
    const size_t padding = result_padding_bytes(spec);
    for (size_t i = 0; padding && i < count; ++i)
        memset((unsigned char *)results + i * ARG_RESULT_BYTES + ARG_INDEX_OFFSET - padding, 0,
               padding);
}

size_t first_nonzero_padding(struct reduce_spec spec, const void *results, size_t count)
{
    const size_t padding = result_padding_bytes(spec);
    for (size_t i = 0; padding && i < count; ++i) {
        const unsigned char *pad =
            (const unsigned char *)results + i * ARG_RESULT_BYTES + ARG_INDEX_OFFSET - padding;
        for (size_t b = 0; b < padding; ++b)
            if (pad[b] != 0)
                return i;
    }
    return count;
}

void store_result(struct reduce_spec spec, void *results, size_t i, double value,
                  long long index)
{
    if (!is_arg_op(spec.op)) {
        store_from_double(accumulator_type(spec.type), results, i, value);
        return;
    }
    unsigned char *slot = (unsigned char *)results + i * ARG_RESULT_BYTES;
    const int64_t stored = (int64_t)index;
    store_from_double(accumulator_type(spec.type), slot, 0, value);
    memcpy(slot + ARG_INDEX_OFFSET, &stored, sizeof stored);
    clear_result_padding(spec, slot, 1);
}

const char *element_type_name(enum element_type t) { return t < TYPE_COUNT ? TYPE_NAMES[t] : "?"; }

enum element_type element_type_from_name(const char *name)
{
    for (int t = 0; t < TYPE_COUNT; ++t)
        if (strcmp(name, TYPE_NAMES[t]) == 0)
            return (enum element_type)t;
    return TYPE_COUNT;
}

const char *reduce_op_name(enum reduce_op op) { return op < OP_COUNT ? OP_NAMES[op] : "?"; }

enum reduce_op reduce_op_from_name(const char *name)
{
    for (int op = 0; op < OP_COUNT; ++op)
        if (strcmp(name, OP_NAMES[op]) == 0)
            return (enum reduce_op)op;
    return OP_COUNT;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float half_to_float(unsigned short bits)
{
    const uint32_t sign = (uint32_t)(bits & 0x8000u) << 16;
    const int exponent = (bits >> 10) & 0x1f;
    const uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0x1f) /* infinity or NaN */
        return float_from_bits(sign | 0x7f800000u | (mantissa << 13));
    /* normal: (1024 + m) 2^(e - 25); subnormal: m 2^-24. Both exact in float. */
    const float magnitude = exponent ? ldexpf((float)(1024u + mantissa), exponent - 25)
                                     : ldexpf((float)mantissa, -24);
    return sign ? -magnitude : magnitude;
}

/* |v| rounded to `bits` significant bits, to nearest even, with the
 * subnormals' fixed step below 2^min_exponent - straight from the double, so
 * a value is rounded once, never through float first. */
static double round_significant(double v, int bits, int min_exponent)
{
    int exponent = 0;
    (void)frexp(fabs(v), &exponent); /* |v| = m 2^exponent, m in [0.5, 1) */
    if (exponent - 1 < min_exponent)
        exponent = min_exponent + 1;
    return ldexp(nearbyint(ldexp(fabs(v), bits - exponent)), exponent - bits);
}

static unsigned short half_from_double(double v)
{
    const uint32_t sign = signbit(v) ? 0x8000u : 0u;
    if (isnan(v))
        return (unsigned short)(sign | 0x7e00u);
    const double a = round_significant(v, 11, -14);
    if (a > 65504.0) /* past the largest half: infinity */
        return (unsigned short)(sign | 0x7c00u);
    if (a < 0x1p-14) /* subnormal or zero: a whole number of 2^-24 */
        return (unsigned short)(sign | (uint32_t)ldexp(a, 24));
    int exponent = 0;
    const double m = frexp(a, &exponent); /* 11 significant bits: exact below */
    return (unsigned short)(sign | ((uint32_t)(exponent - 1 + 15) << 10) |
                            ((uint32_t)ldexp(m, 11) - 1024u));
}

static unsigned short bfloat16_from_double(double v)
{
    if (isnan(v))
        return (unsigned short)((float_bits((float)v) >> 16) | 0x40u);
    const double a = round_significant(v, 8, -126);
    const double limited = a > 0x1.fep127 ? INFINITY : a; /* past the largest bfloat16 */
    /* Exact in float, whose top 16 bits it then is. */
    return (unsigned short)(float_bits((float)(signbit(v) ? -limited : limited)) >> 16);
}

unsigned short float_to_half(float f) { return half_from_double(f); }

float bfloat16_to_float(unsigned short bits) { return float_from_bits((uint32_t)bits << 16); }

unsigned short float_to_bfloat16(float f) { return bfloat16_from_double(f); }

double load_as_double(enum element_type t, const void *array, size_t i)
{
    switch (t) {
    case TYPE_FLOAT: return ((const float *)array)[i];
    case TYPE_DOUBLE: return ((const double *)array)[i];
    case TYPE_INT32: return ((const int32_t *)array)[i];
    case TYPE_INT64: return (double)((const int64_t *)array)[i];
    case TYPE_UINT32: return ((const uint32_t *)array)[i];
    case TYPE_HALF: return half_to_float(((const unsigned short *)array)[i]);
    case TYPE_BFLOAT16: return bfloat16_to_float(((const unsigned short *)array)[i]);
    case TYPE_COUNT: break;
    }
    return NAN;
}

void store_from_double(enum element_type t, void *array, size_t i, double v)
{
    switch (t) {
    case TYPE_FLOAT: ((float *)array)[i] = (float)v; break;
    case TYPE_DOUBLE: ((double *)array)[i] = v; break;
    case TYPE_INT32: ((int32_t *)array)[i] = (int32_t)v; break;
    case TYPE_INT64: ((int64_t *)array)[i] = v >= 0x1p63 ? INT64_MAX : (int64_t)v; break;
    case TYPE_UINT32: ((uint32_t *)array)[i] = (uint32_t)v; break;
    case TYPE_HALF: ((unsigned short *)array)[i] = half_from_double(v); break;
    case TYPE_BFLOAT16: ((unsigned short *)array)[i] = bfloat16_from_double(v); break;
    case TYPE_COUNT: break;
    }
}

double identity_as_double(enum reduce_op op, enum element_type t)
{
    if (op == OP_SUM)
        return 0.0;
    const bool max = value_op(op) == OP_MAX;
    switch (accumulator_type(t)) {
    case TYPE_INT32: return max ? (double)INT32_MIN : (double)INT32_MAX;
    case TYPE_INT64: return max ? (double)INT64_MIN : (double)INT64_MAX;
    case TYPE_UINT32: return max ? 0.0 : (double)UINT32_MAX;
    default: return max ? -INFINITY : INFINITY;
    }
}
