#include "measure_group.h"

#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cr_group_init(cr_group *g, size_t cap, unsigned reps_max)
{
    *g = (cr_group){.cap = cap};
    g->series = calloc(cap, sizeof *g->series);
    g->samples = malloc(cap * (size_t)reps_max * sizeof *g->samples);
    if (g->series == NULL || g->samples == NULL) {
        cr_group_free(g);
        return -1;
    }
    for (size_t i = 0; i < cap; ++i)
        g->series[i].samples = g->samples + i * (size_t)reps_max;
    return 0;
}

void cr_group_free(cr_group *g)
{
    free(g->series);
    free(g->samples);
    *g = (cr_group){0};
}

size_t cr_group_add(cr_group *g, cr_measure_ctx *ctx, cr_rep_fn fn, void *arg)
{
    if (g->count == g->cap) {
        /* A design that adds more than it made room for is wrong, not unlucky. */
        fprintf(stderr, "internal error: a measurement group of %zu series got one more\n", g->cap);
        abort();
    }
    cr_series *s = &g->series[g->count];
    s->ctx = ctx;
    s->fn = fn;
    s->arg = arg;
    return g->count++;
}

void cr_group_points(cr_group *g) { g->refs = g->count; }

static cr_status measure(cr_group *g, cr_group_order order, char *err, size_t errlen)
{
    size_t points = g->count - g->refs;
    if (order == CR_GROUP_ROUNDS)
        return cr_measure_interleaved(g->series, g->count, err, errlen);
    if (order == CR_GROUP_SWEEP)
        return cr_measure_sweep_interleaved(g->series, g->count, points, err, errlen);
    cr_status st = cr_measure_sweep_interleaved(&g->series[g->refs], points, points, err, errlen);
    if (st == CR_OK && g->refs > 0)
        st = cr_measure_interleaved(g->series, g->refs, err, errlen);
    return st;
}

int cr_group_fail(const cr_group_steps *steps, const char *err)
{
    int rc = 0;
    for (size_t p = 0; p < steps->points && rc == 0; ++p)
        rc = steps->failed(steps->ctx, p, err);
    return rc;
}

int cr_group_run(cr_group *g, cr_group_order order, const cr_group_steps *steps)
{
    char err[CR_ERRLEN];
    if (measure(g, order, err, sizeof err) != CR_OK)
        return cr_group_fail(steps, err);
    int rc = 0;
    if (steps->measured)
        rc = steps->measured(steps->ctx, g);
    for (size_t p = 0; p < steps->points && rc == 0; ++p)
        rc = steps->point(steps->ctx, g, p);
    return rc;
}

double cr_group_ratio(const cr_series *ref, const cr_series *x, double ref_work, double x_work, bool paired)
{
    double scale = x_work / ref_work;
    if (paired && ref->out.stats.n == x->out.stats.n)
        return scale * cr_median_of_ratios(ref->samples, x->samples, x->out.stats.n);
    return scale * ref->out.stats.median / x->out.stats.median;
}

void cr_result_verdict(cr_result *r, bool ok, const char *note, const cr_measurement *m)
{
    r->valid = ok;
    if (note != r->note)
        snprintf(r->note, sizeof r->note, "%s", note);
    if (ok && m->below_resolution)
        snprintf(r->note, sizeof r->note, "median below 20 timer ticks");
}
