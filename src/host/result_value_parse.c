/* Values of the result files from text: each field's kind parsed in full,
 * with a short reason when it does not parse (result_format.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "result_format.h"

static const enum determinism DETERMINISMS[] = {DETERMINISM_UNKNOWN, DETERMINISM_BITWISE,
                                                DETERMINISM_VARIES};

/* A bounded, printable copy of text for a message. */
const char *snippet(const char *text, char *buf, size_t len)
{
    size_t i = 0;
    for (; text[i] && i + 4 < len; ++i)
        buf[i] = isprint((unsigned char)text[i]) ? text[i] : '?';
    snprintf(buf + i, len - i, "%s", text[i] ? "..." : "");
    return buf;
}

bool parse_u64(const char *text, uint64_t max, uint64_t *out)
{
    if (!isdigit((unsigned char)text[0])) /* strtoull would take "-1" and " 1" */
        return false;
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0' || errno == ERANGE || v > max)
        return false;
    *out = v;
    return true;
}

static bool parse_int(const char *text, int *out)
{
    const bool negative = text[0] == '-';
    uint64_t magnitude;
    if (!parse_u64(text + negative, negative ? (uint64_t)INT_MAX + 1 : INT_MAX, &magnitude))
        return false;
    *out = negative ? (int)(-(int64_t)magnitude) : (int)magnitude;
    return true;
}

static bool parse_double(const char *text, double *out)
{
    if (text[0] == '\0' || isspace((unsigned char)text[0]))
        return false;
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    /* ERANGE also flags subnormal results, which are exact: reject only overflow. */
    if (*end != '\0' || (errno == ERANGE && isinf(v)))
        return false;
    *out = v;
    return true;
}

static bool parse_status(const char *text, enum method_status *out)
{
    for (int s = 0; s < STATUS_COUNT; ++s)
        if (strcmp(text, method_status_name((enum method_status)s)) == 0) {
            *out = (enum method_status)s;
            return true;
        }
    return false;
}

static bool parse_determinism(const char *text, enum determinism *out)
{
    for (size_t i = 0; i < sizeof DETERMINISMS / sizeof DETERMINISMS[0]; ++i)
        if (strcmp(text, determinism_name(DETERMINISMS[i])) == 0) {
            *out = DETERMINISMS[i];
            return true;
        }
    return false;
}

static bool parse_grid_check(const char *text, enum grid_check *out)
{
    for (int g = 0; g < GRID_CHECK_COUNT; ++g)
        if (strcmp(text, grid_check_name((enum grid_check)g)) == 0) {
            *out = (enum grid_check)g;
            return true;
        }
    return false;
}

/* Digits, perhaps after a minus: a whole number, whether or not it fits. */
static bool is_whole_number(const char *text)
{
    const char *digits = text + (text[0] == '-');
    return digits[0] != '\0' && strspn(digits, "0123456789") == strlen(digits);
}

bool parse_value(const struct field *f, const char *text, void *record, char *why,
                        size_t why_len)
{
    char *p = (char *)record + f->offset;
    char shown[SNIPPET_LEN];
    uint64_t u;
    bool ok = false;
    const char *expected = "";
    switch (f->kind) {
    case FIELD_TEXT:
        if (strlen(text) >= f->size) {
            snprintf(why, why_len, "longer than %zu characters", f->size - 1);
            return false;
        }
        memcpy(p, text, strlen(text) + 1);
        return true;
    case FIELD_INT:
        ok = parse_int(text, (int *)p);
        expected = "a whole number";
        break;
    case FIELD_SIZE:
        ok = parse_u64(text, SIZE_MAX, &u);
        if (ok)
            *(size_t *)p = (size_t)u;
        expected = "a whole number >= 0";
        break;
    case FIELD_U64:
        ok = parse_u64(text, UINT64_MAX, (uint64_t *)p);
        expected = "a whole number >= 0";
        break;
    case FIELD_I64:
        ok = parse_u64(text + (text[0] == '-'), text[0] == '-' ? (uint64_t)LLONG_MAX + 1 : LLONG_MAX,
                       &u);
        if (ok)
            *(long long *)p = text[0] == '-' ? (long long)(0 - u) : (long long)u;
        expected = "a whole number";
        break;
    case FIELD_DOUBLE:
        ok = parse_double(text, (double *)p);
        expected = "a number";
        break;
    case FIELD_STATUS:
        ok = parse_status(text, (enum method_status *)p);
        expected = "PASS, FAIL, ERROR or REFUSED";
        break;
    case FIELD_DETERMINISM:
        ok = parse_determinism(text, (enum determinism *)p);
        expected = "bitwise, varies or -";
        break;
    case FIELD_GRID:
        ok = parse_grid_check(text, (enum grid_check *)p);
        expected = "same, differs, unforced or -";
        break;
    case FIELD_BOOL:
        ok = strcmp(text, "0") == 0 || strcmp(text, "1") == 0;
        if (ok)
            *(bool *)p = text[0] == '1';
        expected = "0 or 1";
        break;
    }
    if (!ok)
        snprintf(why, why_len, "'%s' is %s%s", snippet(text, shown, sizeof shown),
                 f->kind != FIELD_TEXT && f->kind <= FIELD_DOUBLE && is_whole_number(text)
                     ? "out of range for "
                     : "not ",
                 expected);
    return ok;
}

