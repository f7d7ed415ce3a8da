#include "levels.h"

int hierarchy_new(hierarchy *h, const cache_geometry *geometries, size_t count, uint64_t seed)
{
    *h = (hierarchy){.count = count};
    for (size_t i = 0; i < count; ++i) {
        /* Distinct states, never 0 (xorshift's fixed point); L1 keeps the seed itself. */
        uint64_t state = seed + i * UINT64_C(0x9E3779B97F4A7C15);
        h->level[i] = cache_new(&geometries[i], state ? state : 1);
        if (h->level[i] == NULL) {
            hierarchy_free(h);
            return -1;
        }
    }
    return 0;
}

static void access_from(hierarchy *h, size_t depth, uint64_t address, bool write)
{
    if (depth == h->count)
        return;
    cache_traffic below;
    cache_access(h->level[depth], address, write, &below);
    for (int i = 0; i < below.count; ++i)
        access_from(h, depth + 1, below.requests[i].address, below.requests[i].write);
}

void hierarchy_access(hierarchy *h, uint64_t address, bool write)
{
    access_from(h, 0, address, write);
}

void hierarchy_free(hierarchy *h)
{
    for (size_t i = 0; i < h->count; ++i)
        cache_free(h->level[i]);
    *h = (hierarchy){0};
}
