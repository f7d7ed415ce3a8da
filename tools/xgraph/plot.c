#define _POSIX_C_SOURCE 200809L
#include "xgraph/plot.h"

#include "csv.h"
#include "error.h"
#include "xgraph/gnuplot.h"
#include "pending.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* plot/xgraph_arch.gp and plot/xgraph_app.gp, embedded by the build. */
extern const char xgraph_arch_gp[];
extern const char xgraph_app_gp[];

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

/* The graph's n: f's whole sweep, and g's as far as four times its latest
 * knee: a CPU's compute sweep runs to hundreds of work-items per compute unit,
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

/* One X-graph on its way: the data file its script reads and, in memory,
 * the gnuplot variables set before the script runs. */
typedef struct {
    char base[4200], dat[4300];
    char drawing[4300]; /* the base gnuplot draws to, renamed to base once whole */
    FILE *f;      /* the data file, into data: written whole once complete */
    char *data;
    size_t dlen;
    FILE *v;      /* the variables, into vars */
    char *vars;
    size_t vlen;
    double f_top; /* the highest measured f(k) */
} figure;

/* The measured f(k) an X-graph shows: whose ("<bench> <variant>") and its points. */
typedef struct {
    const char *what;
    const xg_point *pts;
    size_t n;
} measured_f;

/* Opens OUT/<stem>-<dtype>.dat with the block every X-graph starts with,
 * the measured f(k), and the variables every X-graph has: its data file,
 * output base, device, type and concurrency unit. */
static int figure_open(figure *g, const char *out, const char *stem, const xg_data *d, const xg_dtype_data *dt,
                       const measured_f *mf, char *err, size_t errlen)
{
    snprintf(g->base, sizeof g->base, "%s/%s-%s", out, stem, dt->name);
    snprintf(g->dat, sizeof g->dat, "%s.dat", g->base);
    snprintf(g->drawing, sizeof g->drawing, "%s/.%s-%s.drawing.%ld", out, stem, dt->name, (long)getpid());
    g->data = g->vars = NULL;
    g->dlen = g->vlen = 0;
    g->f = open_memstream(&g->data, &g->dlen);
    g->v = g->f ? open_memstream(&g->vars, &g->vlen) : NULL;
    if (g->v == NULL) {
        if (g->f)
            fclose(g->f);
        free(g->data);
        return cr_errf(err, errlen, "out of memory writing %s", g->dat);
    }
    block(g->f, "f(k) measured: %s (median), k in %s, GB/s", mf->what, d->unit);
    g->f_top = 0;
    for (size_t i = 0; i < mf->n; ++i) {
        point(g->f, mf->pts[i].k, mf->pts[i].y);
        g->f_top = fmax(g->f_top, mf->pts[i].y);
    }
    xg_gp_path(g->v, "dat", g->dat);
    xg_gp_path(g->v, "out", g->drawing);
    xg_gp_fmt(g->v, "device", "%s (%s, %g compute units)", d->device, d->backend, d->compute_units);
    xg_gp_str(g->v, "dtype", dt->name);
    xg_gp_str(g->v, "unit", d->unit);
    return 0;
}

/* The data file as it stands in memory, for cr_write_atomic: a FIFO or a
 * link in its place is replaced, never opened. */
static int write_data(FILE *f, void *figure_)
{
    const figure *g = figure_;
    return fwrite(g->data, 1, g->dlen, f) == g->dlen ? 0 : -1;
}

/* The figure's file of kind ("png", "svg") under its temporary name, or its own. */
static void figure_file(const figure *g, bool drawing, const char *kind, char *path, size_t len)
{
    snprintf(path, len, "%s.%s", drawing ? g->drawing : g->base, kind);
}

/* Completes the data file and, when draw, runs script on it in directory
 * out. Returns as xg_gnuplot. The variables' buffer is only final once
 * their stream is closed. gnuplot draws under a temporary name, renamed
 * once both files are there: a figure is whole or absent. */
