/* The method registry: the only list of methods. Rows are in story order
 * (the progression's steps first, then modern kernels, vendors, CPU). */
#ifndef REGISTRY_H
#define REGISTRY_H

#include "reduce_method.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct method METHODS[];
extern const size_t METHOD_COUNT;

/* NULL if no method has this name. */
const struct method *find_method(const char *name);

const char *family_name(enum method_family family);

#ifdef __cplusplus
}
#endif

#endif
