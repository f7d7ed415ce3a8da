/* Measuring one chain with the latency benchmark's walker: the chain is
 * prepared in one buffer (read in place from huge pages on a CPU device),
 * each walk continues where the last one stopped and is checked against
 * the cycle, and a measured walk lasts the target time (a launch's fixed
 * cost is then a small part of it). */
#include "cache/state.h"

#include "error.h"
#include "latency/walk_steps.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CC_MAX_STEPS (UINT64_C(1) << 36)

int cc_series_add(cc_series *sr, double x, double ns, bool valid)
{
    if (sr->n == sr->cap) {
        size_t cap = sr->cap ? 2 * sr->cap : 32;
        cc_point *p = realloc(sr->p, cap * sizeof *p);
        if (!p)
            return -1;
        sr->p = p;
        sr->cap = cap;
    }
    sr->p[sr->n++] = (cc_point){.x = x, .ns = ns, .valid = valid};
    return 0;
}

void cc_series_free(cc_series *sr)
{
    free(sr->p);
    memset(sr, 0, sizeof *sr);
}

cr_status cc_prepare_chain(cc_state *s, const cc_order *o, uint64_t extra_words, char *err, size_t errlen)
{
    uint64_t words = cc_order_words(o) + extra_words;
    cc_host_words mem;
    if (cc_host_words_map(&mem, words, s->huge) != 0)
        return cr_errf(err, errlen, "cannot map %" PRIu64 " words for the chain", words), CR_ERR;
    cc_chain_link(o, mem.words);
    cr_status st = s->be->prepare_writable(mem.words, words, s->in_place, err, errlen);
    /* The device has let go of the chain before (prepare replaced it):
     * its words may go now. */
    cc_host_words_unmap(&s->chain_mem);
    s->chain_mem = mem;
    return st;
}

cr_status cc_walk_run(cc_walk *w, uint64_t steps, cr_timing *t, char *err, size_t errlen)
{
    const cc_backend *be = w->s->be;
    uint64_t start = w->o->order[w->pos];
    lt_walk_out out = {0};
    cr_status st = w->kind ? be->run_kind(w->kind - 1, steps, start, t, &out, err, errlen)
                           : be->chase->run(steps, start, t, &out, err, errlen);
    if (st != CR_OK)
        return st;
    uint64_t pos = cc_order_advance(w->o, w->pos, steps);
    uint64_t want = w->o->order[pos];
    lt_walk_check_end(&w->bad, w->why, sizeof w->why, steps, start, out.end, want);
    w->pos = pos;
    return CR_OK;
}

static cr_status walk_steps(void *ctx, uint64_t steps, cr_timing *t, char *err, size_t errlen)
{
    return cc_walk_run(ctx, steps, t, err, errlen);
}

static cr_status walk_rep(void *ctx, cr_timing *t, char *err, size_t errlen)
{
    cc_walk *w = ctx;
    return cc_walk_run(w, w->steps, t, err, errlen);
}

cr_status cc_walk_measure(cc_walk *w, cr_result *row, char *err, size_t errlen)
{
    cc_state *s = w->s;
    double sec_per_step = 0;
    if (lt_walk_calibrate(walk_steps, w, &s->meas.timer, s->target_s, CC_MAX_STEPS, &sec_per_step, err, errlen) !=
        CR_OK)
        return CR_ERR;
    double want = s->target_s / sec_per_step;
    w->steps = want < 1024 ? 1024 : want > CC_MAX_STEPS ? CC_MAX_STEPS : (uint64_t)want;
    /* Two passes, so that a footprint that fits is in its cache before the
     * first measured walk; one far beyond needs none, and stops at the
     * budget. */
    uint64_t warm = 2 * w->o->count;
    if ((double)warm * sec_per_step > s->warm_budget_s)
        warm = (uint64_t)(s->warm_budget_s / sec_per_step);
    cr_timing t;
    if (warm > 0 && cc_walk_run(w, warm, &t, err, errlen) != CR_OK)
        return CR_ERR;
    cr_measurement m;
    if (cr_measure(&s->meas, walk_rep, w, &m, err, errlen) != CR_OK)
        return CR_ERR;
    cr_measurement_to_row(&m, row);
    row->ops_per_rep = (double)w->steps;
    row->figure = m.stats.median / (double)w->steps * 1e9;
    row->figure_best = m.stats.min / (double)w->steps * 1e9;
    if (w->bad) {
        row->valid = false;
        snprintf(row->note, sizeof row->note, "%s", w->why);
    } else if (m.below_resolution) {
        snprintf(row->note, sizeof row->note, "median below 20 timer ticks");
    }
    return CR_OK;
}

bool cc_span_ok(const cc_state *s, uint64_t bytes)
{
    return bytes <= CC_MAX_SPAN && bytes <= s->ses.info.max_alloc_bytes;
}

void cc_row_init(const cc_state *s, cr_result *r, const char *variant, const char *sweep)
{
    cr_result_begin(r, "cache", s->be->base.name, s->ses.info.name, variant, "uint64", sweep, "ns");
    r->cycles = NAN;
    r->work_items = r->work_group = 1;
    cr_result_unmeasured(r);
}

int cc_record_failed(cc_state *s, cr_result *row, const char *err)
{
    cr_result_unmeasured(row);
    row->valid = false;
    snprintf(row->note, sizeof row->note, "run failed: %s", err);
    fprintf(stderr, "%s: error: %s %s at %" PRIu64 " bytes: %s\n", s->ses.opt.program, row->sweep, row->variant,
            row->size_bytes, err);
    return cr_session_record(&s->ses, row);
}

int cc_record_point(cc_state *s, cr_result *row, cc_series *series, double x)
{
    /* The fastest repetition: another process on a shared core only ever
     * slows a walk down, so the minimum is the level's own latency. */
    if (series && cc_series_add(series, x, row->figure_best, row->valid) != 0) {
        fprintf(stderr, "%s: error: out of memory\n", s->ses.opt.program);
        return -1;
    }
    return cr_session_record(&s->ses, row);
}

int cc_measure_chain(cc_state *s, const cc_order *o, unsigned kind, cr_result *row)
{
    char err[CR_ERRLEN] = "";
    cc_walk w = {.s = s, .o = o, .kind = kind};
    if (cc_prepare_chain(s, o, 0, err, sizeof err) != CR_OK || cc_walk_measure(&w, row, err, sizeof err) != CR_OK) {
        cr_result_unmeasured(row);
        row->valid = false;
        snprintf(row->note, sizeof row->note, "run failed: %s", err);
    }
    return 0;
}

int cc_record_chase(cc_state *s, cr_result *row, cc_series *series, double x)
{
    if (!row->valid && row->stats.n == 0)
        fprintf(stderr, "%s: error: %s %s at %" PRIu64 " bytes: %s\n", s->ses.opt.program, row->sweep, row->variant,
                row->size_bytes, row->note);
    return cc_record_point(s, row, series, x);
}

int cc_chase_point(cc_state *s, const cc_order *o, cr_result *row, cc_series *series, double x, unsigned kind)
{
    cc_measure_chain(s, o, kind, row);
    return cc_record_chase(s, row, series, x);
}
