#include "bandwidth/transfer_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double bw_fit_seconds(const bw_fit *f, double bytes) { return f->c_s + bytes / f->b_Bps; }

double bw_fit_rel_err(const bw_fit *f, double bytes, double seconds)
{
    /* B_fit/B_meas = (S/T_fit) / (S/T_meas) = T_meas / T_fit */
    return seconds / bw_fit_seconds(f, bytes) - 1.0;
}

/* Residuals are log-time differences (relative errors, so that a 4 KiB and
 * a 1 GiB transfer weigh alike), squared up to HUBER and linear beyond:
 * least squares that one runtime fast path or a cache-resident point cannot
 * drag away from every other point. */
#define HUBER 0.22 /* ln 1.25 */
static double loss(const double *bytes, const double *seconds, size_t n, double c, double b)
{
    double sum = 0;
    for (size_t i = 0; i < n; ++i) {
        double r = fabs(log(seconds[i]) - log(c + bytes[i] / b));
        sum += r <= HUBER ? r * r : HUBER * (2 * r - HUBER);
    }
    return sum;
}

#define C_MIN 1e-9  /* s; below this a fixed cost is indistinguishable from none */
#define C_MAX 1.0
#define B_MIN 1e5 /* B/s */
#define B_MAX 1e14

/* Gauss-Newton on the log residuals in (c, beta = 1/b), where the model
 * T = c + S beta is linear, each point weighted as Huber's loss weighs it
 * (iteratively reweighted); a step is taken only where it lowers the loss,
 * and c stays within [C_MIN, C_MAX], beta within its bounds. */
static void polish(const double *bytes, const double *seconds, size_t n, double *c, double *beta)
{
    double cur = loss(bytes, seconds, n, *c, 1 / *beta);
    for (int it = 0; it < 50; ++it) {
        double a11 = 0, a12 = 0, a22 = 0, g1 = 0, g2 = 0;
        for (size_t i = 0; i < n; ++i) {
            double t = *c + bytes[i] * *beta, r = log(seconds[i]) - log(t);
            double w = fabs(r) <= HUBER ? 1 : HUBER / fabs(r);
            double jc = 1 / t, jb = bytes[i] / t; /* d log T / d c, d beta */
            a11 += w * jc * jc, a12 += w * jc * jb, a22 += w * jb * jb;
            g1 += w * jc * r, g2 += w * jb * r;
        }
        double det = a11 * a22 - a12 * a12;
        if (!(fabs(det) > 0))
            return;
        double dc = (a22 * g1 - a12 * g2) / det, db = (a11 * g2 - a12 * g1) / det;
        bool moved = false;
        for (double step = 1; step > 1e-3 && !moved; step /= 2) {
            double nc = fmin(fmax(*c + step * dc, C_MIN), C_MAX);
            double nb = fmin(fmax(*beta + step * db, 1 / B_MAX), 1 / B_MIN);
            double e = loss(bytes, seconds, n, nc, 1 / nb);
            if (e < cur) {
                *c = nc, *beta = nb, cur = e, moved = true;
            }
        }
        if (!moved)
            return;
    }
}

int bw_fit_transfer(const double *bytes, const double *seconds, size_t n, bw_fit *out)
{
    if (n < BW_FIT_MIN_POINTS)
        return -1;
    bool distinct = false;
    for (size_t i = 0; i < n; ++i) {
        if (!(seconds[i] > 0) || !(bytes[i] > 0))
            return -1;
        distinct |= bytes[i] != bytes[0];
    }
    if (!distinct)
        return -1;
    /* The model is not linear in log space: search ln c and ln b on a grid,
     * then zoom around the best cell, within the bounds. */
    const double lc_min = log(C_MIN), lc_max = log(C_MAX), lb_min = log(B_MIN), lb_max = log(B_MAX);
    double lc_lo = lc_min, lc_hi = lc_max, lb_lo = lb_min, lb_hi = lb_max;
    double best_lc = lc_lo, best_lb = lb_lo, best = INFINITY;
    enum { GRID = 48, ROUNDS = 6 };
    for (int round = 0; round < ROUNDS; ++round) {
        double dc = (lc_hi - lc_lo) / (GRID - 1), db = (lb_hi - lb_lo) / (GRID - 1);
        for (int i = 0; i < GRID; ++i)
            for (int j = 0; j < GRID; ++j) {
                double lc = lc_lo + i * dc, lb = lb_lo + j * db;
                double e = loss(bytes, seconds, n, exp(lc), exp(lb));
                if (e < best)
                    best = e, best_lc = lc, best_lb = lb;
            }
        lc_lo = fmax(best_lc - 2 * dc, lc_min), lc_hi = fmin(best_lc + 2 * dc, lc_max);
        lb_lo = fmax(best_lb - 2 * db, lb_min), lb_hi = fmin(best_lb + 2 * db, lb_max);
    }
    /* The grid ends near the minimum but not on it where the valley is a
     * narrow ridge (a fixed cost a small part of every time): polish. */
    double c = exp(best_lc), beta = exp(-best_lb);
    polish(bytes, seconds, n, &c, &beta);
    best_lc = log(fmax(c, C_MIN)), best_lb = -log(beta);
    best = loss(bytes, seconds, n, exp(best_lc), exp(best_lb));
    *out = (bw_fit){.c_s = exp(best_lc), .b_Bps = exp(best_lb), .n = n};
    /* No fixed cost at all: the best b then follows from a 1-D search. */
    double lo = lb_min, hi = lb_max;
    for (int it = 0; it < 200; ++it) { /* golden-section search; the loss is unimodal in ln b */
        double m1 = hi - (hi - lo) * 0.618034, m2 = lo + (hi - lo) * 0.618034;
        if (loss(bytes, seconds, n, 0, exp(m1)) < loss(bytes, seconds, n, 0, exp(m2)))
            hi = m2;
        else
            lo = m1;
    }
    double b0 = exp(0.5 * (lo + hi));
    /* A best c on its lower bound is a fit that wanted c at or below 0:
     * then c is 0 and says so, rather than C_MIN with the fit held off
     * its points. */
    if (best_lc <= lc_min || loss(bytes, seconds, n, 0, b0) <= best) {
        out->c_s = 0;
        out->b_Bps = b0;
        out->intercept_clamped = true;
    }
    /* Where even the largest transfer's S/b is a small part of its time,
     * time hardly grows with size and the bandwidth is not determined. */
    double largest = 0;
    for (size_t i = 0; i < n; ++i)
        largest = fmax(largest, bytes[i]);
    if (largest / out->b_Bps < 0.1 * out->c_s)
        return -1;
    double sum2 = 0;
    for (size_t i = 0; i < n; ++i) {
        double e = bw_fit_rel_err(out, bytes[i], seconds[i]);
        if (fabs(e) > out->max_rel_err)
            out->max_rel_err = fabs(e);
        sum2 += e * e;
    }
    out->rms_rel_err = sqrt(sum2 / (double)n);
    return 0;
}

