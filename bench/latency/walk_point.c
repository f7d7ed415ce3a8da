/* One pointer chase of the latency benchmark: the chain walked from where
 * the last walk stopped, each end checked against the cycle, calibrated to
 * the target time, warmed and measured; its footprint row, and the cost of
 * the piece choice. */
#include "latency/run.h"

#include "latency/cycles.h"
#include "latency/walk_steps.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    lt_state *s;
    lt_endpoint *ep;
    const lt_chain *chain;
    uint64_t pos;     /* cycle position the next run starts from */
    uint64_t steps;   /* of a measured run */
    lt_cycle_log *log; /* the measured runs' cycles; NULL outside the measurement */
    bool bad;
    char why[200];    /* the first mismatch */
} walk_ctx;

/* Runs steps loads from the current position, checks the end word against
 * the cycle and moves the position on. */
static cr_status walk(walk_ctx *w, uint64_t steps, cr_timing *t, char *err, size_t errlen)
{
    uint64_t start = lt_chain_word(w->chain, w->pos);
    lt_walk_out out = {0};
    if (w->ep->be->run(steps, start, t, &out, err, errlen) != CR_OK)
        return CR_ERR;
    if (w->log)
        lt_cycle_log_add(w->log, &out, steps);
    uint64_t pos = lt_chain_advance(w->chain, w->pos, steps);
    uint64_t want = lt_chain_word(w->chain, pos);
    lt_walk_check_end(&w->bad, w->why, sizeof w->why, steps, start, out.end, want);
    w->pos = pos;
    return CR_OK;
}

static cr_status walk_rep(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    walk_ctx *w = vctx;
    return walk(w, w->steps, t, err, errlen);
}

static cr_status walk_steps(void *vctx, uint64_t steps, cr_timing *t, char *err, size_t errlen)
{
    return walk(vctx, steps, t, err, errlen);
}

void lt_init_row(cr_result *r, const lt_endpoint *ep, const char *variant, const char *sweep)
{
    cr_result_begin(r, "latency", ep->be->base.name, ep->info.name, variant, "uint64", sweep, "ns");
    r->work_items = r->work_group = 1;
}

/* The figure in cycles: the cycles column where the walker counted its own
 * core's cycles (per load, the median of the measured runs), otherwise
 * cycles_from_clock= in params where the API reports a clock: ns times
 * that nominal clock, which the core may not have run at, hence the name.
 * Neither without a figure or a clock: no zero stands in for an unknown. */
void lt_add_cycles(cr_result *r, double cycles, const lt_endpoint *ep)
{
    if (isnan(r->figure))
        return;
    double nominal = lt_cycles_from_clock(r->figure, ep->info.clock_mhz);
    if (!isnan(cycles))
        r->cycles = cycles;
    else if (!isnan(nominal))
        cr_result_add_param(r, "cycles_from_clock=%.1f", nominal);
}

/* "pieces=N;piece_bytes=B" where a chain is split; nothing where not, so
 * that one-buffer rows read as they always have. */
void lt_add_pieces(cr_result *r, const lt_layout *l)
{
    if (l->pieces > 1)
        cr_result_add_param(r, "pieces=%u;piece_bytes=%" PRIu64, l->pieces, (UINT64_C(8) << l->shift));
}

/* Uploads the walk's chain in layout and measures the walk: calibration,
 * warm-up, then the measured runs; w->steps is set even when it fails.
 * *cycles: the measured runs' median cycles per load, NaN where the
 * backend counts none. */
static cr_status measure_walk(lt_state *s, walk_ctx *w, const lt_layout *layout, cr_measurement *m, double *cycles,
                              char *err, size_t errlen)
{
    *cycles = NAN;
    const lt_chain *chain = w->chain;
    cr_status st = w->ep->be->prepare(layout, chain->next, err, errlen);
    double sec_per_step = 0;
    if (st == CR_OK)
        st = lt_walk_calibrate(walk_steps, w, &w->ep->meas.timer, s->target_s, LT_MAX_STEPS, &sec_per_step, err,
                               errlen);
    double want = s->target_s / sec_per_step;
    w->steps = want < 1024 ? 1024 : want > LT_MAX_STEPS ? LT_MAX_STEPS : (uint64_t)want;
    /* Two passes over every line, so a footprint that fits is in the cache
     * before the first timed run; footprints far beyond the caches need no
     * warming and stop at the budget. */
    uint64_t warm = 2 * chain->lines;
    if ((double)warm * sec_per_step > s->warm_budget_s)
        warm = (uint64_t)(s->warm_budget_s / sec_per_step);
    cr_timing t;
    if (st == CR_OK && warm > 0)
        st = walk(w, warm, &t, err, errlen);
    if (st != CR_OK)
        return st;
    lt_cycle_log log;
    if (lt_cycle_log_init(&log, (size_t)s->ses.rule.max_reps) != 0) {
        snprintf(err, errlen, "out of memory for the cycles of %" PRIu64 " runs", s->ses.rule.max_reps);
        return CR_ERR;
    }
    w->log = &log;
    st = cr_measure(&w->ep->meas, walk_rep, w, m, err, errlen);
    w->log = NULL;
    if (st == CR_OK)
        *cycles = lt_cycle_log_median(&log, m->stats.n);
    lt_cycle_log_free(&log);
    return st;
}

/* A row whose walk failed: unmeasured and invalid, with why, also on stderr. */
static int record_failed(lt_state *s, const lt_endpoint *ep, cr_result *row, const char *err)
{
    cr_result_unmeasured(row);
    row->valid = false;
    snprintf(row->note, sizeof row->note, "run failed: %s", err);
    fprintf(stderr, "%s: error: %s at %" PRIu64 " bytes: %s\n", s->ses.opt.program, ep->be->base.name, row->size_bytes,
            err);
    return cr_session_record(&s->ses, row);
}

