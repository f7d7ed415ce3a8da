/* The SFU benchmark's timed measurements, all on the chain kernel of
 * sfu/backend.h: latency (one dependent chain on one work-item), throughput
 * (independent chains, work-items doubling until the rate stops growing)
 * and Li's partition trade-off (a fraction of the units on the fast path).
 * Every run's end values and sums are checked against the host's replay
 * (sfu/truth.h). */
#define _GNU_SOURCE
#include "sfu/timing.h"

#include "sfu/errors.h"
#include "sfu/truth.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Chains replayed on the host per run: all of them up to this many, else
 * this many spread evenly over the work-items (every unit of a partition
 * gets some). A replay costs a few dozen libm calls. */
#define REPLAYED_CHAINS 1024
/* Two successive points within this of the best are the plateau. */
#define PLATEAU_TOLERANCE 0.05
/* The throughput row runs at least this many work-groups per compute unit:
 * with as many groups as units (a CPU device's first sweep points), a core
 * that starts late or is held up by anything else leaves the others idle
 * at the end of the run, and the repetitions split into two rates, one
 * twice the other (PoCL, 2 cores: div median 9.7, best 19.5 Gop/s). */
#define THROUGHPUT_GROUPS_PER_CU 8
#define MAX_ITERS (UINT32_C(1) << 30)
/* The rows' own ratio and the interleaved speed-up further apart than this
 * get a note. */
#define ROWS_DISAGREE 0.25

/* The seeds of a run and the host's copies of the results, in one block. */
typedef struct {
    uint64_t n;          /* work_items * ilp */
    double *dx0, *dy0;   /* the seeds as doubles, for the replay */
    void *x0, *y0;       /* the same in the kernel's type */
    void *xout, *sout;
} chain_buffers;

static void free_buffers(chain_buffers *b)
{
    free(b->dx0);
    memset(b, 0, sizeof *b);
}

