#include "registry.h"

#include <string.h>

#define METHOD(name) extern const struct method method_##name;
#include "method_list.h"
#undef METHOD

const struct method *const METHODS[] = {
#define METHOD(name) &method_##name,
#include "method_list.h"
#undef METHOD
};

const size_t METHOD_COUNT = sizeof METHODS / sizeof METHODS[0];

const struct method *find_method(const char *name)
{
    for (size_t i = 0; i < METHOD_COUNT; ++i)
        if (strcmp(METHODS[i]->name, name) == 0)
            return METHODS[i];
    return NULL;
}

bool method_supports(const struct method *m, struct reduce_spec spec)
{
    return (m->types & TYPE_BIT(spec.type)) && (m->ops & OP_BIT(spec.op));
}

bool method_takes_shape(const struct method *m, enum shape_kind kind)
{
    const unsigned shapes = m->shapes ? m->shapes : SHAPE_BIT(SHAPE_WHOLE);
    return (shapes & SHAPE_BIT(kind)) != 0;
}

const char *family_name(enum method_family family)
{
    switch (family) {
    case FAMILY_PROGRESSION: return "progression";
    case FAMILY_MODERN: return "modern";
    case FAMILY_ROWS: return "rows";
    case FAMILY_VENDOR: return "vendor";
    case FAMILY_CPU: return "cpu";
    }
    return "?";
}