/* The valid points, in their order, into bytes_out and seconds_out;
 * returns how many. */
static size_t keep_valid(const double *bytes, const double *seconds, const bool *valid, size_t n, double *bytes_out,
                         double *seconds_out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; ++i)
        if (valid[i]) {
            bytes_out[m] = bytes[i];
            seconds_out[m++] = seconds[i];
        }
    return m;
}

int bw_fit_valid_points(const double *bytes, const double *seconds, const bool *valid, size_t n, bw_fit_outcome *out)
{
    *out = (bw_fit_outcome){.verdict = BW_FIT_NO_VALID, .points = n};
    for (size_t i = 0; i < n; ++i)
        out->valid += valid[i];
    if (out->valid == 0)
        return 0;
    if (out->valid < BW_FIT_MIN_POINTS) {
        out->verdict = BW_FIT_TOO_FEW;
        return 0;
    }
    double *b = malloc(out->valid * sizeof *b), *t = malloc(out->valid * sizeof *t);
    int rc = b && t ? 0 : -1;
    if (rc == 0) {
        size_t m = keep_valid(bytes, seconds, valid, n, b, t);
        out->verdict = bw_fit_transfer(b, t, m, &out->fit) == 0 ? BW_FIT_MADE : BW_FIT_UNDETERMINED;
    }
    free(b);
    free(t);
    return rc;
}

bool bw_fit_outcome_valid(const bw_fit_outcome *o) { return o->verdict == BW_FIT_MADE; }

/* "; N invalid point(s) left out" at the end of buf, when some were. */
static void append_left_out(const bw_fit_outcome *o, char *buf, size_t len)
{
    size_t out = o->points - o->valid, used = strlen(buf);
    if (out > 0 && used < len)
        snprintf(buf + used, len - used, "; %zu invalid point%s left out", out, out == 1 ? "" : "s");
}

void bw_fit_outcome_note(const bw_fit_outcome *o, char *buf, size_t len)
{
    switch (o->verdict) {
    case BW_FIT_NO_VALID:
        snprintf(buf, len, "no valid point of %zu: no fit", o->points);
        return;
    case BW_FIT_TOO_FEW:
        snprintf(buf, len, "fitted over %zu valid of %zu points: too few (the fit needs %d)", o->valid, o->points,
                 BW_FIT_MIN_POINTS);
        return;
    case BW_FIT_UNDETERMINED:
        snprintf(buf, len, "no fit: the %zu valid sizes determine no finite bandwidth", o->valid);
        break;
    case BW_FIT_MADE:
        if (o->valid == o->points)
            snprintf(buf, len, "B(S) = S/(c + S/b) over %zu sizes", o->valid);
        else
            snprintf(buf, len, "B(S) = S/(c + S/b) over %zu valid of %zu sizes", o->valid, o->points);
        break;
    }
    append_left_out(o, buf, len);
}

bool bw_moved_no_data(double bytes, double seconds, double host_copy_Bps)
{
    return host_copy_Bps > 0 && seconds > 0 && bytes / seconds > 2.0 * host_copy_Bps;
}

void bw_judge_fit(const cr_peaks *peaks, const bw_fit *f, cr_result *r)
{
    double b = f->b_Bps * 1e-9;
    if (isfinite(peaks->memory_gbs) && b > CR_PEAK_MARGIN * peaks->memory_gbs)
        CR_FLAG(r, "above-peak",
                "Lee's b, %.4g GB/s, is %.3gx the memory limit of %.4g GB/s (%s): the sizes fitted span regimes the "
                "model does not join",
                b, b / peaks->memory_gbs, peaks->memory_gbs, peaks->memory_source);
    if (f->rms_rel_err > BW_FIT_RMS_LIMIT)
        CR_FLAG(r, "poor-fit",
                "the fit misses its points by %.3g%% (root mean square, %.3g%% at most): one c + S/b does not describe "
                "these sizes",
                100 * f->rms_rel_err, 100 * f->max_rel_err);
}

bw_regime bw_regime_of(double bytes, uint64_t llc_bytes)
{
    if (bytes <= (double)llc_bytes)
        return BW_REGIME_CACHE;
    return bytes >= (double)CR_RESIDENT_FACTOR * (double)llc_bytes ? BW_REGIME_MEMORY : BW_REGIME_BETWEEN;
}

const char *bw_regime_name(bw_regime g) { return g == BW_REGIME_CACHE ? "cache" : g == BW_REGIME_MEMORY ? "memory" : "between"; }
