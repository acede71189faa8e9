#include "whole_number.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

bool parse_count(const char *text, const char *what, size_t *out, char *err, size_t err_len)
{
    if (!text || !*text) {
        snprintf(err, err_len, "%s: expected a number, got nothing", what);
        return false;
    }
    for (const char *c = text; *c; ++c)
        if (*c < '0' || *c > '9') {
            snprintf(err, err_len, "%s: '%s' is not a whole non-negative number", what, text);
            return false;
        }
    errno = 0;
    const unsigned long long value = strtoull(text, NULL, 10);
    if (errno == ERANGE || value > SIZE_MAX) {
        snprintf(err, err_len, "%s: '%s' is too large", what, text);
        return false;
    }
    *out = (size_t)value;
    return true;
}
