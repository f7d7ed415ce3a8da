#include "xgraph/params.h"

#include "csv.h"
#include "plausibility.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cache peak: the highest point lies before the last one and a later
 * point falls at least 10% below it (a valley), as in Li's Fig. 3.7. */
static void find_peak(const xg_dtype_data *dt, xg_dtype_fit *o)
{
    size_t peak = 0;
    for (size_t i = 1; i < dt->nf; ++i)
        if (dt->f[i].y > dt->f[peak].y)
            peak = i;
    double valley = INFINITY;
    for (size_t i = peak + 1; i < dt->nf; ++i)
        valley = fmin(valley, dt->f[i].y);
    o->have_peak = peak + 1 < dt->nf && valley < 0.9 * dt->f[peak].y;
    o->peak_k = dt->f[peak].k;
    o->peak_y = dt->f[peak].y;
    o->valley_y = valley;
}

/* Where f's plateau was measured: the memory part's arrays, one per access
 * of an iteration (size_bytes is one array's), against the last-level cache. Below 4x the cache, the
 * plateau is the cache's bandwidth, not memory's. Returns 1 cache, 0
 * memory, -1 unknown. */
#define XG_RESIDENT_FACTOR 4
static int residency(const xg_data *d, const xg_dtype_data *dt)
{
    if (isnan(d->llc_bytes) || isnan(dt->array_bytes_min))
        return -1;
    return d->memory_rows.accesses * dt->array_bytes_min < XG_RESIDENT_FACTOR * d->llc_bytes;
}

/* Whether Little's law at the knee may stand for the memory latency; the
 * residency comes first: a cache's knee cannot be about memory, whatever
 * the chase says. */
static xg_l_premise little_premise(const xg_data *d, const xg_dtype_fit *o)
{
    if (o->resident == 1)
        return XG_L_CACHE_RESIDENT;
    if (!isfinite(o->l_fit_ns))
        return XG_L_NO_KNEE;
    if (isnan(d->l_chase_ns))
        return XG_L_UNCHECKED;
    double ratio = o->l_fit_ns / d->l_chase_ns;
    return ratio >= 1 / XG_L_AGREEMENT && ratio <= XG_L_AGREEMENT ? XG_L_HOLDS : XG_L_FAILS;
}

/* Where the X-model's L comes from, and why, in words; into buf. */
static const char *l_source(const xg_dtype_fit *o, char *buf, size_t len)
{
    static const char *const why[] = {
        [XG_L_FAILS] = "its premise fails",
        [XG_L_CACHE_RESIDENT] = "not about memory where f's arrays are cache-resident",
        [XG_L_NO_KNEE] = "f has no knee",
        [XG_L_UNCHECKED] = "unchecked, no main-memory pointer chase",
    };
    if (o->l_premise == XG_L_HOLDS)
        snprintf(buf, len, "Little's law at the knee (within %gx of the pointer chase)", XG_L_AGREEMENT);
    else
        snprintf(buf, len, "%s (Little's law at the knee: %s)", isnan(o->l_ns) ? "unknown" : "the pointer chase",
                 why[o->l_premise]);
    return buf;
}

void xg_fit_all(const xg_data *d, xg_fits *out)
{
    memset(out, 0, sizeof *out);
    for (int k = 0; k < XG_NDTYPES; ++k) {
        const xg_dtype_data *dt = &d->dt[k];
        xg_dtype_fit *o = &out->dt[k];
        o->best = -1;
        o->m_peak = o->l_fit_ns = o->l_ns = NAN;
        o->resident = residency(d, dt);
        o->l_premise = XG_L_NO_KNEE; /* until f is fitted */
        if (dt->nf && xg_fit_roof(dt->f, dt->nf, &o->f) == 0) {
            o->have_f = true;
            o->l_fit_ns = xg_little_latency_ns(o->f.knee, d->threads_per_unit, d->compute_units,
                                               dt->bytes_per_thread, o->f.plateau);
            o->l_premise = little_premise(d, o);
            o->l_ns = o->l_premise == XG_L_HOLDS ? o->l_fit_ns : d->l_chase_ns;
            find_peak(dt, o);
            /* Bytes in flight per unit of k over the whole device: the
             * latencies come out in ns against GB/s. */
            double b = dt->bytes_per_thread * d->threads_per_unit * d->compute_units;
            o->have_cache = o->have_peak && xg_fit_cache(dt->f, dt->nf, b, &o->cache) == 0;
        }
        for (size_t e = 0; e < dt->ng; ++e) {
            if (xg_fit_peak(dt->g[e].pts, dt->g[e].n, &o->g[o->ng]) != 0)
                continue;
            o->ilp[o->ng] = dt->g[e].ilp;
            if (o->best < 0 || o->g[o->ng].plateau > o->m_peak) {
                o->best = (int)o->ng;
                o->m_peak = o->g[o->ng].plateau;
            }
            ++o->ng;
        }
    }
}

