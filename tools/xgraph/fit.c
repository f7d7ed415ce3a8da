#include "xgraph/fit.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The plateau band is at least this wide: the suite stops repeating a point
 * once its median is known to a few percent, so closer than 5% to the
 * plateau is indistinguishable from it. */
#define PLATEAU_BAND 0.05
/* and at most this: a point 25% below the plateau is rising, however noisy
 * the plateau. */
#define MAX_BAND 0.25

static int by_k(const void *a, const void *b)
{
    const xg_point *p = a, *q = b;
    return (p->k > q->k) - (p->k < q->k);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (n >= 1); reorders v. The mean of the middle two
 * without their sum, which overflows near the largest double. */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + 0.5 * (v[n / 2] - v[n / 2 - 1]);
}

static double plateau_median(const xg_point *p, size_t from, size_t to, double *scratch)
{
    for (size_t i = from; i < to; ++i)
        scratch[i - from] = p[i].y;
    return median(scratch, to - from);
}

typedef struct {
    double r, w;
} weighted;

static int by_r(const void *a, const void *b)
{
    const weighted *p = a, *q = b;
    return (p->r > q->r) - (p->r < q->r);
}

/* The slope s of a line through the origin minimising sum |y - s·k| / y over
 * p[0..n): that sum is sum (k/y)·|y/k - s|, so s is the median of the ratios
 * y/k weighted by k/y. */
static double origin_slope(const xg_point *p, size_t n, weighted *scratch)
{
    double total = 0;
    for (size_t i = 0; i < n; ++i) {
        scratch[i] = (weighted){p[i].y / p[i].k, p[i].k / p[i].y};
        total += scratch[i].w;
    }
    qsort(scratch, n, sizeof *scratch, by_r);
    double cum = 0;
    for (size_t i = 0; i < n; ++i) {
        cum += scratch[i].w;
        /* Exactly half: every slope between the two ratios is optimal. */
        if (fabs(cum - 0.5 * total) <= 1e-12 * total && i + 1 < n)
            return 0.5 * (scratch[i].r + scratch[i + 1].r);
        if (cum >= 0.5 * total)
            return scratch[i].r;
    }
    return scratch[n - 1].r;
}

static double model(double slope, double plateau, double k)
{
    return isinf(slope) ? plateau : fmin(slope * k, plateau);
}

static double abs_rel_cost(const xg_point *p, size_t n, double slope, double plateau)
{
    double c = 0;
    for (size_t i = 0; i < n; ++i)
        c += fabs(p[i].y - model(slope, plateau, p[i].k)) / p[i].y;
    return c;
}

/* Relative spread of the plateau points: 3 robust standard deviations
 * (1.4826 * median absolute deviation), at least the fixed band. */
static double plateau_band(const xg_point *p, size_t from, size_t to, double plateau, double *scratch)
{
    for (size_t i = from; i < to; ++i)
        scratch[i - from] = fabs(p[i].y - plateau);
    double mad = median(scratch, to - from);
    return fmin(MAX_BAND, fmax(PLATEAU_BAND, 3 * 1.4826 * mad / plateau));
}

/* The smallest k of the sorted points p[0..n) whose throughput reaches
 * level; NaN when none does. */
static double first_reaching(const xg_point *p, size_t n, double level)
{
    for (size_t i = 0; i < n; ++i)
        if (p[i].y >= level)
            return p[i].k;
    return NAN;
}

static void residuals(const xg_point *p, size_t n, xg_roof_fit *f)
{
    double ss = 0, mx = 0;
    for (size_t i = 0; i < n; ++i) {
        double m = f->status == XG_FIT_SATURATED     ? f->plateau
                   : f->status == XG_FIT_UNSATURATED ? f->slope * p[i].k
                                                     : model(f->slope, f->plateau, p[i].k);
        double e = (p[i].y - m) / p[i].y;
        ss += e * e;
        mx = fmax(mx, fabs(e));
    }
    f->rel_rms = sqrt(ss / (double)n);
    f->max_rel = mx;
}

/* The split of p (sorted by k) with the least cost: p[0..j) rising on a
 * line through the origin of slope s, p[j..n) a plateau r (at least one
 * point). */
static size_t best_split(const xg_point *p, size_t n, double *scratch, weighted *ws, double *s_out, double *r_out)
{
    size_t best_j = 0;
    double best_cost = INFINITY;
    *s_out = INFINITY, *r_out = NAN;
    for (size_t j = 0; j < n; ++j) {
        double r = plateau_median(p, j, n, scratch);
        double s = j ? origin_slope(p, j, ws) : INFINITY;
        double c = abs_rel_cost(p, n, s, r);
        if (j == 0 || c < best_cost - 1e-12 * (1 + best_cost)) {
            best_cost = c, best_j = j, *s_out = s, *r_out = r;
        }
    }
    return best_j;
}

