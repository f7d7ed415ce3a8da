/* Which point of the footprint sweep stands for each cache level and for
 * main memory (Li's L_$ and L of Eq. 3.1), and the host's levels from
 * hwloc. Backend-free, so the rules are unit-tested. */
#ifndef CR_LATENCY_LEVELS_H
#define CR_LATENCY_LEVELS_H

#include "latency/backend.h"
#include "topology.h"

#include <stddef.h>
#include <stdint.h>

/* The memory row needs a footprint this many times the last-level cache:
 * a random line then hits that cache with probability at most 1/4. */
#define LT_MEMORY_FACTOR 4

/* Index of the largest footprint f with smaller_bytes < f <= level_bytes / 2,
 * or -1. Half the level: a random walk over a footprint near the level's
 * size already misses on conflicts; above smaller_bytes (the next smaller
 * level, 0 for L1): else the smaller level serves the walk. footprints
 * ascending. */
long lt_level_pick(const uint64_t *footprints, size_t n, uint64_t level_bytes, uint64_t smaller_bytes);

/* Index of the largest footprint when it is at least LT_MEMORY_FACTOR times
 * llc_bytes (> 0), else -1. */
long lt_memory_pick(const uint64_t *footprints, size_t n, uint64_t llc_bytes);

/* Replaces out's levels (and its line size, where hwloc knows it) with the
 * host's data caches L1..L5; leaves out as it was when t has none. */
void lt_caches_from_topology(cr_topology *t, lt_caches *out);

#endif
