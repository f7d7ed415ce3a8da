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
    /* The prefetcher's: lines it filled, and demand hits on such a line
     * before any other demand access to it (a miss it saved). */
    uint64_t prefetches, prefetch_hits;
} cs_cache_stats;

typedef struct {
    uint64_t address;
    bool write;
} cs_cache_request;

/* What one access sends below: a write-back of a dirty victim, then a fill
 * (read) of the missing sector; or a write-through. At most two. */
typedef struct {
    cs_cache_request requests[2];
    int count;
} cs_cache_traffic;

typedef struct cs_cache cs_cache;

/* g must have passed cs_geometry_check(); seed (not 0) drives Rand. NULL when
 * out of memory. */
cs_cache *cs_cache_new(const cs_cache_geometry *g, uint64_t seed);
/* A demand access; whether it missed. */
bool cs_cache_access(cs_cache *c, uint64_t address, bool write, cs_cache_traffic *below);
/* The prefetcher's fill of a whole line, where it is absent: no demand
 * access, so the miss counts and the reuse distances are the demand
 * stream's alone. */
void cs_cache_prefetch(cs_cache *c, uint64_t line, cs_cache_traffic *below);
const cs_cache_stats *cs_cache_statistics(const cs_cache *c);
const cs_cache_geometry *cs_cache_config(const cs_cache *c);
void cs_cache_free(cs_cache *c);

#endif
