#include "shared/bench_parts.h"

size_t cr_bench_parts_count(const cr_bench_part *const *lists, size_t nlists)
{
    size_t n = 0;
    for (size_t l = 0; l < nlists; ++l)
        n += lists[l]->n;
    return n;
}

const void *cr_bench_parts_at(const cr_bench_part *const *lists, size_t nlists, size_t item_size, size_t i)
{
    for (size_t l = 0; l < nlists; i -= lists[l++]->n)
        if (i < lists[l]->n)
            return (const char *)lists[l]->items + i * item_size;
    return NULL;
}
