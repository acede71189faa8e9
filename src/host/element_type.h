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

enum reduce_op { OP_SUM, OP_MAX, OP_MIN, OP_COUNT };

/* One (element type, operator) pair: what every method is asked to compute. */
struct reduce_spec {
    enum element_type type;
    enum reduce_op op;
};

#define ALL_TYPES ((1u << TYPE_COUNT) - 1)
#define ALL_OPS ((1u << OP_COUNT) - 1)
#define TYPE_BIT(t) (1u << (t))
#define OP_BIT(op) (1u << (op))

/* The largest accumulator (double, int64): room for any method's result. */
#define MAX_RESULT_BYTES 8

size_t element_size(enum element_type t);
/* The type a method reduces in and returns: float for half and bfloat16. */
enum element_type accumulator_type(enum element_type t);
bool is_integer_type(enum element_type t);

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
 * bfloat16, truncated toward zero (v must be in range) for integers. */
void store_from_double(enum element_type t, void *array, size_t i, double v);

/* The identity of op for accumulator type t (sum 0, max -inf or the lowest
 * integer, min +inf or the largest), as a double (exact for every type the
 * suite uses; int64's +-2^63 rounds to the same double as the true value). */
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