static xg_param *add(xg_param_list *l, const char *parameter, const char *dtype, int ilp, double value,
                     const char *unit, double quality, const char *source)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        xg_param *v = realloc(l->v, cap * sizeof *v);
        if (v == NULL)
            return NULL;
        l->v = v;
        l->cap = cap;
    }
    xg_param *p = &l->v[l->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->parameter, sizeof p->parameter, "%s", parameter);
    snprintf(p->dtype, sizeof p->dtype, "%s", dtype);
    p->ilp = ilp;
    p->value = value;
    snprintf(p->unit, sizeof p->unit, "%s", unit);
    p->quality = quality;
    snprintf(p->source, sizeof p->source, "%s", source);
    return p;
}

static void note(xg_param *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(xg_param *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->note, sizeof p->note, fmt, ap);
    va_end(ap);
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* What a fit's status makes of its knee: exact, or a bound. */
static const char *relation(const xg_roof_fit *f)
{
    return f->status == XG_FIT_SATURATED ? "<=" : f->status == XG_FIT_OK ? "=" : ">=";
}
/* And of its plateau. */
static const char *plateau_bound(const xg_roof_fit *f)
{
    return f->status == XG_FIT_OK || f->status == XG_FIT_SATURATED ? "" : ">= ";
}

static void fit_note(xg_param *p, const xg_roof_fit *f, const char *what)
{
    switch (f->status) {
    case XG_FIT_OK:
        note(p, "%s: min(slope*k, plateau), least absolute relative deviation; %zu rising and %zu plateau "
                "point(s)%s",
             what, f->n_rising, f->n_plateau, f->n_plateau == 1 ? "; the plateau rests on one point" : "");
        break;
    case XG_FIT_SATURATED:
        note(p, "%s: saturated at the smallest concurrency measured (k_min = %g): every point within %.0f%% of "
                "the plateau, so the knee is at most k_min and the slope at least plateau/k_min",
             what, f->k_min, 100 * f->tolerance);
        break;
    case XG_FIT_UNSATURATED:
        note(p, "%s: still rising at the largest concurrency measured (k_max = %g): the plateau is at least the "
                "largest throughput and the knee at least k_max",
             what, f->k_max);
        break;
    default:
        note(p, "%s: one concurrency measured: plateau >= its throughput, slope >= throughput/k, no knee", what);
        break;
    }
}

static void verdict(xg_param *p, const char *a, double va, const char *b, double vb)
{
    double dev = va / vb - 1;
    p->value = fabs(dev) <= XG_CONSISTENCY ? 1 : 0;
    note(p, "%s: %s = %.4g is %+.1f%% from %s = %.4g (limit +-%.0f%%)", p->value ? "yes" : "no", a, va, 100 * dev, b,
         vb, 100 * XG_CONSISTENCY);
}

/* Li's Eq. 3.5 where f(k) shows a cache peak; a row saying so where not. */
static int build_cache(const xg_data *d, const xg_dtype_data *dt, const xg_dtype_fit *o, xg_param_list *l)
{
    const char *ty = dt->name;
    char src[160];
    snprintf(src, sizeof src, "%.60s: %s, %s sweep, Eq. 3.5", base(d->memory_csv), d->memory_rows.variant,
             d->memory_rows.sweep);
    xg_param *p;
    if (!o->have_cache) {
        if (!(p = add(l, "cache_peak", ty, 0, NAN, d->unit, NAN, src)))
            return -1;
        if (o->have_peak)
            note(p, "f(k) peaks at k = %g (%.4g GB/s) and falls to %.4g GB/s, but Eq. 3.5 did not fit", o->peak_k,
                 o->peak_y, o->valley_y);
        else
            note(p, "no cache peak in f(k) (no point 10%% below an earlier maximum): the cache form (Li's Eq. 3.5) "
                    "is not fitted");
        return 0;
    }
    const xg_cache_params *c = &o->cache.p;
    double q = o->cache.rel_rms;
    struct {
        const char *name;
        double v;
        const char *unit, *what;
    } rows[] = {
        {"cache_peak", o->peak_k, d->unit, "psi: where the measured f(k) peaks before its valley"},
        {"L_cache_ns", c->l_cache, "ns", "L$, the cache latency (Eq. 3.5)"},
        {"L_eq35_ns", c->l_mem, "ns", "L, the memory latency before saturation (Eq. 3.5)"},
        {"R_eq35", c->r, "GB/s", "R, the memory throughput (Eq. 3.5)"},
        {"S_over_beta", c->s_cache / c->beta, d->unit, "S$/beta, the cache's share in units of k (Eq. 3.3)"},
        {"alpha", c->alpha, "", "alpha, the locality exponent (Eq. 3.3)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        if (!(p = add(l, rows[i].name, ty, 0, rows[i].v, rows[i].unit, i ? q : NAN, src)))
            return -1;
        note(p, "%s; Nelder-Mead, %d iterations%s", rows[i].what, o->cache.iterations,
             o->cache.converged ? "" : ", not converged");
    }
    return 0;
}

/* The same check in units of the host's own memory limit, measured with
 * every point: a shared machine's bandwidth drifts between f's sweep and
 * the fixed-size one, the ratios less. The limit of large arrays is
 * measured in the same rounds as the points (stream's measure_points.c). */
static int build_drift(const xg_data *d, const xg_dtype_data *dt, const xg_dtype_fit *o, xg_param_list *l)
{
    if (dt->nf_ref == 0 || isnan(dt->fixed_ref))
        return 0;
    double v[256];
    size_t n = 0;
    for (size_t i = 0; i < dt->nf_ref && n < 256; ++i)
        if (o->f.status == XG_FIT_SATURATED || dt->f_ref[i].k >= o->f.knee)
            v[n++] = dt->f_ref[i].y;
    if (n == 0)
        return 0;
    for (size_t i = 1; i < n; ++i) /* a few values: insertion sort for the median */
        for (size_t j = i; j > 0 && v[j] < v[j - 1]; --j) {
            double t = v[j];
            v[j] = v[j - 1], v[j - 1] = t;
        }
    double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    const char *ty = dt->name;
    char src[160];
    snprintf(src, sizeof src, "%.60s: ref_ratio of the %s rows", base(d->memory_csv), d->memory_rows.variant);
    xg_param *p;
    if (!(p = add(l, "R_host_ratio", ty, 0, med, "x host limit", NAN, src)))
        return -1;
    const char *how = d->is_cpu ? "beside" : "interleaved with";
    note(p, "f's plateau against the host's memory limit measured %s each point%s: the median ratio of the %zu "
            "plateau point(s)", how, d->is_cpu ? " with the device idle" : "", n);
    if (!(p = add(l, d->fixed_ratio_param, ty, 0, dt->fixed_ref, "x host limit", NAN, src)))
        return -1;
    note(p, "the fixed-size %s against the host's limit measured %s it", d->memory_rows.variant, how);
    char ratio[96];
    snprintf(ratio, sizeof ratio, "R_host_ratio / %s", d->fixed_ratio_param);
    if (!(p = add(l, "R_consistent_drift", ty, 0, NAN, "yes=1/no=0", NAN, ratio)))
        return -1;
    verdict(p, "R_host_ratio", med, d->fixed_ratio_param, dt->fixed_ref);
    return 0;
}

/* What names R, and why the residency is what it is. */
static void residency_words(const xg_data *d, const xg_dtype_data *dt, int cache, char *what, size_t wlen, char *why,
                            size_t ylen)
{
    const double mib = 1024.0 * 1024.0;
    double ws = d->memory_rows.accesses * dt->array_bytes_min;
    const char *mixed = dt->array_bytes_max > dt->array_bytes_min ? " (the smallest of f's rows)" : "";
    if (cache < 0) {
        snprintf(why, ylen, "residency unknown: %s",
                 isnan(d->llc_bytes) ? "no last-level cache size in the metadata"
                                     : "f's rows record no array size");
        snprintf(what, wlen, "R, the plateau of the memory system or of a cache (%s)", why);
        return;
    }
    snprintf(why, ylen, "the %s arrays, %.4g MiB in all%s, are %s %dx the %.4g MiB last-level cache: %s",
             d->memory_rows.variant, ws / mib, mixed, cache ? "below" : "at least", XG_RESIDENT_FACTOR,
             d->llc_bytes / mib, cache ? "this is the cache's bandwidth, not memory's" : "they stream from memory");
    snprintf(what, wlen, "%s: %s", cache ? "R (cache)" : "R, the memory system's plateau", why);
}

/* Little's law at the knee, L_fit_ns: its value where the pointer chase
 * confirms its premise, else empty with the reason and the value it gave,
 * so that nothing is lost. */
static int build_little(const xg_data *d, const xg_dtype_data *dt, const xg_dtype_fit *o, const char *why_resident,
                        const char *src, xg_param_list *l)
{
    const xg_roof_fit *f = &o->f;
    char law[256];
    snprintf(law, sizeof law,
             "L %s delta x %g thread(s) per unit x %g compute units x b / R, b = %g bytes (%s: %d loads and stores "
             "of %g-byte %s per iteration)",
             relation(f), d->threads_per_unit, d->compute_units, dt->bytes_per_thread, d->memory_rows.variant,
             d->memory_rows.accesses, dt->element_bytes, dt->name);
    double ratio = o->l_fit_ns / d->l_chase_ns;
    bool kept = o->l_premise == XG_L_HOLDS;
    xg_param *p = add(l, "L_fit_ns", dt->name, 0, kept ? o->l_fit_ns : NAN, "ns", kept ? f->rel_rms : NAN, src);
    if (p == NULL)
        return -1;
    switch (o->l_premise) {
    case XG_L_HOLDS:
        note(p, "Little's law at the knee: %s; its premise holds: %.2gx the %.4g ns pointer chase (within %gx)", law,
             ratio, d->l_chase_ns, XG_L_AGREEMENT);
        break;
    case XG_L_FAILS:
        note(p, "omitted: Little's law at the knee gives %.4g ns, %.2gx the %.4g ns pointer chase; its premise (one "
                "memory latency per delta x b bytes in flight) fails: %s (%s)",
             o->l_fit_ns, ratio, d->l_chase_ns,
             ratio < 1 ? "prefetchers and vector loads keep more in flight"
                       : "f saturates only with more bytes in flight than one memory latency needs, so something "
                         "else sets the knee",
             law);
        break;
    case XG_L_CACHE_RESIDENT:
        note(p, "omitted: cache-resident arrays: Little's law here is not about memory; it gives %.4g ns at the knee "
                "of f measured in a cache (%s; %s)",
             o->l_fit_ns, why_resident, law);
        break;
    case XG_L_NO_KNEE:
        note(p, "omitted: f has no knee (one concurrency measured), so Little's law has no delta to apply to");
        break;
    case XG_L_UNCHECKED:
        note(p, "omitted: no main-memory pointer chase to check the premise against (%s); Little's law at the knee "
                "gives %.4g ns (%s)",
             d->l_chase_note, o->l_fit_ns, law);
        break;
    }
    return 0;
}

static int build_fixed(const xg_data *d, const xg_dtype_data *dt, const xg_dtype_fit *o, xg_param_list *l);

static int build_memory(const xg_data *d, const xg_dtype_data *dt, const xg_dtype_fit *o, xg_param_list *l)
{
    const char *ty = dt->name;
    char src[160];
    snprintf(src, sizeof src, "%.60s: %s, %s sweep, %zu points", base(d->memory_csv), d->memory_rows.variant,
             d->memory_rows.sweep, dt->nf);
    const xg_roof_fit *f = &o->f;
    xg_param *p;

    char what[320], why[240];
    residency_words(d, dt, o->resident, what, sizeof what, why, sizeof why);
    if (!(p = add(l, "R", ty, 0, f->plateau, "GB/s", f->rel_rms, src)))
        return -1;
    fit_note(p, f, what);
    char rsrc[256];
    snprintf(rsrc, sizeof rsrc,
             "%.60s: %d x size_bytes of the %s rows; the larger of llc_bytes and device.cache_bytes of its metadata",
             base(d->memory_csv), d->memory_rows.accesses, d->memory_rows.sweep);
    if (!(p = add(l, "R_resident", ty, 0, o->resident < 0 ? NAN : o->resident, "cache=1/memory=0", NAN, rsrc)))
        return -1;
    note(p, "%s", why);
    if (!(p = add(l, "s", ty, 0, f->slope, "", f->rel_rms, src)))
        return -1;
    snprintf(p->unit, sizeof p->unit, "GB/s per %s", d->unit);
    note(p, "slope of f(k) below the knee%s", f->status == XG_FIT_SATURATED ? ": a lower bound (R/k_min)" : "");
    if (!(p = add(l, "delta_k", ty, 0, f->knee, d->unit, f->rel_rms, src)))
        return -1;
    note(p, "Li's delta, where f(k) saturates: delta %s %.4g %s%s", relation(f), f->knee, d->unit,
         f->status == XG_FIT_OK ? " (R/s)" : "");
    if (!(p = add(l, "delta95_k", ty, 0, f->reach95, d->unit, NAN, src)))
        return -1;
    note(p, "%s", isnan(f->reach95) ? "the measured curve never reaches 95% of R"
                                     : "the smallest measured k whose throughput reaches 95% of R");

    if (build_little(d, dt, o, why, src, l) != 0)
        return -1;
    if (!(p = add(l, "L_chase_ns", ty, 0, d->l_chase_ns, "ns", NAN, d->have_latency ? base(d->latency_csv) : "")))
        return -1;
    note(p, "%s", d->l_chase_note);
    if (!(p = add(l, "L_ratio", ty, 0, o->l_fit_ns / d->l_chase_ns, "", NAN, "L_fit_ns / L_chase_ns")))
        return -1;
    if (isnan(d->l_chase_ns))
        note(p, "no pointer-chase latency to compare with");
    else
        note(p, "%sthe check of L_fit_ns's premise: within %g..%g it holds and L_fit_ns is L, else L is the chase's "
                "(the chase has one load in flight per thread, f's kernel streams with prefetching)",
             f->status == XG_FIT_SATURATED ? "an upper bound, as L_fit is; " : "", 1 / XG_L_AGREEMENT, XG_L_AGREEMENT);
    bool little = o->l_premise == XG_L_HOLDS;
    if (!(p = add(l, "L_ns", ty, 0, o->l_ns, "ns", little ? f->rel_rms : NAN,
                  little ? "L_fit_ns" : isnan(o->l_ns) ? "" : "L_chase_ns")))
        return -1;
    char from[200];
    note(p, "the X-model's L: %s", l_source(o, from, sizeof from));

    if (build_cache(d, dt, o, l) != 0)
        return -1;

    return build_fixed(d, dt, o, l) != 0 ? -1 : build_drift(d, dt, o, l);
}

/* f's plateau against the memory part's row at its fixed size. */
static int build_fixed(const xg_data *d, const xg_dtype_data *dt, const xg_dtype_fit *o, xg_param_list *l)
{
    const char *ty = dt->name, *variant = d->memory_rows.variant;
    const char *fixed = d->memory_rows.fixed_sweep ? d->memory_rows.fixed_sweep : "fixed-size";
    const xg_roof_fit *f = &o->f;
    xg_param *p;
    char src[160], ratio[96];
    snprintf(src, sizeof src, "%.60s: %s, %s sweep (line %u)", base(d->memory_csv), variant, fixed, dt->fixed_line);
    if (!(p = add(l, d->fixed_param, ty, 0, dt->fixed_figure, "GB/s", NAN, isnan(dt->fixed_figure) ? "" : src)))
        return -1;
    if (isnan(dt->fixed_figure))
        note(p, "no %s row of the %s sweep: run %s with --sweeps %s,%s", variant, fixed, d->memory_bench,
             d->memory_rows.sweep, fixed);
    else
        note(p, "the %s %s's bandwidth at the fixed size (median)", d->memory_bench, variant);
    snprintf(ratio, sizeof ratio, "R / %s", d->fixed_param);
    if (!(p = add(l, d->over_fixed_param, ty, 0, f->plateau / dt->fixed_figure, "", NAN, ratio)))
        return -1;
    note(p, "%sR from the %s sweep against the fixed-size %s", plateau_bound(f), d->memory_rows.sweep, variant);
    if (!(p = add(l, "R_consistent", ty, 0, NAN, "yes=1/no=0", NAN, ratio)))
        return -1;
    if (isnan(dt->fixed_figure))
        note(p, "not checked: no fixed-size %s", variant);
    else
        verdict(p, "R", f->plateau, d->fixed_param, dt->fixed_figure);
    return 0;
}

static int build_compute(const xg_data *d, const xg_dtype_data *dt, const xg_dtype_fit *o, xg_param_list *l)
{
    const char *ty = dt->name;
    xg_param *p;
    if (!d->have_compute || o->ng == 0) {
        if (!(p = add(l, "M", ty, 0, NAN, "Gflop/s", NAN, "")))
            return -1;
        if (!d->have_compute)
            note(p, "no %s-%s.csv in the directory: M, m_E and pi_E not fitted, g(x) not drawn", d->compute_bench,
                 d->backend);
        else
            note(p, "no valid %s rows of the %s concurrency sweep in %s", ty, d->compute_bench, base(d->compute_csv));
        return 0;
    }
    char src[160], unit[40];
    for (size_t e = 0; e < o->ng; ++e) {
        const xg_roof_fit *g = &o->g[e];
        int ilp = o->ilp[e];
        snprintf(src, sizeof src, "%.60s: %s, ilp=%d, concurrency sweep, %zu points", base(d->compute_csv),
             d->compute_bench, ilp, g->n);
        if (!(p = add(l, "M_E", ty, ilp, g->plateau, "Gflop/s", g->rel_rms, src)))
            return -1;
        fit_note(p, g, "the computation system's peak at this ILP (the median of the points within 5% of the "
                       "highest)");
        if (!(p = add(l, "M_E_settled", ty, ilp, g->settled, "Gflop/s", NAN, src)))
            return -1;
        note(p, "the median of all plateau points: %s", g->settled < 0.95 * g->plateau
                                                           ? "below M_E, since g_E sags past its peak where more "
                                                             "work-items per compute unit cost throughput"
                                                           : "M_E within 5%: the plateau is flat");
        snprintf(unit, sizeof unit, "Gflop/s per %s", d->unit);
        if (!(p = add(l, "m_E", ty, ilp, g->slope, unit, g->rel_rms, src)))
            return -1;
        note(p, "slope of g_E(x) below pi_E (2 flops per FMA)");
        if (!(p = add(l, "pi_E", ty, ilp, g->knee, d->unit, g->rel_rms, src)))
            return -1;
        note(p, "Li's pi, where g_E(x) saturates: pi %s %.4g %s%s", relation(g), g->knee, d->unit,
             g->status == XG_FIT_OK ? " (M_E/m_E)" : "");
    }
    const xg_roof_fit *gb = &o->g[o->best];
    snprintf(src, sizeof src, "%.60s: the largest M_E", base(d->compute_csv));
    if (!(p = add(l, "M", ty, o->ilp[o->best], o->m_peak, "Gflop/s", gb->rel_rms, src)))
        return -1;
    note(p, "%sthe computation system's peak: the largest M_E over %zu ILP value(s), at E = %d",
         plateau_bound(gb), o->ng, o->ilp[o->best]);
    snprintf(src, sizeof src, "%.60s: line %u", base(d->compute_csv), dt->compute_best_line);
    if (!(p = add(l, "M_best_measured", ty, 0, dt->compute_best, "Gflop/s", NAN, src)))
        return -1;
    note(p, "the best %s point of the run (median figure)", d->compute_bench);
    if (!(p = add(l, "M_over_best", ty, 0, o->m_peak / dt->compute_best, "", NAN, "M / M_best_measured")))
        return -1;
    note(p, "the fitted peak against the best measured point: far below 1 only where the top of the curve rests "
            "on points more than 5%% apart");
    if (!(p = add(l, "M_consistent", ty, 0, NAN, "yes=1/no=0", NAN, "M / M_best_measured")))
        return -1;
    verdict(p, "M", o->m_peak, "M_best_measured", dt->compute_best);
    if (o->have_f) {
        if (!(p = add(l, "Z_ridge", ty, 0, o->m_peak / o->f.plateau, "flop/B", NAN, "M / R")))
            return -1;
        note(p, "the machine's DLP (Li): the ridge point; an application with Z below it is memory-bound");
        if (!(p = add(l, "n_balance", ty, o->ilp[o->best], o->f.knee + gb->knee, d->unit, NAN, "delta + pi_E")))
            return -1;
        note(p, "the machine's TLP (Li): threads per unit to saturate both systems at once, at E = %d",
             o->ilp[o->best]);
    }
    return 0;
}

/* ---- the plausibility gate on the model's headline parameters ---- */

/* R is labelled cache where the arrays sat in one, and judged against the
 * memory peak otherwise; M and M_E against the compute peak of their type.
 * A few percent above is clock and rounding slack, as in the benchmarks. */
static void gate(const xg_data *d, int k, const xg_dtype_fit *o, xg_param *p)
{
    if (!isfinite(p->value))
        return;
    if (strcmp(p->parameter, "R") == 0) {
        if (o->resident == 1)
            CR_FLAG(p, "cache", "the %s arrays sat in the last-level cache: this R is the cache's, not memory's",
                    d->memory_rows.variant);
        else if (isfinite(d->peak_memory_gbs) && p->value > CR_PEAK_MARGIN * d->peak_memory_gbs)
            CR_FLAG(p, "above-peak", "%.4g GB/s is %.3gx the memory peak of %.4g GB/s (%s)", p->value,
                 p->value / d->peak_memory_gbs, d->peak_memory_gbs, d->peak_memory_source);
    } else if ((strcmp(p->parameter, "M") == 0 || strcmp(p->parameter, "M_E") == 0) && isfinite(d->peak_gflops[k]) &&
               p->value > CR_PEAK_MARGIN * d->peak_gflops[k]) {
        CR_FLAG(p, "above-peak", "%.4g Gflop/s is %.3gx the %s peak of %.4g GFLOP/s (%s)", p->value,
             p->value / d->peak_gflops[k], p->dtype, d->peak_gflops[k], d->peak_compute_source);
    }
}

int xg_params_build(const xg_data *d, const xg_fits *fits, xg_param_list *out)
{
    for (int k = 0; k < XG_NDTYPES; ++k) {
        const xg_dtype_data *dt = &d->dt[k];
        const xg_dtype_fit *o = &fits->dt[k];
        if (!o->have_f && o->ng == 0)
            continue;
        size_t first = out->n;
        if (o->have_f && build_memory(d, dt, o, out) != 0)
            return -1;
        if (build_compute(d, dt, o, out) != 0)
            return -1;
        for (size_t i = first; i < out->n; ++i)
            gate(d, k, o, &out->v[i]);
    }
    return 0;
}

const xg_param *xg_params_find(const xg_param_list *l, const char *parameter, const char *dtype, int ilp)
{
    for (size_t i = 0; i < l->n; ++i)
        if (strcmp(l->v[i].parameter, parameter) == 0 && strcmp(l->v[i].dtype, dtype) == 0 &&
            (ilp == 0 || l->v[i].ilp == ilp))
            return &l->v[i];
    return NULL;
}

static int write_rows(FILE *f, void *ctx)
{
    const xg_param_list *l = ctx;
    fputs("parameter,dtype,ilp,value,unit,fit_quality,source,flags,note\n", f);
    for (size_t i = 0; i < l->n; ++i) {
        const xg_param *p = &l->v[i];
        cr_csv_field(f, p->parameter);
        fputc(',', f);
        cr_csv_field(f, p->dtype);
        fputc(',', f);
        if (p->ilp)
            fprintf(f, "%d", p->ilp);
        fputc(',', f);
        cr_csv_double(f, isfinite(p->value) ? p->value : NAN);
        fputc(',', f);
        cr_csv_field(f, p->unit);
        fputc(',', f);
        cr_csv_double(f, isfinite(p->quality) ? p->quality : NAN);
        fputc(',', f);
        cr_csv_field(f, p->source);
        fputc(',', f);
        cr_csv_field(f, p->flags);
        fputc(',', f);
        cr_csv_field(f, p->note);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int xg_params_write(const xg_param_list *l, const char *path, char *err, size_t errlen)
{
    return cr_write_atomic(path, write_rows, (void *)l, err, errlen);
}

void xg_params_free(xg_param_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}
