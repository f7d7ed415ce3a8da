/* From measured latencies to cache geometry: pure functions of the
 * points, no device. Each finding carries what a row needs to be judged:
 * the points it rests on, the size of the step it found against the noise
 * around it (the confidence), or why nothing could be found.
 *
 *  - levels: a random-order chase against footprint (the capacity sweep)
 *    is flat while the footprint fits a level and rises once it does not;
 *    a level's capacity is the footprint nearest where half its loads
 *    miss, its latency the median of its flat stretch; a level after the
 *    first must be flat for three points and twice as slow as the one
 *    before, or it is a pause in a transition.
 *  - step: a latency that is low up to some x and high from it on (the
 *    pair chase against offset: the line or sector; the set-conflict chase
 *    against addresses: the ways + 1).
 *  - replacement: with ways + 1 addresses of one set visited cyclically,
 *    LRU misses on every load; the share of misses measured says how close
 *    a level comes to that.
 *  - write policy: where stored lines are found afterwards (write
 *    allocation) and whether stores into a footprint that fits a level are
 *    cheaper than into one that does not (write-back; write-through is
 *    never asserted, see cc_write_back). */
#ifndef CR_CACHE_ANALYSIS_H
#define CR_CACHE_ANALYSIS_H

#include "cache/geometry.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CC_CONF_LOW, CC_CONF_MEDIUM, CC_CONF_HIGH } cc_confidence;
const char *cc_confidence_name(cc_confidence c);

/* A rise of `rise` (relative) against a relative noise: high where the
 * rise is at least 30% and ten times the noise, medium where it is three
 * times the noise, low below. */
cc_confidence cc_confidence_of(double rise, double noise);

/* One measured point: x is the swept quantity (bytes, addresses, offset),
 * ns the latency of one load; invalid points are left out. */
typedef struct {
    double x;
    double ns;
    bool valid;
} cc_point;

/* The smallest relative rise of one step that marks a level's end. */
#define CC_RISE 0.15
/* A transition goes on while each step rises at least this much. */
#define CC_SETTLE 0.05
/* A level after the first has a flat stretch of at least this many points,
 * at least this many times slower than the level before. */
#define CC_MIN_STRETCH 3
#define CC_LEVEL_RATIO 2.0
/* The last level is at least this many times faster than memory beyond it
 * (a GPU's L2 about twice; a step in memory's latency, less). */
#define CC_NEXT_RATIO 1.5

typedef struct {
    size_t first, last; /* the flat stretch: indices into the points given */
    double onset;       /* the largest footprint the level serves whole: the
                         * stretch's last point still within CC_RISE of its latency */
    /* The swept x nearest to where half the loads go further (the latency
     * halfway to the next level's or memory's, interpolated between the
     * points either side in half_miss): the onset where nothing comes
     * after. */
    double capacity;
    double half_miss;
    double ns;          /* median latency of the stretch */
    double rise;        /* relative rise of the step after it */
    double noise;       /* relative spread of the stretch ((max - min) / median) */
    cc_confidence conf;
} cc_boundary;

typedef struct {
    unsigned count;
    cc_boundary level[CC_MAX_LEVELS];
    bool has_memory;      /* a flat stretch after the last level */
    size_t memory_first;  /* where it starts */
    double memory_ns;
} cc_levels;

/* Finds the levels in points sorted by x. Invalid points are skipped; the
 * indices in *out are those of the points given. A private level with an
 * LRU-like replacement steps from its latency to the next within one
 * point, and its onset and capacity agree; where misses begin well before
 * the level is full (a co-tenant or the hypervisor holding part of it,
 * sets filling unevenly over pages placed at random, a replacement that
 * is not LRU) the transition is gradual, and the capacity is where half
 * the loads miss. A level with random replacement and nobody else in it
 * would read up to twice its size this way. The latencies are read on
 * their lower envelope from the right; a last level less than
 * CC_NEXT_RATIO faster than memory is a step in memory's latency. */
void cc_find_levels(const cc_point *p, size_t n, cc_levels *out);

/* The latency after level k: the next level's, or memory's after the
 * last; NaN where the sweep did not reach it. */
double cc_next_ns(const cc_levels *lv, unsigned k);

typedef struct {
    bool found;
    double x;         /* the first x of the high side */
    size_t at;        /* its index */
    double low_ns, high_ns;
    double rise;      /* high / low - 1 */
    double noise;     /* relative spread of the low side */
    cc_confidence conf;
} cc_step;

/* The step of a low-then-high series sorted by x, split at threshold
 * (<= 0: halfway between the first point and the median of the last two):
 * the first x from which every point is above it (points before it above
 * the threshold, slowed by another process, do not hide the step). Not
 * found where every point is above it, or the last is not. */
void cc_find_step(const cc_point *p, size_t n, double threshold, cc_step *out);

/* Geometric mean of two latencies: the threshold between two levels. */
double cc_between(double a_ns, double b_ns);

typedef struct {
    bool found;
    double miss_share; /* of the loads at ways + 1, at most 1 */
    double measured_share; /* as measured: above 1 where ways + 1 came out slower than the misses beyond */
    double hit_ns, at_ns, miss_ns;
    cc_confidence conf;
} cc_replacement;

/* From the set-conflict points (x = addresses, sorted) and the ways found
 * (step at index at): hit_ns the median up to the ways, miss_ns the median
 * of the points from ways + 2 on, the share (t(ways + 1) - hit) / (miss -
 * hit). Not found without points at ways + 1 and beyond it. */
void cc_find_replacement(const cc_point *p, size_t n, const cc_step *ways, cc_replacement *out);

