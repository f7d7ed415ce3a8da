/* One cache level: sets of ways under a replacement and a write policy,
 * optionally sectored, with its statistics. What it sends to the level
 * below (fills, write-throughs, write-backs) is handed back to the caller. */
#ifndef CACHESIM_CACHE_H
#define CACHESIM_CACHE_H

#include "geometry.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t reads, read_misses, writes, write_misses, write_backs;
    /* Every miss is one of these: the line was absent (cold, capacity or
     * conflict), or present without the sector asked for. */
    uint64_t cold, capacity, conflict, sector_misses;
} cache_stats;

typedef struct {
    uint64_t address;
    bool write;
} cache_request;

/* What one access sends below: a write-back of a dirty victim, then a fill
 * (read) of the missing sector; or a write-through. At most two. */
typedef struct {
    cache_request requests[2];
    int count;
} cache_traffic;

typedef struct cache cache;

/* g must have passed geometry_check(); seed (not 0) drives Rand. NULL when
 * out of memory. */
cache *cache_new(const cache_geometry *g, uint64_t seed);
void cache_access(cache *c, uint64_t address, bool write, cache_traffic *below);
const cache_stats *cache_statistics(const cache *c);
const cache_geometry *cache_config(const cache *c);
void cache_free(cache *c);

#endif
