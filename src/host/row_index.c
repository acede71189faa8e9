#include "row_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SLOTS 64

static bool same_key(const struct method_result *a, const struct method_result *b)
{
    return a->n == b->n && a->cols == b->cols && strcmp(a->name, b->name) == 0;
}

/* FNV-1a over the name, then n and cols mixed in by multiplication: a sweep's
 * rows share names and differ in n alone. */
static uint64_t key_hash(const struct method_result *m)
{
    uint64_t h = 14695981039346656037ull;
    for (const char *c = m->name; *c && c < m->name + sizeof m->name; ++c)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    h = (h ^ (uint64_t)m->n) * 0x9e3779b97f4a7c15ull;
    h = (h ^ (uint64_t)m->cols) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

/* The slot holding key's row, or the empty slot where it would go. */
static size_t slot_of(const struct row_index *index, const struct method_result *rows,
                      const struct method_result *key)
{
    const size_t mask = index->slot_count - 1;
    size_t slot = (size_t)key_hash(key) & mask;
    while (index->slots[slot] != ROW_NOT_FOUND && !same_key(&rows[index->slots[slot]], key))
        slot = (slot + 1) & mask; /* linear probing: the table is at most half full */
    return slot;
}

static int allocate_slots(struct row_index *index, size_t slot_count)
{
    index->slots = malloc(slot_count * sizeof *index->slots);
    if (!index->slots)
        return -1;
    for (size_t i = 0; i < slot_count; ++i)
        index->slots[i] = ROW_NOT_FOUND;
    index->slot_count = slot_count;
    return 0;
}

int row_index_init(struct row_index *index, size_t expected_rows)
{
    size_t slot_count = MIN_SLOTS;
    while (slot_count / 2 < expected_rows && slot_count < SIZE_MAX / 4)
        slot_count *= 2;
    index->row_count = 0;
    return allocate_slots(index, slot_count);
}

void row_index_free(struct row_index *index)
{
    free(index->slots);
    *index = (struct row_index){0};
}

/* Twice the slots, every held row placed again. */
static int grow(struct row_index *index, const struct method_result *rows)
{
    struct row_index bigger = {.row_count = index->row_count};
    if (index->slot_count > SIZE_MAX / 4 || allocate_slots(&bigger, 2 * index->slot_count) != 0)
        return -1;
    for (size_t i = 0; i < index->slot_count; ++i)
        if (index->slots[i] != ROW_NOT_FOUND)
            bigger.slots[slot_of(&bigger, rows, &rows[index->slots[i]])] = index->slots[i];
    free(index->slots);
    *index = bigger;
    return 0;
}

int row_index_add(struct row_index *index, const struct method_result *rows, size_t position,
                  size_t *twin)
{
    if (2 * (index->row_count + 1) > index->slot_count && grow(index, rows) != 0)
        return -1;
    const size_t slot = slot_of(index, rows, &rows[position]);
    if (index->slots[slot] != ROW_NOT_FOUND) {
        *twin = index->slots[slot];
        return 1;
    }
    index->slots[slot] = position;
    ++index->row_count;
    return 0;
}

size_t row_index_find(const struct row_index *index, const struct method_result *rows,
                      const struct method_result *key)
{
    return index->slots[slot_of(index, rows, key)];
}
