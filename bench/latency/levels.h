/* Which point of the footprint sweep stands for each cache level and for
 * main memory (Li's L_$ and L of Eq. 3.1), and the host's levels from
 * hwloc. Backend-free, so the rules are unit-tested. */
#ifndef CR_LATENCY_LEVELS_H
#define CR_LATENCY_LEVELS_H

#include "latency/backend.h"
#include "topology.h"

#include <stdbool.h>
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

/* A cache level whose latency is this close to main memory's is not that
 * level's: at its footprint the level no longer serves the walk (a cache
 * shared with other processes, or smaller than its reported size). */
#define LT_NOT_A_LEVEL_RATIO 1.5

/* Whether level_ns, a cache level's latency, is main memory's rather than
 * the level's: within LT_NOT_A_LEVEL_RATIO of memory_ns. False where either
 * is unknown (NaN). */
bool lt_level_is_memory(double level_ns, double memory_ns);

/* A step of this much between neighbouring footprints of the sweep (each
 * twice the one before) is where a level ends: inside a level the walk's
 * latency creeps up (conflicts, the TLB's reach), at its end it jumps. */
#define LT_LEVEL_JUMP 2.0

/* Index of the last footprint before the first LT_LEVEL_JUMP step between
 * neighbouring footprints that can end the level, up to pick (ns: each
 * footprint's latency, NaN where not measured): where the level ends; -1
 * where it has no such step. A step from a footprint above the smaller
 * level's size can end it; one from that size itself ends it only where the
 * smaller level has a step of its own between its own smaller level's size
 * (smaller_below) and its size (a walk over exactly a level's size already
 * misses it: such a step is the smaller level's end, unless that one came
 * before). */
long lt_level_end(const uint64_t *footprints, const double *ns, long pick, uint64_t smaller_bytes,
                  uint64_t smaller_below);

/* Whether the point pick lies past the level's end: it reads at least
 * LT_LEVEL_JUMP times the latency where the level ends (lt_level_end). */
bool lt_level_past_end(const uint64_t *footprints, const double *ns, long pick, uint64_t smaller_bytes,
                       uint64_t smaller_below);

/* Where the point lt_level_pick chose (index pick) lies past the level's
 * end, or reads main memory's latency, the level does not serve that
 * footprint whole here (shared with other processes, or smaller than
 * reported): the level's end where it is above twice smaller_bytes (the
 * smaller level then holds at most half of it), else the largest smaller
 * footprint above that whose latency is not memory's, where there is one;
 * else pick. */
long lt_level_pick_served(const uint64_t *footprints, const double *ns, long pick, uint64_t smaller_bytes,
                          uint64_t smaller_below, double memory_ns);

/* Replaces out's levels (and its line size, where hwloc knows it) with the
 * host's data caches L1..L5; leaves out as it was when t has none. */
void lt_caches_from_topology(cr_topology *t, lt_caches *out);

#endif
