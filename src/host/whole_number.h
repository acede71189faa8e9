/* Whole decimal numbers from text, for the command line and the segment
 * specs (cli.h, shape.h): one parser, one message per problem. */
#ifndef WHOLE_NUMBER_H
#define WHOLE_NUMBER_H

#include <stdbool.h>
#include <stddef.h>

/* A whole decimal number, nothing else: no sign, no suffix, no overflow.
 * Returns false with a reason naming `what` in err. */
bool parse_count(const char *text, const char *what, size_t *out, char *err, size_t err_len);

#endif
