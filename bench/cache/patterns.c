/* The pattern runs and the model rows (patterns.h). */
#include "cache/patterns.h"
#include "cache/model.h"
#include "cache/patterns_shape.h"
#include "cache/trace_out.h"
#include "latency/pieces.h"
#include "options.h"
#include "perf_counters.h"
#include "plausibility.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs of each pattern read through the hardware counters. */
#define PERF_RUNS 3

typedef struct {
    const cc_pattern_env *env;
    cr_measure_ctx meas; /* the design's, with a shorter stop rule: a point here is one of many */
    uint64_t budget;
    cc_model_config model;
    bool have_model;
    char model_why[CR_ERRLEN];
    bool perf_failed;
    char perf_why[200];
    int status;
} run_state;

/* One kernel run after another, each checked against the replay's sum. */
typedef struct {
    const cc_pattern_ops *ops;
    uint64_t expected, got;
    bool bad;
} rep_ctx;

static cr_status rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    rep_ctx *r = arg;
    uint64_t check = 0;
    cr_status st = r->ops->run(t, &check, err, errlen);
    if (st == CR_OK && check != r->expected && !r->bad) {
        r->bad = true;
        r->got = check;
    }
    return st;
}

/* The footprint beyond the last level is at most this, and half the
 * device's largest allocation: the buffer is filled from the host. */
#define CC_MAX_FOOTPRINT (UINT64_C(256) << 20)

/* A footprint inside each level (half its capacity or what it serves
 * whole, the smaller, a power of two, above the level before) and one
 * beyond the last (4x, a power of two, within the limit above); fixed
 * sizes where no level was detected. */
static unsigned footprints(const cc_geometry *g, uint64_t max_alloc, uint64_t out[CC_MAX_LEVELS + 1],
                           char names[][8])
{
    static const uint64_t fixed[] = {UINT64_C(16) << 10, UINT64_C(256) << 10, UINT64_C(4) << 20, UINT64_C(64) << 20};
    if (g->count == 0) {
        for (unsigned i = 0; i < 4; ++i) {
            out[i] = fixed[i];
            snprintf(names[i], 8, "fixed");
        }
        return 4;
    }
    uint64_t below = 0;
    for (unsigned l = 0; l < g->count; ++l) {
        uint64_t cap = g->level[l].capacity, whole = g->level[l].served_whole;
        uint64_t f = lt_pow2_floor(whole && whole < cap / 2 ? whole : cap / 2);
        if (f <= below)
            f = (below + cap) / 2 / 64 * 64;
        out[l] = f;
        snprintf(names[l], 8, "%s", g->level[l].name);
        below = cap > below ? cap : below;
    }
    uint64_t beyond = lt_pow2_floor(4 * below), limit = CC_MAX_FOOTPRINT;
    if (max_alloc && max_alloc / 2 < limit)
        limit = lt_pow2_floor(max_alloc / 2);
    beyond = beyond < 4 * below ? 2 * beyond : beyond;
    out[g->count] = beyond < limit ? beyond : limit;
    snprintf(names[g->count], 8, "memory");
    return g->count + 1;
}

/* Whole passes up to half the budget where a pass is short, so that the
 * kernel runs long enough to time; a prefix of the pass where it is longer
 * than the budget, for the patterns whose prefix is still the pattern (the
 * chase's lines are in random order; the stride's prefix is a shorter
 * stride walk, its row says over how much). 0: the point is left out. */
static uint64_t accesses_for(const cc_pattern_shape *s, uint64_t budget)
{
    if (s->pass > budget)
        return s->kind == CC_CHASE || s->kind == CC_STRIDE ? budget : 0;
    uint64_t want = budget / 2 > s->pass ? budget / 2 : s->pass;
    return (want + s->pass - 1) / s->pass * s->pass;
}

static void init_row(const run_state *st, cr_result *r, unsigned kind, const char *sweep, uint64_t bytes)
{
    const cr_session *ses = st->env->ses;
    cr_result_begin(r, ses->benchmark[0] ? ses->benchmark : "cache", ses->backend, ses->info.name,
                    cc_pattern_names[kind], "uint64", sweep, "ns");
    r->size_bytes = bytes;
    r->work_items = r->work_group = 1;
}

static int record(run_state *st, const cr_result *r)
{
    if (!r->valid)
        st->status = -1;
    if (st->env->record(st->env->record_ctx, r) != 0) {
        st->status = -1;
        return -1;
    }
    return 0;
}

