/* What Li 2016 found of gesummv that this benchmark's rows show
 * (tools/reproduce): Fig. 3.12's f(k) of an application whose work-items
 * reuse their data, a cache peak at psi and a falling slope after it,
 * where the cache thrashes. */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "shared/bench_parts.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 64
/* The least height of a peak above the plateau, beyond the rows' noise. */
#define PEAK_MARGIN 0.05

/* One type's f(k): its valid concurrency rows by k, each with the
 * relative half-width of its median's 95% interval (ci_rel; 0 where the
 * row gives none). */
typedef struct {
    double k[MAX_POINTS], y[MAX_POINTS], ci[MAX_POINTS];
    size_t n, first, last; /* the rows read: first and last line's index */
} curve;

static void read_curve(const rr_file *f, const char *dtype, curve *c)
{
    c->n = 0;
    c->first = SIZE_MAX;
    for (size_t i = 0; i < f->table.nrows && c->n < MAX_POINTS; ++i) {
        double k = rr_num(f, i, "work_items"), y = rr_num(f, i, "figure"), ci = rr_num(f, i, "ci_rel");
        if (!rr_row_is(f, i, "gesummv", "concurrency") || strcmp(rr_get(f, i, "dtype"), dtype) != 0 || !(k >= 1) ||
            !(y > 0))
            continue;
        size_t j = c->n++;
        for (; j > 0 && c->k[j - 1] > k; --j) /* kept sorted by k */
            c->k[j] = c->k[j - 1], c->y[j] = c->y[j - 1], c->ci[j] = c->ci[j - 1];
        c->k[j] = k, c->y[j] = y, c->ci[j] = ci > 0 ? ci : 0;
        c->first = c->first == SIZE_MAX ? i : c->first;
        c->last = i;
    }
}

/* The shape of one type's f(k): the plateau (the median of the last third
 * of the points, at least two), psi (the highest point before them), its
 * height over the plateau against the tolerance, and the valley after it. */
typedef struct {
    size_t tail, psi, valley;
    double plateau, ratio, tolerance;
    bool peak, falls;
} shape;

static shape shape_of(const curve *c)
{
    shape s = {.tail = c->n / 3 > 2 ? c->n / 3 : 2, .psi = 0};
    size_t from = c->n - s.tail;
    double ci_plateau = 0;
    for (size_t i = from; i < c->n; ++i)
        ci_plateau = fmax(ci_plateau, c->ci[i]);
    cr_summary tail;
    cr_summarize(c->y + from, s.tail, &tail);
    s.plateau = tail.median;
    for (size_t i = 1; i < from; ++i)
        s.psi = c->y[i] > c->y[s.psi] ? i : s.psi;
    s.valley = s.psi + 1;
    for (size_t i = s.psi + 1; i < c->n; ++i)
        s.valley = c->y[i] < c->y[s.valley] ? i : s.valley;
    s.ratio = c->y[s.psi] / s.plateau;
    s.tolerance = PEAK_MARGIN + c->ci[s.psi] + ci_plateau;
    s.peak = s.ratio > 1 + s.tolerance;
    s.falls = c->y[s.valley] < c->y[s.psi] * (1 - PEAK_MARGIN - c->ci[s.psi] - c->ci[s.valley]);
    return s;
}

/* Why a type's f(k) shows no peak and fall, in words. */
static const char *no_peak_shape(const curve *c, const shape *s)
{
    bool rises = true, flat = true;
    for (size_t i = 0; i < c->n; ++i) {
        rises &= i == 0 || c->y[i] >= c->y[i - 1] * (1 - PEAK_MARGIN - c->ci[i] - c->ci[i - 1]);
        flat &= fabs(c->y[i] / s->plateau - 1) <= s->tolerance;
    }
    return flat ? "flat: every point within the tolerance of the plateau"
           : rises ? "rising to its plateau, never falling beyond the noise"
           : s->peak ? "a peak, but no fall after it beyond the noise"
                     : "no point before the plateau clearly above it";
}

