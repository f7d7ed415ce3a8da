#include "cache/analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cc_confidence_name(cc_confidence c)
{
    return c == CC_CONF_HIGH ? "high" : c == CC_CONF_MEDIUM ? "medium" : "low";
}

cc_confidence cc_confidence_of(double rise, double noise)
{
    if (rise >= 0.3 && rise >= 10 * noise)
        return CC_CONF_HIGH;
    return rise >= 3 * noise ? CC_CONF_MEDIUM : CC_CONF_LOW;
}

double cc_between(double a_ns, double b_ns) { return sqrt(a_ns * b_ns); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n-1] (n >= 1), v left as it was. */
static double median_of(const double *v, size_t n)
{
    double *c = malloc(n * sizeof *c);
    if (!c)
        return v[n / 2];
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return m;
}

/* The relative noise of a stretch v[0..n-1]: the median step from one
 * point to the next, relative; a stretch of one point tells nothing, so
 * it counts as CC_SETTLE, the largest step a flat stretch may take. */
static double stretch_noise(const double *v, size_t n)
{
    if (n < 2)
        return CC_SETTLE;
    double *d = malloc((n - 1) * sizeof *d);
    if (!d)
        return CC_SETTLE;
    for (size_t k = 0; k + 1 < n; ++k)
        d[k] = fabs(v[k + 1] / v[k] - 1);
    double m = median_of(d, n - 1);
    free(d);
    return m;
}

/* The valid points, as parallel arrays with their original indices. */
typedef struct {
    size_t m;
    double *x, *t;
    /* The lower envelope from the right: env[i] = min(t[i..m-1]). A
     * walk's latency never falls as its footprint grows, so a point slower
     * than a larger footprint's was slowed by something else (another
     * tenant, the scheduler). */
    double *env;
    size_t *at;
} valid_points;

static int take_valid(const cc_point *p, size_t n, valid_points *v)
{
    memset(v, 0, sizeof *v);
    v->x = malloc((n ? n : 1) * sizeof *v->x);
    v->t = malloc((n ? n : 1) * sizeof *v->t);
    v->env = malloc((n ? n : 1) * sizeof *v->env);
    v->at = malloc((n ? n : 1) * sizeof *v->at);
    if (!v->x || !v->t || !v->env || !v->at)
        return -1;
    for (size_t i = 0; i < n; ++i)
        if (p[i].valid && p[i].ns > 0 && isfinite(p[i].ns)) {
            v->x[v->m] = p[i].x;
            v->t[v->m] = p[i].ns;
            v->at[v->m++] = i;
        }
    for (size_t i = v->m; i-- > 0;)
        v->env[i] = i + 1 < v->m ? fmin(v->t[i], v->env[i + 1]) : v->t[i];
    return 0;
}

static void free_valid(valid_points *v)
{
    free(v->x);
    free(v->t);
    free(v->env);
    free(v->at);
}

static double rise_at(const valid_points *v, size_t i) { return v->t[i + 1] / v->t[i] - 1; }

/* Where half the loads go beyond the level: the footprint at which the
 * latency crosses halfway from ns to next_ns, interpolated in log x
 * between the swept points either side, on the lower envelope (a disturbed
 * point would end the level early). Returns the swept x nearest the
 * crossing (the last x where the latency never gets there), the crossing
 * itself in *crossing. */
static double half_miss_point(const valid_points *v, size_t stretch_end, double ns, double next_ns, double *crossing)
{
    double half = (ns + next_ns) / 2;
    const double *env = v->env;
    size_t q = stretch_end;
    while (q + 1 < v->m && env[q + 1] < half)
        ++q;
    double at = v->x[q];
    *crossing = at;
    if (q + 1 < v->m && env[q] < half) {
        double lo = log(v->x[q]), hi = log(v->x[q + 1]);
        double lx = lo + (hi - lo) * (half - env[q]) / (env[q + 1] - env[q]);
        *crossing = exp(lx);
        /* A crossing right after a point still at the level's latency is
         * a sharp step: the level serves x[q] whole, and how far into the
         * step the next point lies says how its replacement treats a
         * little overflow, not that the level is larger. */
        bool sharp = q == stretch_end && env[q] < ns * (1 + CC_RISE);
        if (!sharp && lx - lo > hi - lx)
            at = v->x[q + 1];
    }
    return at;
}

