#include "registry.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "reference.h"

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
    case FAMILY_COLUMNS: return "columns";
    case FAMILY_ARG: return "arg";
    case FAMILY_VENDOR: return "vendor";
    case FAMILY_CPU: return "cpu";
    }
    return "?";
}

bool method_refuses(const struct method *m, struct reduce_spec spec, size_t longest, char *reason,
                    size_t reason_len)
{
    if (!method_supports(m, spec)) {
        const char *why = m->unsupported_why ? m->unsupported_why : "unsupported";
        if (is_arg_op(spec.op) && (m->ops & ARG_OPS) == 0)
            why = "it finds a value, not where it is";
        snprintf(reason, reason_len, "refused: %s %s: %s", element_type_name(spec.type),
                 reduce_op_name(spec.op), why);
        return true;
    }
    if (m->max_n && longest > m->max_n) {
        snprintf(reason, reason_len, "refused: its index field holds at most %zu elements",
                 m->max_n);
        return true;
    }
    if ((m->flags & METHOD_SERIAL_CHAIN) && longest > chain_limit(spec)) {
        snprintf(reason, reason_len,
                 "refused: one running %s sum stops growing past %zu elements",
                 element_type_name(accumulator_type(spec.type)), chain_limit(spec));
        return true;
    }
    return false;
}

bool method_refuses_extent(const struct method *m, struct reduce_spec spec, struct reduce_shape shape,
                           size_t n, char *reason, size_t reason_len)
{
    if (!(m->flags & METHOD_INT_ARG_OFFSETS) || !is_arg_op(spec.op))
        return false;
    const bool rows = shape.kind == SHAPE_ROWS;
    if ((rows ? shape.cols : n) <= (size_t)INT_MAX)
        return false;
    snprintf(reason, reason_len, "refused: %s past INT_MAX elements: its %s counts them in an int",
             rows ? "a row" : "segments", reduce_op_name(spec.op));
    return true;
}

bool method_refuses_shape(const struct method *m, enum shape_kind kind, char *reason,
                          size_t reason_len)
{
    if (method_takes_shape(m, kind))
        return false;
    if (!method_takes_shape(m, SHAPE_ROWS) && !method_takes_shape(m, SHAPE_SEGMENTS) &&
        !method_takes_shape(m, SHAPE_COLUMNS)) {
        snprintf(reason, reason_len, "refused: whole array only");
        return true;
    }
    const size_t used = (size_t)snprintf(reason, reason_len, "refused: takes ");
    if (used < reason_len)
        format_method_shapes(m, " ", reason + used, reason_len - used);
    return true;
}

void format_method_shapes(const struct method *m, const char *separator, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < SHAPE_KIND_COUNT; ++k)
        if (method_takes_shape(m, (enum shape_kind)k) && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? separator : "",
                                     shape_kind_name((enum shape_kind)k));
}
