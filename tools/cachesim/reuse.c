/* Each line's latest touch is a mark at its time slot; the distance is the
 * number of marks after the line's own, counted with a Fenwick tree, so a
 * touch costs O(log accesses) rather than a walk down an LRU stack. */
#include "reuse.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t line, time;
    bool used;
} slot;

struct cs_reuse_stack {
    slot *table; /* open addressing: line -> time of its latest touch */
    size_t table_size, lines;
    uint32_t *tree; /* Fenwick tree over time slots, 1-based */
    uint8_t *marked;
    size_t times, now;
};

static size_t hash(uint64_t line, size_t size)
{
    return (size_t)((line * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (size - 1);
}

static slot *find(slot *table, size_t size, uint64_t line)
{
    size_t i = hash(line, size);
    while (table[i].used && table[i].line != line)
        i = (i + 1) & (size - 1);
    return &table[i];
}

static void tree_add(cs_reuse_stack *r, size_t t, int delta)
{
    for (size_t i = t; i <= r->times; i += i & -i)
        r->tree[i] += (uint32_t)delta;
}

static uint64_t tree_prefix(const cs_reuse_stack *r, size_t t)
{
    uint64_t sum = 0;
    for (size_t i = t; i > 0; i -= i & -i)
        sum += r->tree[i];
    return sum;
}

static void grow_table(cs_reuse_stack *r)
{
    size_t size = r->table_size * 2;
    slot *table = calloc(size, sizeof *table);
    if (table == NULL)
        abort();
    for (size_t i = 0; i < r->table_size; ++i)
        if (r->table[i].used)
            *find(table, size, r->table[i].line) = r->table[i];
    free(r->table);
    r->table = table;
    r->table_size = size;
}

/* Doubles the time slots and rebuilds the tree from the marks. */
static void grow_times(cs_reuse_stack *r)
{
    size_t times = r->times * 2;
    uint8_t *marked = realloc(r->marked, times + 1);
    uint32_t *tree = realloc(r->tree, (times + 1) * sizeof *tree);
    if (marked == NULL || tree == NULL)
        abort();
    memset(marked + r->times + 1, 0, times - r->times);
    r->marked = marked;
    r->tree = tree;
    r->times = times;
    memset(tree, 0, (times + 1) * sizeof *tree);
    for (size_t t = 1; t <= times; ++t)
        if (marked[t])
            tree_add(r, t, 1);
}

cs_reuse_stack *cs_reuse_new(void)
{
    cs_reuse_stack *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->table_size = 1024;
    r->times = 1024;
    r->table = calloc(r->table_size, sizeof *r->table);
    r->tree = calloc(r->times + 1, sizeof *r->tree);
    r->marked = calloc(r->times + 1, 1);
    if (r->table == NULL || r->tree == NULL || r->marked == NULL) {
        cs_reuse_free(r);
        return NULL;
    }
    return r;
}

uint64_t cs_reuse_touch(cs_reuse_stack *r, uint64_t line)
{
    if (r->now + 1 > r->times)
        grow_times(r);
    size_t now = ++r->now;
    if (2 * (r->lines + 1) > r->table_size)
        grow_table(r);
    slot *s = find(r->table, r->table_size, line);
    uint64_t distance = CS_REUSE_FIRST_TOUCH;
    if (s->used) {
        distance = tree_prefix(r, now - 1) - tree_prefix(r, s->time);
        tree_add(r, s->time, -1);
        r->marked[s->time] = 0;
    } else {
        *s = (slot){.line = line, .used = true};
        ++r->lines;
    }
    s->time = now;
    tree_add(r, now, 1);
    r->marked[now] = 1;
    return distance;
}

void cs_reuse_free(cs_reuse_stack *r)
{
    if (r == NULL)
        return;
    free(r->table);
    free(r->tree);
    free(r->marked);
    free(r);
}
