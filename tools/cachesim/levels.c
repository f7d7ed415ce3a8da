#include "levels.h"

int cs_hierarchy_new(cs_hierarchy *h, const cs_cache_geometry *geometries, size_t count, uint64_t seed)
{
    *h = (cs_hierarchy){.count = count};
    for (size_t i = 0; i < count; ++i) {
        /* Distinct states, never 0 (xorshift's fixed point); L1 keeps the seed itself. */
        uint64_t state = seed + i * UINT64_C(0x9E3779B97F4A7C15);
        h->level[i] = cs_cache_new(&geometries[i], state ? state : 1);
        if (h->level[i] == NULL) {
            cs_hierarchy_free(h);
            return -1;
        }
    }
    return 0;
}

static void access_from(cs_hierarchy *h, size_t depth, uint64_t address, bool write)
{
    if (depth == h->count)
        return;
    cs_cache_traffic below;
    bool missed = cs_cache_access(h->level[depth], address, write, &below);
    for (int i = 0; i < below.count; ++i)
        access_from(h, depth + 1, below.requests[i].address, below.requests[i].write);
    cs_prefetcher *p = &h->prefetcher[depth];
    if (p->config.kind == CS_PREFETCH_OFF)
        return;
    uint64_t lines[CS_PREFETCH_MAX_DEGREE];
    unsigned n = cs_prefetcher_next(p, address / cs_cache_config(h->level[depth])->line_bytes, missed, lines);
    for (unsigned k = 0; k < n; ++k) {
        cs_cache_prefetch(h->level[depth], lines[k], &below);
        for (int i = 0; i < below.count; ++i)
            access_from(h, depth + 1, below.requests[i].address, below.requests[i].write);
    }
}

void cs_hierarchy_prefetch(cs_hierarchy *h, size_t depth, const cs_prefetch_config *config)
{
    if (depth < h->count)
        cs_prefetcher_init(&h->prefetcher[depth], config);
}

void cs_hierarchy_access(cs_hierarchy *h, uint64_t address, bool write)
{
    access_from(h, 0, address, write);
}

void cs_hierarchy_free(cs_hierarchy *h)
{
    for (size_t i = 0; i < h->count; ++i)
        cs_cache_free(h->level[i]);
    *h = (cs_hierarchy){0};
}
