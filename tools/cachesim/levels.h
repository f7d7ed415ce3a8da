/* A hierarchy: level i's misses, write-throughs and write-backs are level
 * i+1's accesses; what leaves the last level goes to memory, unmodelled. */
#ifndef CACHESIM_LEVELS_H
#define CACHESIM_LEVELS_H

#include "cache.h"
#include "prefetch.h"

#include <stddef.h>

#define CS_LEVELS_MAX 8

typedef struct {
    cs_cache *level[CS_LEVELS_MAX];
    cs_prefetcher prefetcher[CS_LEVELS_MAX]; /* off unless cs_hierarchy_prefetch() sets one */
    size_t count;
} cs_hierarchy;

/* 0, or -1 when out of memory (nothing left allocated). Each level's Rand
 * draws from its own generator, seeded from seed and its depth. */
int cs_hierarchy_new(cs_hierarchy *h, const cs_cache_geometry *geometries, size_t count, uint64_t seed);
void cs_hierarchy_access(cs_hierarchy *h, uint64_t address, bool write);
/* Level depth's prefetcher (0: L1): it watches that level's demand
 * accesses, and its fills are reads of the level below. */
void cs_hierarchy_prefetch(cs_hierarchy *h, size_t depth, const cs_prefetch_config *config);
void cs_hierarchy_free(cs_hierarchy *h);

#endif
