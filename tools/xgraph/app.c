#include "xgraph/app.h"

#include "csv.h"
#include "error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool number(const char *s, size_t len, double *out)
{
    char buf[64], *end;
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (strspn(buf, "0123456789+-.eE") != len)
        return false; /* no "inf", "nan" or hex */
    *out = strtod(buf, &end);
    return *end == '\0' && isfinite(*out);
}

int xg_app_parse(const char *text, xg_app_spec *spec, char *err, size_t errlen)
{
    bool seen[3] = {false, false, false};
    *spec = (xg_app_spec){.z = NAN, .n = NAN};
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        if (eq == NULL)
            return cr_errf(err, errlen, "--app: '%.*s' is not KEY=VALUE (Z=..,E=..,n=..)", (int)len, p);
        size_t klen = (size_t)(eq - p), vlen = len - klen - 1;
        int key = klen == 1 ? (p[0] == 'Z' ? 0 : p[0] == 'E' ? 1 : p[0] == 'n' ? 2 : -1) : -1;
        if (key < 0)
            return cr_errf(err, errlen, "--app: unknown key '%.*s' (Z, E, n)", (int)klen, p);
        if (seen[key])
            return cr_errf(err, errlen, "--app: %c given twice", p[0]);
        seen[key] = true;
        double v;
        if (!number(eq + 1, vlen, &v))
            return cr_errf(err, errlen, "--app: %c=%.*s is not a number", p[0], (int)vlen, eq + 1);
        if (key == 0 && !(v > 0))
            return cr_errf(err, errlen, "--app: Z=%g: the compute intensity must be positive (flop per byte)", v);
        if (key == 1 && !(v >= 1 && v <= 1024 && v == floor(v)))
            return cr_errf(err, errlen, "--app: E=%g: the ILP must be a whole number from 1 to 1024", v);
        if (key == 2 && !(v > 0))
            return cr_errf(err, errlen, "--app: n=%g: the concurrency must be positive", v);
        if (key == 0)
            spec->z = v;
        else if (key == 1)
            spec->ilp = (int)v;
        else
            spec->n = v;
        p += len;
        if (*p == ',' && *++p == '\0')
            return cr_errf(err, errlen, "--app: '%s' ends with an empty item", text);
    }
    for (int i = 0; i < 3; ++i)
        if (!seen[i])
            return cr_errf(err, errlen, "--app: %c missing (Z=..,E=..,n=..)", "ZEn"[i]);
    return 0;
}

/* The measured points as the curve's vertices: repeated k averaged. */
static size_t measured_vertices(const xg_point *pts, size_t n_pts, xg_point *v, size_t cap)
{
    size_t n = 0, same = 0;
    for (size_t i = 0; i < n_pts; ++i) {
        if (n && pts[i].k == v[n - 1].k) {
            v[n - 1].y = (v[n - 1].y * (double)same + pts[i].y) / (double)(same + 1);
            ++same;
            continue;
        }
        if (n == cap)
            break;
        v[n++] = pts[i];
        same = 1;
    }
    return n;
}

/* f as measured points joined, flat after the last; it reaches its
 * plateau after its last point below the plateau's 5% band (a cache peak
 * before that is not saturation). Returns the vertices; *delta where the
 * plateau starts. */
static size_t joined(xg_app_result *r, const xg_point *pts, size_t n, double plateau, double *delta)
{
    size_t nv = measured_vertices(pts, n, r->fv, sizeof r->fv / sizeof r->fv[0]);
    *delta = r->fv[0].k;
    for (size_t i = 0; i + 1 < nv; ++i)
        if (r->fv[i].y < 0.95 * plateau)
            *delta = r->fv[i + 1].k;
    return nv;
}

/* Whose measured f(k) the form draws on: the memory part's, or the
 * application's own ("<bench> <variant>", the name once where they are one). */
static void measured_source(const xg_data *d, const xg_dtype_data *dt, xg_f_form form, xg_app_result *r)
{
    bool own = form == XG_F_APP;
    const char *bench = own ? d->app_bench : d->memory_bench;
    const char *variant = own ? d->app_rows.variant : d->memory_rows.variant;
    r->measured = own ? dt->app_f : dt->f;
    r->nmeasured = own ? dt->napp : dt->nf;
    snprintf(r->measured_what, sizeof r->measured_what, "%s%s%s", bench, strcmp(bench, variant) ? " " : "",
             strcmp(bench, variant) ? variant : "");
}