/* One type judged: said in o; whether it holds. */
static bool judge_type(const curve *c, const char *dtype, double units, rr_outcome *o)
{
    shape s = shape_of(c);
    const char *sep = *o->this_device ? "; " : "";
    char per_unit[48] = "";
    if (units >= 1)
        snprintf(per_unit, sizeof per_unit, ", %.3g per compute unit", c->k[s.psi] / units);
    rr_add_pair(o, "peak_over_plateau", dtype, "x", NAN, s.ratio,
                "f(psi) ÷ the median of the largest third of k; the thesis's f is drawn, not printed",
                "Fig. 3.12 (shape)");
    if (s.peak && s.falls) {
        RR_SAY(o, this_device, "%s%s: cache peak psi at k = %.0f work-items%s, %.3gx the plateau (%.4g GB/s), "
                               "falling to %.3gx at k = %.0f",
               sep, dtype, c->k[s.psi], per_unit, s.ratio, s.plateau, c->y[s.valley] / s.plateau, c->k[s.valley]);
        RR_SAY(o, reason, "%s%s: psi %.3gx the plateau, above 1 + %.3g", sep, dtype, s.ratio, s.tolerance);
        return true;
    }
    RR_SAY(o, this_device, "%s%s: no cache peak: %s (the highest point before the plateau, k = %.0f, %.3gx it)", sep,
           dtype, no_peak_shape(c, &s), c->k[s.psi], s.ratio);
    RR_SAY(o, reason, "%s%s: %.3gx the plateau at most, within 1 + %.3g%s", sep, dtype, s.ratio, s.tolerance,
           s.peak ? ", or no fall after it" : "");
    return false;
}

/* Fig. 3.12: per type, a cache peak clearly above the large-k plateau and
 * a falling slope after it. */
static void rr_li_fig312(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    static const char *const types[] = {"float", "double"};
    const rr_file *f = rr_results(d, "gesummv");
    const char *cus = rr_meta(d, "gesummv", "device.compute_units");
    double units = *cus ? strtod(cus, NULL) : NAN;
    size_t judged = 0, holds = 0;
    for (size_t t = 0; f && t < 2; ++t) {
        curve c;
        read_curve(f, types[t], &c);
        if (c.n < 4)
            continue;
        rr_rests_on_rows(o, f, c.first, c.last);
        for (size_t i = c.first; i <= c.last; ++i)
            if (rr_row_is(f, i, "gesummv", "concurrency") && strcmp(rr_get(f, i, "dtype"), types[t]) == 0)
                rr_add_flags(o, rr_get(f, i, "flags"));
        ++judged;
        holds += judge_type(&c, types[t], units, o);
    }
    if (f == NULL)
        return rr_not_measurable(o, "the run has no gesummv results (gesummv-<backend>.csv: a run without the "
                                    "benchmark, or made before it)");
    if (judged == 0)
        return rr_not_measurable(o, "gesummv's concurrency sweep has fewer than 4 verified work-item counts in either "
                                    "type");
    RR_SAY(o, rule,
           "per type, over gesummv's valid concurrency rows by k: the plateau is the median of the largest third of "
           "k (2 points at least), psi the highest point before it; holds qualitatively: f(psi) above the plateau "
           "by more than %.0f%% plus the 95%% half-widths (ci_rel) of psi's and the plateau's noisiest row, and "
           "the lowest point after psi below f(psi) by more than %.0f%% plus theirs, in float or double; differs: "
           "neither type so; the figure prints no numbers, so nothing is reproduced",
           100 * PEAK_MARGIN, 100 * PEAK_MARGIN);
    o->verdict = holds ? RR_QUALITATIVE : RR_DIFFERS;
    if (!holds && strcmp(rr_meta(d, "gesummv", "device.type"), "cpu") == 0)
        RR_SAY(o, reason, "; a CPU device: each work-item runs its rows to the end, streaming its own lines, so k "
                          "work-items share no cache that their reuse could thrash");
}

static const rr_target targets[] = {
    {"li-fig3.12", rr_li_fig312},
};
const cr_bench_part rr_targets_gesummv = {targets, sizeof targets / sizeof targets[0]};
