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

/* A number field's value into p; *expected gets what the field holds. */
static bool parse_number(enum field_kind kind, const char *text, char *p, const char **expected)
{
    uint64_t u;
    switch (kind) {
    case FIELD_INT:
        *expected = "a whole number";
        return parse_int(text, (int *)p);
    case FIELD_SIZE:
        *expected = "a whole number >= 0";
        if (!parse_u64(text, SIZE_MAX, &u))
            return false;
        *(size_t *)p = (size_t)u;
        return true;
    case FIELD_U64:
        *expected = "a whole number >= 0";
        return parse_u64(text, UINT64_MAX, (uint64_t *)p);
    case FIELD_I64:
        *expected = "a whole number";
        if (!parse_u64(text + (text[0] == '-'),
                       text[0] == '-' ? (uint64_t)LLONG_MAX + 1 : LLONG_MAX, &u))
            return false;
        *(long long *)p = text[0] == '-' ? (long long)(0 - u) : (long long)u;
        return true;
    default: /* FIELD_DOUBLE */
        *expected = "a number";
        return parse_double(text, (double *)p);
    }
}

/* A named field's value (a status, a determinism, a grid check, a 0/1) into
 * p; *expected gets the names it takes. */
static bool parse_named(enum field_kind kind, const char *text, char *p, const char **expected)
{
    switch (kind) {
    case FIELD_STATUS:
        *expected = "PASS, FAIL, ERROR or REFUSED";
        return parse_status(text, (enum method_status *)p);
    case FIELD_DETERMINISM:
        *expected = "bitwise, varies or -";
        return parse_determinism(text, (enum determinism *)p);
    case FIELD_GRID:
        *expected = "same, differs, unforced or -";
        return parse_grid_check(text, (enum grid_check *)p);
    default: /* FIELD_BOOL */
        *expected = "0 or 1";
        if (strcmp(text, "0") != 0 && strcmp(text, "1") != 0)
            return false;
        *(bool *)p = text[0] == '1';
        return true;
    }
}

bool parse_value(const struct field *f, const char *text, void *record, char *why,
                        size_t why_len)
{
    char *p = (char *)record + f->offset;
    char shown[SNIPPET_LEN];
    if (f->kind == FIELD_TEXT) {
        if (strlen(text) >= f->size) {
            snprintf(why, why_len, "longer than %zu characters", f->size - 1);
            return false;
        }
        memcpy(p, text, strlen(text) + 1);
        return true;
    }
    const char *expected = "";
    const bool number = f->kind <= FIELD_DOUBLE; /* FIELD_INT to FIELD_DOUBLE */
    const bool ok = number ? parse_number(f->kind, text, p, &expected)
                           : parse_named(f->kind, text, p, &expected);
    if (!ok)
        snprintf(why, why_len, "'%s' is %s%s", snippet(text, shown, sizeof shown),
                 number && is_whole_number(text) ? "out of range for " : "not ", expected);
    return ok;
}

