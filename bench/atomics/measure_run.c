/* One configuration of the atomics benchmark on an endpoint: its counters
 * prepared and set, its operations per work-item calibrated where --iters
 * does not say, measured, its counters verified against the host truth,
 * and its row recorded. */
#include "atomics/state.h"

#include "atomics/truth.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const at_backend *be;
    const at_run *run;
    void *init;
    uint64_t n;
} rep_ctx;

/* Every repetition starts from the initial counters, so the result after
 * the last one is the result of one run. */
static cr_status one_rep(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    rep_ctx *c = vctx;
    if (c->run->space == AT_GLOBAL && c->be->upload(c->init, c->n, err, errlen) != CR_OK)
        return CR_ERR;
    return c->be->run(c->run, t, err, errlen);
}

void at_init_row(cr_result *r, const at_endpoint *ep, const char *variant, const char *dtype, const char *sweep)
{
    cr_result_begin(r, "atomics", ep->be->base.name, ep->info.name, variant, dtype, sweep, NULL);
}

static void fill_init(void *buf, at_type t, uint64_t n, uint64_t value)
{
    if (t == AT_TYPE_U64) {
        for (uint64_t i = 0; i < n; ++i)
            ((uint64_t *)buf)[i] = value;
    } else {
        uint32_t v = (uint32_t)value;
        if (t == AT_TYPE_F32) {
            float f = (float)value;
            memcpy(&v, &f, sizeof v);
        }
        for (uint64_t i = 0; i < n; ++i)
            ((uint32_t *)buf)[i] = v;
    }
}

/* Checks that ep runs r and that its n counters (bytes) fit, and allocates
 * them: CR_UNSUPPORTED or CR_ERR with why in err, how the backend runs it. */
static cr_status check_and_prepare(at_state *s, at_endpoint *ep, const at_run *r, uint64_t n, uint64_t bytes,
                                   const char **how, char *err, size_t errlen)
{
    cr_status st = ep->be->supports(r->op, r->type, r->space, how, err, errlen);
    uint64_t limit = s->counters_cap * 8 < s->cfg.max_bytes ? s->counters_cap * 8 : s->cfg.max_bytes;
    if (st == CR_OK && bytes > limit) {
        snprintf(err, errlen, "needs %" PRIu64 " bytes of counters, above the %" PRIu64 " this run allows", bytes,
                 limit);
        st = CR_UNSUPPORTED;
    }
    if (st == CR_OK && ep->be->prepare(r->type, n, r->work_items, err, errlen) != CR_OK)
        st = CR_ERR;
    return st;
}

/* A row with no measurement: unsupported (a valid row saying why) or failed. */
static void unmeasured_row(cr_result *row, cr_status st, const char *prefix, const char *why)
{
    cr_result_unmeasured(row);
    row->valid = st == CR_UNSUPPORTED;
    snprintf(row->stop, sizeof row->stop, "%s", st == CR_UNSUPPORTED ? "unsupported" : "");
    snprintf(row->note, sizeof row->note, "%s%s", prefix, why);
}

void at_uncalibrated_row(cr_result *row, cr_status st, bool over_budget, const char *why)
{
    unmeasured_row(row, st, st == CR_UNSUPPORTED ? "" : "calibration failed: ", why);
    if (over_budget)
        snprintf(row->stop, sizeof row->stop, "%s", cr_stop_reason_name(CR_STOP_BUDGET));
}

static void fill_measured(cr_result *row, const at_run *r, const cr_measurement *m)
{
    cr_measurement_to_row(m, row);
    row->ops_per_rep = (double)r->work_items * r->iters;
    row->figure = row->ops_per_rep / m->stats.median * 1e-6;
    row->figure_best = row->ops_per_rep / m->stats.min * 1e-6;
    cr_result_add_param(row, "ns_per_op=%.4g", m->stats.median / row->ops_per_rep * 1e9);
}

