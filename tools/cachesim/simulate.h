/* A trace through the scheduler, the coalescer and the hierarchy. */
#ifndef CACHESIM_SIMULATE_H
#define CACHESIM_SIMULATE_H

#include "levels.h"
#include "schedule.h"
#include "trace.h"

typedef struct {
    cache_geometry levels[LEVELS_MAX]; /* levels[0] is L1 */
    size_t level_count;
    uint64_t seed;        /* Rand's, not 0 */
    unsigned warp_size;   /* > 0 */
    schedule_kind schedule;
    bool coalesce;
} sim_options;

typedef struct {
    size_t accesses;  /* in the trace */
    size_t coalesced; /* dropped by coalescing */
} sim_summary;

/* Fills h (hierarchy_free() it after); 0, or -1 when out of memory. */
int simulate(const trace *t, const sim_options *o, hierarchy *h, sim_summary *summary);

#endif
