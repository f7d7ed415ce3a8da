/* Operations per work-item, chosen at every point of the atomics sweeps:
 * the time of one operation grows with contention by orders of magnitude
 * (a compare-and-swap loop of every work-item on one word serialises all
 * of them), so a count chosen where nothing contends would make a
 * contended repetition last minutes or hours. Short pilots at the point
 * itself size its repetitions to a target time instead; the row records
 * the count used. */
#ifndef CR_ATOMICS_CALIBRATE_H
#define CR_ATOMICS_CALIBRATE_H

#include "cr.h"

#include <stddef.h>
#include <stdint.h>

/* A repetition's target: long enough that every core or compute unit works
 * concurrently for most of it, which is what contention needs to show. */
#define AT_TARGET_S 0.01
#define AT_QUICK_TARGET_S 0.004
/* The most operations per work-item (also the largest --iters). */
#define AT_MAX_ITERS 1000000u
/* Pilots after the first, each sized from the one before. */
#define AT_MAX_PILOTS 4

/* Operations per work-item for a repetition of about target_s, from a
 * pilot of pilot_iters that took pilot_s, in proportion: at least 1 (a
 * point slower than its target still runs one operation), at most cap
 * (cap >= 1). A pilot too fast for its clock (0 s) gives cap; a pilot with
 * no time (NaN, negative) gives 1. No overflow for any input. */
uint32_t at_iters_for(uint64_t pilot_iters, double pilot_s, double target_s, uint32_t cap);

/* Runs the point once with iters operations per work-item: its time. */
typedef cr_status (*at_pilot_fn)(void *ctx, uint32_t iters, double *seconds, char *err, size_t errlen);

typedef struct {
    uint32_t iters;        /* for the point's repetitions */
    uint32_t pilot_iters;  /* the last pilot's operations per work-item */
    double pilot_s;        /* and its time */
    double one_op_s;       /* the time of a pilot of one operation per work-item */
    unsigned pilots;       /* pilot runs made */
} at_calibration;

/* Calibrates a point: a pilot of one operation per work-item (run again
 * when it is already slow, as a first launch may carry one-off costs, but
 * not when it took longer than budget_s, the point's time budget: a second
 * trial of a point that is over its budget already, every work-item of a
 * GPU in a compare-and-swap loop on one word, costs seconds and changes
 * nothing), then pilots each sized from the last to take about target_s,
 * until one takes half of it or more, reaches cap, or AT_MAX_PILOTS are
 * spent; iters is the last pilot scaled to target_s. A pilot's error is
 * returned as it is. */
cr_status at_calibrate(at_pilot_fn pilot, void *ctx, double target_s, double budget_s, uint32_t cap,
                       at_calibration *out, char *err, size_t errlen);

#endif
