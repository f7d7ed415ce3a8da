/* Experiment design of the latency benchmark: a pointer chase measuring the
 * latency of one load from each level of the memory hierarchy, the L_$
 * and L of Li's X-model (Eq. 3.1, L_k = h·L_$ + (1−h)·L_m), directly, as
 * the cross-check of the L derived from the other benchmarks.
 *
 *  - footprint: one work-item walks a random cycle through every line of a
 *    buffer (perm.h), footprints from 4 KiB doubling to well
 *    beyond the last-level cache; ns per load against footprint shows the
 *    cache levels as plateaus.
 *  - level: one row per cache level the device (or, for CPUs, hwloc)
 *    reports, taken from the largest footprint that fits in half of it and
 *    not in the smaller levels, and a `memory` row from the largest
 *    footprint when it is at least 4x the last-level cache.
 *  - cycles: beside the ns of each row, cycles per load: counted by the
 *    core that walked where the backend can (the cycles column, CUDA's
 *    clock64), else ns times the clock the device reports
 *    (cycles_from_clock= in params), where it reports one (cycles.h).
 *
 * A footprint beyond the device's largest allocation (an OpenCL device may
 * cap one allocation far below its memory) is allocated in pieces, one
 * random cycle running through every line of all of them (pieces.h); the
 * cost of choosing each load's piece is measured beside the one-buffer walk
 * at a footprint that fits one piece (the `overhead` row), so that it can
 * be subtracted. --piece-bytes forces the split, to test it anywhere.
 *
 * Each repetition continues the walk where the last one stopped, so a
 * footprint beyond the caches is never re-walked over a few lines that the
 * caches could keep; the host knows where every walk must end (the cycle
 * position) and checks every run exactly. Footprints beyond the TLBs' reach
 * add page walks to each load, as they do for any random access: L is
 * measured as applications see it, with the pages the allocator gives.
 *
 * The device and the host are measured one after the other, not
 * interleaved: two walkers would share the caches whose capacity is the
 * point of the sweep. */
#define _GNU_SOURCE
#include "latency/backend.h"

#include "bench_main.h"
#include "error.h"
#include "latency/cycles.h"
#include "latency/levels.h"
#include "latency/perm.h"
#include "latency/pieces.h"
#include "latency/walk_steps.h"
#include "measure.h"
#include "session.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LT_MIN_FOOTPRINT (UINT64_C(4) << 10)
#define LT_MAX_STEPS (UINT64_C(1) << 40)
/* The overhead row's chain: in L1 everywhere, so that the piece choice is
 * the only difference between its two walks, split into two pieces. */
#define LT_OVERHEAD_FOOTPRINT (UINT64_C(16) << 10)

typedef struct {
    cr_range footprint; /* all 0 until given */
    cr_host_ref host_ref;
    uint64_t seed;
    uint64_t piece_bytes; /* --piece-bytes; 0 until given */
} lt_config;

typedef struct {
    uint64_t footprint;
    lt_layout layout;
    bool measured;
    double cycles; /* per load, counted by the walker (cycles.h); NaN where it counts none */
    cr_result row;
} lt_point;

typedef struct {
    const lt_backend *be;
    cr_device_info info;
    cr_measure_ctx meas;
    lt_caches caches;
    lt_point *points;
    size_t npoints;
} endpoint;

typedef struct {
    cr_session ses;
    lt_config cfg;
    endpoint dev, host;
    bool use_host;
    unsigned line_bytes;   /* element stride of every chain */
    uint64_t one_alloc;    /* the largest device chain kept in one buffer */
    uint64_t piece_bytes;  /* the pieces of a larger one (0: never split) */
    bool pieces_used;      /* some footprint of the sweep is split */
    double target_s;       /* one measured run */
    double warm_budget_s;  /* the warm-up pass at most */
} lt_state;

static lt_state S; /* one run per process */

/* ---- options ---- */

static int opt_footprint(void *ctx, const char *arg, char *err, size_t errlen)
{
    lt_config *c = ctx;
    if (cr_parse_range(arg, &c->footprint, err, errlen) != 0)
        return -1;
    if (c->footprint.start < LT_MIN_FOOTPRINT) {
        char b[32];
        cr_format_bytes(c->footprint.start, b, sizeof b);
        /* Below a page every footprint sits in L1 alike, and a chain needs
         * lines enough to be random. */
        return cr_errf(err, errlen, "footprint %s is below the 4 KiB minimum", b);
    }
    return 0;
}

