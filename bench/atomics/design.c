/* Experiment design of the atomics benchmark (Lee 2012 ch. 4, Samadi's
 * conflicts per warp, Li ch. 7): what is swept, how every run's counters
 * are verified, and what goes into the CSV.
 *
 *  - degree: work-items per counter, 1 (uncontended) .. all (one address),
 *    for every operation, type and memory space; 1..32 is the
 *    conflicts-per-warp curve. A `ratio` row per operation gives the
 *    uncontended over the single-address throughput (Lee Fig. 4.3).
 *  - stride: distance between neighbouring work-items' counters, 1..1024
 *    elements (Lee Fig. 4.4), uncontended.
 *  - groups: work-groups of the device's size, 1 .. filling the device,
 *    contended and uncontended.
 *  - host: the same patterns with C11 atomics on the host's threads, the
 *    hardware limit a CPU or APU device is compared with.
 *  - launch: an empty kernel's enqueue-to-start and round trip, median and
 *    mean (Lee Table 4.1 gives the mean).
 *  - locks: spin and ticket locks, one work-item per group (Lee Figs. 4.5). */
#define _GNU_SOURCE
#include "atomics/backend.h"

#include "atomics/calibrate.h"
#include "atomics/truth.h"
#include "bench_main.h"
#include "error.h"
#include "measure.h"
#include "omp_env.h"
#include "session.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { SW_DEGREE = 1, SW_STRIDE = 2, SW_GROUPS = 4, SW_HOST = 8, SW_LAUNCH = 16, SW_LOCKS = 32, SW_ALL = 63 };
static const char *const sweep_names[] = {"degree", "stride", "groups", "host", "launch", "locks"};

#define LAUNCH_SAMPLES 100
/* The quick run's stride sweep: 1, 4, 16, ... 1024 elements, at half the
 * target time per repetition, so that its six points cost what the three
 * of 1:1024:x32 did. A default stride curve has at least MIN_STRIDES
 * strides that fit the device wherever it holds that many (x2 in a memory
 * space where x4 leaves fewer). */
#define QUICK_STRIDE_FACTOR 4
#define QUICK_STRIDE_TARGET_DIVISOR 2
#define MIN_STRIDES 5u
/* Lee's stride sweep runs on reads and writes; add shows the same for updates. */
static const at_op stride_ops[] = {AT_READ, AT_XCHG, AT_ADD};

typedef struct {
    unsigned ops, types, spaces, sweeps; /* bit sets */
    cr_range strides;   /* all 0 until given */
    cr_range degrees;   /* all 0 until given */
    uint64_t iters;     /* 0 until given: calibrated */
    uint64_t max_bytes; /* largest counter buffer */
    bool strides_given, iters_given;
} at_config;

/* ---- options ---- */

static int opt_iters(void *c, const char *a, char *e, size_t l)
{
    return cr_parse_count_at_most(a, AT_MAX_ITERS, "operations per work-item", &((at_config *)c)->iters, e, l);
}

static const cr_extra_option at_options[] = {
    CR_OPTION_NAMES("ops", "add,inc,xchg,cas,min,max,read or all (default all)", at_config, ops, at_op_names),
    CR_OPTION_NAMES("types", "uint32,uint64,float or all (default all; float: add only)", at_config, types,
                    at_type_names),
    CR_OPTION_NAMES("spaces", "global,local or all (default all)", at_config, spaces, at_space_names),
    CR_OPTION_NAMES("sweeps", "degree,stride,groups,host,launch,locks or all (default all)", at_config, sweeps,
                    sweep_names),
    CR_OPTION(CR_OPT_RANGE, "strides", "RANGE",
              "strides in elements of the stride sweep (default 1:1024:x2; quick 1:1024:x4, x2 in a memory space "
              "where fewer than 5 of those fit)",
              at_config, strides),
    CR_OPTION(CR_OPT_RANGE, "degrees", "RANGE",
              "work-items per counter of the degree sweep (default 1:all:x2, and all)", at_config, degrees),
    CR_OPTION_CALL("iters", "N",
                   "atomic operations per work-item at every point (default calibrated at each point: ~10 ms a "
                   "repetition)",
                   opt_iters),
};
#define N_AT_OPTIONS (sizeof at_options / sizeof at_options[0])

