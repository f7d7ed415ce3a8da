/* The throughput rows of the SFU benchmark: independent chains with
 * work-items doubling to the plateau (a "concurrency" row per point), the
 * "throughput" row of the best, and its speed-up over the precise version
 * measured interleaved with it. */
#define _GNU_SOURCE
#include "sfu/timing.h"

#include "sfu/chain_run.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Two successive points within this of the best are the plateau. */
#define PLATEAU_TOLERANCE 0.05
/* The throughput row runs at least this many work-groups per compute unit:
 * with as many groups as units (a CPU device's first sweep points), a core
 * that starts late or is held up by anything else leaves the others idle
 * at the end of the run, and the repetitions split into two rates, one
 * twice the other (PoCL, 2 cores: div median 9.7, best 19.5 Gop/s). */
#define THROUGHPUT_GROUPS_PER_CU 8
/* The rows' own ratio and the interleaved speed-up further apart than this
 * get a note. */
#define ROWS_DISAGREE 0.25

/* One point of the concurrency sweep, recorded. rate: the calls per second
 * measured so far (NaN before the first point), which sizes the run, and
 * is updated. Returns the rate of the point's fastest run in Gop/s, NaN
 * when it failed; -1 via *fatal. */
static double concurrency_point(sfu_state *s, const sfu_kernel *k, uint64_t w, uint64_t wg, double *rate,
                                cr_result *row, uint32_t *iters, bool *fatal)
{
    sfu_init_version_row(s, row, k->version, "concurrency");
    sfu_rate_row(row);
    sfu_chain c = sfu_chain_of(s, s->cfg.ilp, w, wg);
    /* The one-per-group point calibrates afresh: a backend may run it on
     * scalars and the others in vectors (OpenCL on a CPU), many times
     * slower, and sized by their rate it would run that much too long. */
    if (!isnan(*rate) && wg == s->work_group) {
        double want = s->target_s * *rate / ((double)w * c.ilp);
        c.iters = want < 16 ? 16 : want > SFU_MAX_ITERS ? SFU_MAX_ITERS : (uint32_t)want;
    }
    double r = sfu_chain_point(s, k, &c, 0x7a0u + 16u * s->f + s->t + w, row, fatal);
    if (*fatal)
        return NAN;
    *iters = c.iters;
    if (!isnan(r)) {
        *rate = r;
        double cus = s->ses.info.compute_units ? s->ses.info.compute_units : 1;
        row->figure = r * 1e-9;
        row->figure_best = row->ops_per_rep / row->stats.min * 1e-9;
        cr_result_add_param(row, "ilp=%u;iters=%" PRIu32 ";per_cu_Gops=%.4g", c.ilp, c.iters, row->figure / cus);
        sfu_add_kernel_param(s, row, k, &c);
        if (wg == 1 && s->work_group > 1)
            snprintf(row->note, sizeof row->note, "one work-item per work-group: no packing into SIMD lanes");
    }
    if (cr_session_record(&s->ses, row) != 0)
        *fatal = true;
    return row->valid && !isnan(r) ? row->figure_best : NAN;
}

sfu_speedup sfu_paired_speedup(const double *t_precise, const double *t_version, size_t n)
{
    sfu_speedup sp = {NAN, NAN};
    if (n == 0)
        return sp;
    double best_p = t_precise[0], best_v = t_version[0];
    for (size_t i = 1; i < n; ++i) {
        best_p = t_precise[i] < best_p ? t_precise[i] : best_p;
        best_v = t_version[i] < best_v ? t_version[i] : best_v;
    }
    /* Both sides make the same calls per run: the ratio of their times is
     * the inverse ratio of their rates. */
    sp.median = cr_median_of_ratios(t_precise, t_version, n);
    sp.best = best_p / best_v;
    return sp;
}

/* One side of a speed-up comparison. The backend holds one prepared chain
 * at a time, so a side prepares its kernel again, outside the timed
 * interval, when the other side ran last. */
typedef struct {
    sfu_state *s;
    const sfu_kernel *k;
    const sfu_chain *c;
    const sfu_chain_buffers *b;
    const sfu_kernel **held; /* the kernel the backend has prepared */
} side_rep;