/* The row's statistics and figures from the measured walk. */
static void fill_measured(cr_result *row, const walk_ctx *w, const cr_measurement *m)
{
    cr_measurement_to_row(m, row);
    row->ops_per_rep = (double)w->steps;
    row->figure = m->stats.median / (double)w->steps * 1e9;
    row->figure_best = m->stats.min / (double)w->steps * 1e9;
    if (w->bad) {
        row->valid = false;
        snprintf(row->note, sizeof row->note, "%s", w->why);
    } else if (m->below_resolution) {
        snprintf(row->note, sizeof row->note, "median below 20 timer ticks");
    }
}

/* One buffer for the host's walk and for a device chain that fits one
 * allocation; pieces beyond (check_footprints keeps them within
 * LT_MAX_PIECES). */
static lt_layout layout_for(const lt_state *s, const lt_endpoint *ep, uint64_t footprint)
{
    bool split = ep == &s->dev && footprint > s->one_alloc && s->piece_bytes;
    lt_layout l = {.words = footprint / 8};
    /* Too many pieces (check_footprints refuses such footprints): the
     * count, which the backend's prepare refuses with the row's error. */
    if (lt_layout_make(&l, footprint / 8, split ? s->piece_bytes : 0) != 0)
        l.pieces = (unsigned)lt_pieces_for(footprint, s->piece_bytes);
    return l;
}

int lt_measure_point(lt_state *s, lt_endpoint *ep, const lt_chain *chain, uint64_t footprint, double host_ns)
{
    char err[CR_ERRLEN] = "";
    lt_point *p = &ep->points[ep->npoints++];
    *p = (lt_point){.footprint = footprint, .layout = layout_for(s, ep, footprint), .cycles = NAN};
    cr_result *row = &p->row;
    lt_init_row(row, ep, "pointer-chase", "footprint");
    row->size_bytes = footprint;
    walk_ctx w = {.s = s, .ep = ep, .chain = chain};
    cr_measurement m;
    cr_status st = measure_walk(s, &w, &p->layout, &m, &p->cycles, err, sizeof err);
    cr_result_add_param(row, "steps=%" PRIu64 ";line=%u", w.steps, s->line_bytes);
    lt_add_pieces(row, &p->layout);
    if (st != CR_OK)
        return record_failed(s, ep, row, err);
    p->measured = true;
    fill_measured(row, &w, &m);
    lt_add_cycles(row, p->cycles, ep);
    if (!isnan(host_ns) && host_ns > 0)
        row->ref_ratio = row->figure / host_ns;
    if (row->note[0] == '\0' && p->layout.pieces > 1)
        snprintf(row->note, sizeof row->note,
                 "chain in %u pieces, separate allocations; each load also chooses its piece (the overhead row)",
                 p->layout.pieces);
    return cr_session_record(&s->ses, row);
}

/* The cost of the piece choice per load: the same L1-resident chain walked
 * in one buffer and in two pieces, the difference recorded (ns per load;
 * the statistics are the pieces walk's), so that a reader can subtract it
 * from the rows with pieces>1. */
int lt_record_overhead(lt_state *s)
{
    lt_endpoint *ep = &s->dev;
    char err[CR_ERRLEN] = "";
    lt_chain chain;
    if (lt_chain_build(&chain, LT_OVERHEAD_FOOTPRINT / s->line_bytes, s->line_bytes / 8, s->cfg.seed) != 0) {
        fprintf(stderr, "%s: error: out of memory\n", s->ses.opt.program);
        return -1;
    }
    lt_layout one, two;
    lt_layout_make(&one, LT_OVERHEAD_FOOTPRINT / 8, 0);
    lt_layout_make(&two, LT_OVERHEAD_FOOTPRINT / 8, LT_OVERHEAD_FOOTPRINT / 2);
    cr_result row;
    lt_init_row(&row, ep, "piece-select", "overhead");
    row.size_bytes = LT_OVERHEAD_FOOTPRINT;
    walk_ctx single = {.s = s, .ep = ep, .chain = &chain}, split = single;
    cr_measurement m1, m2;
    double one_cycles = NAN, two_cycles = NAN;
    cr_status st = measure_walk(s, &single, &one, &m1, &one_cycles, err, sizeof err);
    if (st == CR_OK)
        st = measure_walk(s, &split, &two, &m2, &two_cycles, err, sizeof err);
    lt_chain_free(&chain);
    cr_result_add_param(&row, "steps=%" PRIu64 ";line=%u", split.steps, s->line_bytes);
    lt_add_pieces(&row, &two);
    if (st != CR_OK)
        return record_failed(s, ep, &row, err);
    fill_measured(&row, &split, &m2);
    double one_ns = m1.stats.median / (double)single.steps * 1e9, two_ns = row.figure;
    cr_result_add_param(&row, "single_ns=%.3f;pieces_ns=%.3f", one_ns, two_ns);
    row.figure = two_ns - one_ns;
    row.figure_best = row.figure_best - m1.stats.min / (double)single.steps * 1e9;
    lt_add_cycles(&row, two_cycles - one_cycles, ep);
    if (single.bad && row.valid) {
        row.valid = false;
        snprintf(row.note, sizeof row.note, "%s", single.why);
    }
    if (row.note[0] == '\0')
        snprintf(row.note, sizeof row.note,
                 "ns per load of the walk in 2 pieces minus the walk in one buffer (%.3f ns): the piece choice, "
                 "included in every row with pieces>1; statistics of the pieces walk",
                 one_ns);
    return cr_session_record(&s->ses, &row);
}
