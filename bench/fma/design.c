/* Experiment design of the FMA benchmark: the compute side g(x) of Li's
 * X-model (ch. 3, Fig. 3.10), measured as Volkov measures it. Every
 * work-item runs E independent chains of fused multiply-adds (E = 1, 2, 3,
 * 4, 6, 8: the workload's instruction-level parallelism), and the
 * concurrency per compute unit is swept from one unit (a warp, or one
 * work-item on a CPU) to full occupancy, in float and double. Throughput
 * rises with the operations in flight until the compute units saturate: M
 * is the plateau and the transition point pi moves left as E grows. The
 * fit itself is xgraph's; this only measures, and verifies every run bit
 * for bit against the host's own fma. */
#define _GNU_SOURCE
#include "fma/backend.h"

#include "bench_main.h"
#include "error.h"
#include "fma/launch.h"
#include "fma/truth.h"
#include "measure.h"
#include "omp_env.h"
#include "session.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fma/run.h"

/* ---- options ---- */

/* A list, each at most the kernels' chain count. */
static int opt_ilp(void *ctx, const char *arg, char *err, size_t errlen)
{
    fma_config *c = ctx;
    if (cr_parse_count_list(arg, c->ilp, FMA_MAX_ILP, &c->nilp, err, errlen) != 0)
        return -1;
    if (c->ilp[c->nilp - 1] > FMA_MAX_ILP)
        return cr_errf(err, errlen, "%" PRIu64 " chains per work-item is above %u, the most a kernel has",
                       c->ilp[c->nilp - 1], FMA_MAX_ILP);
    return 0;
}

/* A count a kernel's 32-bit step counter holds. */
static int opt_iters(void *ctx, const char *arg, char *err, size_t errlen)
{
    return cr_parse_count_at_most(arg, MAX_ITERS, "steps per chain", &((fma_config *)ctx)->iters, err, errlen);
}

static const cr_extra_option fma_options[] = {
    CR_OPTION_CALL("ilp", "LIST", "independent chains per work-item, each of 1..8 (default 1,2,3,4,6,8; quick 1,2,4,8)",
                   opt_ilp),
    CR_OPTION_NAMES("types", "float,double or all (default all)", fma_config, types, fma_type_names),
    CR_OPTION(CR_OPT_RANGE, "per-cu", "RANGE",
              "concurrency per compute unit, in warps (GPUs) or work-items (CPUs), START:END:xF (default 1 to full "
              "occupancy, x2, quick x4 or, short of 5 points, x2; CPUs up to 512, quick 16)",
              fma_config, per_cu),
    CR_OPTION_CALL("iters", "N", "steps per chain per launch (default calibrated to ~5 ms a launch, quick ~1 ms)",
                   opt_iters),
};
#define N_FMA_OPTIONS (sizeof fma_options / sizeof fma_options[0])

typedef struct {
    const fma_backend *be;
    cr_dtype dtype;
    unsigned ilp;
    uint32_t iters;
    uint64_t work_items, work_group;
} rep_ctx;

static cr_status one_rep(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    rep_ctx *c = vctx;
    return c->be->run(c->dtype, c->ilp, c->iters, c->work_items, c->work_group, FMA_OPERAND_A, FMA_OPERAND_B, t, err,
                      errlen);
}

static void init_row(const fma_state *s, cr_result *r, cr_dtype t)
{
    cr_result_begin(r, "fma", s->be->base.name, s->ses.info.name, "fma", fma_type_names[t], "concurrency", "Gflop/s");
    r->peak_kind = CR_PEAK_COMPUTE;
}

/* A row for a point that could not be measured; the run fails. */
static int record_failure(fma_state *s, cr_result *r, const char *what, const char *err)
{
    cr_result_unmeasured(r);
    r->valid = false;
    snprintf(r->note, sizeof r->note, "%s failed: %s", what, err);
    fprintf(stderr, "%s: error: %s %s: %s: %s\n", s->ses.opt.program, r->dtype, r->params, what, err);
    return cr_session_record(&s->ses, r);
}

/* ---- one point ---- */

