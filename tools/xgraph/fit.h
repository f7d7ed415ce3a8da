/* Fits of the X-model's two throughput curves (Li 2016, ch. 3) to measured
 * points: the memory system's f(k) = min(s·k, R) and the computation
 * system's g_E(x) = min(m_E·x, M_E) have the same roofline shape, so one fit
 * serves both; and the cache-shaped f(k) of Li's Eq. 3.5. Pure functions. */
#ifndef CR_XGRAPH_FIT_H
#define CR_XGRAPH_FIT_H

#include <stddef.h>

typedef struct {
    double k; /* concurrency (per compute unit) */
    double y; /* throughput (device total) */
} xg_point;

typedef enum {
    XG_FIT_OK,          /* a rising part and a plateau of at least two points */
    XG_FIT_SATURATED,   /* already on the plateau at the smallest k: the knee is
                           at most k_min, the slope at least plateau/k_min */
    XG_FIT_UNSATURATED, /* still rising at the largest k: the plateau is at least
                           the largest throughput, the knee at least k_max */
    XG_FIT_ONE_POINT,   /* one concurrency: nothing to separate slope and plateau */
    XG_FIT_BAD_INPUT,   /* no points, a non-positive or non-finite value */
} xg_fit_status;

typedef struct {
    xg_fit_status status;
    double slope;    /* s (or m_E): throughput per unit of concurrency below the knee */
    double plateau;  /* R (or M_E): the median of the plateau points (xg_fit_peak: of the top band) */
    double settled;  /* the median of the plateau points, whichever fit */
    double knee;     /* plateau / slope: Li's transition point (delta or pi) */
    double reach95;  /* the first measured k whose throughput is >= 95% of the plateau */
    double rel_rms;  /* RMS of (measured - model) / measured over every point */
    double max_rel;  /* the largest |measured - model| / measured */
    double tolerance;/* the relative band taken as "on the plateau" */
    size_t n, n_rising, n_plateau;
    double k_min, k_max, y_max;
} xg_roof_fit;

/* Fits min(slope·k, plateau) to n points (any order) by least absolute
 * relative deviation: every split of the sorted points into a rising part
 * and a plateau is tried; the plateau is the median of its points and the
 * slope the weighted median of the rising points' y/k, which minimises
 * their summed relative deviation from a line through the origin; the split
 * whose model deviates least from all points wins. Medians make one outlier
 * unable to drag either parameter. Returns 0, or -1 for XG_FIT_BAD_INPUT. */
int xg_fit_roof(const xg_point *pts, size_t n, xg_roof_fit *fit);

/* The same for a computation system's g_E(x), whose plateau is its peak:
 * the median of the points within 5% of the highest one. A device can
 * deliver its peak with few threads and lose some of it with many (a CPU
 * runtime that loops over the work-items of a group saves and restores
 * their state); the curve then sags past its knee, and the median of all
 * plateau points (kept in `settled`) would be a level between peak and sag,
 * not the capacity M that the X-model needs. Where the plateau is flat the
 * two agree. The slope of the rising part is xg_fit_roof's; the knee and
 * the residuals follow the peak. Returns 0, or -1 for bad input. */
int xg_fit_peak(const xg_point *pts, size_t n, xg_roof_fit *fit);

/* The fitted model at k. */
double xg_roof_eval(const xg_roof_fit *fit, double k);

/* Little's law on the knee: at the knee every thread has one request of
 * bytes_per_thread in flight and the memory system just delivers
 * throughput_GBps, so latency = bytes in flight / throughput. knee counts
 * per compute unit in units of threads_per_unit threads (1 for work-items,
 * 32 for warps); units is the number of compute units. Nanoseconds. */
double xg_little_latency_ns(double knee, double threads_per_unit, double units, double bytes_per_thread,
                            double throughput_GBps);

/* Li's Eq. 3.5, the memory system with a shared cache in front of memory:
 * f(k) = k·b / (L$ + (max(L, k·b/R) - L$)·(S$/(beta·k) + 1)^(1-alpha)),
 * here with b folded in (k counts requests of bytes b, so latency terms are
 * per request and f is in bytes per unit time). */
typedef struct {
    double l_cache; /* L$: cache latency */
    double l_mem;   /* L: memory latency before saturation */
    double r;       /* R: memory throughput */
    double s_cache; /* S$, in units of beta·k */
    double alpha;   /* locality (Jacob et al.): > 1 */
    double beta;    /* only S$/beta enters Eq. 3.3: the fit holds beta at 1 */
} xg_cache_params;

double xg_cache_eval(const xg_cache_params *p, double b, double k);

typedef struct {
    xg_cache_params p;
    double rel_rms;
    int iterations;
    int converged;
} xg_cache_fit;

/* Fits Eq. 3.5 to points that show a cache peak: Nelder-Mead on the
 * logarithms of L$, L, R, S$/beta and alpha - 1 (so every one stays in its
 * domain), least squares on relative residuals, started from guesses read
 * off the curve (the first point, the peak, the last point). Returns 0, or
 * -1 when there are fewer than six points or a value is not positive. */
int xg_fit_cache(const xg_point *pts, size_t n, double b, xg_cache_fit *fit);

#endif
