/* Lee's transfer model (2012, §3.4): a transfer of S bytes takes
 * T(S) = c + S/b, so its effective bandwidth is B(S) = S / (c + S/b), with c
 * a fixed cost and b the asymptotic bandwidth. Also the guard that keeps a
 * map that moves no data from being reported as a bandwidth. */
#ifndef CR_TRANSFER_MODEL_H
#define CR_TRANSFER_MODEL_H

#include "plausibility.h"
#include "results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    double c_s;            /* fixed cost, seconds (>= 0) */
    double b_Bps;          /* asymptotic bandwidth, bytes per second */
    double max_rel_err;    /* largest |B_fit/B_measured - 1| over the points */
    double rms_rel_err;
    bool intercept_clamped; /* the best fit has no fixed cost (c = 0) */
    size_t n;
} bw_fit;

/* Least squares on log time (relative errors, so that small and large
 * transfers count alike) with Huber's loss beyond 25% deviation, by a
 * zooming grid search over c and b. Needs n >= 2 distinct sizes. Returns 0,
 * or -1 when the data determine no finite bandwidth. */
int bw_fit_transfer(const double *bytes, const double *seconds, size_t n, bw_fit *out);

/* The fewest points a fit takes: two parameters need two distinct sizes. */
#define BW_FIT_MIN_POINTS 2

typedef enum {
    BW_FIT_MADE,         /* fitted over the valid points */
    BW_FIT_NO_VALID,     /* no point passed verification */
    BW_FIT_TOO_FEW,      /* fewer valid points than BW_FIT_MIN_POINTS */
    BW_FIT_UNDETERMINED, /* enough valid points, but they determine no finite bandwidth */
} bw_fit_verdict;

typedef struct {
    bw_fit_verdict verdict;
    size_t points; /* the points offered */
    size_t valid;  /* those that passed verification: the only ones fitted */
    bw_fit fit;    /* when verdict is BW_FIT_MADE */
} bw_fit_outcome;

/* The fit of a path's sweep from its points and their verification flags:
 * a point whose data were wrong has a time that says nothing about the
 * path, so only valid points are fitted. Returns 0, or -1 when out of
 * memory. */
int bw_fit_valid_points(const double *bytes, const double *seconds, const bool *valid, size_t n, bw_fit_outcome *out);
/* Whether the outcome is a fit a row may report as valid. */
bool bw_fit_outcome_valid(const bw_fit_outcome *o);
/* The fit row's note: what was fitted, how many points were left out, or
 * why there is no fit. */
void bw_fit_outcome_note(const bw_fit_outcome *o, char *buf, size_t len);

/* Predicted time and bandwidth of the fitted path at a size. */
double bw_fit_seconds(const bw_fit *f, double bytes);
/* Relative error of the fit at one measured point: B_fit / B_measured - 1. */
double bw_fit_rel_err(const bw_fit *f, double bytes, double seconds);

/* True when moving bytes in seconds would be faster than twice the host's
 * own copy bandwidth: the operation cannot have moved the data (a zero-copy
 * map), and its time is a latency, not a transfer. */
bool bw_moved_no_data(double bytes, double seconds, double host_copy_Bps);

/* Lee's premise: one transfer costs c + S/b at every size fitted. A b
 * above the device's memory limit (peaks), or a fit that misses its own
 * points by more than BW_FIT_RMS_LIMIT (root mean square), says the sizes
 * span regimes the model does not join (cache-resident sizes beside memory
 * ones), and c and b are no device's: flagged on the fit row r. */
#define BW_FIT_RMS_LIMIT 0.25
void bw_judge_fit(const cr_peaks *peaks, const bw_fit *f, cr_result *r);

/* The regimes Lee's model is fitted over apart: a transfer that fits in
 * the last-level cache (S at most its size), one that memory serves (S of
 * CR_RESIDENT_FACTOR times it or more, STREAM's rule), and the sizes
 * between, in neither. */
typedef enum { BW_REGIME_CACHE, BW_REGIME_MEMORY, BW_REGIME_BETWEEN } bw_regime;
bw_regime bw_regime_of(double bytes, uint64_t llc_bytes);
const char *bw_regime_name(bw_regime g);

#endif
