#include "measure.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cr_measure_init(cr_measure_ctx *m, const cr_stop_rule *rule, unsigned warmup, double event_resolution_s)
{
    *m = (cr_measure_ctx){
        .rule = *rule,
        .warmup = warmup,
        .event_resolution_s = event_resolution_s,
        .host_resolution_s = (double)cr_host_granularity_ns() * 1e-9,
    };
    /* Device and host clocks tick differently; allow a few device ticks and
     * a microsecond of host-side rounding before calling an event too long. */
    m->timer.slack_ns = 1000 + (uint64_t)(4 * event_resolution_s * 1e9);
}

typedef struct {
    double *samples;
    size_t n;
    double measured;
    bool used[3]; /* by cr_timer_kind */
} series_state;

/* Takes one sample of series s into st; *switched says that the series'
 * timer has just given up on events. */
static cr_status take(cr_series *s, series_state *st, bool *switched, char *err, size_t errlen)
{
    cr_timing t;
    cr_status rc = s->fn(s->arg, &t, err, errlen);
    if (rc != CR_OK)
        return rc;
    cr_timer_kind kind;
    double v = cr_timer_pick(&s->ctx->timer, &t, &kind, switched);
    if (*switched)
        fprintf(stderr, "note: %s; timing with the host clock from now on\n",
                cr_event_verdict_text(s->ctx->timer.why));
    st->used[kind] = true;
    st->samples[st->n++] = v;
    st->measured += v;
    return CR_OK;
}

static void finish(cr_series *s, series_state *st, cr_stop_reason stop)
{
    cr_measurement *out = &s->out;
    cr_summarize(st->samples, st->n, &out->stats);
    if (s->samples)
        memcpy(s->samples, st->samples, st->n * sizeof *st->samples);
    out->stop = stop;
    cr_timer_kind kind = st->used[CR_TIMER_HOST_FALLBACK] ? CR_TIMER_HOST_FALLBACK
                         : st->used[CR_TIMER_EVENT]       ? CR_TIMER_EVENT
                                                           : CR_TIMER_HOST;
    out->timer = cr_timer_kind_name(kind);
    out->resolution_s = kind == CR_TIMER_EVENT ? s->ctx->event_resolution_s : s->ctx->host_resolution_s;
    out->below_resolution = out->stats.median < 20 * out->resolution_s;
}

/* Whether a series' own samples meet its stopping rule: the group goes on
 * for its slowest series, and a series that met the rule on the way is
 * stable, whatever stopped the others. */
static bool met_rule(const cr_stop_rule *rule, const series_state *st)
{
    if (st->n < rule->min_reps || st->measured < rule->min_time_s)
        return false;
    cr_summary s;
    cr_summarize(st->samples, st->n, &s);
    return s.ci_rel <= rule->target_ci;
}

/* Forgets every sample taken so far by the series timed through ctx. */
static void restart_on(const cr_measure_ctx *ctx, cr_series *series, series_state *st, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (series[i].ctx == ctx) {
            st[i].n = 0;
            st[i].measured = 0;
            st[i].used[CR_TIMER_EVENT] = false;
        }
}

/* The series run j-th in the given round. The references (the series
 * before the last `points`) keep their order, since they may be the phases
 * of one operation (map, access, unmap); the points rotate by one a round,
 * so that none always runs in the wake of the same neighbour: on a CPU
 * device the one after a host reference shares the cores with that
 * reference's threads winding down, and would come out slower for it. */
static size_t in_round(size_t j, size_t round, size_t count, size_t points)
{
    size_t first = count - points;
    return j < first ? j : first + (j - first + round) % points;
}

/* Seconds the device spent on one repetition: its events where the
 * context's timer trusts them, else the host's interval around it (which
 * holds the launch as well, so that a host-timed point reads as busier
 * than it was). */
static double device_s(const cr_measure_ctx *ctx, const cr_timing *t)
{
    if (t->has_event && !ctx->timer.fell_back && cr_check_event(t, ctx->timer.slack_ns) == CR_EVENT_OK)
        return (double)(t->ev_end_ns - t->ev_start_ns) * 1e-9;
    return (double)t->host_ns * 1e-9;
}

/* Repeats rounds of the n series idx[] (in order) until the window has
 * passed, reading the sensor before and after, and gives each of them the
 * energy of one round and the share of the window the device was busy (the
 * repetitions' device time over the window's length). A sensor that
 * cannot be read leaves the point without energy, saying why; a
 * repetition that fails is the point's failure, as it would be in the
 * timed loop. */
