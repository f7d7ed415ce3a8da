/* The cache model of the pattern validation: the geometry the benchmark
 * detected, made into levels of the trace-driven simulator (tools/cachesim),
 * and each access followed down them to the level that serves it.
 *
 * Predicted time per access = (sum over levels of hits x that level's
 * latency + memory accesses x the memory latency) / accesses: the premise
 * of a pattern whose every access waits for the one before. With a
 * prefetcher, the same chain timed access by access: a line the prefetcher
 * asked for arrives its source level's latency after the access that asked,
 * and the first access to it waits for what is left of that, at least the
 * first level's latency (a prefetch one line ahead of a chain of misses
 * hides about half of each). Percentage error as Crawford's eq. 7.1:
 * 100 |(measured - predicted) / measured|. */
#ifndef CR_CACHE_MODEL_H
#define CR_CACHE_MODEL_H

#include "cache/geometry.h"
#include "cachesim/cache.h"
#include "cachesim/prefetch.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a level's associativity came from. */
typedef enum {
    CC_WAYS_DETECTED = 0, /* measured by the benchmark */
    CC_WAYS_SYSFS,        /* undetermined; the host's sysfs value (the device is the host CPU) */
    CC_WAYS_FULL,         /* undetermined; fully associative */
    CC_WAYS_ASSUMED,      /* undetermined and too many lines to search all: CC_WAYS_FALLBACK ways */
} cc_ways_source;

/* A fully associative level is searched line by line on every access: past
 * this many lines that would take minutes, and CC_WAYS_FALLBACK is taken. */
#define CC_FULL_ASSOC_MAX_LINES 8192u
#define CC_WAYS_FALLBACK 16u

typedef struct {
    unsigned count;
    cs_cache_geometry level[CC_MAX_LEVELS];
    double latency_ns[CC_MAX_LEVELS];
    double memory_ns;
    cc_ways_source ways_source[CC_MAX_LEVELS];
    char name[CC_MAX_LEVELS][8];
    /* What the model assumed that the geometry did not say: "" or
     * "; "-separated clauses, for the rows' notes. */
    char assumed[320];
    /* The first level's prefetcher: off (Crawford's model has none) unless
     * set after cc_model_configure. */
    cs_prefetch_config prefetch;
} cc_model_config;

/* The model of g. host_ways[l] (or NULL): level l's associativity as the
 * host's sysfs has it, 0 unknown, used where g leaves it undetermined and
 * the device is the host's CPU. 0, or -1 with one line in err where g gives
 * nothing to simulate (no level, a level without capacity, line or
 * latency, no memory latency, a capacity the simulator cannot index). */
int cc_model_configure(const cc_geometry *g, const unsigned *host_ways, cc_model_config *out, char *err,
                       size_t errlen);

/* Associativity of each level (smallest first, data or unified caches) as
 * root/cpu0/cache/index* says; 0 where not found. root is normally
 * "/sys/devices/system/cpu". */
void cc_sysfs_ways(const char *root, unsigned ways[CC_MAX_LEVELS]);

typedef struct {
    uint64_t accesses, reads, writes;
    uint64_t hits[CC_MAX_LEVELS]; /* accesses served by level l */
    uint64_t memory;              /* accesses served by memory */
    uint64_t l1_read_misses;      /* loads that missed the first level */
    uint64_t last_level_misses;   /* accesses of any kind the last level missed, write-backs included */
    uint64_t prefetches;          /* lines the first level's prefetcher fetched */
    uint64_t late_prefetches;     /* first uses of a prefetched line that waited for its fill */
    double chain_ns;              /* the accesses' time, each waiting for the one before */
} cc_model_counts;

typedef struct cc_model cc_model;

/* NULL when out of memory. */
cc_model *cc_model_new(const cc_model_config *c);
/* Follows one access down the levels; returns the level that served it
 * (count: memory) and adds it to counts. With a prefetcher, the lines it
 * asks for after the access are then fetched into the first level (not
 * accesses: they fill the levels below as a read would, and add to
 * prefetches and the last level's misses, not to hits). */
unsigned cc_model_access(cc_model *m, uint64_t address, bool write, cc_model_counts *counts);
void cc_model_free(cc_model *m);

/* ns per access the counts predict (where the prefetcher fetched, the
 * chain's time); NaN without accesses. */
double cc_model_predict_ns(const cc_model_config *c, const cc_model_counts *counts);

/* Where a prediction rests on a level holding more than it was seen to
 * serve whole: a level whose transition is gradual (it serves whole less
 * than CC_GRADUAL of its capacity: shared with others, or filling
 * unevenly) serves at least CC_PREMISE_SHARE of the accesses, which span
 * more than it serves whole. The simulator's LRU level of the detected
 * capacity serves them; the device's need not. span: an upper bound of
 * the bytes of lines the run touches. The level's index, or -1 where the
 * premise holds. */
#define CC_GRADUAL 0.8
#define CC_PREMISE_SHARE 0.1
int cc_model_premise_fails(const cc_geometry *g, const cc_model_counts *n, uint64_t span);

/* Crawford's eq. 7.1 with the measurement as the reference; NaN where the
 * measurement is not a positive number. */
double cc_error_pct(double measured, double predicted);

#endif
