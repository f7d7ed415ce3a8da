/* Li's Eq. 3.5 fitted by Nelder-Mead: the cache-shaped f(k). */
#include "xgraph/fit.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

double xg_cache_eval(const xg_cache_params *p, double b, double k)
{
    double miss = pow(p->s_cache / (p->beta * k) + 1, 1 - p->alpha); /* 1 - h, Eq. 3.3 */
    double lm = fmax(p->l_mem, k * b / p->r);                         /* Eq. 3.4 */
    return k * b / (p->l_cache + (lm - p->l_cache) * miss);
}

/* Only S$/beta enters Eq. 3.3, so beta is held at 1 and S$ carries the ratio:
 * five free parameters, searched as logarithms (all stay positive) with
 * alpha - 1 in place of alpha (alpha > 1). */
#define NP 5

typedef struct {
    const xg_point *p;
    size_t n;
    double b;
} problem;

static xg_cache_params unpack(const double *v)
{
    return (xg_cache_params){.l_cache = exp(v[0]), .l_mem = exp(v[1]), .r = exp(v[2]), .s_cache = exp(v[3]),
                             .alpha = 1 + exp(v[4]), .beta = 1};
}

static double cost(const problem *pr, const double *v)
{
    xg_cache_params c = unpack(v);
    double ss = 0;
    for (size_t i = 0; i < pr->n; ++i) {
        double e = (xg_cache_eval(&c, pr->b, pr->p[i].k) - pr->p[i].y) / pr->p[i].y;
        ss += e * e;
    }
    return isfinite(ss) ? ss : INFINITY;
}

/* Plain Nelder-Mead (reflection 1, expansion 2, contraction 1/2, shrink 1/2)
 * from x0 with initial steps step; x0 is replaced by the best vertex. */
static double nelder_mead(const problem *pr, double *x0, double step, int max_iter, int *iters)
{
    double s[NP + 1][NP], f[NP + 1];
    for (int i = 0; i <= NP; ++i) {
        memcpy(s[i], x0, sizeof s[i]);
        if (i)
            s[i][i - 1] += step;
        f[i] = cost(pr, s[i]);
    }
    int it = 0;
    for (; it < max_iter; ++it) {
        /* Order: best first. */
        for (int i = 1; i <= NP; ++i)
            for (int j = i; j > 0 && f[j] < f[j - 1]; --j) {
                double t = f[j];
                f[j] = f[j - 1], f[j - 1] = t;
                for (int d = 0; d < NP; ++d) {
                    t = s[j][d];
                    s[j][d] = s[j - 1][d], s[j - 1][d] = t;
                }
            }
        if (f[NP] - f[0] <= 1e-14 * (f[0] + 1e-30))
            break;
        double c[NP], r[NP], e[NP];
        for (int d = 0; d < NP; ++d) {
            c[d] = 0;
            for (int i = 0; i < NP; ++i)
                c[d] += s[i][d] / NP;
            r[d] = c[d] + (c[d] - s[NP][d]);
        }
        double fr = cost(pr, r);
        if (fr < f[0]) {
            for (int d = 0; d < NP; ++d)
                e[d] = c[d] + 2 * (c[d] - s[NP][d]);
            double fe = cost(pr, e);
            if (fe < fr)
                memcpy(s[NP], e, sizeof e), f[NP] = fe;
            else
                memcpy(s[NP], r, sizeof r), f[NP] = fr;
        } else if (fr < f[NP - 1]) {
            memcpy(s[NP], r, sizeof r), f[NP] = fr;
        } else {
            bool outside = fr < f[NP];
            for (int d = 0; d < NP; ++d)
                e[d] = outside ? c[d] + 0.5 * (r[d] - c[d]) : c[d] + 0.5 * (s[NP][d] - c[d]);
            double fc = cost(pr, e);
            if (fc < (outside ? fr : f[NP])) {
                memcpy(s[NP], e, sizeof e), f[NP] = fc;
            } else {
                for (int i = 1; i <= NP; ++i) {
                    for (int d = 0; d < NP; ++d)
                        s[i][d] = s[0][d] + 0.5 * (s[i][d] - s[0][d]);
                    f[i] = cost(pr, s[i]);
                }
            }
        }
    }
    int best = 0;
    for (int i = 1; i <= NP; ++i)
        if (f[i] < f[best])
            best = i;
    memcpy(x0, s[best], sizeof s[best]);
    *iters = it;
    return f[best];
}

int xg_fit_cache(const xg_point *pts, size_t n, double b, xg_cache_fit *fit)
{
    memset(fit, 0, sizeof *fit);
    fit->rel_rms = NAN;
    if (n < NP + 1 || !(b > 0))
        return -1;
    size_t peak = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!(pts[i].k > 0 && pts[i].y > 0 && isfinite(pts[i].k) && isfinite(pts[i].y)))
            return -1;
        if (pts[i].y > pts[peak].y)
            peak = i;
    }
    /* Guesses read off the curve: the first point's latency for the cache
     * (h is near 1 with few threads), the last point for R, the peak's
     * concurrency for the cache's share S$/beta; L and alpha from a few
     * starts, the best kept. */
    size_t first = 0, last = 0;
    for (size_t i = 1; i < n; ++i) {
        if (pts[i].k < pts[first].k)
            first = i;
        if (pts[i].k > pts[last].k)
            last = i;
    }
    double l_cache = pts[first].k * b / pts[first].y;
    problem pr = {pts, n, b};
    double best = INFINITY;
    static const double l_factor[] = {2, 5, 20}, alpha_m1[] = {0.5, 1, 3};
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) {
            double x[NP] = {log(l_cache), log(l_factor[i] * l_cache), log(pts[last].y), log(pts[peak].k),
                            log(alpha_m1[j])};
            int it, it2;
            double c = nelder_mead(&pr, x, 0.5, 4000, &it);
            c = nelder_mead(&pr, x, 0.05, 4000, &it2); /* a restart shakes off a collapsed simplex */
            if (c < best) {
                best = c;
                fit->p = unpack(x);
                fit->iterations = it + it2;
                fit->converged = it2 < 4000;
            }
        }
    fit->rel_rms = sqrt(best / (double)n);
    return isfinite(best) ? 0 : -1;
}
