/* What a reduction reduces: the element type of the input and the operator.
 * Pure host code (no CUDA), shared by the C harness, the CPU tests and - through
 * reduce_method.h - every kernel and shim.
 *
 * Accumulators: half and bfloat16 inputs are widened to float and reduced in
 * float (their result is a float); every other type is reduced in its own
 * type, as CUB does, so an integer sum wraps exactly where CUB's would. The
 * suite's data keeps integer sums far from that (data_gen.h). */
#ifndef ELEMENT_TYPE_H
#define ELEMENT_TYPE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum element_type {
    TYPE_FLOAT,
    TYPE_DOUBLE,
    TYPE_INT32,
    TYPE_INT64,
    TYPE_UINT32,
    TYPE_HALF,     /* IEEE binary16 */
    TYPE_BFLOAT16, /* the top 16 bits of a float */
    TYPE_COUNT
};

/* sum, max and min give a value. argmax and argmin give where the maximum or
 * minimum is: the value and its index (an arg result, below). */
enum reduce_op { OP_SUM, OP_MAX, OP_MIN, OP_ARGMAX, OP_ARGMIN, OP_COUNT };

/* One (element type, operator) pair: what every method is asked to compute. */
struct reduce_spec {
    enum element_type type;
    enum reduce_op op;
};

#define ALL_TYPES ((1u << TYPE_COUNT) - 1)
#define TYPE_BIT(t) (1u << (t))
#define OP_BIT(op) (1u << (op))
#define VALUE_OPS (OP_BIT(OP_SUM) | OP_BIT(OP_MAX) | OP_BIT(OP_MIN))
#define ARG_OPS (OP_BIT(OP_ARGMAX) | OP_BIT(OP_ARGMIN))
#define ALL_OPS (VALUE_OPS | ARG_OPS)

/* An arg result: ARG_RESULT_BYTES, the value at byte 0 as the accumulator
 * type (float for half and bfloat16: exact), its index at byte
 * ARG_INDEX_OFFSET as a signed 64-bit integer - counted from the start of the
 * whole array, row, segment or column the result is for.
 *   ties      the lowest index wins (CUB's and PyTorch's rule);
 *   NaN       a NaN is both the largest and the smallest value, so argmax and
 *             argmin return the first NaN (PyTorch's rule; max and min, the
 *             value operators, ignore NaN instead);
 *   nothing   an empty input, row, segment or column gives NO_INDEX and the
 *             value operator's identity (-inf for argmax, +inf for argmin,
 *             the lowest or largest integer).
 * Neither rule depends on the order elements are combined in, so every
 * correct method returns the same bits. */
#define ARG_RESULT_BYTES 16
#define ARG_INDEX_OFFSET 8
#define NO_INDEX (-1)

/* The largest result (an arg result): room for any method's. */
#define MAX_RESULT_BYTES ARG_RESULT_BYTES

size_t element_size(enum element_type t);
/* The type a method reduces in and returns: float for half and bfloat16. */
enum element_type accumulator_type(enum element_type t);
bool is_integer_type(enum element_type t);
bool is_arg_op(enum reduce_op op);
/* The value operator an arg operator finds the extreme of: max for argmax,
 * min for argmin; op itself for sum, max and min. */
enum reduce_op value_op(enum reduce_op op);

/* Bytes of one result of spec: ARG_RESULT_BYTES for argmax and argmin, the
 * accumulator's size otherwise. */
size_t result_size(struct reduce_spec spec);
/* Result i of an array of results of spec, as a double (the accumulator's
 * value; an arg result's value), and its index (NO_INDEX for sum, max, min). */
double load_result_value(struct reduce_spec spec, const void *results, size_t i);
long long load_result_index(struct reduce_spec spec, const void *results, size_t i);
/* Bytes between an arg result's value and its index: 4 after a 4-byte
 * value, none after an 8-byte one or for the value operators. */
size_t result_padding_bytes(struct reduce_spec spec);
/* Zeroes the bytes between each arg result's 4-byte value and its index: a
 * method may leave them unwritten (the row, segment and column steps write
 * them as 0: element_traits.cuh's store_result), and results are compared
 * bytewise. */
void clear_result_padding(struct reduce_spec spec, void *results, size_t count);
/* The first of count results whose padding (the bytes clear_result_padding
 * zeroes) is not all 0, or count when none is: a method that writes its
 * results whole leaves none. */
size_t first_nonzero_padding(struct reduce_spec spec, const void *results, size_t count);
/* Stores result i: the value rounded to the accumulator type, and for an arg
 * operator the index (CPU methods and tests). */
void store_result(struct reduce_spec spec, void *results, size_t i, double value,
                  long long index);

/* Names as the CLI, the result files and the tables spell them; the
 * *_from_name functions return TYPE_COUNT / OP_COUNT for an unknown name. */
const char *element_type_name(enum element_type t);
enum element_type element_type_from_name(const char *name);
const char *reduce_op_name(enum reduce_op op);
enum reduce_op reduce_op_from_name(const char *name);

/* Element i of an array of type t, as a double. Every value of every type
 * but int64 is exact in a double; int64 values are exact up to 2^53 in
 * magnitude, and the suite's data stays there (data_gen.h). */
double load_as_double(enum element_type t, const void *array, size_t i);
/* Stores v as element i: rounded to nearest even for float, half and
 * bfloat16, truncated toward zero (v must be in range) for integers; for
 * int64, 2^63 - INT64_MAX as a double, min's identity - is INT64_MAX. */
void store_from_double(enum element_type t, void *array, size_t i, double v);

/* The identity of op for accumulator type t (sum 0, max -inf or the lowest
 * integer, min +inf or the largest; argmax and argmin: max's and min's), as a
 * double (exact for every type the suite uses; int64's +-2^63 rounds to the
 * same double as the true value). */
double identity_as_double(enum reduce_op op, enum element_type t);

/* IEEE half and bfloat16 from and to float bits, round to nearest even
 * (NaN stays NaN). */
float half_to_float(unsigned short bits);
unsigned short float_to_half(float f);
float bfloat16_to_float(unsigned short bits);
unsigned short float_to_bfloat16(float f);

#ifdef __cplusplus
}
#endif

#endif