/* The buffers' contents: every element its cc_value. */
static uint64_t *initial_words(const cc_pattern_shape *s)
{
    uint64_t *w = malloc(cc_shape_bytes(s));
    if (w)
        for (unsigned b = 0; b < s->buffers; ++b)
            for (uint64_t i = 0; i < s->words; ++i)
                w[b * s->words + i] = cc_value(b, i);
    return w;
}

/* The counted pass follows a first one that warms the caches, as every
 * measured run follows the warm-up. */
static int simulate(const cc_model_config *c, const cc_replay *r, cc_model_counts *counted)
{
    cc_model *m = cc_model_new(c);
    if (m == NULL)
        return -1;
    cc_model_counts warm = {0};
    *counted = (cc_model_counts){0};
    for (uint64_t k = 0; k < r->count; ++k)
        cc_model_access(m, r->items[k].address, r->items[k].write, &warm);
    for (uint64_t k = 0; k < r->count; ++k)
        cc_model_access(m, r->items[k].address, r->items[k].write, counted);
    cc_model_free(m);
    return 0;
}

/* Hardware counts per run, or why there are none, into text. */
static void perf_text(run_state *st, rep_ctx *rc, const cc_model_counts *n, char *out, size_t size)
{
    uint64_t counts[CR_PERF_EVENTS];
    cr_perf p;
    char err[CR_ERRLEN] = "";
    if (!st->perf_failed && cr_perf_open(&p) != 0) {
        st->perf_failed = true;
        snprintf(st->perf_why, sizeof st->perf_why, "%s", p.why);
    }
    if (!st->perf_failed) {
        bool ran = true;
        for (int r = 0; r < PERF_RUNS && ran; ++r) {
            cr_timing t;
            ran = rep(rc, &t, err, sizeof err) == CR_OK;
        }
        int read = cr_perf_read(&p, counts);
        cr_perf_close(&p);
        if (ran && read == 0) {
            snprintf(out, size,
                     "perf per run: L1D read misses %.0f (model %" PRIu64 "), LLC read misses %.0f (model %" PRIu64
                     " last-level misses)",
                     (double)counts[CR_PERF_L1D_READ_MISSES] / PERF_RUNS, n->l1_read_misses,
                     (double)counts[CR_PERF_LLC_MISSES] / PERF_RUNS, n->last_level_misses);
            return;
        }
        if (ran)
            snprintf(out, size, "perf counters %s", p.why);
        else
            snprintf(out, size, "perf counters not read: a counted run failed: %s", err);
        return;
    }
    snprintf(out, size, "perf counters %s; model per run: L1D read misses %" PRIu64 ", last-level misses %" PRIu64,
             st->perf_why, n->l1_read_misses, n->last_level_misses);
}

static void append(char *dst, size_t size, const char *text)
{
    size_t used = strlen(dst);
    if (text[0] && used + 3 < size)
        snprintf(dst + used, size - used, "%s%s", used ? "; " : "", text);
}

/* Flags a model row whose prediction rests on a level holding more than
 * it serves whole (cc_model_premise_fails). A run touches at most one new
 * line an access, so its lines span at most the footprint and accesses x
 * the first level's line. */
static void premise_flag(const run_state *st, const cc_model_counts *n, uint64_t footprint, uint64_t accesses,
                         cr_result *row)
{
    const cc_geometry *g = st->env->geometry;
    uint64_t line = g->count && g->level[0].line ? g->level[0].line : 64;
    uint64_t span = accesses < footprint / line ? accesses * line : footprint;
    int l = cc_model_premise_fails(g, n, span);
    if (l < 0)
        return;
    char spanned[32], whole[32], cap[32];
    cr_format_bytes(span, spanned, sizeof spanned);
    cr_format_bytes(g->level[l].served_whole, whole, sizeof whole);
    cr_format_bytes(g->level[l].capacity, cap, sizeof cap);
    CR_FLAG(row, "model-premise",
            "the model has %s serve %.0f%% of the accesses, spanning up to %s, but it serves whole only %s of its "
            "%s (shared, or filling unevenly)",
            g->level[l].name, 100.0 * (double)n->hits[l] / (double)n->accesses, spanned, whole, cap);
}

/* Flags a model row whose trace is the first part of a pass whose lines
 * lie spread over a span four or more times the bytes of lines they touch
 * (a --quick budget over a large target): the simulator holds those lines
 * in a cache, as the device does, but has no TLB, and each access may be a
 * new page to the device, which then pays a page walk the model never sees. */
