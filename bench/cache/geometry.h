/* What the cache benchmark found out about a device's caches, level by
 * level: the input of the cache model (patterns.h) and of the detection
 * rows. A value of 0 is "undetermined": the analysis says why in its row. */
#ifndef CR_CACHE_GEOMETRY_H
#define CR_CACHE_GEOMETRY_H

#include <stdbool.h>
#include <stdint.h>

#define CC_MAX_LEVELS 4

typedef struct {
    char name[8];        /* "L1d", "L2", "L3" */
    uint64_t capacity;   /* bytes */
    uint64_t served_whole; /* bytes it serves with no load going further; 0 unknown */
    unsigned line;       /* bytes */
    unsigned sector;     /* bytes; equal to line where the level has no sectors */
    unsigned ways;       /* 0: undetermined */
    double latency_ns;   /* one dependent load that hits this level */
    bool write_policy_known;
    bool write_back;     /* else write-through */
    bool write_allocate; /* else no-write-allocate */
} cc_level;

typedef struct {
    unsigned count; /* levels, smallest first */
    cc_level level[CC_MAX_LEVELS];
    double memory_ns; /* one dependent load that misses every level */
} cc_geometry;

#endif