static int opt_piece_bytes(void *ctx, const char *arg, char *err, size_t errlen)
{
    lt_config *c = ctx;
    uint64_t v;
    if (cr_parse_size(arg, &v, err, errlen) != 0)
        return -1;
    /* A power of two, so that a word index splits into piece and offset
     * with a shift; at least a page, which every line size divides. */
    if ((v & (v - 1)) != 0)
        return cr_errf(err, errlen, "piece size %" PRIu64 " B is not a power of two", v);
    if (v < LT_MIN_FOOTPRINT)
        return cr_errf(err, errlen, "piece size %" PRIu64 " B is below the 4 KiB minimum", v);
    c->piece_bytes = v;
    return 0;
}

static const cr_extra_option lt_options[] = {
    CR_OPTION_CALL("footprint", "RANGE",
                   "bytes walked, start >= 4K (default 4K:<8x LLC or more>:x2, quick 4K:<4x LLC or more>:x4)",
                   opt_footprint),
    CR_OPTION(CR_OPT_HOST_REF, "host-ref", "MODE",
              "the host's own walk beside the device: auto (CPU/APU devices), on, off", lt_config, host_ref),
    CR_OPTION(CR_OPT_COUNT, "seed", "N", "seed of the random cycle (default 1)", lt_config, seed),
    CR_OPTION_CALL("piece-bytes", "SIZE",
                   "split every chain larger than SIZE (a power of two >= 4K) into pieces of SIZE, separate "
                   "allocations (default: only chains one allocation cannot hold)",
                   opt_piece_bytes),
};
#define N_LT_OPTIONS (sizeof lt_options / sizeof lt_options[0])

/* ---- one walk ---- */