/* Scales iters until one launch takes about the target time. */
static int calibrate(fma_state *s, const rep_ctx *c, uint32_t *iters, char *err, size_t errlen)
{
    double target = s->ses.opt.quick ? QUICK_TARGET_REP_S : TARGET_REP_S;
    uint64_t n = *iters;
    for (int tries = 0; tries < 12; ++tries) {
        rep_ctx probe = *c;
        probe.iters = (uint32_t)n;
        cr_timing t = {0};
        if (one_rep(&probe, &t, err, errlen) != CR_OK)
            return -1;
        cr_timer_state ts = {0};
        cr_timer_kind kind;
        bool switched;
        double sec = cr_timer_pick(&ts, &t, &kind, &switched);
        if (sec >= target / 2 && sec <= target * 2)
            break;
        /* Launch overhead only makes a short launch look slower, so the
         * scaled count undershoots rather than overshoots. */
        double want = (double)n * target / (sec > 1e-7 ? sec : 1e-7);
        uint64_t next = want < MIN_ITERS ? MIN_ITERS : want > MAX_ITERS ? MAX_ITERS : (uint64_t)want;
        if (next == n)
            break;
        n = next;
    }
    *iters = (uint32_t)n;
    return 0;
}

static void format_value(cr_dtype t, const void *base, uint64_t i, char *buf, size_t len)
{
    double v = t == CR_FLOAT ? (double)((const float *)base)[i] : ((const double *)base)[i];
    snprintf(buf, len, "%a", v);
}

/* Checks the last launch's chains against the host's; returns whether they
 * match, with the reason in note. */
static bool verify(fma_state *s, cr_dtype t, uint64_t chains, uint32_t iters, uint64_t *checked, char *note,
                   size_t notelen)
{
    char err[CR_ERRLEN];
    if (s->be->download(s->got, chains, err, sizeof err) != CR_OK) {
        snprintf(note, notelen, "download failed: %s", err);
        return false;
    }
    uint64_t count = fma_sample_count(chains);
    for (uint64_t i = 0; i < count; ++i)
        s->sample[i] = fma_sample_chain(i, count, chains);
    *checked = count;
    fma_truth_chains(t, s->seeds, s->sample, count, FMA_OPERAND_A, FMA_OPERAND_B, iters, s->expected);
    uint64_t first = 0;
    uint64_t bad = fma_compare(t, s->got, s->sample, s->expected, count, &first);
    if (bad == 0)
        return true;
    char got[40], want[40];
    format_value(t, s->got, s->sample[first], got, sizeof got);
    format_value(t, s->expected, first, want, sizeof want);
    snprintf(note, notelen, "%" PRIu64 " of %" PRIu64 " checked chains differ from the host's fma; chain %" PRIu64
             " is %s, expected %s",
             bad, count, s->sample[first], got, want);
    return false;
}

/* One (type, E, concurrency) point of the sweep. */
typedef struct {
    cr_result row;
    rep_ctx ctx;
    uint64_t per_cu, chains;
    const char *failed; /* the step that failed, with row.note saying why; NULL when measurable */
} fma_point;

static void point_failed(fma_point *p, const char *what, const char *err)
{
    p->failed = what;
    snprintf(p->row.note, sizeof p->row.note, "%s", err);
}

/* Fixes point p's launch shape and calibrates its steps on the type's
 * shared chains; *iters carries the calibrated count from point to point.
 * Returns false, with the point marked failed, when a step fails. */