void cc_find_levels(const cc_point *p, size_t n, cc_levels *out)
{
    memset(out, 0, sizeof *out);
    valid_points v;
    if (take_valid(p, n, &v) != 0 || v.m == 0) {
        free_valid(&v);
        return;
    }
    size_t stretch_end[CC_MAX_LEVELS];
    size_t start = 0, i = 0;
    while (i + 1 < v.m && out->count < CC_MAX_LEVELS) {
        /* One point far above both its neighbours is a disturbed
         * measurement, not a level's end. */
        bool spike = i + 2 < v.m && v.t[i + 2] < v.t[i] * (1 + CC_SETTLE);
        if (rise_at(&v, i) < CC_RISE || spike) {
            ++i;
            continue;
        }
        size_t len = i - start + 1;
        double ns = median_of(v.t + start, len);
        /* The transition: on while each step still rises. */
        size_t j = i + 1;
        while (j + 1 < v.m && rise_at(&v, j) >= CC_SETTLE)
            ++j;
        /* A stretch too short to be flat, hardly slower than the level
         * before, or climbing a few percent at every step, is a pause
         * inside that level's transition (a cache shared with a neighbour,
         * a partly inclusive level), not a level. */
        bool level = out->count == 0 ? len >= 2
                                     : len >= CC_MIN_STRETCH && ns >= CC_LEVEL_RATIO * out->level[out->count - 1].ns &&
                                           stretch_noise(v.env + start, len) < CC_SETTLE;
        if (level) {
            cc_boundary *b = &out->level[out->count++];
            b->first = v.at[start];
            b->last = v.at[i];
            stretch_end[out->count - 1] = i;
            b->ns = ns;
            /* Steps under CC_RISE each can still climb well above the
             * level's latency; the level serves whole only the footprints
             * still at it. */
            size_t whole = i;
            while (whole > start && v.env[whole] > ns * (1 + CC_RISE))
                --whole;
            b->onset = b->capacity = b->half_miss = v.x[whole];
            b->rise = rise_at(&v, i);
            b->noise = stretch_noise(v.t + start, len);
            b->conf = cc_confidence_of(b->rise, b->noise);
        }
        start = i = j;
    }
    if (out->count > 0 && v.m - start >= 2) {
        out->has_memory = true;
        out->memory_first = v.at[start];
        out->memory_ns = median_of(v.t + start, v.m - start);
    }
    /* A last level hardly faster than what follows is a step inside that
     * tier (the TLB's reach, DRAM pages), not a cache: it joins it. */
    while (out->count > 1 && out->has_memory && out->memory_ns < CC_NEXT_RATIO * out->level[out->count - 1].ns)
        out->memory_first = out->level[--out->count].first;
    for (unsigned k = 0; k < out->count; ++k) {
        double next = cc_next_ns(out, k);
        if (isfinite(next))
            out->level[k].capacity =
                half_miss_point(&v, stretch_end[k], out->level[k].ns, next, &out->level[k].half_miss);
    }
    free_valid(&v);
}

double cc_next_ns(const cc_levels *lv, unsigned k)
{
    if (k + 1 < lv->count)
        return lv->level[k + 1].ns;
    return lv->has_memory ? lv->memory_ns : NAN;
}

void cc_find_step(const cc_point *p, size_t n, double threshold, cc_step *out)
{
    memset(out, 0, sizeof *out);
    valid_points v;
    if (take_valid(p, n, &v) != 0 || v.m < 2) {
        free_valid(&v);
        return;
    }
    double low = v.t[0], high = v.m >= 2 ? (v.t[v.m - 1] + v.t[v.m - 2]) / 2 : v.t[v.m - 1];
    double thr = threshold > 0 ? threshold : (low + high) / 2;
    size_t at = v.m;
    while (at > 0 && v.t[at - 1] > thr)
        --at;
    if (at == 0 || at == v.m) {
        free_valid(&v);
        return;
    }
    out->found = true;
    out->x = v.x[at];
    out->at = v.at[at];
    out->low_ns = median_of(v.t, at);
    out->high_ns = median_of(v.t + at, v.m - at);
    out->rise = out->high_ns / out->low_ns - 1;
    out->noise = stretch_noise(v.t, at);
    out->conf = cc_confidence_of(out->rise, out->noise);
    free_valid(&v);
}

void cc_find_replacement(const cc_point *p, size_t n, const cc_step *ways, cc_replacement *out)
{
    memset(out, 0, sizeof *out);
    if (!ways->found)
        return;
    valid_points v;
    if (take_valid(p, n, &v) != 0) {
        free_valid(&v);
        return;
    }
    size_t at = 0;
    while (at < v.m && v.at[at] != ways->at)
        ++at;
    if (at + 1 >= v.m) {
        free_valid(&v);
        return;
    }
    out->hit_ns = ways->low_ns;
    out->at_ns = v.t[at];
    out->miss_ns = median_of(v.t + at + 1, v.m - at - 1);
    if (out->miss_ns > out->hit_ns) {
        out->found = true;
        out->measured_share = (out->at_ns - out->hit_ns) / (out->miss_ns - out->hit_ns);
        /* More than every load cannot miss: slower than the misses beyond
         * it is noise (or a neighbour's traffic) on top of all missing. */
        out->miss_share = out->measured_share > 1 ? 1 : out->measured_share;
        out->conf = cc_confidence_of(out->miss_ns / out->hit_ns - 1, ways->noise);
    }
    free_valid(&v);
}