/* Checks the counters of the last repetition (and the read sums). */
static void verify_row(at_state *s, at_endpoint *ep, const at_run *r, uint64_t n, cr_result *row)
{
    char err[CR_ERRLEN];
    if (ep->be->download(s->counters, n, err, sizeof err) != CR_OK ||
        (r->op == AT_READ && ep->be->download_out(s->read_sums, r->work_items, err, sizeof err) != CR_OK)) {
        row->valid = false;
        snprintf(row->note, sizeof row->note, "download failed: %s", err);
        return;
    }
    row->valid = at_truth_check(r, s->counters, r->op == AT_READ ? s->read_sums : NULL, row->note,
                                sizeof row->note) == 0;
}

/* An uncontended device row against the host's own limit. */
static void add_host_ratio(const at_state *s, const at_endpoint *ep, const at_run *r, cr_result *row)
{
    if (ep != &s->dev || r->degree != 1 || r->space != AT_GLOBAL || !s->use_host)
        return;
    double ref = s->host_uncontended[r->op][r->type];
    if (ref > 0) {
        row->ref_ratio = row->figure / ref;
        cr_result_add_param(row, "host_ref_Mops=%.4g", ref);
    }
}

/* The row's size: the bytes r's counters span as the kernels lay them out,
 * slots stride elements apart: in global memory one array over every
 * work-item; in local memory an array per group over its own work-items,
 * summed over the groups. Unlike the counters read back (local ones come
 * back without their stride), it grows with the stride in both spaces.
 * UINT64_MAX when it does not fit in 64 bits. */
static uint64_t span_bytes(const at_run *r)
{
    bool local = r->space == AT_LOCAL;
    uint64_t groups = local ? r->work_items / r->work_group : 1, bytes;
    uint64_t one = local ? at_local_bytes(r)
                         : at_strided_bytes(at_slots(r->work_items, r->degree), r->stride, at_type_size(r->type));
    if (one == UINT64_MAX || __builtin_mul_overflow(one, groups, &bytes))
        return UINT64_MAX;
    return bytes;
}

double at_timing_seconds(const cr_timing *t)
{
    cr_timer_state ts = {0};
    cr_timer_kind kind;
    bool switched;
    return cr_timer_pick(&ts, t, &kind, &switched);
}

/* A pilot of a configuration: one repetition of a copy of it with the
 * pilot's operations per work-item. */
typedef struct {
    rep_ctx rep;
    at_run run;
} run_pilot_ctx;

static cr_status run_pilot(void *vctx, uint32_t iters, double *seconds, char *err, size_t errlen)
{
    run_pilot_ctx *c = vctx;
    c->run.iters = iters;
    cr_timing t = {0};
    cr_status st = one_rep(&c->rep, &t, err, errlen);
    *seconds = st == CR_OK ? at_timing_seconds(&t) : NAN;
    return st;
}

/* The target time of a repetition in sweep: halved in the quick stride
 * sweep, whose curves have twice the points. */
static double sweep_target(const at_state *s, const char *sweep)
{
    bool halved = s->ses.opt.quick && strcmp(sweep, "stride") == 0;
    return halved ? s->target_s / AT_QUICK_STRIDE_TARGET_DIVISOR : s->target_s;
}

/* Operations per work-item at a point whose iters is 0 (--iters not given):
 * calibrated by pilots at the point; a pilot's status as it is (a failure
 * named on stderr, with the row's names). *over_budget, with why in err,
 * when even one operation per work-item takes longer than the point's
 * time budget: its repetitions could not keep to it. */