static bool set_up_point(fma_state *s, cr_dtype t, unsigned ilp, unsigned lanes, uint64_t per_cu, uint32_t *iters,
                         fma_point *p)
{
    char err[CR_ERRLEN];
    init_row(s, &p->row, t);
    cr_result_add_param(&p->row, "ilp=%u;per_cu=%" PRIu64 ";per_cu_unit=%s", ilp, per_cu, s->geo.unit_name);
    p->per_cu = per_cu;
    uint64_t wi, wg;
    if (fma_launch_shape(&s->geo, per_cu, &wi, &wg, err, sizeof err) != 0) {
        point_failed(p, "launch shape", err);
        return false;
    }
    p->row.work_items = wi;
    p->row.work_group = wg;
    cr_result_add_param(&p->row, "groups_per_cu=%u", s->geo.groups_per_cu ? s->geo.groups_per_cu : 1);
    p->chains = wi * ilp * lanes;
    p->row.size_bytes = p->chains * cr_dtype_size(t);
    p->ctx = (rep_ctx){s->be, t, ilp, PRIME_ITERS, wi, wg};
    cr_timing prime = {0};
    if (one_rep(&p->ctx, &prime, err, sizeof err) != CR_OK) {
        point_failed(p, "launch", err);
        return false;
    }
    if (s->cfg.iters)
        *iters = (uint32_t)s->cfg.iters;
    else if (calibrate(s, &p->ctx, iters, err, sizeof err) != 0) {
        point_failed(p, "calibration", err);
        return false;
    }
    p->ctx.iters = *iters;
    cr_result_add_param(&p->row, "iters=%" PRIu32, p->ctx.iters);
    if (lanes > 1)
        cr_result_add_param(&p->row, "lanes=%u", lanes);
    return true;
}

/* Runs point p once more on chains of its own, seeded afresh (different at
 * every point, the same from run to run), and checks them: the timed runs
 * shared one set of chains between all points, so their last values say
 * nothing of p in particular. */
static void check_point(fma_state *s, cr_dtype t, fma_point *p)
{
    char err[CR_ERRLEN];
    uint64_t checked = 0;
    fma_fill_seeds(t, s->seeds, p->chains, ((uint64_t)t << 48) ^ ((uint64_t)p->ctx.ilp << 40) ^ p->per_cu);
    cr_timing ignored = {0};
    if (s->be->prepare(t, p->ctx.work_items, p->ctx.ilp, s->seeds, err, sizeof err) != CR_OK ||
        one_rep(&p->ctx, &ignored, err, sizeof err) != CR_OK) {
        p->row.valid = false;
        snprintf(p->row.note, sizeof p->row.note, "verification run failed: %s", err);
    } else {
        p->row.valid = verify(s, t, p->chains, p->ctx.iters, &checked, p->row.note, sizeof p->row.note);
    }
    cr_result_add_param(&p->row, "checked=%" PRIu64, checked);
}

static void fill_figures(fma_point *p, const cr_measurement *m)
{
    cr_result *row = &p->row;
    cr_measurement_to_row(m, row);
    /* Two flops per fused multiply-add, as peak figures count them. */
    row->ops_per_rep = 2.0 * (double)p->chains * (double)p->ctx.iters;
    row->bytes_per_rep = 2.0 * (double)p->chains * (double)cr_dtype_size(p->ctx.dtype);
    row->figure = row->ops_per_rep / m->stats.median * 1e-9;
    row->figure_best = row->ops_per_rep / m->stats.min * 1e-9;
    if (m->below_resolution)
        snprintf(row->note, sizeof row->note, "median below 20 timer ticks");
}

/* Measures every point of type t: set-up one by one, then all of them
 * interleaved (one repetition of each in turn), so that the machine's drift
 * over the sweep cannot pass for a difference between points, which is
 * what the plateau M and the transition points pi are read from; then each
 * is verified and its row recorded, in sweep order. Returns -1 only when
 * the CSV cannot be written. */