void cc_write_allocate(double load_ns, double store_ns, double cold_ns, double noise, cc_verdict_alloc *out)
{
    memset(out, 0, sizeof *out);
    if (!isfinite(load_ns) || !(cold_ns > 0) || !(cold_ns > load_ns) || !isfinite(store_ns))
        return;
    if (load_ns <= 0) {
        out->load_at_zero = true;
        load_ns = 0;
    }
    /* From a hit that costs nothing measurable, any eviction is a gap. */
    double gap = load_ns > 0 ? cold_ns / load_ns - 1 : INFINITY;
    out->share = (store_ns - load_ns) / (cold_ns - load_ns);
    out->conf = cc_confidence_of(gap, noise);
    out->known = gap >= 3 * noise && (out->share < 0.25 || out->share > 0.75);
    out->allocate = out->share < 0.25;
}

void cc_write_back(double in_ns, double out_ns, double noise, cc_verdict_back *out)
{
    memset(out, 0, sizeof *out);
    if (!(in_ns > 0) || !(out_ns > 0))
        return;
    out->ratio = out_ns / in_ns;
    out->write_back = out->known = out->ratio >= CC_WRITE_BACK_RATIO;
    out->conf = cc_confidence_of(out->ratio - 1, noise);
}

double cc_last_below(const cc_point *p, size_t n, double threshold)
{
    for (size_t i = n; i-- > 0;)
        if (p[i].valid && p[i].ns <= threshold)
            return p[i].x;
    return 0;
}

double cc_grid_way_size(const double *strides, const double *boundary, size_t n)
{
    if (n < 2 || !(boundary[0] > 0))
        return 0;
    for (size_t i = 0; i + 1 < n; ++i) {
        if (boundary[i] != boundary[0])
            return 0;
        if (boundary[i + 1] > boundary[0])
            return strides[i];
    }
    return 0;
}

void cc_fill_unit(const cc_point *p, size_t n, cc_step *out)
{
    memset(out, 0, sizeof *out);
    /* The fastest of the first three: below any line there is, and
     * another process only ever slows a point, never speeds it up. */
    double low = INFINITY;
    for (size_t i = 0; i < n && i < 3; ++i)
        if (p[i].valid && p[i].ns < low)
            low = p[i].ns;
    if (isfinite(low))
        cc_find_step(p, n, low * (1 + CC_FILL_RISE), out);
}

bool cc_fill_step_plausible(const cc_point *p, size_t n, const cc_step *unit, double level_ns, double next_ns)
{
    if (!unit->found || unit->at >= n || !(next_ns > level_ns))
        return unit->found;
    return p[unit->at].ns - unit->low_ns >= CC_PAIR_MIN_SHARE * (next_ns - level_ns) / 2;
}

/* The largest power of two at most v (>= 1). */
static double pow2_below(double v)
{
    double p = 1;
    while (p * 2 <= v)
        p *= 2;
    return p;
}

void cc_tag_line_of(const cc_point *p, size_t n, double capacity, double threshold, double unit, unsigned odd,
                    cc_tag_line *out)
{
    memset(out, 0, sizeof *out);
    out->boundary = cc_last_below(p, n, threshold);
    if (!(out->boundary > 0) || !(capacity > 0) || !(unit > 0))
        return;
    out->found = true;
    out->ratio = out->boundary / capacity;
    /* Lines of one, two, four... units: the boundary's ratio is odd, odd
     * / 2, ... down to 1 once the line holds a whole stride. */
    double per_line = (double)odd / out->ratio;
    if (out->ratio < 1.25) {
        out->at_least = true;
        out->line = unit * pow2_below(odd) * 2;
    } else {
        out->line = unit * pow2_below(per_line * 1.2);
    }
}

bool cc_within_one_step(const double *swept, size_t n, double detected, double reference)
{
    if (n == 0 || !(detected > 0) || !(reference > 0))
        return false;
    size_t a = cc_nearest_swept(swept, n, detected), b = cc_nearest_swept(swept, n, reference);
    return (a > b ? a - b : b - a) <= 1;
}

double cc_share_available(const double *swept, size_t n, double detected, double nominal, const char *shared_cpus,
                          char *note, size_t len)
{
    /* A level the system lists one CPU for is this core's own: a shortfall
     * there is not others' share. */
    bool private_level = *shared_cpus && strpbrk(shared_cpus, ",-") == NULL;
    if (!(detected > 0) || !(nominal > detected) || private_level || cc_within_one_step(swept, n, detected, nominal))
        return NAN;
    double share = detected / nominal;
    snprintf(note, len,
             "%.0f B of the nominal %.0f B (%.0f%%) is what this process has: others sharing the level hold the rest "
             "(%s%s; a virtual machine does not list other tenants')",
             detected, nominal, 100 * share, *shared_cpus ? "the system lists CPUs " : "no list of the CPUs sharing it",
             shared_cpus);
    return share;
}