static void prefix_flag(const cc_pattern_shape *s, uint64_t accesses, unsigned line, cr_result *row)
{
    uint64_t footprint = cc_shape_bytes(s), lines = accesses * line;
    if (accesses >= s->pass || lines >= footprint / 4)
        return;
    char touched[32], spanned[32];
    cr_format_bytes(lines, touched, sizeof touched);
    cr_format_bytes(footprint, spanned, sizeof spanned);
    CR_FLAG(row, "model-prefix",
            "the trace is the first %" PRIu64 " accesses of a pass of %" PRIu64 ": at most %s of lines, spread over "
            "%s; the model caches them but has no TLB, while to the device each may be a new page",
            accesses, s->pass, touched, spanned);
}

static int record_model(run_state *st, unsigned kind, const cc_replay *r, const cr_result *measured, rep_ctx *rc,
                        const cc_pattern_shape *s, unsigned line)
{
    cr_result row;
    init_row(st, &row, kind, "model", measured->size_bytes);
    cr_result_unmeasured(&row);
    row.ops_per_rep = (double)r->count;
    if (!st->have_model) {
        snprintf(row.note, sizeof row.note, "model not run: %s", st->model_why);
        return record(st, &row);
    }
    /* Beside Crawford's model, which has no prefetcher, the same with the
     * least a stride prefetcher does (one line ahead of a stride seen
     * twice), its lines timed as they arrive (model.h): how much of the
     * error the device's prefetchers explain. */
    cc_model_config with_prefetch = st->model;
    with_prefetch.prefetch = (cs_prefetch_config){CS_PREFETCH_STRIDE, 1, 1};
    cc_model_counts n, np;
    if (simulate(&st->model, r, &n) != 0 || simulate(&with_prefetch, r, &np) != 0) {
        fprintf(stderr, "%s: error: out of memory simulating %s\n", st->env->ses->opt.program,
                cc_pattern_names[kind]);
        return -1;
    }
    row.figure = row.figure_best = cc_model_predict_ns(&st->model, &n);
    double error = cc_error_pct(measured->figure, row.figure);
    cr_result_add_param(&row, "measured_ns=%.4g;error_pct=%.1f", measured->figure, error);
    for (unsigned l = 0; l < st->model.count; ++l)
        cr_result_add_param(&row, "hit_%s=%.4f", st->model.name[l], (double)n.hits[l] / (double)n.accesses);
    cr_result_add_param(&row, "hit_mem=%.4f", (double)n.memory / (double)n.accesses);
    double with_ns = cc_model_predict_ns(&with_prefetch, &np);
    cr_result_add_param(&row, "prefetch=stride:1:1;predicted_prefetch_ns=%.4g;error_prefetch_pct=%.1f", with_ns,
                        cc_error_pct(measured->figure, with_ns));
    if (!measured->valid) {
        row.valid = false;
        snprintf(row.note, sizeof row.note, "no valid measurement to compare with");
        return record(st, &row);
    }
    /* The verdict first: the note is cut where it is full. */
    premise_flag(st, &n, measured->size_bytes, r->count, &row);
    prefix_flag(s, r->count, line, &row);
    char perf[sizeof row.note];
    perf_text(st, rc, &n, perf, sizeof perf);
    append(row.note, sizeof row.note, perf);
    if (rc->bad) {
        row.valid = false;
        append(row.note, sizeof row.note, "a counted run failed verification");
    }
    append(row.note, sizeof row.note, st->model.assumed);
    return record(st, &row);
}

/* The pattern row of a run that failed: unmeasured, invalid, why. */
static int record_failed(run_state *st, cr_result *row, const char *err)
{
    cr_result_unmeasured(row);
    row->valid = false;
    snprintf(row->note, sizeof row->note, "run failed: %s", err);
    fprintf(stderr, "%s: error: %s at %" PRIu64 " bytes: %s\n", st->env->ses->opt.program, row->variant,
            row->size_bytes, err);
    return record(st, row);
}