/* ---- run state ---- */

typedef struct {
    const at_backend *be;
    cr_device_info info;
    cr_measure_ctx meas;
    uint64_t work_items, work_group, max_work_group;
} endpoint;

typedef struct {
    cr_session ses;
    at_config cfg;
    endpoint dev, host;
    bool use_host;
    void *counters;        /* host copy: initial values, then results */
    uint64_t *read_sums;
    uint64_t counters_cap; /* elements of the largest type */
    uint64_t outs_cap;
    /* host reference (all threads, own cache line each) per op and type */
    double host_uncontended[AT_NOPS][AT_NTYPES];
    double target_s;                    /* of one repetition, where --iters does not say */
    cr_range space_strides[AT_NSPACES]; /* the stride sweep's strides in each space */
} at_state;

static at_state S; /* one run per process */

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

static void init_row(cr_result *r, const endpoint *ep, const char *variant, const char *dtype, const char *sweep)
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
static cr_status check_and_prepare(at_state *s, endpoint *ep, const at_run *r, uint64_t n, uint64_t bytes,
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

/* A point its calibration did not size: over its time budget (valid and
 * unmeasured, stopped by the budget), unsupported, or failed. */
static void uncalibrated_row(cr_result *row, cr_status st, bool over_budget, const char *why)
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
static void verify_row(at_state *s, endpoint *ep, const at_run *r, uint64_t n, cr_result *row)
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
static void add_host_ratio(const at_state *s, const endpoint *ep, const at_run *r, cr_result *row)
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

/* A repetition's time as the measurement would take it: the events where
 * they are sane, else the host clock. */
static double timing_seconds(const cr_timing *t)
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
    *seconds = st == CR_OK ? timing_seconds(&t) : NAN;
    return st;
}

/* The target time of a repetition in sweep: halved in the quick stride
 * sweep, whose curves have twice the points. */
static double sweep_target(const at_state *s, const char *sweep)
{
    bool halved = s->ses.opt.quick && strcmp(sweep, "stride") == 0;
    return halved ? s->target_s / QUICK_STRIDE_TARGET_DIVISOR : s->target_s;
}

/* Operations per work-item at a point whose iters is 0 (--iters not given):
 * calibrated by pilots at the point; a pilot's status as it is (a failure
 * named on stderr, with the row's names). *over_budget, with why in err,
 * when even one operation per work-item takes longer than the point's
 * time budget: its repetitions could not keep to it. */