/* f(k) in the form asked for, from points there are: its vertices into r
 * (0 where the fit has no plateau, r->note saying so) and *delta. */
static size_t f_curve(const xg_data *d, const xg_dtype_fit *o, const xg_dtype_data *dt, xg_f_form form,
                      xg_app_result *r, double *delta)
{
    const xg_roof_fit *ff = &o->f;
    if (form == XG_F_FIT && ff->status == XG_FIT_UNSATURATED) {
        snprintf(r->note, sizeof r->note, "f(k) still rises at the largest concurrency measured, so the fit has no "
                                          "plateau: use --f-curve measured");
        return 0;
    }
    if (form == XG_F_FIT) {
        r->fv[0] = (xg_point){ff->knee, ff->plateau};
        *delta = ff->knee;
        snprintf(r->f_form, sizeof r->f_form, "fitted min(s·k, R), R = %.4g GB/s, δ %s%.4g", ff->plateau,
                 ff->status == XG_FIT_SATURATED ? "≤ " : "", ff->knee);
        return 1;
    }
    if (form == XG_F_MEASURED) {
        size_t nv = joined(r, dt->f, dt->nf, ff->plateau, delta);
        snprintf(r->f_form, sizeof r->f_form,
                 "the %zu measured points joined, flat after the last; δ = %.4g, where they stay within 5%% of R", nv,
                 *delta);
        return nv;
    }
    /* The application's own plateau: the same roofline fit, whose plateau
     * is the median of its plateau points. */
    xg_roof_fit own;
    xg_fit_roof(dt->app_f, dt->napp, &own);
    size_t nv = joined(r, dt->app_f, dt->napp, own.plateau, delta);
    snprintf(r->f_form, sizeof r->f_form,
             "%s's own f(k), its %zu measured points joined, flat after the last; δ = %.4g, where they stay within "
             "5%% of its plateau, %.4g GB/s",
             d->app_bench, nv, *delta, own.plateau);
    return nv;
}

int xg_app_solve(const xg_data *d, const xg_fits *fits, int k, const xg_app_spec *spec, xg_f_form form,
                 xg_app_result *r, char *err, size_t errlen)
{
    const xg_dtype_data *dt = &d->dt[k];
    const xg_dtype_fit *o = &fits->dt[k];
    memset(r, 0, sizeof *r);
    measured_source(d, dt, form, r);
    if (form == XG_F_APP ? r->nmeasured == 0 : !o->have_f) {
        const cr_xmodel_rows *rows = form == XG_F_APP ? &d->app_rows : &d->memory_rows;
        snprintf(r->note, sizeof r->note, "no f(k): no %s %s rows in the %s sweep", dt->name, rows->variant,
                 rows->sweep);
        return 0;
    }
    if (o->ng == 0) {
        snprintf(r->note, sizeof r->note, "no g(x): no %s %s", d->compute_bench,
                 d->have_compute ? "rows of this type" : "CSV");
        return 0;
    }
    int e = -1;
    char have[128] = "";
    for (size_t i = 0; i < o->ng; ++i) {
        if (o->ilp[i] == spec->ilp)
            e = (int)i;
        size_t used = strlen(have);
        snprintf(have + used, sizeof have - used, "%s%d", i ? " " : "", o->ilp[i]);
    }
    if (e < 0)
        return cr_errf(err, errlen, "--app: E=%d: no %s %s rows with ilp=%d (measured: %s)", spec->ilp, dt->name,
                       d->compute_bench, spec->ilp, have);

    double delta;
    size_t nv = f_curve(d, o, dt, form, r, &delta);
    if (nv == 0)
        return 0;
    const xg_roof_fit *g = &o->g[e];
    double plateau = g->plateau;
    if (g->status == XG_FIT_UNSATURATED) {
        /* No CS plateau was measured: none is assumed inside [0, n]. */
        plateau = fmax(plateau, 2 * g->slope * spec->n);
        snprintf(r->note, sizeof r->note, "g_E still rises at the largest x measured: no CS plateau assumed");
    }
    r->m = (xg_machine){.f = {r->fv, nv}, .delta = delta, .g = {g->slope, plateau}, .z = spec->z, .n = spec->n};
    int nc = xg_crossings(&r->m, r->c, XG_MAX_CROSSINGS);
    if (nc < 0)
        return cr_errf(err, errlen, "%s: the model rejected the curves (a non-positive fitted value)", dt->name);
    r->nc = nc;
    r->done = true;
    return 0;
}