/* LRU-like where at least 80% of the loads at ways + 1 miss. */
#define CC_LRU_SHARE 0.8

/* Write allocation from one footprint's latencies after a load pass, a
 * store pass and an eviction only: the share (store - load) / (cold -
 * load), near 0 where stores allocate, near 1 where they do not; known
 * where the share is below 0.25 or above 0.75 and cold - load is at least
 * three times the noise (relative, of load). A load pass at or below 0 ns
 * (its cost less the one-load overhead: a hit below what the clock
 * resolves) is taken as 0, and load_at_zero says so. */
typedef struct {
    bool known;
    bool allocate;
    bool load_at_zero;
    double share;
    cc_confidence conf;
} cc_verdict_alloc;
void cc_write_allocate(double load_ns, double store_ns, double cold_ns, double noise, cc_verdict_alloc *out);

/* Write-back from the cost of one store into a footprint that fits the
 * level (in_ns) and into one that does not (out_ns): a write-back level
 * absorbs repeated stores to lines it holds, so out / in is well above 1
 * (at least CC_WRITE_BACK_RATIO). Near 1 is no verdict: a write-through
 * level, or a write-back one whose misses a prefetcher hides from a
 * sequential stream, look alike. */
#define CC_WRITE_BACK_RATIO 1.3
typedef struct {
    bool known;
    bool write_back;
    double ratio;
    cc_confidence conf;
} cc_verdict_back;
void cc_write_back(double in_ns, double out_ns, double noise, cc_verdict_back *out);

/* The largest x of a series sorted by x whose point is at or below
 * threshold (a point above it before that one was slowed by another
 * process: a level does not fit a footprint and then fit a larger one);
 * 0 where none is. */
double cc_last_below(const cc_point *p, size_t n, double threshold);

/* The way size (sets x line) from the footprint x stride grid: per
 * power-of-two stride (sorted, ascending), the largest footprint that
 * stays within the level (boundary[i], 0 where none). A stride of up to
 * sets x line touches stride / line times fewer lines but also that many
 * times fewer sets, so the boundary stays; beyond, every element has its
 * own set's ways and the boundary grows with the stride. The way size: the
 * largest stride whose boundary equals the smallest stride's, where the
 * next stride's is larger; 0 where that is not seen. */
double cc_grid_way_size(const double *strides, const double *boundary, size_t n);

/* The unit a miss fills, from the pair chase (x = offset, sorted): the
 * first offset from which every point is more than CC_FILL_RISE above the
 * fastest of the first three. Half the level step: where the next level is
 * shared with a neighbour, first loads miss it too and the second load's
 * step is the smaller part of the time; and a prefetcher may pull in the
 * line after a miss's for some pairs, so points past the step differ. */
#define CC_FILL_RISE (CC_RISE / 2)
void cc_fill_unit(const cc_point *p, size_t n, cc_step *out);

/* Whether a pair chase's step (from cc_fill_unit on the same points) can
 * be the level's fill: a second load that misses adds at least half the
 * gap from the level's latency to the next's to each load (more, since
 * below the step it hits the first level), and with the pairs' lines at
 * least twice the level, at most half of them are still there from the
 * round before. A step under CC_PAIR_MIN_SHARE of that gap is a second
 * line mostly found in the level (prefetched with the first: the step is
 * then the level before's line) or a cheaper way beyond it (a DRAM row
 * still open). The step is the first point above it against the side
 * below: the points further out rise for other reasons (a second load one
 * page further). True where the next latency is not known. */
#define CC_PAIR_MIN_SHARE 0.5
bool cc_fill_step_plausible(const cc_point *p, size_t n, const cc_step *unit, double level_ns, double next_ns);

/* The tag line, from a random chase at the odd stride odd x unit over
 * footprints from the capacity up (x sorted): an element per line while
 * the line is at most the stride, so the footprint that fits is capacity x
 * odd x unit / line; lines of odd units or more hold one element each way
 * and the boundary stays at the capacity. ratio = boundary / capacity:
 * about odd -> the line is the unit (no sectors); about odd / 2 -> two
 * units; about 1 -> at least odd + 1 units (at_least: the line is only
 * bounded from below, by the next power of two). */
typedef struct {
    bool found;
    bool at_least;
    double line;
    double boundary, ratio;
} cc_tag_line;
void cc_tag_line_of(const cc_point *p, size_t n, double capacity, double threshold, double unit, unsigned odd,
                    cc_tag_line *out);

/* The index of the swept value nearest to x (> 0), by ratio; inline, so
 * that the end-to-end test, which links none of the benchmark, reads its
 * CSV's sweep the same way. */
static inline size_t cc_nearest_swept(const double *swept, size_t n, double x)
{
    size_t best = 0;
    for (size_t i = 1; i < n; ++i)
        if (fabs(log(swept[i] / x)) < fabs(log(swept[best] / x)))
            best = i;
    return best;
}

/* Whether a detected value is within one sweep step of a reference: the
 * swept values (sorted) nearest to each lie at most one index apart. */
bool cc_within_one_step(const double *swept, size_t n, double detected, double reference);

/* A level found smaller than its nominal size by more than a step of the
 * sweep: what this process has of it is the detected size, not a wrong
 * reading, where the level is shared. Returns the share available
 * (detected / nominal) and writes a note saying so, with the evidence (the
 * CPUs the system lists as sharing it, shared_cpus, "" where unknown); NaN,
 * and no note, otherwise (a level listed for one CPU is private). */
double cc_share_available(const double *swept, size_t n, double detected, double nominal, const char *shared_cpus,
                          char *note, size_t len);

#endif