typedef struct {
    lt_state *s;
    endpoint *ep;
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

/* ---- rows ---- */

static void init_row(cr_result *r, const endpoint *ep, const char *variant, const char *sweep)
{
    cr_result_begin(r, "latency", ep->be->base.name, ep->info.name, variant, "uint64", sweep, "ns");
    r->work_items = r->work_group = 1;
}

/* The figure in cycles: the cycles column where the walker counted its own
 * core's cycles (per load, the median of the measured runs), otherwise
 * cycles_from_clock= in params where the API reports a clock: ns times
 * that nominal clock, which the core may not have run at, hence the name.
 * Neither without a figure or a clock: no zero stands in for an unknown. */
static void add_cycles(cr_result *r, double cycles, const endpoint *ep)
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
static void add_pieces(cr_result *r, const lt_layout *l)
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
static int record_failed(lt_state *s, const endpoint *ep, cr_result *row, const char *err)
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
static lt_layout layout_for(const lt_state *s, const endpoint *ep, uint64_t footprint)
{
    bool split = ep == &s->dev && footprint > s->one_alloc && s->piece_bytes;
    lt_layout l = {.words = footprint / 8};
    /* Too many pieces (check_footprints refuses such footprints): the
     * count, which the backend's prepare refuses with the row's error. */
    if (lt_layout_make(&l, footprint / 8, split ? s->piece_bytes : 0) != 0)
        l.pieces = (unsigned)lt_pieces_for(footprint, s->piece_bytes);
    return l;
}

/* Measures the chain on ep and records the footprint row. Returns -1 when
 * the CSV cannot be written. */
static int measure_point(lt_state *s, endpoint *ep, const lt_chain *chain, uint64_t footprint, double host_ns)
{
    char err[CR_ERRLEN] = "";
    lt_point *p = &ep->points[ep->npoints++];
    *p = (lt_point){.footprint = footprint, .layout = layout_for(s, ep, footprint), .cycles = NAN};
    cr_result *row = &p->row;
    init_row(row, ep, "pointer-chase", "footprint");
    row->size_bytes = footprint;
    walk_ctx w = {.s = s, .ep = ep, .chain = chain};
    cr_measurement m;
    cr_status st = measure_walk(s, &w, &p->layout, &m, &p->cycles, err, sizeof err);
    cr_result_add_param(row, "steps=%" PRIu64 ";line=%u", w.steps, s->line_bytes);
    add_pieces(row, &p->layout);
    if (st != CR_OK)
        return record_failed(s, ep, row, err);
    p->measured = true;
    fill_measured(row, &w, &m);
    add_cycles(row, p->cycles, ep);
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
static int record_overhead(lt_state *s)
{
    endpoint *ep = &s->dev;
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
    init_row(&row, ep, "piece-select", "overhead");
    row.size_bytes = LT_OVERHEAD_FOOTPRINT;
    walk_ctx single = {.s = s, .ep = ep, .chain = &chain}, split = single;
    cr_measurement m1, m2;
    double one_cycles = NAN, two_cycles = NAN;
    cr_status st = measure_walk(s, &single, &one, &m1, &one_cycles, err, sizeof err);
    if (st == CR_OK)
        st = measure_walk(s, &split, &two, &m2, &two_cycles, err, sizeof err);
    lt_chain_free(&chain);
    cr_result_add_param(&row, "steps=%" PRIu64 ";line=%u", split.steps, s->line_bytes);
    add_pieces(&row, &two);
    if (st != CR_OK)
        return record_failed(s, ep, &row, err);
    fill_measured(&row, &split, &m2);
    double one_ns = m1.stats.median / (double)single.steps * 1e9, two_ns = row.figure;
    cr_result_add_param(&row, "single_ns=%.3f;pieces_ns=%.3f", one_ns, two_ns);
    row.figure = two_ns - one_ns;
    row.figure_best = row.figure_best - m1.stats.min / (double)single.steps * 1e9;
    add_cycles(&row, two_cycles - one_cycles, ep);
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

/* A level row from the footprint row that stands for it. */
static void copy_point(cr_result *row, const lt_point *p, const char *why)
{
    char fp[32];
    cr_format_bytes(p->footprint, fp, sizeof fp);
    row->size_bytes = p->footprint;
    if (!p->measured) {
        cr_result_unmeasured(row);
        snprintf(row->note, sizeof row->note, "the footprint row at %s was not measured", fp);
        row->valid = false;
        return;
    }
    row->stats = p->row.stats;
    memcpy(row->timer, p->row.timer, sizeof row->timer);
    memcpy(row->stop, p->row.stop, sizeof row->stop);
    row->ops_per_rep = p->row.ops_per_rep;
    row->figure = p->row.figure;
    row->figure_best = p->row.figure_best;
    row->ref_ratio = p->row.ref_ratio;
    row->valid = p->row.valid;
    char pieces[96] = "";
    if (p->layout.pieces > 1)
        snprintf(pieces, sizeof pieces, "; chain in %u pieces, with the piece choice (the overhead row)",
                 p->layout.pieces);
    snprintf(row->note, sizeof row->note, "%s the footprint row at %s (%s)%s", p->row.valid ? "from" : "INVALID:", fp,
             why, pieces);
}

static int record_levels(lt_state *s, endpoint *ep)
{
    uint64_t fps[64];
    size_t n = ep->npoints < 64 ? ep->npoints : 64;
    for (size_t i = 0; i < n; ++i)
        fps[i] = ep->points[i].footprint;
    const lt_caches *c = &ep->caches;
    char a[32], b[32];
    for (unsigned i = 0; i < c->count; ++i) {
        const lt_cache_level *l = &c->level[i];
        uint64_t smaller = i ? c->level[i - 1].bytes : 0;
        cr_result row;
        init_row(&row, ep, l->name, "level");
        cr_result_add_param(&row, "cache_bytes=%" PRIu64, l->bytes);
        long k = lt_level_pick(fps, n, l->bytes, smaller);
        cr_format_bytes(l->bytes, a, sizeof a);
        if (k < 0) {
            cr_result_unmeasured(&row);
            cr_format_bytes(smaller, b, sizeof b);
            snprintf(row.note, sizeof row.note, "no swept footprint above %s and at most half the %s %s (%s)",
                     smaller ? b : "0 B", a, l->name, l->source);
        } else {
            cr_result_add_param(&row, "footprint=%" PRIu64, fps[k]);
            add_pieces(&row, &ep->points[k].layout);
            char why[160];
            snprintf(why, sizeof why, "at most half the %s %s, size from %s", a, l->name, l->source);
            copy_point(&row, &ep->points[k], why);
            add_cycles(&row, ep->points[k].cycles, ep);
        }
        if (cr_session_record(&s->ses, &row) != 0)
            return -1;
    }
    cr_result row;
    init_row(&row, ep, "memory", "level");
    uint64_t llc = c->count ? c->level[c->count - 1].bytes : 0;
    if (llc)
        cr_result_add_param(&row, "cache_bytes=%" PRIu64, llc);
    long k = lt_memory_pick(fps, n, llc);
    cr_format_bytes(n ? fps[n - 1] : 0, b, sizeof b);
    cr_format_bytes(llc, a, sizeof a);
    if (k < 0) {
        cr_result_unmeasured(&row);
        if (llc)
            snprintf(row.note, sizeof row.note,
                     "no main-memory latency: the largest footprint, %s, is below %dx the %s last-level cache", b,
                     LT_MEMORY_FACTOR, a);
        else
            snprintf(row.note, sizeof row.note,
                     "no main-memory latency: the device reports no cache size, so no footprint is known to be "
                     "beyond its caches");
    } else {
        cr_result_add_param(&row, "footprint=%" PRIu64, fps[k]);
        add_pieces(&row, &ep->points[k].layout);
        char why[96];
        snprintf(why, sizeof why, "%.0fx the %s last-level cache", (double)fps[k] / (double)llc, a);
        copy_point(&row, &ep->points[k], why);
        add_cycles(&row, ep->points[k].cycles, ep);
    }
    return cr_session_record(&s->ses, &row);
}

/* ---- set-up ---- */

static void find_caches(lt_state *s, endpoint *ep)
{
    ep->be->caches(&ep->caches);
    if (ep->info.is_cpu)
        lt_caches_from_topology(s->ses.topo, &ep->caches);
}

static uint64_t llc_of(const endpoint *ep)
{
    return ep->caches.count ? ep->caches.level[ep->caches.count - 1].bytes : 0;
}

/* Host bytes a footprint needs: the chain and its order, the host's copy,
 * and a CPU or APU device's buffer, which lives in the same memory. */
static double host_bytes_per_footprint_byte(const lt_state *s)
{
    double n = 1 + 8.0 / s->line_bytes;
    if (s->use_host)
        n += 1;
    if (s->dev.info.unified_memory)
        n += 1;
    return n;
}

/* Where the device's chains go: one buffer up to s->one_alloc, pieces of
 * s->piece_bytes beyond (the largest allocation, rounded down to a power
 * of two, or --piece-bytes). Sets *limit to the largest footprint the
 * device takes, and *why to what sets it. */
static int plan_pieces(lt_state *s, uint64_t *limit, char *why, size_t whylen)
{
    const cr_device_info *d = &s->dev.info;
    const lt_backend *be = s->dev.be;
    char a[32], b[32];
    s->one_alloc = d->max_alloc_bytes;
    s->piece_bytes = be->max_pieces > 1 ? lt_pow2_floor(d->max_alloc_bytes | 1) : 0;
    snprintf(why, whylen, "its largest allocation, or half its memory");
    if (s->cfg.piece_bytes) {
        if (be->max_pieces < 2)
            return cr_fail_usage(&s->ses, "--piece-bytes: %s", be->one_piece_why);
        if (s->cfg.piece_bytes > d->max_alloc_bytes) {
            cr_format_bytes(s->cfg.piece_bytes, a, sizeof a);
            cr_format_bytes(d->max_alloc_bytes, b, sizeof b);
            return cr_fail_usage(&s->ses, "--piece-bytes %s is above the device's largest allocation, %s", a, b);
        }
        s->one_alloc = s->piece_bytes = s->cfg.piece_bytes;
        snprintf(why, whylen, "%d pieces of --piece-bytes, or half its memory", LT_MAX_PIECES);
    } else if (s->piece_bytes >= s->line_bytes) {
        snprintf(why, whylen, "%d pieces of its largest allocation, or half its memory", LT_MAX_PIECES);
    } else {
        s->piece_bytes = 0; /* no piece would hold a line */
    }
    *limit = s->piece_bytes * LT_MAX_PIECES > s->one_alloc ? s->piece_bytes * LT_MAX_PIECES : s->one_alloc;
    if (d->global_mem_bytes / 2 < *limit)
        *limit = d->global_mem_bytes / 2;
    return 0;
}

static int check_footprints(lt_state *s)
{
    lt_config *c = &s->cfg;
    uint64_t limit = 0;
    char device_why[96];
    int rc = plan_pieces(s, &limit, device_why, sizeof device_why);
    if (rc != 0)
        return rc;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    uint64_t host_limit = UINT64_MAX;
    if (pages > 0 && page > 0)
        host_limit = (uint64_t)((double)pages * (double)page * 0.9 / host_bytes_per_footprint_byte(s));
    char a[32], b[32];
    if (c->footprint.start != 0) {
        if (c->footprint.start % s->line_bytes != 0)
            return cr_fail_usage(&s->ses, "footprint %" PRIu64 " B is not a multiple of the %u-byte line",
                                 c->footprint.start, s->line_bytes);
        uint64_t end = cr_range_value(&c->footprint, cr_range_count(&c->footprint) - 1);
        if (end > limit || end > host_limit) {
            cr_format_bytes(end, a, sizeof a);
            cr_format_bytes(end > limit ? limit : host_limit, b, sizeof b);
            if (end > limit)
                return cr_fail_usage(&s->ses, "--footprint reaches %s, above the %s the device allows (%s)", a, b,
                                     device_why);
            return cr_fail_usage(&s->ses,
                                 "--footprint reaches %s, above the %s host memory holds (90%% of it, for the chain and "
                                 "its copies)",
                                 a, b);
        }
        s->pieces_used = end > s->one_alloc;
        return 0;
    }
    uint64_t llc = llc_of(&s->dev);
    if (s->use_host && llc_of(&s->host) > llc)
        llc = llc_of(&s->host);
    bool quick = s->ses.opt.quick;
    uint64_t factor = quick ? 4 : 2;
    /* No cache size known: a top that is beyond any cache built so far. */
    uint64_t want = llc ? llc * (quick ? LT_MEMORY_FACTOR : 2 * LT_MEMORY_FACTOR)
                        : (quick ? UINT64_C(256) << 20 : UINT64_C(1) << 30);
    uint64_t cap = limit < host_limit ? limit : host_limit;
    uint64_t end = LT_MIN_FOOTPRINT;
    while (end < want && end <= cap / factor)
        end *= factor;
    if (end < want) {
        cr_format_bytes(end, a, sizeof a);
        cr_session_note(&s->ses, "footprint sweep capped at %s by the %s", a,
                        cap == limit ? "device's allocation limit" : "host's memory");
    }
    c->footprint = (cr_range){LT_MIN_FOOTPRINT, end, factor};
    s->pieces_used = end > s->one_alloc;
    return 0;
}

static int open_host(lt_state *s)
{
    int opened = cr_open_wanted_host_ref(&s->ses, s->cfg.host_ref, &lt_host_backend.base, &s->host.info);
    if (opened <= 0)
        return opened;
    s->host.be = &lt_host_backend;
    s->use_host = true;
    find_caches(s, &s->host);
    return 0;
}

/* One chain layout for both walkers: the larger line, so that no two
 * elements share a line on either. */
static int choose_line(lt_state *s)
{
    unsigned line = s->dev.caches.line_bytes;
    if (s->use_host && s->host.caches.line_bytes > line)
        line = s->host.caches.line_bytes;
    if (line < 8 || line > 4096 || (line & (line - 1)) != 0) {
        fprintf(stderr, "%s: error: cache line of %u bytes reported; need a power of two from 8 to 4096\n",
                s->ses.opt.program, line);
        return -1;
    }
    s->line_bytes = line;
    return 0;
}

static int run_sweep(lt_state *s)
{
    size_t count = cr_range_count(&s->cfg.footprint);
    endpoint *eps[2] = {&s->dev, &s->host};
    for (int e = 0; e < 2; ++e) {
        eps[e]->points = calloc(count, sizeof *eps[e]->points);
        if (!eps[e]->points) {
            fprintf(stderr, "%s: error: out of memory\n", s->ses.opt.program);
            return -1;
        }
    }
    for (size_t i = 0; i < count; ++i) {
        uint64_t footprint = cr_range_value(&s->cfg.footprint, i);
        lt_chain chain;
        if (lt_chain_build(&chain, footprint / s->line_bytes, s->line_bytes / 8, s->cfg.seed) != 0) {
            fprintf(stderr, "%s: error: cannot allocate the chain for %" PRIu64 " bytes\n", s->ses.opt.program,
                    footprint);
            return -1;
        }
        double host_ns = NAN;
        int rc = 0;
        if (s->use_host) {
            rc = measure_point(s, &s->host, &chain, footprint, NAN);
            host_ns = s->host.points[s->host.npoints - 1].row.figure;
        }
        if (rc == 0)
            rc = measure_point(s, &s->dev, &chain, footprint, host_ns);
        lt_chain_free(&chain);
        if (rc != 0)
            return -1;
    }
    if (s->pieces_used && record_overhead(s) != 0)
        return -1;
    if (record_levels(s, &s->dev) != 0)
        return -1;
    return s->use_host ? record_levels(s, &s->host) : 0;
}

static void meta_caches(cr_meta *meta, const char *who, const lt_caches *c)
{
    char buf[512] = "";
    size_t used = 0;
    for (unsigned i = 0; i < c->count && used < sizeof buf; ++i)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s %" PRIu64 " B (%s)", i ? "; " : "",
                                 c->level[i].name, c->level[i].bytes, c->level[i].source);
    char key[48];
    snprintf(key, sizeof key, "%s_cache_levels", who);
    cr_meta_set(meta, key, "%s", c->count ? buf : "none reported");
    snprintf(key, sizeof key, "%s_line_bytes", who);
    cr_meta_set(meta, key, "%u (%s)", c->line_bytes, c->line_source[0] ? c->line_source : "unknown");
}

/* ---- the skeleton's hooks ---- */

static int plan(void *state, cr_meta *meta)
{
    lt_state *s = state;
    s->dev.info = s->ses.info;
    /* 2 ms a run: long enough that a launch's fixed cost is lost in it
     * (PoCL's event interval matches the host's own walk to 0.3% even at
     * 0.2 ms), short enough that on a shared CPU most runs are not cut by
     * the scheduler, whose slices are a few milliseconds. */
    s->target_s = 0.002;
    s->warm_budget_s = s->ses.opt.quick ? 0.025 : 0.05;
    find_caches(s, &s->dev);
    if (open_host(s) != 0 || choose_line(s) != 0)
        return CR_EXIT_FAILED;
    int rc = check_footprints(s);
    if (rc != 0)
        return rc;
    cr_meta_set(meta, "host_reference", "%s", s->use_host ? s->host.info.name : "off");
    cr_meta_set(meta, "chain", "one random cycle over every line, stride %u B, seed %" PRIu64, s->line_bytes,
                s->cfg.seed);
    meta_caches(meta, "device", &s->dev.caches);
    if (s->pieces_used) {
        char a[32], b[32];
        cr_format_bytes(s->one_alloc, a, sizeof a);
        cr_format_bytes(s->piece_bytes, b, sizeof b);
        cr_meta_set(meta, "chain_pieces", "device chains above %s in pieces of %s (%s), one cycle through all",
                    a, b, s->cfg.piece_bytes ? "--piece-bytes" : "the device's largest allocation");
    }
    if (s->use_host)
        meta_caches(meta, "host", &s->host.caches);
    return -1;
}

static int run_design(void *state)
{
    lt_state *s = state;
    cr_session_measure_init(&s->ses, &s->dev.meas, true);
    if (s->use_host)
        cr_session_measure_init(&s->ses, &s->host.meas, false);
    return run_sweep(s) == 0 ? -1 : CR_EXIT_FAILED;
}

static void release(void *state)
{
    lt_state *s = state;
    if (s->use_host)
        s->host.be->base.close();
    free(s->dev.points);
    free(s->host.points);
}

static const cr_design lt_design = {
    .benchmark = "latency",
    .summary = "Memory latency by pointer chase: one work-item walking a random cycle, against footprint, with the "
               "latency of each cache level and of main memory.",
    .options = lt_options, .n_options = N_LT_OPTIONS, .config = &S.cfg, .session = &S.ses, .state = &S,
    .plan = plan, .run = run_design, .release = release,
};

int latency_main(int argc, char **argv, const lt_backend *backend)
{
    memset(&S, 0, sizeof S);
    S.cfg = (lt_config){.host_ref = CR_HOST_REF_AUTO, .seed = 1};
    S.dev.be = backend;
    return cr_bench_main(argc, argv, &lt_design, &backend->base);
}