static cr_status run_side(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    side_rep *r = vctx;
    if (*r->held != r->k) {
        *r->held = NULL;
        cr_status st = r->s->be->chain_prepare(r->k, r->c, r->b->x0, r->b->y0, err, errlen);
        if (st != CR_OK)
            return st;
        *r->held = r->k;
    }
    return r->s->be->chain_run(r->k, r->c, t, err, errlen);
}

/* Checks the last run of both sides: the held one's as it is, the other's
 * after one more run. */
static bool verify_sides(sfu_state *s, side_rep side[2], sfu_chain_buffers *b, char *note, size_t notelen)
{
    int held = *side[0].held == side[0].k ? 0 : 1;
    if (!sfu_verify_run(s, side[held].k, side[held].c, b, note, notelen))
        return false;
    *side[held].held = NULL; /* the check may have run other chains */
    char err[CR_ERRLEN];
    cr_timing t = {0};
    if (run_side(&side[1 - held], &t, err, sizeof err) != CR_OK) {
        snprintf(note, notelen, "speed-up run failed: %s", err);
        return false;
    }
    return sfu_verify_run(s, side[1 - held].k, side[1 - held].c, b, note, notelen);
}

/* The speed-up of k over the precise version on the chains of c (the
 * throughput row's kernel, geometry and iterations), the two measured
 * interleaved with the order of each round rotating, into row's params;
 * the row is invalid when a run fails or does not verify. Returns the
 * median speed-up, NaN when it was not measured, or sets *fatal. */
static double speedup_of(sfu_state *s, const sfu_kernel *k, const sfu_chain *c, cr_result *row, bool *fatal)
{
    sfu_kernel precise = sfu_plain_kernel(s, SFU_PRECISE);
    sfu_chain_buffers b = {0};
    size_t most = (size_t)s->meas.rule.max_reps;
    double *times = malloc(2 * most * sizeof *times);
    if (!times || sfu_make_seeds(s, c->work_items * c->ilp, 0x5e0u + 16u * s->f + s->t, &b) != 0) {
        free(times);
        *fatal = true;
        return NAN;
    }
    const sfu_kernel *held = NULL;
    side_rep side[2] = {{s, &precise, c, &b, &held}, {s, k, c, &b, &held}};
    cr_series series[2] = {{.ctx = &s->meas, .fn = run_side, .arg = &side[0], .samples = times},
                           {.ctx = &s->meas, .fn = run_side, .arg = &side[1], .samples = times + most}};
    char err[CR_ERRLEN];
    double speedup = NAN;
    if (cr_measure_sweep_interleaved(series, 2, 2, err, sizeof err) != CR_OK) {
        row->valid = false;
        snprintf(row->note, sizeof row->note, "speed-up run failed: %s", err);
    } else {
        size_t n = series[0].out.stats.n < series[1].out.stats.n ? series[0].out.stats.n : series[1].out.stats.n;
        sfu_speedup sp = sfu_paired_speedup(times, times + most, n);
        speedup = sp.median;
        cr_result_add_param(row, "speedup_vs_precise=%.4g;speedup_best=%.4g;speedup_pairs=%zu", sp.median, sp.best,
                            n);
        if (!verify_sides(s, side, &b, row->note, sizeof row->note)) {
            row->valid = false;
            speedup = NAN;
        }
    }
    free(times);
    sfu_free_chain_buffers(&b);
    return speedup;
}

/* The ratio of the two throughput rows, measured apart, next to the
 * interleaved speed-up; where they disagree the load changed between the
 * rows (a CPU device that other work shares: one row may get half the
 * cores), and the note says which figure to trust. */
static void note_rows_ratio(cr_result *row, double rows_ratio, double speedup)
{
    cr_result_add_param(row, "rows_ratio=%.4g", rows_ratio);
    if (row->valid && !row->note[0] && fabs(rows_ratio / speedup - 1) > ROWS_DISAGREE)
        snprintf(row->note, sizeof row->note,
                 "the throughput rows alone give %.3gx: measured apart, under other load; speedup_vs_precise is "
                 "measured interleaved",
                 rows_ratio);
}

