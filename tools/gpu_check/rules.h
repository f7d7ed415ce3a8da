/* What the GPU check judges: one row per figure, saying which result row
 * stands for it, which limit of the device bounds it, and the plausible
 * range as fractions of that limit (or in the figure's own unit where no
 * limit of the device applies). The ranges come from the device's own
 * limits as its driver reports them (the peak.* and device.* keys of the
 * metadata), never from a table of GPU names. */
#ifndef CR_GPU_CHECK_RULES_H
#define CR_GPU_CHECK_RULES_H

#include "shared/bench_parts.h"

#include <stdbool.h>
#include <stddef.h>

/* Which of the matching rows stands for the figure. */
typedef enum {
    GC_LARGEST_SIZE, /* the row of the largest size_bytes: the far end of a size sweep */
    GC_HIGHEST,      /* the valid row of the highest figure: a throughput plateau */
} gc_pick;

/* Which field of that row is the measured value. */
typedef enum {
    GC_FIGURE, /* the figure column (the median's) */
    GC_CYCLES, /* the cycles column; a file without it leaves the figure unjudged */
} gc_value;

/* What low and high are fractions of. */
typedef enum {
    GC_ABSOLUTE,    /* nothing: low and high are in the figure's unit */
    GC_META,        /* a metadata key of the device (limit names it) */
    GC_OTHER_FIGURE /* the measured value of another rule (limit names it) */
} gc_limit_kind;

typedef struct {
    const char *figure;    /* its name in the table */
    const char *benchmark; /* results in <benchmark>-cuda.csv, limits in its .meta.csv */
    const char *variant;
    const char *dtype;     /* NULL: any */
    const char *sweep;     /* NULL: any */
    gc_pick pick;
    gc_value value;
    const char *unit;      /* the unit the row must carry (the value's, for GC_CYCLES) */
    /* The row's size_bytes must be at least this many times the device's
     * last-level cache (device.cache_bytes), else it measured the cache; 0:
     * no such condition. */
    unsigned min_cache_multiple;
    gc_limit_kind limit_kind;
    const char *limit;     /* the metadata key or the other figure's name */
    const char *limit_source; /* the metadata key that says where the limit came from, or why it is unknown */
    /* A CUDA device must report this limit: without it the figure fails
     * rather than going unjudged. */
    bool limit_required;
    double low, high;      /* fractions of the limit, or absolute bounds */
    const char *why;       /* what the row measures and what the range is of */
    /* The published figures the range is drawn from (paper, vendor figure
     * or public benchmark result: title, author, year, address), shown by
     * --rules beside the range. */
    const char *source;
} gc_rule;

/* A benchmark's rules: bench/<name>/gpu_rules.c defines gc_rules_<name>
 * (a cr_bench_part of gc_rule), each range drawn from published
 * measurements of sound devices of several generations (the source beside
 * each rule says which), widened a little, so that a sound Ampere, Hopper
 * or Blackwell device passes while a figure above its limit, or far below
 * it, does not. Every benchmark's list, in the benchmarks' order:
 * common/descriptor_gen.sh gpu-rules. */
extern const cr_bench_part *const gc_rule_lists[];
extern const size_t gc_nrule_lists;

/* How many rules there are, and the i-th of them, list after list. */
size_t gc_rule_count(void);
const gc_rule *gc_rule_at(size_t i);
/* The rule of that figure name, or NULL. */
const gc_rule *gc_rule_named(const char *figure);

#endif