void xg_app_print(FILE *f, const xg_data *d, int k, const xg_app_spec *spec, const xg_app_result *r)
{
    const char *ty = d->dt[k].name;
    if (!r->done) {
        fprintf(f, "%s: not solved: %s\n", ty, r->note);
        return;
    }
    fprintf(f, "%s: Z = %g flop/B, E = %d, n = %g %s; f(k): %s\n", ty, spec->z, spec->ilp, spec->n, d->unit,
            r->f_form);
    if (r->note[0])
        fprintf(f, "  note: %s\n", r->note);
    int stable = 0;
    for (int i = 0; i < r->nc; ++i) {
        const xg_crossing *c = &r->c[i];
        fprintf(f, "  crossing %d: k = %.4g, x = %.4g %s: MS %.4g GB/s, CS %.4g Gflop/s; %s (df/dk %.3g, "
                   "dg/dx/Z %.3g); %s",
                i + 1, c->k, c->x, d->unit, c->ms, c->cs, xg_stability_name(c->stability), c->dfdk, c->dgdx_ms,
                xg_state_name(c->state));
        if (!isnan(c->k_end))
            fprintf(f, "; the curves coincide up to k = %.4g", c->k_end);
        fputc('\n', f);
        stable += c->stability == XG_STABLE || c->stability == XG_NEUTRAL;
    }
    for (int i = 0; i < r->nc; ++i) {
        const xg_crossing *c = &r->c[i];
        if (c->stability != XG_STABLE && c->stability != XG_NEUTRAL)
            continue;
        fprintf(f, "  predicted%s: MS %.4g GB/s, CS %.4g Gflop/s (%s, k = %.4g)\n",
                stable > 1 ? " (one of the stable states; which one the threads reach depends on where they start)"
                           : "",
                c->ms, c->cs, xg_state_name(c->state), c->k);
    }
    if (r->nc == 0)
        fprintf(f, "  no crossing in [0, n]\n");
}

typedef struct {
    const xg_data *d;
    const xg_app_spec *spec;
    const xg_app_result *r;
} app_rows;

static int write_app(FILE *f, void *ctx)
{
    const app_rows *a = ctx;
    fputs("dtype,Z,E,n,unit,f_curve,crossing,k,x,ms_GBps,cs_Gflops,stability,state,dfdk,dgdx_over_Z,k_end,note\n", f);
    for (int k = 0; k < XG_NDTYPES; ++k) {
        const xg_app_result *r = &a->r[k];
        if (!r->done)
            continue;
        for (int i = 0; i < r->nc; ++i) {
            const xg_crossing *c = &r->c[i];
            fprintf(f, "%s,%.10g,%d,%.10g,", a->d->dt[k].name, a->spec->z, a->spec->ilp, a->spec->n);
            cr_csv_field(f, a->d->unit);
            fputc(',', f);
            cr_csv_field(f, r->f_form);
            fprintf(f, ",%d,%.10g,%.10g,%.10g,%.10g,%s,%s,%.10g,%.10g,", i + 1, c->k, c->x, c->ms, c->cs,
                    xg_stability_name(c->stability), xg_state_name(c->state), c->dfdk, c->dgdx_ms);
            cr_csv_double(f, c->k_end);
            fputc(',', f);
            cr_csv_field(f, r->note);
            fputc('\n', f);
        }
    }
    return ferror(f) ? -1 : 0;
}

int xg_app_write(const char *path, const xg_data *d, const xg_app_spec *spec, const xg_app_result *r, char *err,
                 size_t errlen)
{
    app_rows a = {d, spec, r};
    return cr_write_atomic(path, write_app, &a, err, errlen);
}
