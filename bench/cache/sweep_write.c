/* The write policy of each level, from two experiments on one buffer:
 * a probe footprint of half the level (a random chain over its lines,
 * the stores going to the word after each chain word, in the same line),
 * a footprint of four times the level, and an eviction region of twice
 * the largest cache, which one store pass over every line of flushes the
 * probe out of every level.
 *
 *  - allocation: evict, then (nothing | a load pass: a chase over the
 *    probe | a store pass over the probe's lines), then one timed chase
 *    pass over the probe; a walk of one load after the eviction gives the
 *    launch's own time, subtracted (differences of launches), leaving the
 *    ns per load of the pass. Stores that allocate leave the lines where
 *    a load pass would; stores that do not leave them where eviction did.
 *  - write-back: store passes over the lines of the probe (fits) and of
 *    the footprint four times the level (does not), ns per store: a
 *    write-back level absorbs repeated stores to lines it holds; a
 *    write-through one sends each on, whatever fits.
 * Every store is checked afterwards by reading the buffer back. */
#include "cache/state.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CC_EVICT_VALUE UINT64_C(0x0E71C7ED0E71C7ED)
#define CC_PROBE_VALUE UINT64_C(0x57012ED057012ED0)
#define CC_FITS_VALUE UINT64_C(0xF1750000F1750000)
#define CC_BEYOND_VALUE UINT64_C(0xBE10D000BE10D000)

typedef enum { SEQ_ONE, SEQ_COLD, SEQ_LOADS, SEQ_STORES, SEQ_COUNT } seq_kind;
static const char *const seq_names[SEQ_COUNT] = {"evict-one", "evict-chase", "load-chase", "store-chase"};

typedef struct {
    cc_state *s;
    cc_walk walk;
    seq_kind kind;
    cc_store_pass evict, probe;
} seq_ctx;

static cr_status seq_rep(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    seq_ctx *c = vctx;
    const cc_backend *be = c->s->be;
    cr_timing untimed;
    uint64_t n = c->walk.o->count;
    if (be->store(&c->evict, &untimed, err, errlen) != CR_OK)
        return CR_ERR;
    if (c->kind == SEQ_LOADS && cc_walk_run(&c->walk, n, &untimed, err, errlen) != CR_OK)
        return CR_ERR;
    if (c->kind == SEQ_STORES && be->store(&c->probe, &untimed, err, errlen) != CR_OK)
        return CR_ERR;
    return cc_walk_run(&c->walk, c->kind == SEQ_ONE ? 1 : n, t, err, errlen);
}

typedef struct {
    cc_state *s;
    cc_store_pass pass;
} store_ctx;

static cr_status store_rep(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    store_ctx *c = vctx;
    return c->s->be->store(&c->pass, t, err, errlen);
}

/* Passes over the region until one run lasts a quarter of the target. */
static cr_status calibrate_passes(store_ctx *c, char *err, size_t errlen)
{
    for (c->pass.passes = 1; c->pass.passes < (UINT64_C(1) << 20); c->pass.passes *= 2) {
        cr_timing t = {0};
        if (store_rep(c, &t, err, errlen) != CR_OK)
            return CR_ERR;
        cr_timer_state ts = c->s->meas.timer;
        cr_timer_kind kind;
        bool switched;
        if (cr_timer_pick(&ts, &t, &kind, &switched) >= c->s->target_s / 4)
            break;
    }
    return CR_OK;
}

static void level_row(cc_state *s, cr_result *row, unsigned k, const char *variant, uint64_t footprint)
{
    char name[8];
    cc_level_name(s, k, name, sizeof name);
    cc_row_init(s, row, variant, "write");
    row->size_bytes = footprint;
    cr_result_add_param(row, "level=%s", name);
}

/* Checks count words from first, stride apart, against value; false with
 * why in s's level data on the first that differs. */
static bool stores_landed(cc_state *s, cc_level_data *d, uint64_t first, uint64_t count, uint64_t stride,
                          uint64_t value, const char *what, char *err, size_t errlen)
{
    uint64_t words = (count - 1) * stride + 1;
    uint64_t *back = malloc((size_t)words * sizeof *back);
    if (!back) {
        snprintf(err, errlen, "out of memory to read back the %s stores", what);
        return false;
    }
    bool ok = s->be->read_words(first, words, back, err, errlen) == CR_OK;
    for (uint64_t i = 0; ok && i < count; ++i)
        if (back[i * stride] != value) {
            snprintf(d->write_why, sizeof d->write_why,
                     "verification: the %s store to word %" PRIu64 " left 0x%" PRIx64 ", expected 0x%" PRIx64, what,
                     first + i * stride, back[i * stride], value);
            ok = false;
            d->write_bad = true;
        }
    free(back);
    return ok;
}

