/* One chain configuration of the SFU benchmark: seeds, calibration of the
 * iterations, measurement, and the check of every run against the host's
 * replay within the error the kernel's own evaluations show. */
#define _GNU_SOURCE
#include "sfu/chain_run.h"

#include "sfu/errors.h"
#include "sfu/truth.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chains replayed on the host per run: all of them up to this many, else
 * this many spread evenly over the work-items (every unit of a partition
 * gets some). A replay costs a few dozen libm calls. */
#define REPLAYED_CHAINS 1024

void sfu_free_chain_buffers(sfu_chain_buffers *b)
{
    free(b->dx0);
    memset(b, 0, sizeof *b);
}

int sfu_make_seeds(const sfu_state *s, uint64_t n, uint64_t seed, sfu_chain_buffers *b)
{
    size_t es = cr_dtype_size(s->t);
    char *block = malloc(n * (2 * sizeof(double) + 4 * es));
    if (!block) {
        fprintf(stderr, "%s: error: out of memory for %" PRIu64 " chains\n", s->ses.opt.program, n);
        return -1;
    }
    char *typed = block + n * 2 * sizeof(double);
    *b = (sfu_chain_buffers){.n = n, .dx0 = (double *)block, .dy0 = (double *)block + n, .x0 = typed,
                         .y0 = typed + n * es, .xout = typed + 2 * n * es, .sout = typed + 3 * n * es};
    uint64_t rng = seed;
    for (uint64_t i = 0; i < n; ++i) {
        sfu_chain_seed(s, &rng, &b->dx0[i], &b->dy0[i]);
        if (s->t == CR_FLOAT) {
            ((float *)b->x0)[i] = (float)b->dx0[i];
            ((float *)b->y0)[i] = (float)b->dy0[i];
        } else {
            ((double *)b->x0)[i] = b->dx0[i];
            ((double *)b->y0)[i] = b->dy0[i];
        }
    }
    return 0;
}

typedef struct {
    const sfu_backend *be;
    const sfu_kernel *k;
    const sfu_chain *c;
} chain_rep;

static cr_status run_chain(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    chain_rep *r = vctx;
    return r->be->chain_run(r->k, r->c, t, err, errlen);
}

static cr_status time_once(sfu_state *s, const sfu_kernel *k, const sfu_chain *c, double *sec, char *err,
                           size_t errlen)
{
    cr_timing t = {0};
    cr_status st = s->be->chain_run(k, c, &t, err, errlen);
    if (st != CR_OK)
        return st;
    cr_timer_state ts = {.slack_ns = s->meas.timer.slack_ns};
    cr_timer_kind kind;
    bool switched;
    *sec = cr_timer_pick(&ts, &t, &kind, &switched);
    return CR_OK;
}

/* Iterations for a run of about target_s: scaled up from a short probe
 * until one run is long enough that launch overhead does not distort the
 * scale (the first launch also pays for compiling the kernel). */
static cr_status calibrate(sfu_state *s, const sfu_kernel *k, sfu_chain *c, char *err, size_t errlen)
{
    c->iters = 64;
    for (int round = 0; round < 12; ++round) {
        double sec;
        cr_status st = time_once(s, k, c, &sec, err, errlen);
        if (st != CR_OK)
            return st;
        if (round == 0)
            continue; /* the compile */
        double scale = sec > 0 ? s->target_s / sec : 64;
        if (sec >= 0.25 * s->target_s || c->iters >= SFU_MAX_ITERS) {
            double want = c->iters * scale;
            c->iters = want < 16 ? 16 : want > SFU_MAX_ITERS ? SFU_MAX_ITERS : (uint32_t)want;
            return CR_OK;
        }
        double grown = c->iters * (scale > 64 ? 64 : scale < 2 ? 2 : scale);
        c->iters = grown > SFU_MAX_ITERS ? SFU_MAX_ITERS : (uint32_t)grown;
    }
    return CR_OK;
}

static double as_double(const void *buf, cr_dtype t, uint64_t i)
{
    return t == CR_FLOAT ? (double)((const float *)buf)[i] : ((const double *)buf)[i];
}

/* The tolerance of chains computed with version v's kernel of c's ILP and
 * work-group. */
static double chain_tol(sfu_state *s, sfu_version v, const sfu_chain *c, char *err, size_t errlen)
{
    double seen = sfu_chain_error(s, v, c, err, errlen);
    if (isnan(seen))
        return NAN;
    double bound = v == SFU_PRECISE ? sfu_bound_ulp(s->f, s->t, v) : NAN;
    return sfu_truth_tol_x(s->f, s->t, sfu_truth_err_f(s->f, s->t, seen, bound));
}