static cr_status energy_rounds(cr_series *series, const size_t *idx, size_t n, char *err, size_t errlen)
{
    const cr_energy_ctx *e = series[idx[0]].ctx->energy;
    cr_energy_point p = {.static_w = e->static_w, .interval_s = cr_energy_interval_s(e->meter)};
    snprintf(p.sensor, sizeof p.sensor, "%s", cr_energy_sensor(e->meter));
    char why[CR_ERRLEN];
    double before, after;
    uint64_t t0 = cr_now_ns(), reps = 0;
    double elapsed = 0, busy_s = 0;
    bool read = cr_energy_read(e->meter, &before, why, sizeof why) == CR_OK;
    while (read && (elapsed < e->window_s || reps < 2)) {
        for (size_t k = 0; k < n; ++k) {
            cr_timing t;
            cr_status rc = series[idx[k]].fn(series[idx[k]].arg, &t, err, errlen);
            if (rc != CR_OK)
                return rc;
            busy_s += device_s(series[idx[k]].ctx, &t);
        }
        ++reps;
        elapsed = (double)(cr_now_ns() - t0) * 1e-9;
    }
    read = read && cr_energy_read(e->meter, &after, why, sizeof why) == CR_OK;
    elapsed = (double)(cr_now_ns() - t0) * 1e-9;
    /* A counter that stopped (it moved for the static power): no energy
     * rather than the static power's negative. Over less than two of its
     * updates a counter may rightly stand still. */
    bool stopped = read && after == before && elapsed >= 2 * p.interval_s;
    if (stopped)
        snprintf(why, sizeof why, "%.60s: the energy counter did not move in the point's %.3g s", p.sensor, elapsed);
    if (read && !stopped) {
        double dynamic = after - before - e->static_w * elapsed;
        p.measured = true;
        p.window_s = elapsed;
        p.reps = reps;
        p.busy = busy_s / elapsed;
        p.energy_j = dynamic / (double)reps;
        p.power_w = dynamic / elapsed;
    } else {
        snprintf(p.why, sizeof p.why, "%.150s", why);
    }
    for (size_t k = 0; k < n; ++k)
        series[idx[k]].out.energy = p;
    return CR_OK;
}

/* The energy of the series whose context has a sensor: the last `separate`
 * each on its own (points of a sweep), the others together as one round
 * (the phases of one operation, or references). */
static cr_status measure_energy(cr_series *series, size_t count, size_t separate, char *err, size_t errlen)
{
    size_t *idx = malloc(count * sizeof *idx);
    if (idx == NULL) {
        snprintf(err, errlen, "out of memory");
        return CR_ERR;
    }
    size_t n = 0;
    cr_status rc = CR_OK;
    for (size_t i = 0; i < count - separate; ++i)
        if (series[i].ctx->energy)
            idx[n++] = i;
    if (n > 0)
        rc = energy_rounds(series, idx, n, err, errlen);
    for (size_t i = count - separate; i < count && rc == CR_OK; ++i)
        if (series[i].ctx->energy)
            rc = energy_rounds(series, &i, 1, err, errlen);
    free(idx);
    return rc;
}

/* Measures the series interleaved, the last `points` of them rotating; the
 * time budget is the rule's times budget_points; the energy of the last
 * `separate` is measured point by point. */