void cc_per_load_figures(cr_result *row, const cr_measurement *m, const cr_measurement *one, uint64_t n)
{
    double per = 1e9 / (double)(n - 1);
    row->figure = (m->stats.median - one->stats.median) * per;
    row->figure_best = (m->stats.min - one->stats.min) * per;
    if (row->figure > 0 && row->figure_best > 0)
        return;
    CR_FLAG(row, "unresolved",
            "the %" PRIu64 "-load pass (median %.4g ns, best %.4g) took no longer than the one-load walk (median %.4g "
            "ns, best %.4g): the time per load is below what these repetitions resolve",
            n, m->stats.median * 1e9, m->stats.min * 1e9, one->stats.median * 1e9, one->stats.min * 1e9);
    if (!(row->figure > 0))
        row->figure = NAN;
    if (!(row->figure_best > 0))
        row->figure_best = NAN;
}

static int record_seq(cc_state *s, unsigned k, seq_kind kind, uint64_t footprint, const cr_measurement *m,
                      const cr_measurement *one, uint64_t n, const cc_walk *w)
{
    cr_result row;
    level_row(s, &row, k, seq_names[kind], footprint);
    cr_result_add_param(&row, "loads=%" PRIu64, kind == SEQ_ONE ? 1 : n);
    cr_measurement_to_row(m, &row);
    row.ops_per_rep = kind == SEQ_ONE ? 1 : (double)n;
    if (kind == SEQ_ONE) {
        row.figure = m->stats.median * 1e9;
        row.figure_best = m->stats.min * 1e9;
        snprintf(row.note, sizeof row.note, "one load after the eviction: the launch's own time, subtracted from the "
                                            "passes of this level");
    } else {
        snprintf(row.note, sizeof row.note, "ns per load of one pass, the one-load walk's time subtracted");
        cc_per_load_figures(&row, m, one, n);
    }
    if (w->bad) {
        row.valid = false;
        snprintf(row.note, sizeof row.note, "%s", w->why);
    }
    return cr_session_record(&s->ses, &row);
}

static int record_store(cc_state *s, unsigned k, const char *variant, uint64_t footprint, const store_ctx *c,
                        const cr_measurement *m, double *ns)
{
    cr_result row;
    level_row(s, &row, k, variant, footprint);
    cr_result_add_param(&row, "stores=%" PRIu64 ";passes=%" PRIu64 ";stride=%" PRIu64, c->pass.count, c->pass.passes,
                        c->pass.stride_words * 8);
    cr_measurement_to_row(m, &row);
    double stores = (double)c->pass.count * (double)c->pass.passes;
    row.ops_per_rep = stores;
    row.figure = m->stats.median / stores * 1e9;
    row.figure_best = m->stats.min / stores * 1e9;
    *ns = row.figure;
    snprintf(row.note, sizeof row.note, "ns per store, one store per line");
    return cr_session_record(&s->ses, &row);
}

/* The level's per-line times from its sequences over n lines (each less
 * the one-line sequence, which holds the launch), and how far the medians'
 * noise could move the store share. */
static void sequence_times(cc_level_data *d, const cr_measurement m[SEQ_COUNT], uint64_t n)
{
    double one_s = m[SEQ_ONE].stats.median, per = 1e9 / (double)(n - 1);
    d->cold_ns = (m[SEQ_COLD].stats.median - one_s) * per;
    d->load_ns = (m[SEQ_LOADS].stats.median - one_s) * per;
    d->store_ns = (m[SEQ_STORES].stats.median - one_s) * per;
    /* The uncertainty of the share (store - load) / (cold - load): the
     * medians' interval half-widths, in seconds, against the gap between
     * evicted and loaded; the launch's own time is in all three and
     * cancels. */
    double ci[SEQ_COUNT];
    for (int q = 0; q < SEQ_COUNT; ++q)
        ci[q] = isfinite(m[q].stats.ci_rel) ? m[q].stats.ci_rel * m[q].stats.median : m[q].stats.max - m[q].stats.min;
    double gap_s = m[SEQ_COLD].stats.median - m[SEQ_LOADS].stats.median;
    double share = gap_s > 0 ? (m[SEQ_STORES].stats.median - m[SEQ_LOADS].stats.median) / gap_s : 0;
    d->noise = gap_s > 0 ? (ci[SEQ_STORES] + ci[SEQ_LOADS] + fabs(share) * ci[SEQ_COLD]) / gap_s : INFINITY;
}

/* One level's experiments. Returns 0 (a failure is in the level's data
 * and an invalid row), or -1 when a row cannot be written. */
