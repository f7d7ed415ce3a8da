/* The ways of a set and which one a miss evicts. */
#ifndef CACHESIM_REPLACEMENT_H
#define CACHESIM_REPLACEMENT_H

#include "geometry.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t line;     /* address / line size: the tag and the set index together */
    uint64_t last_use; /* the access count at its latest hit or fill: LRU order */
    uint64_t uses;     /* accesses since it was filled, the filling one included */
    uint64_t sectors;  /* bit s: sector s is present */
    bool valid, dirty;
    bool prefetched;   /* filled by the prefetcher, no demand access since */
} cs_cache_way;

/* xorshift64 (Marsaglia, shifts 13, 7, 17): Rand's victims, reproducible
 * from the seed. The state must not be 0. */
uint64_t cs_xorshift64_next(uint64_t *state);

/* The way a fill takes: the first invalid one, else the policy's victim.
 * MFU evicts the most, LFU the least used; a tie among them goes to the
 * least recently used. Rand takes cs_xorshift64_next() % ways. */
unsigned cs_replacement_victim(const cs_cache_way *set, unsigned ways, cs_replacement_policy policy, uint64_t *rng);

#endif
