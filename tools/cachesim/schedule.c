#include "schedule.h"

#include <stdlib.h>
#include <string.h>

/* Indices sorted by up to four keys, then by trace position, which keeps
 * every sort stable. */
typedef struct {
    uint64_t key[4];
    size_t index;
} sort_item;

static int compare_items(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    for (int k = 0; k < 4; ++k)
        if (x->key[k] != y->key[k])
            return x->key[k] < y->key[k] ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static bool same_keys(const sort_item *x, const sort_item *y)
{
    return memcmp(x->key, y->key, sizeof x->key) == 0;
}

typedef enum { RUN_RANK, RUN_FIRST } run_value;

/* Sorts items; for each run of equal keys, out[index] = the item's rank in
 * the run, or the trace position of the run's first item. */
static void label_runs(sort_item *items, size_t n, run_value what, uint64_t *out)
{
    qsort(items, n, sizeof *items, compare_items);
    for (size_t i = 0, start = 0; i < n; ++i) {
        if (i > 0 && !same_keys(&items[i], &items[i - 1]))
            start = i;
        out[items[i].index] = what == RUN_RANK ? i - start : items[start].index;
    }
}

static void *array(size_t n, size_t size)
{
    return malloc((n ? n : 1) * size);
}

int cs_schedule_build(const cs_trace *t, cs_schedule_kind kind, unsigned warp_size, cs_schedule *s)
{
    size_t n = t->count;
    *s = (cs_schedule){.count = n, .order = array(n, sizeof(size_t)), .instruction = array(n, sizeof(uint64_t))};
    sort_item *items = array(n, sizeof *items);
    uint64_t *snapshot = array(n, sizeof *snapshot), *group_first = array(n, sizeof *group_first);
    uint64_t *warp_first = array(n, sizeof *warp_first), *round = array(n, sizeof *round);
    int status = 0;
    if (s->order == NULL || s->instruction == NULL || items == NULL || snapshot == NULL || group_first == NULL ||
        warp_first == NULL || round == NULL) {
        cs_schedule_free(s);
        status = -1;
        goto done;
    }
    const cs_trace_access *a = t->items;
    /* The loop snapshot. Without the origin fields every access is work-item
     * 0's, so the rank is its position: an instruction of its own. */
    for (size_t i = 0; i < n; ++i)
        items[i] = (sort_item){{a[i].workgroup, a[i].warp, a[i].instruction, 0}, i};
    label_runs(items, n, RUN_RANK, snapshot);
    /* A warp instruction, and a warp, are named by their first access. */
    for (size_t i = 0; i < n; ++i)
        items[i] = (sort_item){{a[i].workgroup, a[i].warp / warp_size, a[i].instruction, snapshot[i]}, i};
    label_runs(items, n, RUN_FIRST, group_first);
    for (size_t i = 0; i < n; ++i)
        items[i] = (sort_item){{a[i].workgroup, a[i].warp / warp_size, 0, 0}, i};
    label_runs(items, n, RUN_FIRST, warp_first);
    /* The round of a warp instruction: its rank among its warp's instructions. */
    for (size_t i = 0; i < n; ++i)
        items[i] = (sort_item){{warp_first[i], group_first[i], 0, 0}, i};
    qsort(items, n, sizeof *items, compare_items);
    for (size_t i = 0, r = 0; i < n; ++i) {
        if (i > 0 && items[i].key[0] != items[i - 1].key[0])
            r = 0;
        else if (i > 0 && items[i].key[1] != items[i - 1].key[1])
            ++r;
        round[items[i].index] = r;
    }
    for (size_t i = 0; i < n; ++i)
        items[i] = (sort_item){{kind == CS_SCHEDULE_WARP ? round[i] : 0, kind == CS_SCHEDULE_WARP ? warp_first[i] : 0, 0, 0},
                               i};
    qsort(items, n, sizeof *items, compare_items);
    for (size_t k = 0; k < n; ++k) {
        s->order[k] = items[k].index;
        s->instruction[k] = group_first[items[k].index];
    }
done:
    free(items);
    free(snapshot);
    free(group_first);
    free(warp_first);
    free(round);
    return status;
}

size_t cs_schedule_coalesce(const cs_trace *t, const cs_schedule *s, unsigned line_bytes, bool *keep)
{
    size_t dropped = 0;
    for (size_t k = 0, start = 0; k < s->count; ++k) {
        if (k > 0 && s->instruction[k] != s->instruction[k - 1])
            start = k;
        const cs_trace_access *a = &t->items[s->order[k]];
        keep[k] = true;
        for (size_t j = start; j < k && keep[k]; ++j) {
            const cs_trace_access *b = &t->items[s->order[j]];
            if (keep[j] && b->write == a->write && b->address / line_bytes == a->address / line_bytes)
                keep[k] = false;
        }
        dropped += !keep[k];
    }
    return dropped;
}

void cs_schedule_free(cs_schedule *s)
{
    free(s->order);
    free(s->instruction);
    *s = (cs_schedule){0};
}
