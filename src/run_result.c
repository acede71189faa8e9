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