/* The fit of p (sorted by k, two points or more) into f. */
static void fit_sorted(const xg_point *p, size_t n, double *scratch, weighted *ws, xg_roof_fit *f)
{
    double best_s, best_r;
    size_t best_j = best_split(p, n, scratch, ws, &best_s, &best_r);
    f->tolerance = plateau_band(p, best_j, n, best_r, scratch);

    /* Rising points that all lie within the plateau band are no rising part. */
    bool rises = false;
    for (size_t i = 0; i < best_j; ++i)
        rises |= p[i].y < (1 - f->tolerance) * best_r;
    if (!rises) {
        f->status = XG_FIT_SATURATED;
        f->plateau = plateau_median(p, 0, n, scratch);
        f->tolerance = plateau_band(p, 0, n, f->plateau, scratch);
        f->knee = f->k_min; /* an upper bound */
        f->slope = f->plateau / f->k_min; /* a lower bound */
        f->n_plateau = n;
        f->reach95 = f->k_min;
        return;
    }

    /* A plateau that never leaves the line is no plateau. */
    bool bends = false;
    for (size_t i = best_j; i < n; ++i)
        bends |= p[i].y < (1 - f->tolerance) * best_s * p[i].k;
    if (!bends) {
        f->status = XG_FIT_UNSATURATED;
        f->slope = origin_slope(p, n, ws);
        f->plateau = f->y_max; /* a lower bound */
        f->knee = f->k_max;    /* a lower bound */
        f->n_rising = n;
        return;
    }

    f->status = XG_FIT_OK;
    f->slope = best_s;
    f->plateau = best_r;
    f->knee = best_r / best_s;
    /* Splits with the same model tie; count by the knee itself. */
    for (size_t i = 0; i < n; ++i)
        f->n_plateau += p[i].k >= f->knee * (1 - 1e-12);
    f->n_rising = n - f->n_plateau;
    f->reach95 = first_reaching(p, n, 0.95 * f->plateau);
}

int xg_fit_roof(const xg_point *pts, size_t n, xg_roof_fit *f)
{
    memset(f, 0, sizeof *f);
    f->slope = f->plateau = f->settled = f->knee = f->reach95 = f->rel_rms = f->max_rel = f->tolerance = NAN;
    f->k_min = f->k_max = f->y_max = NAN;
    f->n = n;
    f->status = XG_FIT_BAD_INPUT;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; ++i)
        if (!(isfinite(pts[i].k) && pts[i].k > 0 && isfinite(pts[i].y) && pts[i].y > 0))
            return -1;

    xg_point *p = malloc(n * sizeof *p);
    double *scratch = malloc(n * sizeof *scratch);
    weighted *ws = malloc(n * sizeof *ws);
    if (p == NULL || scratch == NULL || ws == NULL) {
        free(p), free(scratch), free(ws);
        return -1;
    }
    memcpy(p, pts, n * sizeof *p);
    qsort(p, n, sizeof *p, by_k);
    f->k_min = p[0].k;
    f->k_max = p[n - 1].k;
    f->y_max = p[0].y;
    for (size_t i = 1; i < n; ++i)
        f->y_max = fmax(f->y_max, p[i].y);

    /* The fit is the same at any scale: it runs on y / y_max, so that
     * figures near the largest double overflow none of its sums. */
    double scale = f->y_max;
    for (size_t i = 0; i < n; ++i)
        p[i].y /= scale;
    f->y_max = 1;
    if (n == 1) {
        /* y = min(s·k, R) at one k says only R >= y and s >= y/k. */
        f->status = XG_FIT_ONE_POINT;
        f->plateau = p[0].y;
        f->slope = p[0].y / p[0].k;
        f->n_plateau = 1;
        f->rel_rms = f->max_rel = 0;
    } else {
        fit_sorted(p, n, scratch, ws, f);
    }
    residuals(p, n, f);
    f->y_max = scale;
    f->plateau *= scale;
    f->slope *= scale;
    f->settled = f->plateau;
    free(p), free(scratch), free(ws);
    return 0;
}

int xg_fit_peak(const xg_point *pts, size_t n, xg_roof_fit *f)
{
    if (xg_fit_roof(pts, n, f) != 0)
        return -1;
    if (f->status != XG_FIT_OK && f->status != XG_FIT_SATURATED)
        return 0; /* one point, or no plateau: nothing above it */
    double *top = malloc(n * sizeof *top);
    xg_point *p = malloc(n * sizeof *p);
    if (top == NULL || p == NULL) {
        free(top), free(p);
        return -1;
    }
    size_t nt = 0;
    for (size_t i = 0; i < n; ++i)
        if (pts[i].y >= (1 - PLATEAU_BAND) * f->y_max)
            top[nt++] = pts[i].y;
    double peak = median(top, nt);
    if (peak > f->plateau) {
        f->plateau = peak;
        if (f->status == XG_FIT_SATURATED) {
            f->slope = peak / f->k_min;
        } else {
            f->knee = peak / f->slope;
            f->n_plateau = 0;
            for (size_t i = 0; i < n; ++i)
                f->n_plateau += pts[i].k >= f->knee * (1 - 1e-12);
            f->n_rising = n - f->n_plateau;
        }
        memcpy(p, pts, n * sizeof *p);
        qsort(p, n, sizeof *p, by_k);
        f->reach95 = first_reaching(p, n, 0.95 * peak);
        residuals(p, n, f);
    }
    free(top), free(p);
    return 0;
}

double xg_roof_eval(const xg_roof_fit *f, double k)
{
    switch (f->status) {
    case XG_FIT_OK:
        return model(f->slope, f->plateau, k);
    case XG_FIT_SATURATED:
    case XG_FIT_ONE_POINT: /* the bounds: steepest rise, lowest plateau */
        return fmin(f->slope * k, f->plateau);
    case XG_FIT_UNSATURATED:
        return f->slope * k;
    default:
        return NAN;
    }
}

double xg_little_latency_ns(double knee, double threads_per_unit, double units, double bytes_per_thread,
                            double throughput_GBps)
{
    /* bytes / (1e9 bytes/s) = ns */
    return knee * threads_per_unit * units * bytes_per_thread / throughput_GBps;
}