static int measure_type(fma_state *s, cr_dtype t, unsigned lanes)
{
    size_t total = s->cfg.nilp * s->npoints;
    fma_point *pts = calloc(total, sizeof *pts);
    cr_series *series = calloc(total, sizeof *series);
    size_t *index = calloc(total, sizeof *index);
    if (pts == NULL || series == NULL || index == NULL) {
        free(pts), free(series), free(index);
        fprintf(stderr, "%s: error: out of memory for %zu points\n", s->ses.opt.program, total);
        return -1;
    }
    char err[CR_ERRLEN];
    /* One set of chains, as many as the largest point runs, for the timed
     * runs of every point. */
    fma_fill_seeds(t, s->seeds, s->most_work_items * s->max_ilp * lanes, ((uint64_t)t << 48) ^ UINT64_C(0xffffffffff));
    cr_status prep = s->be->prepare(t, s->most_work_items, s->max_ilp, s->seeds, err, sizeof err);
    size_t live = 0;
    for (size_t e = 0; e < s->cfg.nilp; ++e) {
        uint32_t iters = 1024;
        for (size_t q = 0; q < s->npoints; ++q) {
            fma_point *p = &pts[e * s->npoints + q];
            if (prep != CR_OK) {
                init_row(s, &p->row, t);
                cr_result_add_param(&p->row, "ilp=%" PRIu64 ";per_cu=%" PRIu64, s->cfg.ilp[e], s->per_cu[q]);
                point_failed(p, "prepare", err);
                continue;
            }
            if (!set_up_point(s, t, (unsigned)s->cfg.ilp[e], lanes, s->per_cu[q], &iters, p))
                continue;
            series[live] = (cr_series){.ctx = &s->meas, .fn = one_rep, .arg = &p->ctx};
            index[live++] = e * s->npoints + q;
        }
    }
    if (live > 0 && cr_measure_sweep_interleaved(series, live, live, err, sizeof err) != CR_OK)
        for (size_t i = 0; i < live; ++i)
            point_failed(&pts[index[i]], "run", err);
    for (size_t i = 0; i < live; ++i)
        if (!pts[index[i]].failed)
            fill_figures(&pts[index[i]], &series[i].out);
    int rc = 0;
    for (size_t i = 0; i < total && rc == 0; ++i) {
        fma_point *p = &pts[i];
        if (p->failed) {
            char why[CR_ERRLEN];
            snprintf(why, sizeof why, "%s", p->row.note);
            rc = record_failure(s, &p->row, p->failed, why);
            continue;
        }
        check_point(s, t, p);
        rc = cr_session_record(&s->ses, &p->row);
    }
    free(pts), free(series), free(index);
    return rc;
}

/* ---- the sweep ---- */

static int run_sweep(fma_state *s)
{
    for (int t = 0; t < CR_NDTYPES; ++t) {
        if (!((s->cfg.types >> t) & 1u))
            continue;
        char err[CR_ERRLEN];
        if (s->be->supports((cr_dtype)t, err, sizeof err) != CR_OK) {
            /* Not a point of the sweep: readers of the concurrency rows
             * see only measured points. */
            cr_result row;
            init_row(s, &row, (cr_dtype)t);
            snprintf(row.sweep, sizeof row.sweep, "support");
            cr_result_unmeasured(&row);
            snprintf(row.stop, sizeof row.stop, "unsupported");
            snprintf(row.note, sizeof row.note, "%s", err);
            fprintf(stderr, "note: %s: %s\n", fma_type_names[t], err);
            if (cr_session_record(&s->ses, &row) != 0)
                return -1;
            continue;
        }
        if (measure_type(s, (cr_dtype)t, s->be->lanes((cr_dtype)t)) != 0)
            return -1;
    }
    return 0;
}

/* ---- the skeleton's hooks ---- */

static int parsed(void *state) { return fma_check_per_cu_given(state); }

static int run_design(void *state)
{
    fma_state *s = state;
    cr_session_measure_init(&s->ses, &s->meas, true);
    return run_sweep(s) == 0 ? -1 : CR_EXIT_FAILED;
}

static void release(void *state)
{
    fma_state *s = state;
    free(s->seeds);
    free(s->got);
    free(s->expected);
    free(s->sample);
}

static fma_state the_state;
static const cr_design fma_design = {
    .benchmark = "fma",
    .summary = "FMA throughput against concurrency per compute unit for 1..8 independent chains per work-item: "
               "the X-model's g(x) (Li ch. 3, Volkov's method).",
    .options = fma_options, .n_options = N_FMA_OPTIONS, .config = &the_state.cfg,
    .session = &the_state.ses, .state = &the_state, .quiet_omp_waits = true, .measures_compute = true,
    .parsed = parsed, .plan = fma_plan, .run = run_design, .release = release,
};

int fma_main(int argc, char **argv, const fma_backend *backend)
{
    the_state = (fma_state){.cfg.types = (1u << CR_NDTYPES) - 1, .be = backend};
    return cr_bench_main(argc, argv, &fma_design, &backend->base);
}