static int figure_close(figure *g, bool draw, const char *out, const char *script, char *err, size_t errlen)
{
    static const char *const kinds[] = {"png", "svg"};
    char tmp[2][sizeof g->drawing + 8], final[sizeof g->base + 8];
    for (int k = 0; k < 2; ++k) {
        figure_file(g, true, kinds[k], tmp[k], sizeof tmp[k]);
        cr_pending_add(tmp[k]);
        /* A figure an earlier drawing left must not pass for this one's. */
        figure_file(g, false, kinds[k], final, sizeof final);
        if (draw)
            unlink(final);
    }
    int rc = 0;
    bool data_done = fclose(g->f) == 0, vars_done = fclose(g->v) == 0;
    if (!data_done || !vars_done)
        rc = cr_errf(err, errlen, "out of memory writing %s", g->dat);
    else if (cr_write_atomic(g->dat, write_data, g, err, errlen) != 0)
        rc = -1;
    else if (draw)
        rc = xg_gnuplot(out, g->vars, script, err, errlen);
    free(g->data);
    free(g->vars);
    /* gnuplot can end well having drawn nothing: only a figure on disk is
     * one to report. */
    for (int k = 0; rc == 0 && draw && k < 2; ++k) {
        struct stat st;
        figure_file(g, false, kinds[k], final, sizeof final);
        if (stat(tmp[k], &st) != 0 || st.st_size == 0)
            rc = cr_errf(err, errlen, "gnuplot wrote no %s", final);
    }
    for (int k = 0; rc == 0 && draw && k < 2; ++k) {
        figure_file(g, false, kinds[k], final, sizeof final);
        if (rename(tmp[k], final) != 0)
            rc = cr_errf(err, errlen, "%s: %s", final, strerror(errno));
    }
    for (int k = 0; k < 2; ++k) {
        if (rc != 0 || !draw)
            unlink(tmp[k]);
        cr_pending_done(tmp[k]);
    }
    return rc;
}

/* The measured g_E(x)/Z of one ILP against k = n - x, as far as x = n.
 * Returns the highest value drawn, 0 when none is. */
static double measured_demand(FILE *f, const xg_dtype_data *dt, int ilp, double n, double z)
{
    double top = 0;
    size_t drawn = 0;
    for (size_t j = 0; j < dt->ng; ++j)
        for (size_t i = 0; dt->g[j].ilp == ilp && i < dt->g[j].n; ++i)
            if (dt->g[j].pts[i].k <= n) {
                point(f, n - dt->g[j].pts[i].k, dt->g[j].pts[i].y / z);
                top = fmax(top, dt->g[j].pts[i].y / z);
                ++drawn;
            }
    if (!drawn)
        empty_point(f);
    return top;
}

/* How far the architectural X-graph's axes must reach. */
typedef struct {
    double ymax;         /* the device's curves */
    double ref_x, ref_y; /* the reference lines */
    size_t nref;
} arch_extent;

/* The blocks after the measured f(k): f fitted, g_E(x)/Z fitted and
 * measured per E, the reference lines of the same type. */
static arch_extent arch_blocks(FILE *f, const xg_dtype_data *dt, const xg_dtype_fit *o, const xg_reference *ref,
                               double n, double z)
{
    const xg_roof_fit *fr = &o->f;
    arch_extent x = {.ymax = fmax(fr->plateau, fr->y_max)};
    block(f, "f(k) fitted: min(s k, R)");
    roof_line(f, fr, n);
    for (size_t e = 0; e < o->ng; ++e) {
        block(f, "g(x)/Z fitted, E = %d, against k = n - x", o->ilp[e]);
        demand_line(f, &o->g[e], n, z);
        x.ymax = fmax(x.ymax, fmin(o->g[e].slope * n, o->g[e].plateau) / z);
    }
    for (size_t e = 0; e < o->ng; ++e) {
        block(f, "g(x)/Z measured, E = %d, against k = n - x", o->ilp[e]);
        x.ymax = fmax(x.ymax, measured_demand(f, dt, o->ilp[e], n, z));
    }
    for (size_t i = 0; ref && i < ref->n; ++i) {
        const xg_ref_line *r = &ref->v[i];
        if (strcmp(r->dtype, dt->name) != 0)
            continue;
        block(f, "reference f(k): %s (%s), warps per SM, GB/s", r->gpu, ref->source);
        point(f, 0, 0);
        point(f, r->delta_warps, r->r_gbps);
        point(f, r->mwarps, r->r_gbps);
        x.ref_x = fmax(x.ref_x, r->mwarps);
        x.ref_y = fmax(x.ref_y, r->r_gbps);
        ++x.nref;
    }
    return x;
}

/* The variables plot/xgraph_arch.gp reads beyond those of every X-graph:
 * the axes, and the legend's titles. */