static cr_status calibrate_point(at_state *s, const cr_result *row, const char *what, uint32_t cap, double target_s,
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

/* Measures one configuration on ep and records its verified row; *figure
 * (when wanted) gets the median Mop/s of a valid row, else NaN. r->iters 0
 * calibrates the point. Returns -1 when the row cannot be written. */
static int measure_run(at_state *s, endpoint *ep, at_run *r, const char *sweep, double *figure)
{
    char err[CR_ERRLEN];
    const char *how = "native";
    cr_result row;
    init_row(&row, ep, at_op_names[r->op], at_type_names[r->type], sweep);
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
        st = calibrate_point(s, &row, "operation", cap, sweep_target(s, sweep), run_pilot, &pilot, &r->iters,
                             &over_budget, err, sizeof err);
        if (st != CR_OK) {
            uncalibrated_row(&row, st, over_budget, err);
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

static bool selected(unsigned bits, int i) { return (bits >> i) & 1u; }

/* Whether op on type is asked for and exists (float: add only). */
static bool op_selected(const at_state *s, int op, int type)
{
    return selected(s->cfg.types, type) && selected(s->cfg.ops, op) && (type != AT_TYPE_F32 || op == AT_ADD);
}

/* The sweep 1, 2, 4, ... end, ending on end itself: the value after v, or
 * 0 when v was end. */
static uint64_t doubling_next(uint64_t v, uint64_t end) { return v >= end ? 0 : v * 2 > end ? end : v * 2; }

/* ---- sweeps ---- */

static uint64_t line_elements(at_type t) { return 64 / at_type_size(t); }

/* The degrees of the degree sweep over span work-items: those given up to
 * span (in local memory a counter is shared within a group at most), else
 * 1, 2, 4, ... below span, and span itself. */
static size_t degree_list(const at_state *s, uint64_t span, uint64_t *out, size_t cap)
{
    size_t k = 0;
    if (s->cfg.degrees.start != 0) {
        for (size_t i = 0; i < cr_range_count(&s->cfg.degrees) && k < cap; ++i)
            if (cr_range_value(&s->cfg.degrees, i) <= span)
                out[k++] = cr_range_value(&s->cfg.degrees, i);
        return k;
    }
    for (uint64_t d = 1; d < span; d *= 2)
        if (!s->ses.opt.quick || d == 1 || d == 32)
            out[k++] = d;
    out[k++] = span;
    return k;
}

/* Lee's contentious / non-contentious gap: the first degree's throughput
 * over the last's. */
static int record_ratio(at_state *s, at_space space, at_type type, at_op op, const uint64_t *degrees, size_t nd,
                        double first, double last)
{
    cr_result row;
    init_row(&row, &s->dev, at_op_names[op], at_type_names[type], "ratio");
    cr_result_unmeasured(&row);
    snprintf(row.unit, sizeof row.unit, "x");
    cr_result_add_param(&row, "space=%s;degree_low=%" PRIu64 ";low_Mops=%.4g;degree_high=%" PRIu64 ";high_Mops=%.4g",
              at_space_names[space], degrees[0], first, degrees[nd - 1], last);
    row.figure = first / last;
    if (isnan(row.figure))
        snprintf(row.note, sizeof row.note, "a side was not measured");
    else
        snprintf(row.note, sizeof row.note, "%" PRIu64 " work-items per counter run %.3g times slower than %" PRIu64,
                 degrees[nd - 1], row.figure, degrees[0]);
    return cr_session_record(&s->ses, &row);
}

static int sweep_degree_of(at_state *s, at_space space, at_type type, at_op op)
{
    endpoint *ep = &s->dev;
    uint64_t degrees[70];
    size_t nd = degree_list(s, space == AT_LOCAL ? ep->work_group : ep->work_items, degrees, 70);
    if (nd == 0)
        return 0;
    double first = NAN, last = NAN;
    for (size_t i = 0; i < nd; ++i) {
        at_run r = {op, type, space, 1, degrees[i], (uint32_t)s->cfg.iters, ep->work_items, ep->work_group, 0};
        if (measure_run(s, ep, &r, "degree", &last) != 0)
            return -1;
        if (i == 0)
            first = last;
    }
    return record_ratio(s, space, type, op, degrees, nd, first, last);
}

static int sweep_degree(at_state *s)
{
    for (int space = 0; space < AT_NSPACES; ++space) {
        if (!selected(s->cfg.spaces, space))
            continue;
        for (int type = 0; type < AT_NTYPES; ++type)
            for (int op = 0; op < AT_NOPS; ++op)
                if (op_selected(s, op, type) && sweep_degree_of(s, (at_space)space, (at_type)type, (at_op)op) != 0)
                    return -1;
    }
    return 0;
}

static int sweep_stride(at_state *s)
{
    endpoint *ep = &s->dev;
    for (int space = 0; space < AT_NSPACES; ++space) {
        if (!selected(s->cfg.spaces, space))
            continue;
        const cr_range *strides = &s->space_strides[space];
        size_t ns = cr_range_count(strides);
        for (size_t o = 0; o < sizeof stride_ops / sizeof stride_ops[0]; ++o) {
            if (!selected(s->cfg.ops, stride_ops[o]) || !selected(s->cfg.types, AT_TYPE_U32))
                continue;
            for (size_t i = 0; i < ns; ++i) {
                at_run r = {stride_ops[o], AT_TYPE_U32, (at_space)space, cr_range_value(strides, i), 1,
                            (uint32_t)s->cfg.iters, ep->work_items, ep->work_group, 0};
                if (measure_run(s, ep, &r, "stride", NULL) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

static int sweep_groups(at_state *s)
{
    endpoint *ep = &s->dev;
    if (!selected(s->cfg.ops, AT_ADD) || !selected(s->cfg.types, AT_TYPE_U32) || !selected(s->cfg.spaces, AT_GLOBAL))
        return 0;
    uint64_t max_groups = ep->work_items / ep->work_group;
    for (int contended = 0; contended < 2; ++contended)
        for (uint64_t groups = 1; groups; groups = doubling_next(groups, max_groups)) {
            uint64_t wi = groups * ep->work_group;
            at_run r = {AT_ADD, AT_TYPE_U32, AT_GLOBAL, 1, contended ? wi : 1, (uint32_t)s->cfg.iters, wi,
                        ep->work_group, 0};
            if (measure_run(s, ep, &r, contended ? "groups-one-address" : "groups", NULL) != 0)
                return -1;
        }
    return 0;
}

/* op on type with every thread count: uncontended (a cache line each, the
 * hardware limit the device is compared with), the device's own stride-1
 * pattern, and one address. */
static int sweep_host_of(at_state *s, at_type type, at_op op)
{
    endpoint *ep = &s->host;
    uint64_t threads = ep->work_items;
    for (uint64_t t = 1; t; t = doubling_next(t, threads)) {
        uint64_t strides[2] = {line_elements(type), 1};
        for (int k = 0; k < 2; ++k) {
            at_run r = {op, type, AT_GLOBAL, strides[k], 1, (uint32_t)s->cfg.iters, t, 1, 0};
            double f;
            if (measure_run(s, ep, &r, "host-threads", &f) != 0)
                return -1;
            if (t == threads && k == 0)
                s->host_uncontended[op][type] = isnan(f) ? 0 : f;
        }
        at_run one = {op, type, AT_GLOBAL, 1, t, (uint32_t)s->cfg.iters, t, 1, 0};
        if (measure_run(s, ep, &one, "host-threads", NULL) != 0)
            return -1;
    }
    return 0;
}

static int sweep_host(at_state *s)
{
    for (int type = 0; type < AT_NTYPES; ++type)
        for (int op = 0; op < AT_NOPS; ++op)
            if (op_selected(s, op, type) && sweep_host_of(s, (at_type)type, (at_op)op) != 0)
                return -1;
    return 0;
}

static int sweep_launch(at_state *s)
{
    double a[LAUNCH_SAMPLES], b[LAUNCH_SAMPLES];
    char err[CR_ERRLEN];
    size_t na = 0, nb = 0;
    for (int i = -(int)s->ses.opt.warmup; i < LAUNCH_SAMPLES; ++i) {
        double q, rt;
        cr_status st = s->dev.be->launch_empty(&q, &rt, err, sizeof err);
        if (st != CR_OK) {
            cr_result row;
            init_row(&row, &s->dev, "empty-kernel", "", "launch");
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
        init_row(&row, &s->dev, names[k], "", "launch");
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
    *seconds = st == CR_OK ? timing_seconds(&t) : NAN;
    return st;
}

static int sweep_locks_on(at_state *s, endpoint *ep, uint64_t max_groups)
{
    for (int kind = 0; kind < AT_NLOCKS; ++kind)
        for (uint64_t g = 1; g; g = doubling_next(g, max_groups)) {
            lock_ctx ctx = {ep->be, (at_lock)kind, g, (uint32_t)s->cfg.iters, 0};
            cr_series series = {.ctx = &ep->meas, .fn = lock_rep, .arg = &ctx};
            cr_result row;
            init_row(&row, ep, at_lock_names[kind], "", "locks");
            row.work_items = g;
            row.work_group = 1;
            snprintf(row.unit, sizeof row.unit, "Mop/s");
            char err[CR_ERRLEN];
            bool over_budget = false;
            cr_status st = ctx.iters ? CR_OK
                                     : calibrate_point(s, &row, "acquisition", AT_MAX_ITERS, s->target_s, lock_pilot,
                                                       &ctx, &ctx.iters, &over_budget, err, sizeof err);
            cr_result_add_param(&row, "groups=%" PRIu64, g);
            if (st == CR_OK)
                cr_result_add_param(&row, "iters=%" PRIu32, ctx.iters);
            if (st != CR_OK) {
                uncalibrated_row(&row, st, over_budget, err);
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

/* ---- set-up ---- */

static int allocate(at_state *s)
{
    endpoint *eps[2] = {&s->dev, s->use_host ? &s->host : NULL};
    uint64_t most = 0, outs = 0;
    for (int e = 0; e < 2; ++e) {
        if (!eps[e])
            continue;
        uint64_t wi = eps[e]->work_items;
        uint64_t strides_end = cr_range_value(&s->cfg.strides, cr_range_count(&s->cfg.strides) - 1);
        uint64_t stride = strides_end > 16 ? strides_end : 16;
        uint64_t need = wi * stride + 1;
        most = need > most ? need : most;
        outs = wi > outs ? wi : outs;
    }
    uint64_t bytes_cap = s->cfg.max_bytes / 8;
    s->counters_cap = most < bytes_cap ? most : bytes_cap;
    s->outs_cap = outs;
    s->counters = malloc((size_t)s->counters_cap * 8);
    s->read_sums = malloc((size_t)outs * sizeof *s->read_sums);
    if (!s->counters || !s->read_sums) {
        fprintf(stderr, "%s: error: cannot allocate the host copies of the counters\n", s->ses.opt.program);
        return -1;
    }
    return 0;
}

static int run_sweeps(at_state *s)
{
    unsigned sw = s->cfg.sweeps;
    if ((sw & SW_HOST) && s->use_host && sweep_host(s) != 0)
        return -1;
    if ((sw & SW_DEGREE) && sweep_degree(s) != 0)
        return -1;
    if ((sw & SW_STRIDE) && sweep_stride(s) != 0)
        return -1;
    if ((sw & SW_GROUPS) && sweep_groups(s) != 0)
        return -1;
    if ((sw & SW_LAUNCH) && sweep_launch(s) != 0)
        return -1;
    if (sw & SW_LOCKS) {
        uint64_t cus = s->dev.info.compute_units ? s->dev.info.compute_units : 1;
        if (sweep_locks_on(s, &s->dev, cus * 8) != 0)
            return -1;
        if (s->use_host && sweep_locks_on(s, &s->host, s->host.work_items) != 0)
            return -1;
    }
    return 0;
}

static int open_host(at_state *s)
{
    if (!(s->cfg.sweeps & SW_HOST) || (!s->dev.info.is_cpu && !s->dev.info.unified_memory))
        return 0;
    if (cr_open_host_ref(&s->ses, &at_host_backend.base, &s->host.info) != 0)
        return -1;
    s->host.be = &at_host_backend;
    s->use_host = true;
    at_host_backend.geometry(&s->host.work_items, &s->host.work_group, &s->host.max_work_group);
    cr_session_measure_init(&s->ses, &s->host.meas, false);
    return 0;
}

/* Says how many operations each point runs: --iters, or calibrated. */
static void note_iters(at_state *s)
{
    s->target_s = s->ses.opt.quick ? AT_QUICK_TARGET_S : AT_TARGET_S;
    if (s->cfg.iters_given)
        fprintf(stderr, "note: %" PRIu64 " atomic operations per work-item at every point (--iters)\n", s->cfg.iters);
    else
        fprintf(stderr,
                "note: operations per work-item calibrated at every point for %.3g ms a repetition (each row's "
                "iters)\n",
                s->target_s * 1e3);
}

static void format_need(uint64_t bytes, char *buf, size_t len)
{
    if (bytes == UINT64_MAX)
        snprintf(buf, len, "more than 16 EiB");
    else
        cr_format_bytes(bytes, buf, len);
}

/* Local memory of a group in the stride sweep at stride: a uint32
 * counter per work-item. */
static uint64_t stride_local_bytes(const endpoint *d, uint64_t stride)
{
    at_run r = {.op = AT_ADD, .type = AT_TYPE_U32, .space = AT_LOCAL, .stride = stride, .degree = 1,
                .work_items = d->work_group, .work_group = d->work_group};
    return at_local_bytes(&r);
}

/* A --strides whose largest stride needs more counter memory than the
 * device gives is refused, never run as "unsupported" rows: in each space
 * selected, global memory over every work-item, within the buffer this run
 * allows, and local memory over one group, within the device's. */
static int check_strides(at_state *s)
{
    if (!s->cfg.strides_given)
        return -1;
    uint64_t stride = cr_range_value(&s->cfg.strides, cr_range_count(&s->cfg.strides) - 1);
    const endpoint *d = &s->dev;
    char need[32], limit[32];
    uint64_t global = at_strided_bytes(d->work_items, stride, at_type_size(AT_TYPE_U32));
    if (selected(s->cfg.spaces, AT_GLOBAL) && global > s->cfg.max_bytes) {
        format_need(global, need, sizeof need);
        cr_format_bytes(s->cfg.max_bytes, limit, sizeof limit);
        return cr_fail_usage(&s->ses,
                             "--strides reaches %" PRIu64 " elements: %s of counters over %" PRIu64 " work-items, "
                             "above the %s this device allows (half its largest allocation, at most 1 GiB)",
                             stride, need, d->work_items, limit);
    }
    uint64_t local = stride_local_bytes(d, stride);
    if (selected(s->cfg.spaces, AT_LOCAL) && d->info.local_mem_bytes && local > d->info.local_mem_bytes) {
        format_need(local, need, sizeof need);
        cr_format_bytes(d->info.local_mem_bytes, limit, sizeof limit);
        return cr_fail_usage(&s->ses,
                             "--strides reaches %" PRIu64 " elements: %s of local memory for a group of %" PRIu64
                             " work-items, above the %s the device has (--spaces global runs it in global memory)",
                             stride, need, d->work_group, limit);
    }
    return -1;
}

/* Whether the stride sweep's counters at stride fit the device in space:
 * in global memory over every work-item, within the buffer this run
 * allows; in local memory over one group, within the device's (unknown:
 * assumed to). */
static bool stride_fits(const at_state *s, at_space space, uint64_t stride)
{
    const endpoint *d = &s->dev;
    if (space == AT_GLOBAL)
        return at_strided_bytes(d->work_items, stride, at_type_size(AT_TYPE_U32)) <= s->cfg.max_bytes;
    return d->info.local_mem_bytes == 0 || stride_local_bytes(d, stride) <= d->info.local_mem_bytes;
}

static size_t strides_that_fit(const at_state *s, at_space space, const cr_range *r)
{
    size_t n = 0;
    for (size_t i = 0; i < cr_range_count(r); ++i)
        n += stride_fits(s, space, cr_range_value(r, i));
    return n;
}

/* The strides of each space: those given, else the default, which in a
 * space where fewer than MIN_STRIDES of its strides fit becomes x2
 * (the quick run's x4; the full run's is x2 already), and a note says
 * where even that leaves fewer. A default stride that does not fit still
 * gets its row, saying so. */
static void plan_strides(at_state *s)
{
    for (int space = 0; space < AT_NSPACES; ++space) {
        cr_range r = s->cfg.strides;
        s->space_strides[space] = r;
        if (s->cfg.strides_given || !selected(s->cfg.spaces, space) || !(s->cfg.sweeps & SW_STRIDE) ||
            strides_that_fit(s, (at_space)space, &r) >= MIN_STRIDES)
            continue;
        r.factor = 2;
        s->space_strides[space] = r;
        size_t fit = strides_that_fit(s, (at_space)space, &r);
        if (fit < MIN_STRIDES)
            cr_session_note(&s->ses, "stride sweep in %s memory: only %zu strides (of %zu, 1 to %" PRIu64
                            ") fit the device, fewer than %u",
                            at_space_names[space], fit, cr_range_count(&r), r.end, MIN_STRIDES);
    }
}

/* ---- the skeleton's hooks ---- */

static int parsed(void *state)
{
    at_state *s = state;
    s->cfg.strides_given = s->cfg.strides.start != 0;
    s->cfg.iters_given = s->cfg.iters != 0;
    if (s->cfg.strides.start == 0)
        s->cfg.strides = (cr_range){1, 1024, s->ses.opt.quick ? QUICK_STRIDE_FACTOR : 2};
    return -1;
}

static int plan(void *state, cr_meta *meta)
{
    at_state *s = state;
    s->dev.info = s->ses.info;
    s->dev.be->geometry(&s->dev.work_items, &s->dev.work_group, &s->dev.max_work_group);
    if (s->cfg.degrees.start != 0) {
        uint64_t end = cr_range_value(&s->cfg.degrees, cr_range_count(&s->cfg.degrees) - 1);
        if (end > s->dev.work_items)
            return cr_fail_usage(&s->ses,
                                 "--degrees reaches %" PRIu64 ", more than the %" PRIu64 " work-items that run", end,
                                 s->dev.work_items);
    }
    /* Half the device's largest allocation, and at most 1 GiB: the host
     * keeps a copy to verify. */
    s->cfg.max_bytes = s->ses.info.max_alloc_bytes / 2;
    if (s->cfg.max_bytes > (UINT64_C(1) << 30))
        s->cfg.max_bytes = UINT64_C(1) << 30;
    int rc = check_strides(s);
    if (rc >= 0)
        return rc;
    plan_strides(s);
    if (open_host(s) != 0)
        return CR_EXIT_FAILED;
    cr_meta_set(meta, "host_reference", "%s", s->use_host ? s->host.info.name : "off");
    cr_meta_set(meta, "work_items", "%" PRIu64, s->dev.work_items);
    cr_meta_set(meta, "work_group", "%" PRIu64, s->dev.work_group);
    if (s->cfg.sweeps & SW_STRIDE) {
        char list[160] = "";
        size_t used = 0;
        for (int space = 0; space < AT_NSPACES && used < sizeof list; ++space)
            if (selected(s->cfg.spaces, space))
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s %" PRIu64 ":%" PRIu64 ":x%" PRIu64,
                                         used ? ", " : "", at_space_names[space], s->space_strides[space].start,
                                         s->space_strides[space].end, s->space_strides[space].factor);
        cr_meta_set(meta, "strides", "%s", list);
    }
    cr_meta_set(meta, "openmp_waits", "%s", cr_omp_wait_settings());
    return -1;
}

static int run_design(void *state)
{
    at_state *s = state;
    if (allocate(s) != 0)
        return CR_EXIT_FAILED;
    cr_session_measure_init(&s->ses, &s->dev.meas, true);
    note_iters(s);
    if (run_sweeps(s) != 0)
        return CR_EXIT_FAILED;
    return -1;
}

static void release(void *state)
{
    at_state *s = state;
    free(s->counters);
    free(s->read_sums);
    if (s->use_host)
        s->host.be->base.close();
}

static const cr_design at_design = {
    .benchmark = "atomics",
    .summary = "Atomic operations against stride, contention degree and work-groups, with the host's C11 atomics, "
               "kernel launch latency and locks.",
    .options = at_options, .n_options = N_AT_OPTIONS, .config = &S.cfg, .session = &S.ses, .state = &S,
    .quiet_omp_waits = true, .parsed = parsed, .plan = plan, .run = run_design, .release = release,
};

int atomics_main(int argc, char **argv, const at_backend *backend)
{
    memset(&S, 0, sizeof S);
    S.cfg = (at_config){.ops = (1u << AT_NOPS) - 1, .types = (1u << AT_NTYPES) - 1, .spaces = 3, .sweeps = SW_ALL};
    S.dev.be = backend;
    return cr_bench_main(argc, argv, &at_design, &backend->base);
}
