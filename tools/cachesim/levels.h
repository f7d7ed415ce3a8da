/* A hierarchy: level i's misses, write-throughs and write-backs are level
 * i+1's accesses; what leaves the last level goes to memory, unmodelled. */
#ifndef CACHESIM_LEVELS_H
#define CACHESIM_LEVELS_H

#include "cache.h"

#include <stddef.h>

#define LEVELS_MAX 8

typedef struct {
    cache *level[LEVELS_MAX];
    size_t count;
} hierarchy;

/* 0, or -1 when out of memory (nothing left allocated). Each level's Rand
 * draws from its own generator, seeded from seed and its depth. */
int hierarchy_new(hierarchy *h, const cache_geometry *geometries, size_t count, uint64_t seed);
void hierarchy_access(hierarchy *h, uint64_t address, bool write);
void hierarchy_free(hierarchy *h);

#endif