/* The best point of the concurrency sweep. */
typedef struct {
    double gbps;   /* its fastest run, Gop/s; -1: no point ran and verified */
    cr_result row;
    uint32_t iters;
    bool failed;   /* a point failed, and the sweep stopped there */
} sweep_best;

static void keep_if_best(sweep_best *b, double gbps, const cr_result *row, uint32_t iters)
{
    if (gbps > b->gbps) {
        b->gbps = gbps;
        b->row = *row;
        b->iters = iters;
    }
}

/* Work-items doubling from one per SIMD lane until the rate stops growing,
 * then the best point's work-items one per group. 0, or -1 where a row
 * could not be written. */
static int sweep_to_plateau(sfu_state *s, const sfu_kernel *k, sweep_best *b)
{
    cr_result row;
    double prev = -1, rate = NAN;
    uint32_t iters = 0;
    int stale = 0; /* successive points that did not beat the best by the tolerance */
    bool fatal = false;
    *b = (sweep_best){.gbps = -1};
    for (uint64_t w = s->lane_work_items; w && w <= s->max_work_items; w *= 2) {
        /* The plateau is judged on each point's fastest run: on a shared
         * machine the medians wander with other load, the best runs much
         * less. */
        double gb = concurrency_point(s, k, w, s->work_group, &rate, &row, &iters, &fatal);
        if (fatal)
            return -1;
        if (isnan(gb)) {
            b->failed = true;
            break; /* a failed run says nothing about the next size */
        }
        stale = b->gbps >= 0 && gb <= (1 + PLATEAU_TOLERANCE) * b->gbps ? stale + 1 : 0;
        keep_if_best(b, gb, &row, iters);
        /* A plateau, or a curve that has stopped growing (falling after a
         * peak, or as noisy as it is high). */
        if ((prev >= 0 && gb >= (1 - PLATEAU_TOLERANCE) * b->gbps && prev >= (1 - PLATEAU_TOLERANCE) * b->gbps) ||
            stale >= 2)
            break;
        prev = gb;
    }
    /* The same work-items one per group: a runtime that packs a group's
     * work-items into SIMD lanes (PoCL) may vectorise a function worse
     * than it runs it on scalars (powr, on PoCL 3), and the sustainable
     * rate is the better of the two. */
    if (b->gbps >= 0 && s->work_group > 1) {
        double gb = concurrency_point(s, k, b->row.work_items, 1, &rate, &row, &iters, &fatal);
        if (fatal)
            return -1;
        if (isnan(gb))
            b->failed = true;
        else
            keep_if_best(b, gb, &row, iters);
    }
    return 0;
}

/* The throughput row's point: the best point, its work spread over at
 * least THROUGHPUT_GROUPS_PER_CU work-groups per compute unit when it has
 * fewer (a CPU device): the same work-group, the same calls per run (so
 * the run lasts as long as the calibrated point, and the quick run no
 * longer), fewer iterations per work-item. On a GPU the best point
 * normally has that many groups already and is the row, unchanged.
 * *iters and *groups are the row's; 1 where its run did not measure, -1
 * where a row could not be written, else 0. */
static int throughput_point(sfu_state *s, const sfu_kernel *k, const sweep_best *b, cr_result *row, uint32_t *iters,
                            uint64_t *groups)
{
    uint64_t units = s->ses.info.compute_units ? s->ses.info.compute_units : 1;
    uint64_t wg = b->row.work_group ? b->row.work_group : 1, least = THROUGHPUT_GROUPS_PER_CU * units;
    *groups = b->row.work_items / wg;
    *iters = b->iters;
    if (*groups >= least) {
        *row = b->row;
        snprintf(row->sweep, sizeof row->sweep, "throughput");
        row->params[0] = '\0';
        return 0;
    }
    *groups = least;
    sfu_init_version_row(s, row, k->version, "throughput");
    sfu_rate_row(row);
    sfu_chain c = sfu_chain_of(s, s->cfg.ilp, least * wg, wg);
    uint64_t spread = (uint64_t)b->iters * b->row.work_items / c.work_items;
    c.iters = spread < 16 ? 16 : spread > SFU_MAX_ITERS ? SFU_MAX_ITERS : (uint32_t)spread;
    bool fatal = false;
    double r = sfu_chain_point(s, k, &c, 0x7b0u + 16u * s->f + s->t, row, &fatal);
    if (fatal)
        return -1;
    *iters = c.iters;
    if (isnan(r))
        return 1;
    row->figure = r * 1e-9;
    row->figure_best = row->ops_per_rep / row->stats.min * 1e-9;
    if (row->valid && !row->note[0] && wg == 1 && s->work_group > 1)
        snprintf(row->note, sizeof row->note, "%s", b->row.note);
    return 0;
}

