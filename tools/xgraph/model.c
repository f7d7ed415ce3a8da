#include "xgraph/model.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

double xg_curve_eval(const xg_curve *f, double k)
{
    const xg_point *v = f->v;
    if (k <= v[0].k)
        return v[0].k > 0 ? v[0].y * k / v[0].k : v[0].y;
    for (size_t i = 1; i < f->n; ++i)
        if (k <= v[i].k)
            return v[i - 1].y + (v[i].y - v[i - 1].y) * (k - v[i - 1].k) / (v[i].k - v[i - 1].k);
    return v[f->n - 1].y;
}

static double demand(const xg_machine *m, double k)
{
    double x = m->n - k;
    return fmin(m->g.slope * x, m->g.plateau) / m->z;
}

static bool valid(const xg_machine *m)
{
    if (!(m->z > 0 && isfinite(m->z) && m->n > 0 && isfinite(m->n) && m->g.slope > 0 && isfinite(m->g.slope) &&
          m->g.plateau > 0 && isfinite(m->g.plateau) && m->f.n > 0 && m->f.v != NULL && !isnan(m->delta)))
        return false;
    for (size_t i = 0; i < m->f.n; ++i) {
        const xg_point *p = &m->f.v[i];
        if (!(isfinite(p->k) && isfinite(p->y) && p->k >= 0 && p->y >= 0))
            return false;
        if (i && !(p->k > m->f.v[i - 1].k))
            return false;
    }
    return true;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The points where f or the demand change slope, with 0 and n: D is linear
 * between consecutive ones. */
static size_t breakpoints(const xg_machine *m, double *bp)
{
    size_t nb = 0;
    bp[nb++] = 0;
    bp[nb++] = m->n;
    for (size_t i = 0; i < m->f.n; ++i)
        if (m->f.v[i].k > 0 && m->f.v[i].k < m->n)
            bp[nb++] = m->f.v[i].k;
    double kink = m->n - m->g.plateau / m->g.slope; /* x = pi */
    if (kink > 0 && kink < m->n)
        bp[nb++] = kink;
    qsort(bp, nb, sizeof *bp, by_value);
    size_t u = 1;
    for (size_t i = 1; i < nb; ++i)
        if (bp[i] > bp[u - 1])
            bp[u++] = bp[i];
    return u;
}

static xg_state state_at(const xg_machine *m, double k, double dfdk)
{
    double pi = m->g.plateau / m->g.slope;
    bool mem = k >= m->delta * (1 - 1e-12);
    bool comp = m->n - k >= pi * (1 - 1e-12);
    if (mem)
        return comp ? XG_BALANCED : XG_MEMORY_BOUND;
    if (dfdk < 0)
        return XG_THRASHING;
    return comp ? XG_COMPUTE_BOUND : XG_CAPACITY_BOUND;
}

/* The slope of g(x)/Z against x just beside x = n - k, on the side of
 * larger x (the left in k) where they differ. */
static double demand_slope_x(const xg_machine *m, double k, double kl)
{
    double xm = m->n - 0.5 * (k + kl); /* inside the segment */
    return m->g.slope * xm < m->g.plateau ? m->g.slope / m->z : 0.0;
}

int xg_crossings(const xg_machine *m, xg_crossing *out, size_t cap)
{
    if (!valid(m))
        return -1;
    double *bp = malloc((m->f.n + 3) * sizeof *bp);
    double *d = malloc((m->f.n + 3) * sizeof *d);
    if (bp == NULL || d == NULL) {
        free(bp), free(d);
        return -1;
    }
    size_t nb = breakpoints(m, bp);
    double scale = 0;
    for (size_t i = 0; i < nb; ++i) {
        double f = xg_curve_eval(&m->f, bp[i]), h = demand(m, bp[i]);
        d[i] = f - h;
        scale = fmax(scale, fmax(fabs(f), fabs(h)));
    }
    double eps = 1e-12 * scale;
    for (size_t i = 0; i < nb; ++i)
        if (fabs(d[i]) <= eps)
            d[i] = 0;

    size_t count = 0;
    for (size_t i = 0; i + 1 < nb; ++i) {
        double a = bp[i], b = bp[i + 1];
        double k;
        size_t seg = i; /* the segment that holds the crossing */
        if (d[i] == 0) {
            if (i > 0 && d[i - 1] == 0)
                continue; /* inside an interval already reported */
            k = a;
            if (i > 0)
                seg = i - 1;
        } else if (d[i] * d[i + 1] < 0) {
            k = a + (b - a) * d[i] / (d[i] - d[i + 1]);
        } else if (d[i + 1] == 0 && i + 2 == nb) {
            k = b; /* a crossing at k = n: no segment after it */
        } else {
            continue;
        }

        /* Slopes of D on each side decide: crossing up, down, or touching. */
        double left = NAN, right = NAN;
        if (k > a) {
            left = right = (d[i + 1] - d[i]) / (b - a);
        } else {
            if (i > 0)
                left = (d[i] - d[i - 1]) / (a - bp[i - 1]);
            right = (d[i + 1] - d[i]) / (b - a);
        }
        if (k == b && i + 2 == nb)
            right = NAN;
        xg_crossing c = {.k = k, .x = m->n - k, .k_end = NAN};
        c.ms = xg_curve_eval(&m->f, k);
        c.cs = m->z * c.ms;
        double sa = bp[seg], sb = bp[seg + 1];
        c.dfdk = (xg_curve_eval(&m->f, sb) - xg_curve_eval(&m->f, sa)) / (sb - sa);
        c.dgdx_ms = demand_slope_x(m, sb, sa);
        if (right == 0) {
            /* Zero on the whole next segment: the curves coincide. */
            size_t j = i + 1;
            while (j + 1 < nb && d[j + 1] == 0)
                ++j;
            c.k_end = bp[j];
            c.stability = XG_NEUTRAL;
        } else if ((isnan(left) || left > 0) && (isnan(right) || right > 0)) {
            c.stability = XG_STABLE;
        } else if ((isnan(left) || left < 0) && (isnan(right) || right < 0)) {
            c.stability = XG_UNSTABLE;
        } else {
            c.stability = XG_TANGENT;
        }
        c.state = state_at(m, k, c.dfdk);
        if (count < cap)
            out[count] = c;
        ++count;
    }
    free(bp), free(d);
    return (int)(count < cap ? count : cap);
}

const char *xg_stability_name(xg_stability s)
{
    static const char *const names[] = {"stable", "unstable", "tangent", "neutral"};
    return names[s];
}

const char *xg_state_name(xg_state s)
{
    static const char *const names[] = {"memory-bound", "compute-bound", "balanced", "capacity-bound", "thrashing"};
    return names[s];
}
