#include "shape.h"

const char *shape_kind_name(enum shape_kind k)
{
    switch (k) {
    case SHAPE_WHOLE: return "whole";
    case SHAPE_ROWS: return "rows";
    case SHAPE_SEGMENTS: return "segments";
    case SHAPE_KIND_COUNT: break;
    }
    return "?";
}