/* Seeds drawn uniformly from the chain domain, reproducibly. */
static int make_seeds(const sfu_state *s, uint64_t n, uint64_t seed, chain_buffers *b)
{
    size_t es = cr_dtype_size(s->t);
    char *block = malloc(n * (2 * sizeof(double) + 4 * es));
    if (!block) {
        fprintf(stderr, "%s: error: out of memory for %" PRIu64 " chains\n", s->ses.opt.program, n);
        return -1;
    }
    char *typed = block + n * 2 * sizeof(double);
    *b = (chain_buffers){.n = n, .dx0 = (double *)block, .dy0 = (double *)block + n, .x0 = typed,
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
        if (sec >= 0.25 * s->target_s || c->iters >= MAX_ITERS) {
            double want = c->iters * scale;
            c->iters = want < 16 ? 16 : want > MAX_ITERS ? MAX_ITERS : (uint32_t)want;
            return CR_OK;
        }
        double grown = c->iters * (scale > 64 ? 64 : scale < 2 ? 2 : scale);
        c->iters = grown > MAX_ITERS ? MAX_ITERS : (uint32_t)grown;
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

/* Checks the last run: every end value and sum finite, and the replayed
 * sample within the bounds. Writes the first failure into note. */
static bool verify_run(sfu_state *s, const sfu_kernel *k, const sfu_chain *c, chain_buffers *b, char *note,
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

/* Prepares, calibrates (when c->iters is 0), measures and verifies one
 * chain configuration into row (stats, timer, stop, calls per run, note,
 * valid). Returns the median rate in calls per second (NaN when it did not
 * run), or sets *fatal. */
static double chain_point(sfu_state *s, const sfu_kernel *k, sfu_chain *c, uint64_t seed, cr_result *row,
                          bool *fatal)
{
    char err[CR_ERRLEN];
    chain_buffers b = {0};
    row->work_items = c->work_items;
    row->work_group = c->work_group;
    if (make_seeds(s, c->work_items * c->ilp, seed, &b) != 0) {
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
        free_buffers(&b);
        return NAN;
    }
    cr_measurement_to_row(&m, row);
    row->ops_per_rep = (double)c->work_items * c->ilp * c->iters;
    row->valid = verify_run(s, k, c, &b, row->note, sizeof row->note);
    if (row->valid && m.below_resolution)
        snprintf(row->note, sizeof row->note, "median below 20 timer ticks");
    free_buffers(&b);
    return row->ops_per_rep / m.stats.median;
}

static sfu_chain chain_of(const sfu_state *s, uint32_t ilp, uint64_t work_items, uint64_t work_group)
{
    const sfu_function *fn = &sfu_functions[s->f];
    return (sfu_chain){ilp, 0, work_items, work_group, fn->chain_a, fn->chain_b};
}

/* Names the kernel a timed row ran in its params. */
static void add_kernel_param(const sfu_state *s, cr_result *row, const sfu_kernel *k, const sfu_chain *c)
{
    char name[16];
    cr_result_add_param(row, "kernel=%s", sfu_kernel_name(s, k, c, name, sizeof name));
}

int sfu_latency_row(sfu_state *s, sfu_version v)
{
    cr_result row;
    sfu_init_version_row(s, &row, v, "latency");
    snprintf(row.unit, sizeof row.unit, "ns");
    sfu_kernel k = sfu_plain_kernel(s, v);
    sfu_chain c = chain_of(s, 1, 1, 1);
    bool fatal = false;
    chain_point(s, &k, &c, 0x1a7e0u + 16u * s->f + s->t, &row, &fatal);
    if (fatal)
        return -1;
    sfu_summary_entry *e = &s->summary[s->f][s->t][v];
    if (!isnan(row.stats.median)) {
        row.figure = row.stats.median / c.iters * 1e9;
        row.figure_best = row.stats.min / c.iters * 1e9;
        cr_result_add_param(&row, "iters=%" PRIu32, c.iters);
        add_kernel_param(s, &row, &k, &c);
        e->latency_ns = row.figure;
        if (s->ses.info.clock_mhz) {
            e->latency_cycles = row.figure * s->ses.info.clock_mhz * 1e-3;
            cr_result_add_param(&row, "cycles=%.4g;clock_mhz=%u", e->latency_cycles, s->ses.info.clock_mhz);
        }
        if (!row.note[0])
            snprintf(row.note, sizeof row.note, "per call, including the chain's multiply-add and running sum");
    }
    if (!row.valid)
        e->valid = false;
    return cr_session_record(&s->ses, &row);
}

/* A row of calls per second: bounded by the device's compute peak (a call
 * is at least one operation, and the peak counts two per FMA lane). */
static void rate_row(cr_result *row)
{
    snprintf(row->unit, sizeof row->unit, "Gop/s");
    row->peak_kind = CR_PEAK_COMPUTE;
}

/* One point of the concurrency sweep, recorded. rate: the calls per second
 * measured so far (NaN before the first point), which sizes the run, and
 * is updated. Returns the rate of the point's fastest run in Gop/s, NaN
 * when it failed; -1 via *fatal. */
static double concurrency_point(sfu_state *s, const sfu_kernel *k, uint64_t w, uint64_t wg, double *rate,
                                cr_result *row, uint32_t *iters, bool *fatal)
{
    sfu_init_version_row(s, row, k->version, "concurrency");
    rate_row(row);
    sfu_chain c = chain_of(s, s->cfg.ilp, w, wg);
    /* The one-per-group point calibrates afresh: a backend may run it on
     * scalars and the others in vectors (OpenCL on a CPU), many times
     * slower, and sized by their rate it would run that much too long. */
    if (!isnan(*rate) && wg == s->work_group) {
        double want = s->target_s * *rate / ((double)w * c.ilp);
        c.iters = want < 16 ? 16 : want > MAX_ITERS ? MAX_ITERS : (uint32_t)want;
    }
    double r = chain_point(s, k, &c, 0x7a0u + 16u * s->f + s->t + w, row, fatal);
    if (*fatal)
        return NAN;
    *iters = c.iters;
    if (!isnan(r)) {
        *rate = r;
        double cus = s->ses.info.compute_units ? s->ses.info.compute_units : 1;
        row->figure = r * 1e-9;
        row->figure_best = row->ops_per_rep / row->stats.min * 1e-9;
        cr_result_add_param(row, "ilp=%u;iters=%" PRIu32 ";per_cu_Gops=%.4g", c.ilp, c.iters, row->figure / cus);
        add_kernel_param(s, row, k, &c);
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
    const chain_buffers *b;
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
static bool verify_sides(sfu_state *s, side_rep side[2], chain_buffers *b, char *note, size_t notelen)
{
    int held = *side[0].held == side[0].k ? 0 : 1;
    if (!verify_run(s, side[held].k, side[held].c, b, note, notelen))
        return false;
    *side[held].held = NULL; /* the check may have run other chains */
    char err[CR_ERRLEN];
    cr_timing t = {0};
    if (run_side(&side[1 - held], &t, err, sizeof err) != CR_OK) {
        snprintf(note, notelen, "speed-up run failed: %s", err);
        return false;
    }
    return verify_run(s, side[1 - held].k, side[1 - held].c, b, note, notelen);
}

/* The speed-up of k over the precise version on the chains of c (the
 * throughput row's kernel, geometry and iterations), the two measured
 * interleaved with the order of each round rotating, into row's params;
 * the row is invalid when a run fails or does not verify. Returns the
 * median speed-up, NaN when it was not measured, or sets *fatal. */
static double speedup_of(sfu_state *s, const sfu_kernel *k, const sfu_chain *c, cr_result *row, bool *fatal)
{
    sfu_kernel precise = sfu_plain_kernel(s, SFU_PRECISE);
    chain_buffers b = {0};
    size_t most = (size_t)s->meas.rule.max_reps;
    double *times = malloc(2 * most * sizeof *times);
    if (!times || make_seeds(s, c->work_items * c->ilp, 0x5e0u + 16u * s->f + s->t, &b) != 0) {
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
    free_buffers(&b);
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

int sfu_throughput_rows(sfu_state *s, sfu_version v)
{
    sfu_kernel k = sfu_plain_kernel(s, v);
    sfu_summary_entry *e = &s->summary[s->f][s->t][v];
    double cus = s->ses.info.compute_units ? s->ses.info.compute_units : 1;
    cr_result best_row, row;
    double best = -1, prev = -1, rate = NAN;
    uint32_t iters = 0, best_iters = 0;
    int stale = 0; /* successive points that did not beat the best by the tolerance */
    bool failed = false, fatal = false;
    for (uint64_t w = s->lane_work_items; w && w <= s->max_work_items; w *= 2) {
        /* The plateau is judged on each point's fastest run: on a shared
         * machine the medians wander with other load, the best runs much
         * less. */
        double gb = concurrency_point(s, &k, w, s->work_group, &rate, &row, &iters, &fatal);
        if (fatal)
            return -1;
        if (isnan(gb)) {
            failed = true;
            break; /* a failed run says nothing about the next size */
        }
        stale = best >= 0 && gb <= (1 + PLATEAU_TOLERANCE) * best ? stale + 1 : 0;
        if (gb > best) {
            best = gb;
            best_row = row;
            best_iters = iters;
        }
        /* A plateau, or a curve that has stopped growing (falling after a
         * peak, or as noisy as it is high). */
        if ((prev >= 0 && gb >= (1 - PLATEAU_TOLERANCE) * best && prev >= (1 - PLATEAU_TOLERANCE) * best) ||
            stale >= 2)
            break;
        prev = gb;
    }
    /* The same work-items one per group: a runtime that packs a group's
     * work-items into SIMD lanes (PoCL) may vectorise a function worse
     * than it runs it on scalars (powr, on PoCL 3), and the sustainable
     * rate is the better of the two. */
    if (best >= 0 && s->work_group > 1) {
        double gb = concurrency_point(s, &k, best_row.work_items, 1, &rate, &row, &iters, &fatal);
        if (fatal)
            return -1;
        if (isnan(gb))
            failed = true;
        else if (gb > best) {
            best = gb;
            best_row = row;
            best_iters = iters;
        }
    }
    if (best < 0) {
        sfu_init_version_row(s, &row, v, "throughput");
        rate_row(&row);
        cr_result_unmeasured(&row);
        row.valid = e->valid = false;
        snprintf(row.note, sizeof row.note, "no concurrency point ran and verified");
        return cr_session_record(&s->ses, &row);
    }
    /* The row: the best point, its work spread over at least
     * THROUGHPUT_GROUPS_PER_CU work-groups per compute unit when it has
     * fewer (a CPU device): the same work-group, the same calls per run
     * (so the run lasts as long as the calibrated point, and the quick run
     * no longer), fewer iterations per work-item. On a GPU the best point
     * normally has that many groups already and is the row, unchanged. */
    uint64_t units = s->ses.info.compute_units ? s->ses.info.compute_units : 1;
    uint64_t wg = best_row.work_group ? best_row.work_group : 1;
    uint64_t groups = best_row.work_items / wg, least = THROUGHPUT_GROUPS_PER_CU * units;
    uint32_t row_iters = best_iters;
    s->plateau_wi[v] = best_row.work_items;
    if (groups >= least) {
        row = best_row;
        snprintf(row.sweep, sizeof row.sweep, "throughput");
        row.params[0] = '\0';
    } else {
        groups = least;
        sfu_init_version_row(s, &row, v, "throughput");
        rate_row(&row);
        sfu_chain c = chain_of(s, s->cfg.ilp, groups * wg, wg);
        uint64_t spread = (uint64_t)best_iters * best_row.work_items / c.work_items;
        c.iters = spread < 16 ? 16 : spread > MAX_ITERS ? MAX_ITERS : (uint32_t)spread;
        double r = chain_point(s, &k, &c, 0x7b0u + 16u * s->f + s->t, &row, &fatal);
        if (fatal)
            return -1;
        row_iters = c.iters;
        if (isnan(r)) {
            row.valid = e->valid = false;
            return cr_session_record(&s->ses, &row);
        }
        row.figure = r * 1e-9;
        row.figure_best = row.ops_per_rep / row.stats.min * 1e-9;
        if (row.valid && !row.note[0] && wg == 1 && s->work_group > 1)
            snprintf(row.note, sizeof row.note, "%s", best_row.note);
    }
    double gops = row.figure;
    /* The row's work-items and work-group are its columns; the params have
     * room for what only they can say. */
    cr_result_add_param(&row, "per_cu_Gops=%.4g;ilp=%u", gops / cus, s->cfg.ilp);
    cr_result_add_param(&row, "iters=%" PRIu32 ";groups=%" PRIu64 ";groups_per_cu=%.4g;sweep_work_items=%" PRIu64,
                        row_iters, groups, (double)groups / (double)units, best_row.work_items);
    sfu_chain timed = chain_of(s, s->cfg.ilp, row.work_items, row.work_group);
    timed.iters = row_iters;
    add_kernel_param(s, &row, &k, &timed);
    s->timed[v] = timed;
    double speedup = NAN, precise = s->summary[s->f][s->t][SFU_PRECISE].gops;
    if (v != SFU_PRECISE && row.valid && precise > 0) {
        speedup = speedup_of(s, &k, &timed, &row, &fatal);
        if (fatal)
            return -1;
        if (!isnan(speedup))
            note_rows_ratio(&row, gops / precise, speedup);
    }
    if (failed) {
        row.valid = false;
        snprintf(row.note, sizeof row.note, "the sweep stopped at a failed point");
    }
    e->gops = gops;
    e->per_cu_gops = gops / cus;
    e->speedup = speedup;
    if (!row.valid)
        e->valid = false;
    if (cr_session_record(&s->ses, &row) != 0)
        return -1;
    /* The table shows the throughput as the gate judged it. */
    const cr_result *judged = cr_session_last(&s->ses);
    snprintf(e->flags, sizeof e->flags, "%s", judged->flags);
    snprintf(e->note, sizeof e->note, "%s", judged->note);
    return 0;
}

/* The error of the partitioned chain kernel of c's geometry over the
 * typical inputs. */
static cr_status partition_error(sfu_state *s, const sfu_kernel *k, const sfu_chain *c, sfu_error_stats *st,
                                 char *err, size_t errlen)
{
    if (sfu_eval_doubles(s, k, c, s->typ_x, s->typ_y, s->n, s->got, err, errlen) != CR_OK)
        return CR_ERR;
    bool flush_ok = !s->be->keeps_subnormals(s->t, k->version) || !s->be->keeps_subnormals(s->t, k->fast);
    memset(st, 0, sizeof *st);
    for (size_t i = 0; i < s->n; ++i)
        sfu_error_add(st, s->typ_x[i], s->typ_y[i], s->got[i], s->typ_ref[i], s->t, INFINITY, flush_ok);
    return CR_OK;
}

int sfu_partition_rows(sfu_state *s)
{
    sfu_version fast = s->be->partition_fast;
    char err[CR_ERRLEN], variant[48];
    if (s->be->supports(s->f, s->t, SFU_PRECISE, err, sizeof err) != CR_OK ||
        s->be->supports(s->f, s->t, fast, err, sizeof err) != CR_OK)
        return 0; /* no fast path in this type (OpenCL double) */
    snprintf(variant, sizeof variant, "%s/%s+%s", sfu_functions[s->f].name, sfu_version_names[SFU_PRECISE],
             sfu_version_names[fast]);
    /* The plateau's work-items, rounded up to whole rounds of the units so
     * that every lambda is exactly the fraction of the work it names. */
    uint64_t round = SFU_PARTITION_UNITS * s->unit_size;
    uint64_t w = s->plateau_wi[SFU_PRECISE] ? s->plateau_wi[SFU_PRECISE] : s->lane_work_items;
    w = (w + round - 1) / round * round;
    double cus = s->ses.info.compute_units ? s->ses.info.compute_units : 1;
    uint32_t iters = 0; /* calibrated on the first lambda, then the same work for all */
    for (size_t i = 0; i < s->cfg.nlambdas; ++i) {
        uint32_t units = s->cfg.lambdas[i];
        double lambda = (double)units / SFU_PARTITION_UNITS;
        cr_result row;
        sfu_init_row(s, &row, variant, "partition");
        rate_row(&row);
        sfu_kernel k = {s->f, s->t, SFU_PRECISE, fast, units};
        sfu_chain c = chain_of(s, s->cfg.ilp, w, s->unit_size);
        c.iters = iters;
        bool fatal = false;
        double rate = chain_point(s, &k, &c, 0x9a0u + 16u * s->f + s->t, &row, &fatal);
        if (fatal)
            return -1;
        iters = c.iters;
        cr_result_add_param(&row, "lambda=%.4g;fast_units=%u", lambda, units);
        if (!isnan(rate)) {
            row.figure = rate * 1e-9;
            row.figure_best = row.ops_per_rep / row.stats.min * 1e-9;
        }
        add_kernel_param(s, &row, &k, &c);
        char name[16];
        cr_result_add_param(&row, "accuracy_kernel=%s", sfu_kernel_name(s, &k, &c, name, sizeof name));
        sfu_error_stats st;
        if (partition_error(s, &k, &c, &st, err, sizeof err) != CR_OK) {
            row.valid = false;
            snprintf(row.note, sizeof row.note, "evaluation failed: %s", err);
        } else {
            cr_result_add_param(&row, "mean_rel=%.4g;max_ulp=%.4g;max_rel=%.4g", sfu_error_mean_rel(&st), st.max_ulp,
                                st.max_rel);
        }
        if (!isnan(rate))
            cr_result_add_param(&row, "per_cu_Gops=%.4g;ilp=%u;iters=%" PRIu32, row.figure / cus, c.ilp, c.iters);
        if (cr_session_record(&s->ses, &row) != 0)
            return -1;
    }
    return 0;
}