cr_status at_calibrate_point(at_state *s, const cr_result *row, const char *what, uint32_t cap, double target_s,
                                 at_pilot_fn pilot, void *ctx, uint32_t *iters, bool *over_budget, char *err,
                                 size_t errlen)
{
    at_calibration cal;
    *over_budget = false;
    double budget = s->ses.rule.max_time_s;
    cr_status st = at_calibrate(pilot, ctx, target_s, budget, cap, &cal, err, errlen);
    if (st == CR_ERR)
        fprintf(stderr, "%s: error: %s %s %s: calibration: %s\n", s->ses.opt.program, row->backend, row->variant,
                row->dtype, err);
    if (st != CR_OK)
        return st;
    if (cal.iters == 1 && cal.one_op_s > budget) {
        snprintf(err, errlen,
                 "not measured: one %s per work-item takes %.3g s, above the %.3g s time budget of a point", what,
                 cal.one_op_s, budget);
        *over_budget = true;
        return CR_UNSUPPORTED;
    }
    *iters = cal.iters;
    return CR_OK;
}

int at_measure_run(at_state *s, at_endpoint *ep, at_run *r, const char *sweep, double *figure)
{
    char err[CR_ERRLEN];
    const char *how = "native";
    cr_result row;
    at_init_row(&row, ep, at_op_names[r->op], at_type_names[r->type], sweep);
    row.work_items = r->work_items;
    row.work_group = r->work_group;
    snprintf(row.unit, sizeof row.unit, "Mop/s");
    /* float sums stay exact below 2^24 */
    uint32_t cap = r->type == AT_TYPE_F32 ? at_float_exact_iters(r->space == AT_LOCAL && r->degree > r->work_group
                                                                     ? r->work_group
                                                                     : r->degree,
                                                                 r->iters ? r->iters : AT_MAX_ITERS)
                                          : AT_MAX_ITERS;
    bool calibrate = r->iters == 0;
    r->iters = calibrate ? 1 : r->iters < cap ? r->iters : cap;
    cr_result_add_param(&row, "space=%s;degree=%" PRIu64 ";stride=%" PRIu64, at_space_names[r->space], r->degree,
                        r->stride);
    uint64_t n = at_counter_elements(r);
    row.size_bytes = span_bytes(r);
    if (figure)
        *figure = NAN;
    cr_status st = check_and_prepare(s, ep, r, n, n * at_type_size(r->type), &how, err, sizeof err);
    if (st != CR_OK) {
        unmeasured_row(&row, st, "", err);
        return cr_session_record(&s->ses, &row);
    }
    r->init = at_init_value(r->op, r->type);
    fill_init(s->counters, r->type, n, r->init);
    if (calibrate) {
        run_pilot_ctx pilot = {{ep->be, NULL, s->counters, n}, *r};
        pilot.rep.run = &pilot.run;
        bool over_budget;
        st = at_calibrate_point(s, &row, "operation", cap, sweep_target(s, sweep), run_pilot, &pilot, &r->iters,
                             &over_budget, err, sizeof err);
        if (st != CR_OK) {
            at_uncalibrated_row(&row, st, over_budget, err);
            return cr_session_record(&s->ses, &row);
        }
    }
    cr_result_add_param(&row, "iters=%" PRIu32 ";how=%s", r->iters, how);
    rep_ctx ctx = {ep->be, r, s->counters, n};
    cr_series series = {.ctx = &ep->meas, .fn = one_rep, .arg = &ctx};
    st = cr_measure_interleaved(&series, 1, err, sizeof err);
    if (st != CR_OK) { /* unsupported: e.g. local memory too small for the counters */
        unmeasured_row(&row, st, st == CR_UNSUPPORTED ? "" : "run failed: ", err);
        if (st != CR_UNSUPPORTED)
            fprintf(stderr, "%s: error: %s %s %s: %s\n", s->ses.opt.program, ep->be->base.name, row.variant, row.dtype,
                    err);
        return cr_session_record(&s->ses, &row);
    }
    fill_measured(&row, r, &series.out);
    verify_row(s, ep, r, n, &row);
    if (row.valid && series.out.below_resolution)
        snprintf(row.note, sizeof row.note, "median below 20 timer ticks");
    add_host_ratio(s, ep, r, &row);
    if (figure && row.valid)
        *figure = row.figure;
    return cr_session_record(&s->ses, &row);
}
