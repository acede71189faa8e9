/* Rows of a run found by their key - method name, n and row width (cols),
 * what tells a sweep's or a row sweep's rows apart - in constant time
 * however many rows there are: a hash table of row positions. The reader
 * uses it to find duplicate rows, the baseline to pair the rows of two runs;
 * comparing every row with every earlier one took minutes at 266k rows. */
#ifndef ROW_INDEX_H
#define ROW_INDEX_H

#include <stddef.h>

#include "run_result.h"

#define ROW_NOT_FOUND ((size_t)-1)

struct row_index {
    size_t *slots;     /* row positions, ROW_NOT_FOUND where empty */
    size_t slot_count; /* a power of two, at least twice the rows held */
    size_t row_count;
};

/* An empty index with room for expected_rows (it grows past them). Returns
 * 0, or -1 when out of memory. */
int row_index_init(struct row_index *index, size_t expected_rows);
void row_index_free(struct row_index *index);

/* Adds rows[position] unless a row with its key is held already: then sets
 * *twin to that row's position and returns 1. Returns 0 when added, -1 when
 * out of memory. rows is the array the held positions refer to (it may have
 * moved since the last call: the index holds positions, not pointers). */
int row_index_add(struct row_index *index, const struct method_result *rows, size_t position,
                  size_t *twin);

/* The position of the row keyed like key, or ROW_NOT_FOUND. */
size_t row_index_find(const struct row_index *index, const struct method_result *rows,
                      const struct method_result *key);

#endif
