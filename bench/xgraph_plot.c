#define _POSIX_C_SOURCE 200809L
#include "xgraph_plot.h"

#include "xgraph_gnuplot.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* plot/xgraph_arch.gp and plot/xgraph_app.gp, embedded by the build. */
extern const char xgraph_arch_gp[];
extern const char xgraph_app_gp[];

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- data files: blocks separated by two blank lines, each named ---- */

static void block(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void block(FILE *f, const char *fmt, ...)
{
    static const char sep[] = "\n\n";
    if (ftell(f) > 0)
        fputs(sep, f);
    fputs("# ", f);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

static void point(FILE *f, double k, double y) { fprintf(f, "%.10g %.10g\n", k, y); }

/* gnuplot takes a block without a valid point as an error; NaN keeps the
 * block (and the numbering of the ones after it) and draws nothing. */
static void empty_point(FILE *f) { fputs("NaN NaN\n", f); }

static const char *bound(const xg_roof_fit *f)
{
    return f->status == XG_FIT_SATURATED ? "≤ " : f->status == XG_FIT_OK ? "" : "≥ ";
}

/* The fitted roofline as drawn: to its knee, then flat to the end. */
static void roof_line(FILE *f, const xg_roof_fit *r, double end)
{
    point(f, 0, 0);
    if (r->status == XG_FIT_UNSATURATED) {
        point(f, r->k_max, r->slope * r->k_max);
        return;
    }
    point(f, r->knee, r->plateau);
    if (end > r->knee)
        point(f, end, r->plateau);
}

/* g(x)/Z for x from n down to 0, drawn against k = n - x. */
static void demand_line(FILE *f, const xg_roof_fit *g, double n, double z)
{
    double slope = g->slope, plateau = g->status == XG_FIT_UNSATURATED ? INFINITY : g->plateau;
    point(f, 0, fmin(slope * n, plateau) / z);
    double pi = plateau / slope;
    if (pi > 0 && pi < n)
        point(f, n - pi, plateau / z);
    point(f, n, 0);
}

static int open_dat(const char *path, FILE **f, char *err, size_t errlen)
{
    *f = fopen(path, "w");
    if (*f == NULL)
        return fail(err, errlen, "%s: %s", path, strerror(errno));
    return 0;
}

static int close_dat(const char *path, FILE *f, char *err, size_t errlen)
{
    if (ferror(f) | (fclose(f) != 0))
        return fail(err, errlen, "%s: write error", path);
    return 0;
}

/* The graph's n: f's whole sweep, and g's as far as four times its latest
 * knee: a CPU's fma sweep runs to hundreds of work-items per compute unit,
 * long after g saturated, and would squeeze f's rise into a sliver. */
static double arch_n(const xg_dtype_data *dt, const xg_dtype_fit *o)
{
    double n = dt->nf ? dt->f[dt->nf - 1].k : 0, x_max = 0, knee = 0;
    for (size_t e = 0; e < dt->ng; ++e)
        if (dt->g[e].n)
            x_max = fmax(x_max, dt->g[e].pts[dt->g[e].n - 1].k);
    for (size_t e = 0; e < o->ng; ++e)
        knee = fmax(knee, o->g[e].status == XG_FIT_UNSATURATED ? x_max : o->g[e].knee);
    double want = fmin(x_max, 4 * knee);
    if (want <= n)
        return n;
    /* Up to a round number: 1, 2 or 5 times a power of ten. */
    double p = pow(10, floor(log10(want)));
    return fmin(x_max, want <= p ? p : want <= 2 * p ? 2 * p : want <= 5 * p ? 5 * p : 10 * p);
}

/* Opens the gnuplot variables of one figure with those every X-graph has:
 * its data file, output base, device, type and concurrency unit. NULL when
 * out of memory. */
static FILE *begin_vars(char **vars, size_t *vlen, const xg_data *d, const xg_dtype_data *dt, const char *dat,
                        const char *base)
{
    FILE *v = open_memstream(vars, vlen);
    if (v == NULL)
        return NULL;
    xg_gp_str(v, "dat", dat);
    xg_gp_str(v, "out", base);
    xg_gp_fmt(v, "device", "%s (%s, %g compute units)", d->device, d->backend, d->compute_units);
    xg_gp_str(v, "dtype", dt->name);
    xg_gp_str(v, "unit", d->unit);
    return v;
}

/* Closes the variables opened by begin_vars and draws the figure with
 * script in directory out. *vars is the stream's buffer, only final once
 * the stream is closed. */
static int draw_vars(FILE *v, char **vars, const char *out, const char *script, char *err, size_t errlen)
{
    int rc = fclose(v) == 0 ? xg_gnuplot(out, *vars, script, err, errlen) : fail(err, errlen, "out of memory");
    free(*vars);
    return rc;
}

int xg_draw_arch(const xg_data *d, const xg_fits *fits, int k, const xg_reference *ref, const char *out, bool draw,
                 char *err, size_t errlen)
{
    const xg_dtype_data *dt = &d->dt[k];
    const xg_dtype_fit *o = &fits->dt[k];
    if (!o->have_f)
        return 0;
    const xg_roof_fit *fr = &o->f;
    double n = arch_n(dt, o);
    bool haveg = o->ng > 0;
    double z = haveg ? o->m_peak / fr->plateau : NAN;
    bool same_axes = d->threads_per_unit > 1; /* Li's lines count warps per SM, as CUDA rows do */

    char dat[4300], base[4200];
    snprintf(base, sizeof base, "%s/xgraph-%s", out, dt->name);
    snprintf(dat, sizeof dat, "%s.dat", base);
    FILE *f;
    if (open_dat(dat, &f, err, errlen) != 0)
        return -1;
    double ymax = fmax(fr->plateau, fr->y_max);
    block(f, "f(k) measured: stream triad (median), k in %s, GB/s", d->unit);
    for (size_t i = 0; i < dt->nf; ++i)
        point(f, dt->f[i].k, dt->f[i].y);
    block(f, "f(k) fitted: min(s k, R)");
    roof_line(f, fr, n);
    for (size_t e = 0; e < o->ng; ++e) {
        block(f, "g(x)/Z fitted, E = %d, against k = n - x", o->ilp[e]);
        demand_line(f, &o->g[e], n, z);
        ymax = fmax(ymax, fmin(o->g[e].slope * n, o->g[e].plateau) / z);
    }
    for (size_t e = 0; e < o->ng; ++e) {
        block(f, "g(x)/Z measured, E = %d, against k = n - x", o->ilp[e]);
        const xg_ilp_series *s = NULL;
        for (size_t j = 0; j < dt->ng; ++j)
            if (dt->g[j].ilp == o->ilp[e])
                s = &dt->g[j];
        size_t drawn = 0;
        for (size_t j = 0; s && j < s->n; ++j)
            if (s->pts[j].k <= n) {
                point(f, n - s->pts[j].k, s->pts[j].y / z);
                ymax = fmax(ymax, s->pts[j].y / z);
                ++drawn;
            }
        if (!drawn)
            empty_point(f);
    }
    size_t nref = 0;
    double ref_x = 0, ref_y = 0;
    for (size_t i = 0; ref && i < ref->n; ++i) {
        const xg_ref_line *r = &ref->v[i];
        if (strcmp(r->dtype, dt->name) != 0)
            continue;
        block(f, "reference f(k): %s (%s), warps per SM, GB/s", r->gpu, ref->source);
        point(f, 0, 0);
        point(f, r->delta_warps, r->r_gbps);
        point(f, r->mwarps, r->r_gbps);
        ref_x = fmax(ref_x, r->mwarps);
        ref_y = fmax(ref_y, r->r_gbps);
        ++nref;
    }
    if (close_dat(dat, f, err, errlen) != 0)
        return -1;
    if (!draw)
        return 0;

    char *vars = NULL;
    size_t vlen = 0;
    FILE *v = begin_vars(&vars, &vlen, d, dt, dat, base);
    if (v == NULL)
        return fail(err, errlen, "out of memory");
    xg_gp_num(v, "n", n);
    xg_gp_num(v, "Z", z);
    xg_gp_num(v, "haveg", haveg);
    xg_gp_num(v, "nE", (double)o->ng);
    xg_gp_num(v, "R", fr->plateau);
    xg_gp_num(v, "delta", fr->knee);
    xg_gp_num(v, "ymax", 1.15 * (same_axes ? fmax(ymax, ref_y) : ymax));
    xg_gp_num(v, "nref", (double)nref);
    xg_gp_num(v, "refside", !same_axes);
    xg_gp_num(v, "refxmax", ref_x);
    xg_gp_num(v, "refymax", 1.15 * ref_y);
    xg_gp_fmt(v, "t_fm", "f(k) measured: triad, %zu medians", dt->nf);
    xg_gp_fmt(v, "t_ff", "f fit: R %.3g GB/s, δ %s%.3g, L %s%.3g ns", fr->plateau, bound(fr), fr->knee, bound(fr),
           o->l_fit_ns);
    if (fr->status == XG_FIT_UNSATURATED)
        xg_gp_fmt(v, "t_ff", "f fit: still rising, R ≥ %.3g GB/s, δ ≥ %.3g", fr->plateau, fr->knee);
    for (size_t e = 0; e < o->ng; ++e) {
        char name[32];
        snprintf(name, sizeof name, "t_g%zu", e + 1);
        xg_gp_fmt(v, name, "g/Z, E = %d: M_E %s%.4g Gflop/s, π %s%.3g", o->ilp[e],
               o->g[e].status == XG_FIT_UNSATURATED ? "≥ " : "", o->g[e].plateau, bound(&o->g[e]), o->g[e].knee);
    }
    size_t r = 0;
    for (size_t i = 0; ref && i < ref->n; ++i)
        if (strcmp(ref->v[i].dtype, dt->name) == 0) {
            char name[32];
            snprintf(name, sizeof name, "t_r%zu", ++r);
            xg_gp_fmt(v, name, "%s: δ %g, R %g GB/s", ref->v[i].gpu, ref->v[i].delta_warps, ref->v[i].r_gbps);
        }
    return draw_vars(v, &vars, out, xgraph_arch_gp, err, errlen);
}

int xg_draw_app(const xg_data *d, const xg_fits *fits, int k, const xg_machine *m, int ilp, const char *f_form,
                const xg_crossing *c, int nc, const char *out, bool draw, char *err, size_t errlen)
{
    const xg_dtype_data *dt = &d->dt[k];
    const xg_dtype_fit *o = &fits->dt[k];
    char dat[4300], base[4200];
    snprintf(base, sizeof base, "%s/xgraph-app-%s", out, dt->name);
    snprintf(dat, sizeof dat, "%s.dat", base);
    FILE *f;
    if (open_dat(dat, &f, err, errlen) != 0)
        return -1;
    double ymax = 0;
    block(f, "f(k) measured: stream triad (median), k in %s, GB/s", d->unit);
    for (size_t i = 0; i < dt->nf; ++i) {
        point(f, dt->f[i].k, dt->f[i].y);
        ymax = fmax(ymax, dt->f[i].y);
    }
    block(f, "f(k) as the model uses it (%s)", f_form);
    point(f, 0, 0);
    for (size_t i = 0; i < m->f.n; ++i)
        if (m->f.v[i].k < m->n)
            point(f, m->f.v[i].k, m->f.v[i].y);
    point(f, m->n, xg_curve_eval(&m->f, m->n));
    block(f, "g(x)/Z for E = %d, Z = %g, against k = n - x", ilp, m->z);
    xg_roof_fit g = {.status = XG_FIT_OK, .slope = m->g.slope, .plateau = m->g.plateau};
    demand_line(f, &g, m->n, m->z);
    ymax = fmax(ymax, fmin(m->g.slope * m->n, m->g.plateau) / m->z);
    block(f, "g(x)/Z measured, E = %d", ilp);
    size_t drawn = 0;
    for (size_t j = 0; j < dt->ng; ++j)
        for (size_t i = 0; dt->g[j].ilp == ilp && i < dt->g[j].n; ++i)
            if (dt->g[j].pts[i].k <= m->n) {
                point(f, m->n - dt->g[j].pts[i].k, dt->g[j].pts[i].y / m->z);
                ++drawn;
            }
    if (!drawn)
        empty_point(f);
    /* The label goes right of a crossing in the left half, left of one in
     * the right half, so that it stays inside the graph. */
    block(f, "crossings: k, MS throughput, 1 stable / 0 otherwise, label placed right, label placed left");
    for (int i = 0; i < nc; ++i) {
        char label[160];
        snprintf(label, sizeof label, "%s, %s: %.3g GB/s, %.3g Gflop/s", xg_state_name(c[i].state),
                 xg_stability_name(c[i].stability), c[i].ms, c[i].cs);
        bool right = c[i].k <= m->n / 2;
        fprintf(f, "%.10g %.10g %d \"%s\" \"%s\"\n", c[i].k, c[i].ms, c[i].stability == XG_STABLE, right ? label : "",
                right ? "" : label);
    }
    if (nc == 0)
        fputs("NaN NaN 0 \"\" \"\"\n", f);
    if (close_dat(dat, f, err, errlen) != 0)
        return -1;
    if (!draw)
        return 0;

    char *vars = NULL;
    size_t vlen = 0;
    FILE *v = begin_vars(&vars, &vlen, d, dt, dat, base);
    if (v == NULL)
        return fail(err, errlen, "out of memory");
    xg_gp_num(v, "n", m->n);
    xg_gp_num(v, "Z", m->z);
    xg_gp_num(v, "E", ilp);
    xg_gp_num(v, "ymax", 1.2 * fmax(ymax, o->have_f ? o->f.plateau : 0));
    xg_gp_num(v, "ncross", nc);
    xg_gp_fmt(v, "t_fm", "f(k) measured: stream triad, median of %zu points", dt->nf);
    xg_gp_fmt(v, "t_ff", "f(k) used: %.*s", (int)strcspn(f_form, ";"), f_form); /* the words before any ';' */
    xg_gp_fmt(v, "t_g", "g(x)/Z: fitted g_E, E = %d, Z = %g flop/B", ilp, m->z);
    return draw_vars(v, &vars, out, xgraph_app_gp, err, errlen);
}