static void arch_vars(FILE *v, const xg_data *d, const xg_dtype_data *dt, const xg_dtype_fit *o,
                      const xg_reference *ref, double n, double z, const arch_extent *x)
{
    const xg_roof_fit *fr = &o->f;
    bool same_axes = d->threads_per_unit > 1; /* Li's lines count warps per SM, as CUDA rows do */
    xg_gp_num(v, "n", n);
    xg_gp_num(v, "Z", z);
    xg_gp_num(v, "haveg", o->ng > 0);
    xg_gp_num(v, "nE", (double)o->ng);
    xg_gp_num(v, "R", fr->plateau);
    xg_gp_num(v, "delta", fr->knee);
    xg_gp_num(v, "ymax", 1.15 * (same_axes ? fmax(x->ymax, x->ref_y) : x->ymax));
    xg_gp_num(v, "nref", (double)x->nref);
    xg_gp_num(v, "refside", !same_axes);
    xg_gp_num(v, "refxmax", x->ref_x);
    xg_gp_num(v, "refymax", 1.15 * x->ref_y);
    xg_gp_fmt(v, "t_fm", "f(k) measured: %s, %zu medians", d->memory_rows.variant, dt->nf);
    /* L is the checked one: Little's law at the knee only where the pointer
     * chase confirms it, else the chase's, said in the words that fit the
     * key (the parameters' notes give the reason). */
    char l[64];
    if (isnan(o->l_ns))
        snprintf(l, sizeof l, "L unknown");
    else if (o->l_premise == XG_L_HOLDS)
        snprintf(l, sizeof l, "L %s%.3g ns", bound(fr), o->l_ns);
    else
        snprintf(l, sizeof l, "L %.3g ns (chase)", o->l_ns);
    if (fr->status == XG_FIT_UNSATURATED)
        xg_gp_fmt(v, "t_ff", "f fit: still rising, R ≥ %.3g GB/s, δ ≥ %.3g, %s", fr->plateau, fr->knee, l);
    else
        xg_gp_fmt(v, "t_ff", "f fit: R %.3g GB/s, δ %s%.3g, %s", fr->plateau, bound(fr), fr->knee, l);
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
}

int xg_draw_arch(const xg_data *d, const xg_fits *fits, int k, const xg_reference *ref, const char *out, bool draw,
                 char *err, size_t errlen)
{
    const xg_dtype_data *dt = &d->dt[k];
    const xg_dtype_fit *o = &fits->dt[k];
    if (!o->have_f)
        return 0;
    double n = arch_n(dt, o);
    double z = o->ng > 0 ? o->m_peak / o->f.plateau : NAN;
    char what[64];
    snprintf(what, sizeof what, "%s %s", d->memory_bench, d->memory_rows.variant);
    const measured_f mf = {what, dt->f, dt->nf};
    figure g;
    if (figure_open(&g, out, "xgraph", d, dt, &mf, err, errlen) != 0)
        return -1;
    arch_extent x = arch_blocks(g.f, dt, o, ref, n, z);
    arch_vars(g.v, d, dt, o, ref, n, z, &x);
    return figure_close(&g, draw, out, xgraph_arch_gp, err, errlen);
}

/* The crossings as labelled points. The label goes right of a crossing in
 * the left half, left of one in the right half, so that it stays inside
 * the graph. */
static void crossing_block(FILE *f, const xg_machine *m, const xg_crossing *c, int nc)
{
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
}

int xg_draw_app(const xg_data *d, int k, int ilp, const xg_app_result *r, const char *out, bool draw, char *err,
                size_t errlen)
{
    const xg_dtype_data *dt = &d->dt[k];
    const xg_machine *m = &r->m;
    const measured_f mf = {r->measured_what, r->measured, r->nmeasured};
    figure g;
    if (figure_open(&g, out, "xgraph-app", d, dt, &mf, err, errlen) != 0)
        return -1;
    FILE *f = g.f;
    block(f, "f(k) as the model uses it (%s)", r->f_form);
    point(f, 0, 0);
    double f_used = 0;
    for (size_t i = 0; i < m->f.n; ++i) {
        f_used = fmax(f_used, m->f.v[i].y);
        if (m->f.v[i].k < m->n)
            point(f, m->f.v[i].k, m->f.v[i].y);
    }
    point(f, m->n, xg_curve_eval(&m->f, m->n));
    block(f, "g(x)/Z for E = %d, Z = %g, against k = n - x", ilp, m->z);
    xg_roof_fit fitted = {.status = XG_FIT_OK, .slope = m->g.slope, .plateau = m->g.plateau};
    demand_line(f, &fitted, m->n, m->z);
    double ymax = fmax(g.f_top, fmin(m->g.slope * m->n, m->g.plateau) / m->z);
    block(f, "g(x)/Z measured, E = %d", ilp);
    measured_demand(f, dt, ilp, m->n, m->z);
    crossing_block(f, m, r->c, r->nc);

    FILE *v = g.v;
    xg_gp_num(v, "n", m->n);
    xg_gp_num(v, "Z", m->z);
    xg_gp_num(v, "E", ilp);
    xg_gp_num(v, "ymax", 1.2 * fmax(ymax, f_used));
    xg_gp_num(v, "ncross", r->nc);
    xg_gp_fmt(v, "t_fm", "f(k) measured: %s, median of %zu points", r->measured_what, r->nmeasured);
    xg_gp_fmt(v, "t_ff", "f(k) used: %.*s", (int)strcspn(r->f_form, ";"), r->f_form); /* the words before any ';' */
    xg_gp_fmt(v, "t_g", "g(x)/Z: fitted g_E, E = %d, Z = %g flop/B", ilp, m->z);
    return figure_close(&g, draw, out, xgraph_app_gp, err, errlen);
}
