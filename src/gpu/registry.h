/* The method registry: the only list of methods (method_list.h, in story
 * order: the progression's steps first, then modern kernels, vendors, CPU). */
#ifndef REGISTRY_H
#define REGISTRY_H

#include <stdbool.h>

#include "reduce_method.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct method *const METHODS[];
extern const size_t METHOD_COUNT;

/* NULL if no method has this name. */
const struct method *find_method(const char *name);

/* Whether m computes this (type, operator) pair; if not, its row is REFUSED
 * with m->unsupported_why. */
bool method_supports(const struct method *m, struct reduce_spec spec);

/* Whether m computes this shape (its descriptor's shapes; none declared:
 * the whole array alone). */
bool method_takes_shape(const struct method *m, enum shape_kind kind);

const char *family_name(enum method_family family);

/* The shapes m takes, by name, `separator` between them ("whole,rows"). */
void format_method_shapes(const struct method *m, const char *separator, char *buf, size_t len);

/* Why m does not take this shape ("whole array only", or the shapes it
 * takes) written to reason; false if it does. */
bool method_refuses_shape(const struct method *m, enum shape_kind kind, char *reason,
                          size_t reason_len);

/* Why m does not run (spec, longest) - the pair is unsupported, or the
 * longest reduction (n, or the longest row) is past its chain limit -
 * written to reason; false if it runs. */
bool method_refuses(const struct method *m, struct reduce_spec spec, size_t longest, char *reason,
                    size_t reason_len);

/* Why m does not run this shape of n elements in all - its arg operators
 * count elements in an int (METHOD_INT_ARG_OFFSETS) and the shape is past
 * it - written to reason; false if it runs. */
bool method_refuses_extent(const struct method *m, struct reduce_spec spec, struct reduce_shape shape,
                           size_t n, char *reason, size_t reason_len);

#ifdef __cplusplus
}
#endif

#endif
