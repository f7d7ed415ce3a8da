/* An empty kernel's launch (enqueue to start, round trip) and the locks:
 * spin and ticket, one work-item per group taking the lock. */
#include "atomics/state.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#define LAUNCH_SAMPLES 100

int at_sweep_launch(at_state *s)
{
    double a[LAUNCH_SAMPLES], b[LAUNCH_SAMPLES];
    char err[CR_ERRLEN];
    size_t na = 0, nb = 0;
    for (int i = -(int)s->ses.opt.warmup; i < LAUNCH_SAMPLES; ++i) {
        double q, rt;
        cr_status st = s->dev.be->launch_empty(&q, &rt, err, sizeof err);
        if (st != CR_OK) {
            cr_result row;
            at_init_row(&row, &s->dev, "empty-kernel", "", "launch");
            cr_result_unmeasured(&row);
            row.valid = st == CR_UNSUPPORTED;
            snprintf(row.note, sizeof row.note, "%s", err);
            return cr_session_record(&s->ses, &row);
        }
        if (i < 0)
            continue;
        if (!isnan(q))
            a[na++] = q;
        b[nb++] = rt;
    }
    const char *names[2] = {"enqueue-to-start", "round-trip"};
    double *samples[2] = {a, b};
    size_t counts[2] = {na, nb};
    for (int k = 0; k < 2; ++k) {
        cr_result row;
        at_init_row(&row, &s->dev, names[k], "", "launch");
        snprintf(row.unit, sizeof row.unit, "us");
        row.work_items = row.work_group = 1;
        if (counts[k] == 0) {
            cr_result_unmeasured(&row);
            snprintf(row.note, sizeof row.note, "the API gives no enqueue timestamp");
        } else {
            cr_summarize(samples[k], counts[k], &row.stats);
            snprintf(row.timer, sizeof row.timer, "%s", k == 0 ? "event" : "host");
            snprintf(row.stop, sizeof row.stop, "fixed");
            /* The figure is the median, robust to the odd slow launch;
             * Lee's Table 4.1 gives the mean, so the row has it too. */
            row.figure = row.stats.median * 1e6;
            row.figure_best = row.stats.min * 1e6;
            cr_result_add_param(&row, "%s", k == 0 ? "from CL_PROFILING_COMMAND_QUEUED to START"
                                                   : "enqueue to completion, host clock");
            cr_result_add_param(&row, "mean_us=%.4g", row.stats.mean * 1e6);
        }
        if (cr_session_record(&s->ses, &row) != 0)
            return -1;
    }
    return 0;
}

typedef struct {
    const at_backend *be;
    at_lock kind;
    uint64_t groups;
    uint32_t iters;
    uint64_t counter;
} lock_ctx;

static cr_status lock_rep(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    lock_ctx *c = vctx;
    return c->be->run_lock(c->kind, c->groups, c->iters, t, &c->counter, err, errlen);
}

static cr_status lock_pilot(void *vctx, uint32_t iters, double *seconds, char *err, size_t errlen)
{
    lock_ctx c = *(lock_ctx *)vctx;
    c.iters = iters;
    cr_timing t = {0};
    cr_status st = lock_rep(&c, &t, err, errlen);
    *seconds = st == CR_OK ? at_timing_seconds(&t) : NAN;
    return st;
}

int at_sweep_locks_on(at_state *s, at_endpoint *ep, uint64_t max_groups)
{
    for (int kind = 0; kind < AT_NLOCKS; ++kind)
        for (uint64_t g = 1; g; g = at_doubling_next(g, max_groups)) {
            lock_ctx ctx = {ep->be, (at_lock)kind, g, (uint32_t)s->cfg.iters, 0};
            cr_series series = {.ctx = &ep->meas, .fn = lock_rep, .arg = &ctx};
            cr_result row;
            at_init_row(&row, ep, at_lock_names[kind], "", "locks");
            row.work_items = g;
            row.work_group = 1;
            snprintf(row.unit, sizeof row.unit, "Mop/s");
            char err[CR_ERRLEN];
            bool over_budget = false;
            cr_status st = ctx.iters ? CR_OK
                                     : at_calibrate_point(s, &row, "acquisition", AT_MAX_ITERS, s->target_s, lock_pilot,
                                                       &ctx, &ctx.iters, &over_budget, err, sizeof err);
            cr_result_add_param(&row, "groups=%" PRIu64, g);
            if (st == CR_OK)
                cr_result_add_param(&row, "iters=%" PRIu32, ctx.iters);
            if (st != CR_OK) {
                at_uncalibrated_row(&row, st, over_budget, err);
            } else if (cr_measure_interleaved(&series, 1, err, sizeof err) != CR_OK) {
                cr_result_unmeasured(&row);
                row.valid = false;
                snprintf(row.note, sizeof row.note, "run failed: %s", err);
            } else {
                cr_measurement_to_row(&series.out, &row);
                row.ops_per_rep = (double)g * ctx.iters;
                row.figure = row.ops_per_rep / series.out.stats.median * 1e-6;
                row.figure_best = row.ops_per_rep / series.out.stats.min * 1e-6;
                uint64_t want = g * ctx.iters;
                if (ctx.counter != want) {
                    row.valid = false;
                    snprintf(row.note, sizeof row.note, "the protected counter is %" PRIu64 ", expected %" PRIu64,
                             ctx.counter, want);
                }
            }
            if (cr_session_record(&s->ses, &row) != 0)
                return -1;
        }
    return 0;
}