static int write_level(cc_state *s, unsigned k, unsigned line, uint64_t llc)
{
    cc_level_data *d = &s->level[k];
    uint64_t cap = (uint64_t)s->levels.level[k].capacity;
    uint64_t probe = cap / 2 / line * line, beyond = 4 * cap / line * line, evict = 2 * llc / line * line;
    uint64_t n = probe / line, lw = line / 8;
    if (n < 4 || !cc_span_ok(s, probe + beyond + evict)) {
        snprintf(d->write_why, sizeof d->write_why,
                 "the probe, 4x and eviction footprints do not fit one buffer (1 GiB at most, and the device's largest "
                 "allocation)");
        return 0;
    }
    d->write_footprint = probe;
    d->store_out_footprint = beyond;
    cc_order o;
    if (cc_order_random(&o, n, lw, s->cfg.seed) != 0) {
        fprintf(stderr, "%s: error: out of memory for the write probe\n", s->ses.opt.program);
        return -1;
    }
    char err[CR_ERRLEN] = "";
    uint64_t beyond_first = probe / 8, evict_first = (probe + beyond) / 8;
    seq_ctx c = {.s = s, .walk = {.s = s, .o = &o},
                 .evict = {evict_first + 1, evict / line, lw, 1, CC_EVICT_VALUE},
                 .probe = {1, n, lw, 1, CC_PROBE_VALUE}};
    cr_measurement m[SEQ_COUNT];
    cr_status st = cc_prepare_chain(s, &o, (probe + beyond + evict) / 8 - cc_order_words(&o), err, sizeof err);
    for (int q = 0; q < SEQ_COUNT && st == CR_OK; ++q) {
        c.kind = (seq_kind)q;
        st = cr_measure(&s->meas, seq_rep, &c, &m[q], err, sizeof err);
    }
    store_ctx fits = {s, {1, n, lw, 1, CC_FITS_VALUE}}, out = {s, {beyond_first + 1, beyond / line, lw, 1, CC_BEYOND_VALUE}};
    cr_measurement mf, mo;
    if (st == CR_OK)
        st = calibrate_passes(&fits, err, sizeof err);
    if (st == CR_OK)
        st = cr_measure(&s->meas, store_rep, &fits, &mf, err, sizeof err);
    if (st == CR_OK)
        st = calibrate_passes(&out, err, sizeof err);
    if (st == CR_OK)
        st = cr_measure(&s->meas, store_rep, &out, &mo, err, sizeof err);
    if (st != CR_OK) {
        cc_order_free(&o);
        snprintf(d->write_why, sizeof d->write_why, "run failed: %.140s", err);
        cr_result row;
        level_row(s, &row, k, "store-chase", probe);
        return cc_record_failed(s, &row, err);
    }
    bool landed = stores_landed(s, d, 1, n, lw, CC_FITS_VALUE, "probe", err, sizeof err) &&
                  stores_landed(s, d, beyond_first + 1, beyond / line, lw, CC_BEYOND_VALUE, "beyond", err, sizeof err) &&
                  stores_landed(s, d, evict_first + 1, evict / line, lw, CC_EVICT_VALUE, "eviction", err, sizeof err);
    if (!landed && !d->write_bad) {
        d->write_bad = true;
        snprintf(d->write_why, sizeof d->write_why, "%.150s", err);
    }
    int rc = 0;
    for (int q = 0; q < SEQ_COUNT && rc == 0; ++q)
        rc = record_seq(s, k, (seq_kind)q, probe, &m[q], &m[SEQ_ONE], n, &c.walk);
    if (rc == 0)
        rc = record_store(s, k, "store-fits", probe, &fits, &mf, &d->store_in_ns);
    if (rc == 0)
        rc = record_store(s, k, "store-beyond", beyond, &out, &mo, &d->store_out_ns);
    sequence_times(d, m, n);
    d->write_measured = !c.walk.bad && !d->write_bad;
    if (c.walk.bad)
        snprintf(d->write_why, sizeof d->write_why, "%.150s", c.walk.why);
    cc_order_free(&o);
    return rc;
}

int cc_sweep_write(cc_state *s)
{
    if (!s->be->store) {
        for (unsigned k = 0; k < s->levels.count; ++k)
            snprintf(s->level[k].write_why, sizeof s->level[k].write_why, "the backend has no store kernel");
        return 0;
    }
    unsigned line = s->line0;
    uint64_t llc = s->levels.count ? (uint64_t)s->levels.level[s->levels.count - 1].capacity : 0;
    if (s->llc_hint > llc)
        llc = s->llc_hint;
    for (unsigned k = 0; k < s->levels.count; ++k)
        if (write_level(s, k, line < 16 ? 16 : line, llc) != 0)
            return -1;
    return 0;
}