/* The throughput row's params, its speed-up over the precise version, its
 * summary entry; recorded. */
static int record_throughput(sfu_state *s, const sfu_kernel *k, const sweep_best *b, cr_result *row, uint32_t iters,
                             uint64_t groups)
{
    sfu_version v = k->version;
    sfu_summary_entry *e = &s->summary[s->f][s->t][v];
    double cus = s->ses.info.compute_units ? s->ses.info.compute_units : 1;
    uint64_t units = s->ses.info.compute_units ? s->ses.info.compute_units : 1;
    double gops = row->figure;
    /* The row's work-items and work-group are its columns; the params have
     * room for what only they can say. */
    cr_result_add_param(row, "per_cu_Gops=%.4g;ilp=%u", gops / cus, s->cfg.ilp);
    cr_result_add_param(row, "iters=%" PRIu32 ";groups=%" PRIu64 ";groups_per_cu=%.4g;sweep_work_items=%" PRIu64,
                        iters, groups, (double)groups / (double)units, b->row.work_items);
    sfu_chain timed = sfu_chain_of(s, s->cfg.ilp, row->work_items, row->work_group);
    timed.iters = iters;
    sfu_add_kernel_param(s, row, k, &timed);
    s->timed[v] = timed;
    double speedup = NAN, precise = s->summary[s->f][s->t][SFU_PRECISE].gops;
    bool fatal = false;
    if (v != SFU_PRECISE && row->valid && precise > 0) {
        speedup = speedup_of(s, k, &timed, row, &fatal);
        if (fatal)
            return -1;
        if (!isnan(speedup))
            note_rows_ratio(row, gops / precise, speedup);
    }
    if (b->failed) {
        row->valid = false;
        snprintf(row->note, sizeof row->note, "the sweep stopped at a failed point");
    }
    e->gops = gops;
    e->per_cu_gops = gops / cus;
    e->speedup = speedup;
    if (!row->valid)
        e->valid = false;
    if (cr_session_record(&s->ses, row) != 0)
        return -1;
    /* The table shows the throughput as the gate judged it. */
    const cr_result *judged = cr_session_last(&s->ses);
    snprintf(e->flags, sizeof e->flags, "%s", judged->flags);
    snprintf(e->note, sizeof e->note, "%s", judged->note);
    return 0;
}

int sfu_throughput_rows(sfu_state *s, sfu_version v)
{
    sfu_kernel k = sfu_plain_kernel(s, v);
    sfu_summary_entry *e = &s->summary[s->f][s->t][v];
    sweep_best b;
    if (sweep_to_plateau(s, &k, &b) != 0)
        return -1;
    cr_result row;
    if (b.gbps < 0) {
        sfu_init_version_row(s, &row, v, "throughput");
        sfu_rate_row(&row);
        cr_result_unmeasured(&row);
        row.valid = e->valid = false;
        snprintf(row.note, sizeof row.note, "no concurrency point ran and verified");
        return cr_session_record(&s->ses, &row);
    }
    s->plateau_wi[v] = b.row.work_items;
    uint32_t iters;
    uint64_t groups;
    int rc = throughput_point(s, &k, &b, &row, &iters, &groups);
    if (rc < 0)
        return -1;
    if (rc > 0) {
        row.valid = e->valid = false;
        return cr_session_record(&s->ses, &row);
    }
    return record_throughput(s, &k, &b, &row, iters, groups);
}
