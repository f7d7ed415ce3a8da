/* One built kernel of the regspill benchmark: its rows' common columns and
 * build facts, its launches calibrated, measured, and its outputs verified
 * bit for bit against the host's recurrence on a sample. */
#include "regspill/run.h"

#include "regspill/ptxas_log.h"
#include "regspill/recurrence.h"
#include "regspill/truth.h"

#include <inttypes.h>
#include <stdio.h>

/* Launch time the calibration aims at, so timer resolution and launch
 * overhead stay negligible. */
#define TARGET_REP_S 0.02
#define QUICK_TARGET_REP_S 0.005

void regspill_build_info_init(regspill_build_info *b)
{
    *b = (regspill_build_info){
        .registers = -1, .private_bytes = -1, .static_smem_bytes = -1, .blocks_per_cu_api = -1, .max_work_group = 0};
}

/* One launch of the built kernel at the run's geometry. */
typedef struct {
    const regspill_run *run;
    uint32_t rounds;
} rep_ctx;

static cr_status one_rep(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    const rep_ctx *c = vctx;
    return c->run->be->run(c->run->work_items, c->run->work_group, c->rounds, t, err, errlen);
}

void regspill_init_row(const regspill_run *run, cr_result *r, const char *variant, const char *sweep)
{
    cr_result_begin(r, "regspill", run->be->base.name, run->ses.info.name, variant, "uint32", sweep, NULL);
    r->work_items = run->work_items;
    r->work_group = run->work_group;
    if (run->lanes > 1)
        cr_result_add_param(r, "lanes=%u", run->lanes);
}

regspill_build_facts regspill_facts_of(const regspill_build_info *b)
{
    ptxas_report p;
    ptxas_parse(b->log, NULL, &p);
    regspill_build_facts f = {.registers = p.found ? p.registers : b->registers,
                     .spill_store = p.spill_store_bytes,
                     .spill_load = p.spill_load_bytes,
                     .stack = p.stack_frame_bytes,
                     .lower_bound = p.lower_bound};
    return f;
}

void regspill_add_build_params(cr_result *r, const regspill_build_facts *f, const regspill_build_info *b)
{
    if (f->registers >= 0)
        cr_result_add_param(r, "registers=%d", f->registers);
    if (f->spill_store >= 0)
        cr_result_add_param(r, "spill_store_bytes=%" PRId64 ";spill_load_bytes=%" PRId64, f->spill_store,
                            f->spill_load);
    if (f->stack >= 0)
        cr_result_add_param(r, "stack_bytes=%" PRId64, f->stack);
    if (b->private_bytes >= 0)
        cr_result_add_param(r, "private_bytes=%" PRId64, b->private_bytes);
}

static bool verify(regspill_run *run, unsigned live, uint32_t rounds, char *note, size_t notelen)
{
    char err[CR_ERRLEN];
    if (run->be->download(run->got, run->work_items, err, sizeof err) != CR_OK) {
        snprintf(note, notelen, "download failed: %s", err);
        return false;
    }
    if (run->truth_live != live || run->truth_rounds != rounds) {
        regspill_truth_sample(run->truth, run->sample, run->nsample, live, rounds);
        run->truth_live = live;
        run->truth_rounds = rounds;
    }
    uint64_t first = 0, bad = regspill_compare(run->got, run->sample, run->truth, run->nsample, &first);
    if (bad) {
        snprintf(note, notelen,
                 "%" PRIu64 " of %" PRIu64 " checked outputs wrong, first %" PRIu64 " (0x%08x, expected 0x%08x)", bad,
                 run->nsample, run->sample[first], run->got[run->sample[first]], run->truth[first]);
        return false;
    }
    return true;
}

uint32_t regspill_rounds_for(uint64_t updates, unsigned live)
{
    uint64_t r = updates / live;
    return r == 0 ? 1 : (uint32_t)r;
}

int regspill_measure_built(regspill_run *run, unsigned live, uint32_t rounds, cr_result *r)
{
    rep_ctx ctx = {run, rounds};
    cr_series s = {.ctx = &run->meas, .fn = one_rep, .arg = &ctx, .samples = run->samples};
    char err[CR_ERRLEN];
    if (cr_measure_interleaved(&s, 1, err, sizeof err) != CR_OK) {
        cr_result_unmeasured(r);
        r->valid = false;
        snprintf(r->note, sizeof r->note, "run failed: %s", err);
        fprintf(stderr, "%s: error: %s\n", run->ses.opt.program, err);
        return 0;
    }
    cr_measurement_to_row(&s.out, r);
    r->ops_per_rep = (double)RS_OPS_PER_UPDATE * live * rounds * (double)run->outputs;
    r->bytes_per_rep = 4.0 * (double)run->outputs;
    r->figure = r->ops_per_rep / s.out.stats.median * 1e-9;
    r->figure_best = r->ops_per_rep / s.out.stats.min * 1e-9;
    snprintf(r->unit, sizeof r->unit, "Gop/s");
    r->valid = verify(run, live, rounds, r->note, sizeof r->note);
    cr_result_add_param(r, "checked=%" PRIu64, run->nsample);
    if (r->valid && s.out.below_resolution)
        snprintf(r->note, sizeof r->note, "median below 20 timer ticks");
    return 0;
}

int regspill_record_build_failure(regspill_run *run, const char *variant, const char *sweep, const char *what,
                                const char *err)
{
    cr_result r;
    regspill_init_row(run, &r, variant, sweep);
    cr_result_add_param(&r, "%s", what);
    cr_result_unmeasured(&r);
    r.valid = false;
    snprintf(r.note, sizeof r.note, "build failed: %s", err);
    fprintf(stderr, "%s: error: %s: %s\n", run->ses.opt.program, what, err);
    return cr_session_record(&run->ses, &r);
}

/* Doubles the rounds until one launch of the first live count takes the
 * target time; the value updates per work-item then stay the same for every
 * live count, so every point does the same work. */
int regspill_calibrate(regspill_run *run, unsigned live, uint64_t *updates)
{
    double target = run->ses.opt.quick ? QUICK_TARGET_REP_S : TARGET_REP_S;
    uint32_t rounds = 16;
    char err[CR_ERRLEN];
    for (;;) {
        cr_timing t = {0};
        if (run->be->run(run->work_items, run->work_group, rounds, &t, err, sizeof err) != CR_OK) {
            fprintf(stderr, "%s: error: calibration: %s\n", run->ses.opt.program, err);
            return -1;
        }
        cr_timer_state ts = {0};
        cr_timer_kind kind;
        bool switched;
        double s = cr_timer_pick(&ts, &t, &kind, &switched);
        if (s >= target || rounds >= UINT32_MAX / 2 / live)
            break;
        rounds *= 2;
    }
    *updates = (uint64_t)rounds * live;
    return 0;
}
