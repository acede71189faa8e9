#include "run_result.h"

const char *method_status_name(enum method_status s)
{
    switch (s) {
    case STATUS_PASS: return "PASS";
    case STATUS_FAIL: return "FAIL";
    case STATUS_ERROR: return "ERROR";
    case STATUS_REFUSED: return "REFUSED";
    case STATUS_COUNT: break;
    }
    return "?";
}

const char *determinism_name(enum determinism d)
{
    switch (d) {
    case DETERMINISM_BITWISE: return "bitwise";
    case DETERMINISM_VARIES: return "varies";
    case DETERMINISM_UNKNOWN: break;
    }
    return "-";
}

const char *grid_check_name(enum grid_check g)
{
    switch (g) {
    case GRID_SAME: return "same";
    case GRID_DIFFERS: return "differs";
    case GRID_UNFORCED: return "unforced";
    case GRID_UNCHECKED:
    case GRID_CHECK_COUNT: break;
    }
    return "-";
}