bool sfu_verify_run(sfu_state *s, const sfu_kernel *k, const sfu_chain *c, sfu_chain_buffers *b, char *note,
                       size_t notelen)
{
    char err[CR_ERRLEN];
    /* The download first: bounding the error runs other chains. */
    if (s->be->chain_download(b->xout, b->sout, b->n, err, sizeof err) != CR_OK) {
        snprintf(note, notelen, "download failed: %s", err);
        return false;
    }
    double tol[2] = {chain_tol(s, k->version, c, err, sizeof err), NAN};
    if (!isnan(tol[0]) && k->fast_units > 0)
        tol[1] = chain_tol(s, k->fast, c, err, sizeof err);
    if (isnan(tol[0]) || (k->fast_units > 0 && isnan(tol[1]))) {
        snprintf(note, notelen, "cannot bound the chain error: %s", err);
        return false;
    }
    for (uint64_t i = 0; i < b->n; ++i) {
        double x = as_double(b->xout, s->t, i), sum = as_double(b->sout, s->t, i);
        if (!isfinite(x) || !isfinite(sum)) {
            snprintf(note, notelen, "chain %" PRIu64 ": end value %g, sum %g", i, x, sum);
            return false;
        }
    }
    uint64_t count = b->n < REPLAYED_CHAINS ? b->n : REPLAYED_CHAINS;
    for (uint64_t j = 0; j < count; ++j) {
        uint64_t i = count == b->n ? j : j * (b->n - 1) / (count - 1);
        uint64_t unit = i / c->ilp / (c->work_group ? c->work_group : 1);
        bool fast = unit % SFU_PARTITION_UNITS < k->fast_units;
        char why[200];
        if (!sfu_truth_check_chain(s->f, s->t, b->dx0[i], b->dy0[i], c->iters, c->a, c->b, tol[fast],
                             as_double(b->xout, s->t, i), as_double(b->sout, s->t, i), why, sizeof why)) {
            snprintf(note, notelen, "chain %" PRIu64 " (%s path): %s", i,
                     sfu_version_names[fast ? k->fast : k->version], why);
            return false;
        }
    }
    return true;
}

double sfu_chain_point(sfu_state *s, const sfu_kernel *k, sfu_chain *c, uint64_t seed, cr_result *row,
                          bool *fatal)
{
    char err[CR_ERRLEN];
    sfu_chain_buffers b = {0};
    row->work_items = c->work_items;
    row->work_group = c->work_group;
    if (sfu_make_seeds(s, c->work_items * c->ilp, seed, &b) != 0) {
        *fatal = true;
        return NAN;
    }
    cr_status st = s->be->chain_prepare(k, c, b.x0, b.y0, err, sizeof err);
    if (st == CR_OK && c->iters == 0)
        st = calibrate(s, k, c, err, sizeof err);
    cr_measurement m;
    chain_rep rep = {s->be, k, c};
    if (st == CR_OK)
        st = cr_measure(&s->meas, run_chain, &rep, &m, err, sizeof err);
    if (st != CR_OK) {
        cr_result_unmeasured(row);
        row->valid = false;
        snprintf(row->note, sizeof row->note, "run failed: %s", err);
        fprintf(stderr, "%s: error: %s %s: %s\n", s->ses.opt.program, row->variant, row->dtype, err);
        sfu_free_chain_buffers(&b);
        return NAN;
    }
    cr_measurement_to_row(&m, row);
    row->ops_per_rep = (double)c->work_items * c->ilp * c->iters;
    row->valid = sfu_verify_run(s, k, c, &b, row->note, sizeof row->note);
    if (row->valid && m.below_resolution)
        snprintf(row->note, sizeof row->note, "median below 20 timer ticks");
    sfu_free_chain_buffers(&b);
    return row->ops_per_rep / m.stats.median;
}

sfu_chain sfu_chain_of(const sfu_state *s, uint32_t ilp, uint64_t work_items, uint64_t work_group)
{
    const sfu_function *fn = &sfu_functions[s->f];
    return (sfu_chain){ilp, 0, work_items, work_group, fn->chain_a, fn->chain_b};
}

void sfu_add_kernel_param(const sfu_state *s, cr_result *row, const sfu_kernel *k, const sfu_chain *c)
{
    char name[16];
    cr_result_add_param(row, "kernel=%s", sfu_kernel_name(s, k, c, name, sizeof name));
}

void sfu_rate_row(cr_result *row)
{
    snprintf(row->unit, sizeof row->unit, "Gop/s");
    row->peak_kind = CR_PEAK_COMPUTE;
}
