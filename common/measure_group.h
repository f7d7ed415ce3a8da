/* Measure, verify, record: the sequence of the memory benchmarks, in one
 * place. A group is the series measured together: references (a host
 * reference, the host's limit) and the points they stand beside (stream's
 * kernel at its points, bandwidth's path in its phases). The group is
 * measured in one of three orders; where that fails, every point gets the
 * row that says so; otherwise each point, in order, is verified against
 * what its backend left and recorded. The design says how through the
 * steps; the group knows nothing of a benchmark or an API. */
#ifndef CR_MEASURE_GROUP_H
#define CR_MEASURE_GROUP_H

#include "measure.h"
#include "results.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    /* Every series once a round, in the order added: the phases of one
     * operation, and a reference that runs beside them. */
    CR_GROUP_ROUNDS,
    /* The references first in every round, in order, then the points in an
     * order that rotates by one each round (cr_measure_sweep_interleaved). */
    CR_GROUP_SWEEP,
    /* The points as a sweep of their own, then the references interleaved
     * with each other: for what must not run beside the points (two thread
     * pools on the same cores slow each other down). */
    CR_GROUP_APART,
} cr_group_order;

typedef struct {
    cr_series *series; /* added in order; each with room for reps_max samples */
    size_t count, cap;
    size_t refs; /* SWEEP and APART: the first refs series are the references */
    double *samples;
} cr_group;

/* Room for cap series of reps_max samples each. 0, or -1 out of memory. */
int cr_group_init(cr_group *g, size_t cap, unsigned reps_max);
void cr_group_free(cr_group *g);

/* Appends a series timed through ctx by fn(arg); returns its index. The
 * references come first: in SWEEP and APART order, every series added
 * before cr_group_points is one. */
size_t cr_group_add(cr_group *g, cr_measure_ctx *ctx, cr_rep_fn fn, void *arg);
/* Marks the end of the references: the series added from now on are points. */
void cr_group_points(cr_group *g);

/* What the design does with the group, for each of its `points` points
 * (which series a point is, is the design's: a stream point is one series,
 * a bandwidth path all its phases). */
typedef struct {
    size_t points;
    void *ctx;
    /* The measurement failed with err: point p's row says so. */
    int (*failed)(void *ctx, size_t p, const char *err);
    /* Optional, once the measurement has succeeded, before the points: what
     * the references give every point (the host's limit, its own row). */
    int (*measured)(void *ctx, const cr_group *g);
    /* Point p, measured: verified against what its backend left, recorded. */
    int (*point)(void *ctx, const cr_group *g, size_t p);
} cr_group_steps;

/* Measures the group in that order, then takes the steps: 0, or the first
 * step's non-zero return (a row that could not be written). */
int cr_group_run(cr_group *g, cr_group_order order, const cr_group_steps *steps);
/* The steps of a group that failed with err before or while it was
 * measured: every point's failure row. */
int cr_group_fail(const cr_group_steps *steps, const char *err);

/* How many times faster series x ran than ref, their repetitions scaled by
 * x_work / ref_work (the bytes or operations each repetition did): paired,
 * the median of the per-repetition ratios, where the two were measured in
 * the same rounds (drift moving both cancels); else the ratio of medians. */
double cr_group_ratio(const cr_series *ref, const cr_series *x, double ref_work, double x_work, bool paired);

/* The verdict on a measured row: valid where the check passed, its note
 * the check's, and a valid row whose median is under 20 timer ticks
 * (STREAM's rule) says so instead. */
void cr_result_verdict(cr_result *r, bool ok, const char *note, const cr_measurement *m);

#endif