static int run_point(run_state *st, unsigned kind, uint64_t footprint, const char *target)
{
    const cc_pattern_env *env = st->env;
    /* The chase's spacing and the tile's side: the first level's line where
     * it is one of today's (16 to 128 B), else 64 B, the row saying which. */
    unsigned line = st->have_model ? st->model.level[0].line_bytes : 64;
    if (line < 16 || line > 128)
        line = 64;
    cc_pattern_shape s;
    if (cc_shape_make(kind, footprint, line, &s) != 0)
        return 0;
    uint64_t accesses = s.accesses = accesses_for(&s, st->budget);
    if (accesses == 0)
        return 0;
    cc_replay r;
    uint64_t *init = initial_words(&s);
    if (init == NULL || cc_replay_make(&s, accesses, &r) != 0) {
        free(init);
        fprintf(stderr, "%s: error: out of memory for the %s pattern\n", env->ses->opt.program, cc_pattern_names[kind]);
        return -1;
    }
    char name[96], path[4300], err[CR_ERRLEN] = "";
    cc_trace_name(name, sizeof name, cc_pattern_names[kind], cc_shape_bytes(&s));
    snprintf(path, sizeof path, "%s-%s", env->ses->base, name);
    cr_result row;
    init_row(st, &row, kind, "pattern", cc_shape_bytes(&s));
    const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    cr_result_add_param(&row, "target=%s;accesses=%" PRIu64 ";pass=%" PRIu64 ";line=%u;trace=%s", target, accesses,
                        s.pass, line, file);
    row.ops_per_rep = (double)accesses;
    row.bytes_per_rep = (double)accesses * 8;
    row.working_set_bytes = cc_shape_bytes(&s);
    int rc = 0;
    rep_ctx ctx = {.ops = env->ops, .expected = r.checksum};
    cr_measurement m;
    if (cc_trace_save(path, cc_pattern_names[kind], cc_shape_bytes(&s), &r, err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: %s\n", env->ses->opt.program, err);
        rc = -1;
    } else if (env->ops->prepare(&s, init, cc_shape_bytes(&s), err, sizeof err) != CR_OK ||
               cr_measure(&st->meas, rep, &ctx, &m, err, sizeof err) != CR_OK) {
        rc = record_failed(st, &row, err);
    } else {
        cr_measurement_to_row(&m, &row);
        row.figure = m.stats.median / (double)accesses * 1e9;
        row.figure_best = m.stats.min / (double)accesses * 1e9;
        if (ctx.bad) {
            row.valid = false;
            snprintf(row.note, sizeof row.note, "checksum %" PRIu64 ", expected %" PRIu64, ctx.got, ctx.expected);
        } else if (accesses < s.pass) {
            snprintf(row.note, sizeof row.note, "the first %" PRIu64 " of a pass of %" PRIu64 " accesses", accesses,
                     s.pass);
        }
        rc = record(st, &row);
        if (rc == 0)
            rc = record_model(st, kind, &r, &row, &ctx, &s, line);
    }
    free(init);
    cc_replay_free(&r);
    return rc;
}

/* Rows saying the backend has no pattern kernels. */
static int record_unsupported(run_state *st)
{
    for (unsigned kind = 0; kind < CC_PATTERNS; ++kind) {
        cr_result row;
        init_row(st, &row, kind, "pattern", 0);
        cr_result_unmeasured(&row);
        snprintf(row.stop, sizeof row.stop, "unsupported");
        snprintf(row.note, sizeof row.note, "not supported: the %s backend has no pattern kernels", row.backend);
        if (record(st, &row) != 0)
            return -1;
    }
    return 0;
}

int cc_patterns_run(const cc_pattern_env *env)
{
    run_state st = {.env = env, .meas = *env->meas, .budget = env->max_accesses};
    if (st.budget == 0)
        st.budget = env->quick ? CC_MAX_ACCESSES_QUICK : CC_MAX_ACCESSES;
    if (env->ops == NULL)
        return record_unsupported(&st);
    /* six runs at the least: fewer give the median no confidence interval */
    st.meas.rule.min_reps = 6;
    st.meas.rule.max_reps = env->quick ? 7 : 11;
    st.meas.rule.min_time_s = 0;
    st.meas.rule.max_time_s = env->quick ? 0.1 : 0.5;
    st.meas.warmup = 1;
    st.meas.energy = NULL;
    unsigned host_ways[CC_MAX_LEVELS] = {0};
    if (env->ses->info.is_cpu)
        cc_sysfs_ways(env->sysfs_root ? env->sysfs_root : "/sys/devices/system/cpu", host_ways);
    st.have_model = cc_model_configure(env->geometry, host_ways, &st.model, st.model_why, sizeof st.model_why) == 0;
    uint64_t sizes[CC_MAX_LEVELS + 1];
    char targets[CC_MAX_LEVELS + 1][8];
    unsigned count = footprints(env->geometry, env->ses->info.max_alloc_bytes, sizes, targets);
    /* A row that failed verification leaves the other patterns to run; a
     * row or trace that cannot be written stops them. */
    bool stopped = false;
    for (unsigned kind = 0; kind < CC_PATTERNS && !stopped; ++kind)
        for (unsigned i = 0; i < count && !stopped; ++i)
            stopped = run_point(&st, kind, sizes[i], targets[i]) != 0;
    if (stopped)
        st.status = -1;
    if (env->ops->release)
        env->ops->release();
    return st.status;
}
