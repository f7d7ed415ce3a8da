/* A trace through the scheduler, the coalescer and the hierarchy. */
#ifndef CACHESIM_SIMULATE_H
#define CACHESIM_SIMULATE_H

#include "levels.h"
#include "schedule.h"
#include "trace.h"

typedef struct {
    cs_cache_geometry levels[CS_LEVELS_MAX]; /* levels[0] is L1 */
    size_t level_count;
    uint64_t seed;        /* Rand's, not 0 */
    unsigned warp_size;   /* > 0 */
    cs_schedule_kind schedule;
    bool coalesce;
    cs_prefetch_config prefetch; /* L1's; off (zero) by default */
} cs_sim_options;

typedef struct {
    size_t accesses;  /* in the trace */
    size_t coalesced; /* dropped by coalescing */
} cs_sim_summary;

/* Fills h (cs_hierarchy_free() it after); 0, or -1 when out of memory. */
int cs_simulate(const cs_trace *t, const cs_sim_options *o, cs_hierarchy *h, cs_sim_summary *summary);

#endif