static cr_status measure(cr_series *series, size_t count, size_t points, size_t budget_points, size_t separate,
                         char *err, size_t errlen)
{
    cr_stop_rule rule = series[0].ctx->rule;
    rule.max_time_s *= (double)budget_points;
    series_state *st = calloc(count, sizeof *st);
    if (st == NULL) {
        snprintf(err, errlen, "out of memory");
        return CR_ERR;
    }
    cr_status rc = CR_OK;
    for (size_t i = 0; i < count && rc == CR_OK; ++i) {
        st[i].samples = malloc((size_t)rule.max_reps * sizeof *st[i].samples);
        if (st[i].samples == NULL) {
            snprintf(err, errlen, "out of memory for %llu samples", (unsigned long long)rule.max_reps);
            rc = CR_ERR;
        }
    }
    /* Warm-up in the same round-robin order as the measurement: series may
     * be the phases of one operation (map, access, unmap) that only make
     * sense in turn. */
    unsigned warmup = 0;
    for (size_t i = 0; i < count; ++i)
        if (series[i].ctx->warmup > warmup)
            warmup = series[i].ctx->warmup;
    for (unsigned w = 0; w < warmup && rc == CR_OK; ++w) {
        for (size_t j = 0; j < count && rc == CR_OK; ++j) {
            size_t i = in_round(j, w, count, points);
            cr_timing t;
            rc = series[i].fn(series[i].arg, &t, err, errlen);
        }
    }
    for (size_t i = 0; i < count; ++i)
        series[i].out.energy = (cr_energy_point){0};
    /* Before the timed repetitions, so that what a design reads after them
     * (the result to verify, a log of the last n) is theirs. */
    if (rc == CR_OK)
        rc = measure_energy(series, count, separate, err, errlen);
    uint64_t begin = cr_now_ns();
    cr_stop_reason stop = CR_CONTINUE;
    for (size_t round = 0; rc == CR_OK && stop == CR_CONTINUE; ++round) {
        for (size_t j = 0; j < count && rc == CR_OK; ++j) {
            size_t i = in_round(j, round, count, points);
            bool switched = false;
            /* Never mix two clocks in one point: every series on that timer
             * starts again on the host clock, this one from the sample that
             * was just taken with it. */
            if ((rc = take(&series[i], &st[i], &switched, err, errlen)) == CR_OK && switched) {
                double kept = st[i].samples[st[i].n - 1];
                restart_on(series[i].ctx, series, st, count);
                st[i].samples[st[i].n++] = kept;
                st[i].measured = kept;
            }
        }
        if (rc != CR_OK)
            break;
        double elapsed = (double)(cr_now_ns() - begin) * 1e-9;
        /* The slowest series decides: stop only when all are done. */
        stop = CR_STOP_STABLE;
        for (size_t i = 0; i < count; ++i) {
            cr_stop_reason r = cr_stop_check(&rule, st[i].samples, st[i].n, st[i].measured, elapsed);
            if (r == CR_CONTINUE) {
                stop = CR_CONTINUE;
                break;
            }
            if (r != CR_STOP_STABLE)
                stop = r;
        }
    }
    for (size_t i = 0; i < count; ++i) {
        if (rc == CR_OK)
            finish(&series[i], &st[i], met_rule(&series[i].ctx->rule, &st[i]) ? CR_STOP_STABLE : stop);
        free(st[i].samples);
    }
    free(st);
    return rc;
}

cr_status cr_measure_interleaved(cr_series *series, size_t count, char *err, size_t errlen)
{
    return measure(series, count, 1, 1, 0, err, errlen);
}

cr_status cr_measure_sweep_interleaved(cr_series *series, size_t count, size_t points, char *err, size_t errlen)
{
    if (points == 0 || points > count) {
        snprintf(err, errlen, "internal: %zu sweep points among %zu series", points, count);
        return CR_ERR;
    }
    return measure(series, count, points, points, points, err, errlen);
}

void cr_measurement_to_row(const cr_measurement *m, cr_result *r)
{
    r->stats = m->stats;
    snprintf(r->timer, sizeof r->timer, "%s", m->timer);
    snprintf(r->stop, sizeof r->stop, "%s", cr_stop_reason_name(m->stop));
    const cr_energy_point *e = &m->energy;
    if (e->sensor[0] == '\0')
        return;
    snprintf(r->energy_sensor, sizeof r->energy_sensor, "%s", e->sensor);
    r->energy_interval_s = e->interval_s;
    r->static_w = e->static_w;
    if (!e->measured) {
        cr_result_add_param(r, "energy_error=%s", e->why);
        return;
    }
    r->energy_j = e->energy_j;
    r->power_w = e->power_w;
    r->energy_busy = e->busy;
    cr_result_add_param(r, "energy_reps=%" PRIu64 ";energy_window_s=%.3g;energy_busy=%.3g", e->reps, e->window_s,
                        e->busy);
}

cr_status cr_measure(cr_measure_ctx *m, cr_rep_fn fn, void *arg, cr_measurement *out, char *err, size_t errlen)
{
    cr_series s = {.ctx = m, .fn = fn, .arg = arg};
    cr_status rc = cr_measure_interleaved(&s, 1, err, errlen);
    if (rc == CR_OK)
        *out = s.out;
    return rc;
}
