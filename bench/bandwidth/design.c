/* Experiment design of the bandwidth benchmark: every memory path a backend
 * offers, over a transfer-size sweep, each point verified, compared with the
 * host's own bandwidth at the same size, and every path fitted with Lee's
 * transfer model; then the paths matrix at the largest size and the
 * devices' peer-to-peer topology. Backends are reached only through
 * bw_backend. */
#define _GNU_SOURCE
#include "bandwidth/backend.h"

#include "bandwidth/host_ref.h"
#include "bandwidth/local_sweep.h"
#include "bandwidth/matrix.h"
#include "bandwidth/transfer_model.h"
#include "bench_main.h"
#include "error.h"
#include "measure.h"
#include "metadata.h"
#include "omp_env.h"
#include "options.h"
#include "random.h"
#include "results.h"
#include "session.h"
#include "topology.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Transfers at least this large run interleaved with their host reference,
 * so that drift on a shared machine cancels in the ratio. */
#define INTERLEAVE_BYTES (UINT64_C(16) << 20)
#define MAX_SIZES 64
/* Links the topology rows can hold: every ordered pair of 16 devices. */
#define MAX_PEER_LINKS (16 * 15)

/* Copies keep the single-thread memcpy as their reference (what a runtime's
 * copy does at best without help); the all-cores copy beside it shows what
 * the memory could give, in each copy's params. */
enum { REF_MEMCPY, REF_MEMCPY_MT, REF_READ, REF_WRITE, N_REFS };
static const char *const ref_names[N_REFS] = {"host-memcpy-1thread", "host-memcpy-openmp", "host-read-openmp",
                                              "host-write-openmp"};

typedef struct {
    cr_range sizes;    /* all 0 until given */
    const char *paths; /* comma list of keys, NULL = all */
    bool list_paths;
    uint64_t seed;
    bool oversubscribe;
} bw_config;

typedef struct {
    cr_session ses;
    bw_config cfg;
    const bw_backend *be;
    const bw_path *paths; /* the backend's, in run order */
    size_t npaths;
    /* Per path, decided once the device is open: whether it runs (else
     * why not) and how many transfers of the size one repetition makes. */
    bool *runnable;
    char (*why)[CR_ERRLEN];
    unsigned *transfers;
    unsigned max_transfers; /* over the runnable paths: the check buffer holds that many of the largest size */
    cr_result *largest;     /* each path's latest verified row; the matrix takes it at the largest size */
    bool *has_largest;
    unsigned local_width;   /* the vector width of the local-memory path's best verified row, 0 none */
    cr_measure_ctx dev_meas, host_meas;
    uint64_t max_bytes;
    uint64_t local_bytes; /* the local-memory path's buffer (bw_local_buffer_bytes) */
    void *src, *check; /* the pattern of the current size, and a buffer to verify into */
    float *floats;     /* the techniques' inputs at the current size: floats in [1, 2) */
    double *samples[4]; /* per-repetition times of the series of one point */
    double ref_figure[N_REFS]; /* host bandwidth at the current size, GB/s */
    const char *binding; /* how the OpenMP references' threads are placed */
} bw_run;

/* ---- options ---- */

/* The names are checked against the backend's paths once parsing is done. */
static int opt_paths(void *ctx, const char *arg, char *err, size_t errlen)
{
    if (arg[0] == '\0')
        return cr_errf(err, errlen, "empty list");
    ((bw_config *)ctx)->paths = arg;
    return 0;
}

static const cr_extra_option bw_options[] = {
    CR_OPTION(CR_OPT_RANGE, "sizes", "RANGE", "transfer sizes (default 1K to 8x the last-level cache, at least 256M, x2, capped by the device; quick 4K:16M:x16)",
              bw_config, sizes),
    CR_OPTION_CALL("paths", "LIST", "comma list of path keys to run (default all; see --list-paths)", opt_paths),
    CR_OPTION(CR_OPT_FLAG, "list-paths", NULL, "list this backend's paths and exit", bw_config, list_paths),
    CR_OPTION(CR_OPT_COUNT, "seed", "N", "seed of the random buffer contents (default 1)", bw_config, seed),
    CR_OPTION(CR_OPT_FLAG, "oversubscribe", NULL,
              "let managed memory exceed the device memory free (refused by default: it can hang the GPU)", bw_config,
              oversubscribe),
};
#define N_BW_OPTIONS (sizeof bw_options / sizeof bw_options[0])

/* Calls visit(token, length) for every comma-separated token of list,
 * empty ones included, until it returns false. */
static bool each_token(const char *list, bool (*visit)(const char *tok, size_t len, void *ctx), void *ctx)
{
    for (const char *s = list;;) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (!visit(s, n, ctx))
            return false;
        if (end == NULL)
            return true;
        s = end + 1;
    }
}

static bool differs_from(const char *tok, size_t len, void *key)
{
    return !(strlen(key) == len && strncmp(tok, key, len) == 0);
}

static bool path_selected(const bw_run *run, const bw_path *p)
{
    return run->cfg.paths == NULL || !each_token(run->cfg.paths, differs_from, (void *)p->key);
}

typedef struct {
    const bw_path *paths;
    size_t count;
    const char *program;
} path_table;

static bool is_known_path(const char *tok, size_t len, void *ctx)
{
    const path_table *t = ctx;
    for (size_t i = 0; i < t->count; ++i)
        if (!differs_from(tok, len, (void *)t->paths[i].key))
            return true;
    fprintf(stderr, "%s: error: --paths: unknown path '%.*s' (see --list-paths)\n", t->program, (int)len, tok);
    return false;
}

/* Every name in --paths must be a path of this backend. */
static int check_paths(const bw_run *run)
{
    path_table t = {run->paths, run->npaths, run->ses.opt.program};
    return run->cfg.paths == NULL || each_token(run->cfg.paths, is_known_path, &t) ? 0 : -1;
}

/* ---- rows ---- */

static void init_row(cr_result *r, const char *backend, const char *device, const char *variant, const char *sweep,
                     uint64_t bytes)
{
    cr_result_begin(r, "bandwidth", backend, device, variant, NULL, sweep, "GB/s");
    r->size_bytes = bytes;
    r->bytes_per_rep = (double)bytes;
}

static void set_stats(cr_result *r, const cr_measurement *m)
{
    cr_measurement_to_row(m, r);
    r->figure = r->bytes_per_rep / m->stats.median * 1e-9;
    r->figure_best = r->bytes_per_rep / m->stats.min * 1e-9;
}

/* Which bandwidths memory bounds: on a device that shares the host's
 * memory every path and reference; on a discrete device only what stays in
 * device memory (kernels and device-to-device copies), not the bus. Local
 * memory is on the chip: its rows are judged against its own peak
 * (local_sweep.c). */
static bool memory_bound(const bw_run *run, const cr_result *r)
{
    if (strcmp(r->unit, "GB/s") != 0 || strcmp(r->variant, BW_LOCAL_PATH_KEY) == 0)
        return false;
    if (run->ses.info.unified_memory)
        return true;
    return strcmp(r->backend, "host") != 0 &&
           (strncmp(r->variant, "kernel-", 7) == 0 || strncmp(r->variant, "d2d-", 4) == 0);
}

static int record(bw_run *run, const cr_result *row)
{
    cr_result r = *row;
    if (memory_bound(run, &r)) {
        r.peak_kind = CR_PEAK_MEMORY;
        r.working_set_bytes = r.size_bytes; /* the smaller guess: more rows called cache, none called memory wrongly */
    }
    return cr_session_record(&run->ses, &r);
}

/* ---- host references ---- */

typedef struct {
    bw_run *run;
    int which;
    uint64_t bytes;
    uint64_t sum;
} ref_ctx;

static cr_status ref_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ref_ctx *c = arg;
    uint64_t t0 = cr_now_ns();
    switch (c->which) {
    case REF_MEMCPY: bw_host_memcpy(c->run->check, c->run->src, c->bytes); break;
    case REF_MEMCPY_MT: bw_host_memcpy_mt(c->run->check, c->run->src, c->bytes); break;
    case REF_READ: c->sum = bw_host_read(c->run->src, c->bytes); break;
    default: bw_host_write(c->run->check, c->bytes, (uint32_t)c->bytes); break;
    }
    t->host_ns = cr_now_ns() - t0;
    t->has_event = false;
    return CR_OK;
}

static uint64_t word_sum(const void *p, uint64_t bytes)
{
    const uint32_t *w = p;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < bytes / 4; ++i)
        sum += w[i];
    return sum;
}

/* Index of the first 32-bit word that is not bw_pattern_word(i, seed), or
 * UINT64_MAX when all are. */
static uint64_t first_pattern_mismatch(const void *p, uint64_t bytes, uint32_t seed)
{
    const uint32_t *w = p;
    for (uint64_t i = 0; i < bytes / 4; ++i)
        if (w[i] != bw_pattern_word(i, seed))
            return i;
    return UINT64_MAX;
}

static uint64_t first_byte_mismatch(const void *a, const void *b, uint64_t bytes)
{
    const unsigned char *x = a, *y = b;
    for (uint64_t i = 0; i < bytes; ++i)
        if (x[i] != y[i])
            return i;
    return UINT64_MAX;
}

/* Every byte of the copies' destinations (segments of bytes, one after
 * another) unlike the source's, so that a copy that misses a byte cannot
 * pass on what an earlier copy left there. */
static void spoil_copy_target(bw_run *run, uint64_t bytes, unsigned segments)
{
    const unsigned char *s = run->src;
    for (unsigned k = 0; k < segments; ++k) {
        unsigned char *d = (unsigned char *)run->check + (uint64_t)k * bytes;
        for (uint64_t i = 0; i < bytes; ++i)
            d[i] = (unsigned char)~s[i];
    }
}

static int measure_references(bw_run *run, uint64_t bytes, uint64_t expected_sum)
{
    char err[CR_ERRLEN];
    for (int i = 0; i < N_REFS; ++i) {
        ref_ctx c = {run, i, bytes, 0};
        bool copy = i == REF_MEMCPY || i == REF_MEMCPY_MT;
        cr_measurement m;
        cr_result r;
        init_row(&r, "host", "", ref_names[i], "size", bytes);
        cr_cpu_model(r.device, sizeof r.device);
        r.work_items = i == REF_MEMCPY ? 1 : (uint64_t)bw_host_threads();
        if (i != REF_MEMCPY)
            snprintf(r.params, sizeof r.params, "threads=%d;binding=%s", bw_host_threads(), run->binding);
        if (copy)
            spoil_copy_target(run, bytes, 1);
        if (cr_measure(&run->host_meas, ref_rep, &c, &m, err, sizeof err) != CR_OK)
            return -1;
        set_stats(&r, &m);
        run->ref_figure[i] = r.figure;
        uint64_t bad = copy            ? first_byte_mismatch(run->check, run->src, bytes)
                     : i == REF_WRITE  ? first_pattern_mismatch(run->check, bytes, (uint32_t)bytes)
                     : (c.sum == expected_sum ? UINT64_MAX : 0);
        if (bad != UINT64_MAX) {
            r.valid = false;
            snprintf(r.note, sizeof r.note, "host reference produced wrong data (first at %" PRIu64 ")", bad);
        }
        if (record(run, &r) != 0)
            return -1;
    }
    return 0;
}

/* ---- device paths ---- */

typedef struct {
    bw_run *run;
    const bw_path *path;
    unsigned phase;
} phase_ctx;

/* A repetition is its phases in order; before its first, untimed, the
 * backend places the data where the path says a repetition starts, so that
 * neither the warm-up nor the previous repetition leaves it elsewhere. */
static cr_status phase_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    phase_ctx *c = arg;
    const bw_backend *be = c->run->be;
    cr_status st = c->phase == 0 && be->place ? be->place(c->path, err, errlen) : CR_OK;
    if (st != CR_OK)
        return st;
    return be->run(c->path, c->phase, t, err, errlen);
}

/* The phase whose time is the path's transfer: the memcpy of a CPU access. */
static unsigned transfer_phase(const bw_path *p) { return p->kind == BW_CPU_ACCESS ? 1 : 0; }

/* Transfers of the size one repetition of path p makes (only an API copy
 * makes several); 1 for a path that does not run. */
static unsigned transfers_of(const bw_run *run, const bw_path *p)
{
    return run->transfers[p - run->paths];
}

/* Whether the path moves bytes between memories the host also reaches:
 * then a host reference stands beside it and Lee's transfer model fits
 * it. A technique runs a whole workload, and the local-memory path
 * streams on-chip memory the host has no counterpart of. */
static bool is_transfer(const bw_path *p) { return p->kind != BW_TECHNIQUE && p->kind != BW_KERNEL_LOCAL; }

/* Records a path's row at one size; its verified row at the largest size
 * stands for the path in the matrix (record_matrix checks the size). */
static int record_measured(bw_run *run, const bw_path *p, const cr_result *r, bool ok)
{
    if (record(run, r) != 0)
        return -1;
    if (ok) {
        run->largest[p - run->paths] = *r;
        run->has_largest[p - run->paths] = true;
    }
    return 0;
}

static int reference_of(const bw_path *p)
{
    return p->kind == BW_KERNEL_READ ? REF_READ : p->kind == BW_KERNEL_WRITE ? REF_WRITE : REF_MEMCPY;
}

/* Vector add must be exact (one float addition per element); the reduce's
 * double sum of n floats within n rounding steps of the exact sum. */
static bool verify_technique(bw_run *run, const bw_path *p, uint64_t bytes, char *note, size_t len)
{
    if (p->workload == BW_VECTOR_ADD) {
        uint64_t n = bytes / 8;
        const float *a = run->floats, *b = run->floats + n, *c = run->check;
        for (uint64_t i = 0; i < n; ++i)
            if (c[i] != a[i] + b[i]) {
                snprintf(note, len, "vector add wrong at element %" PRIu64 ": %g instead of %g", i, c[i], a[i] + b[i]);
                return false;
            }
        return true;
    }
    uint64_t n = bytes / 4;
    long double exact = 0;
    for (uint64_t i = 0; i < n; ++i)
        exact += run->floats[i];
    double got;
    memcpy(&got, run->check, sizeof got);
    double rel = fabs((double)((long double)got - exact)) / (double)exact, tol = DBL_EPSILON * (double)(n + 16);
    if (!(rel <= tol)) {
        snprintf(note, len, "reduce off by %.3g relative (tolerance %.3g)", rel, tol);
        return false;
    }
    return true;
}

/* Checks what the repetitions left behind; fills note on failure. */
static bool verify_path(bw_run *run, const bw_path *p, uint64_t bytes, uint64_t expected_sum, char *note,
                        size_t len)
{
    char err[CR_ERRLEN];
    uint64_t sum = 0;
    unsigned transfers = transfers_of(run, p);
    /* One transfer's destination is the backend's, zeroed before it ran;
     * the later ones of several land here beside it, where another path's
     * copy of the same source could still be. */
    if (transfers > 1)
        spoil_copy_target(run, bytes, transfers);
    if (run->be->result(p, run->check, &sum, err, sizeof err) != CR_OK) {
        snprintf(note, len, "reading the result failed: %s", err);
        return false;
    }
    uint64_t bad = UINT64_MAX;
    switch (p->kind) {
    case BW_TECHNIQUE:
        return verify_technique(run, p, bytes, note, len);
    case BW_KERNEL_READ:
        if (sum != expected_sum) {
            snprintf(note, len, "kernel read sum %" PRIu64 " differs from %" PRIu64, sum, expected_sum);
            return false;
        }
        return true;
    case BW_KERNEL_WRITE:
        bad = first_pattern_mismatch(run->check, bytes, (uint32_t)bytes);
        break;
    default:
        for (unsigned k = 0; k < transfers; ++k) {
            bad = first_byte_mismatch((const unsigned char *)run->check + (uint64_t)k * bytes, run->src, bytes);
            if (bad != UINT64_MAX && transfers > 1) {
                snprintf(note, len, "destination of transfer %u of %u differs from the source, first at byte %" PRIu64,
                         k + 1, transfers, bad);
                return false;
            }
        }
        break;
    }
    if (bad != UINT64_MAX) {
        snprintf(note, len, "destination differs from the source, first at %s %" PRIu64,
                 p->kind == BW_KERNEL_WRITE ? "word" : "byte", bad);
        return false;
    }
    return true;
}

/* A row that measures nothing: an unsupported path or cell, a topology link. */
static void init_unmeasured_row(const bw_run *run, cr_result *r, const char *variant, const char *sweep)
{
    init_row(r, run->be->base.name, run->ses.info.name, variant, sweep, 0);
    r->bytes_per_rep = NAN;
    cr_result_unmeasured(r);
}

static int record_unsupported_row(bw_run *run, cr_result *r, const char *why)
{
    snprintf(r->stop, sizeof r->stop, "unsupported");
    snprintf(r->note, sizeof r->note, "not supported: %s", why);
    return record(run, r);
}

static int record_unsupported(bw_run *run, const bw_path *p, const char *why)
{
    cr_result r;
    init_unmeasured_row(run, &r, p->key, p->kind == BW_KERNEL_LOCAL ? "local-width" : "size");
    return record_unsupported_row(run, &r, why);
}

static int record_failure(bw_run *run, const bw_path *p, uint64_t bytes, const char *err)
{
    cr_result r;
    init_row(&r, run->be->base.name, run->ses.info.name, p->key, "size", bytes);
    r.valid = false;
    cr_result_unmeasured(&r);
    snprintf(r.note, sizeof r.note, "run failed: %s", err);
    fprintf(stderr, "%s: error: %s at %" PRIu64 " bytes: %s\n", run->ses.opt.program, p->key, bytes, err);
    return record(run, &r);
}

/* Measures one path at one size; returns its total seconds per repetition
 * (all phases) through *seconds, NaN if it did not run, and through *valid
 * whether its row passed verification (a valid point always has a time). */
static int measure_path(bw_run *run, const bw_path *p, uint64_t bytes, uint64_t expected_sum, double *seconds,
                        bool *valid)
{
    char err[CR_ERRLEN];
    *seconds = NAN;
    *valid = false;
    if (run->be->prepare(p, bytes, p->kind == BW_TECHNIQUE ? (const void *)run->floats : run->src, err, sizeof err) !=
        CR_OK) {
        run->be->release(p);
        return record_failure(run, p, bytes, err);
    }
    cr_series series[4];
    phase_ctx ctx[3];
    for (unsigned i = 0; i < p->phases; ++i) {
        ctx[i] = (phase_ctx){run, p, i};
        series[i] = (cr_series){.ctx = &run->dev_meas, .fn = phase_rep, .arg = &ctx[i], .samples = run->samples[i]};
    }
    size_t count = p->phases;
    bool paired = bytes >= INTERLEAVE_BYTES && is_transfer(p);
    ref_ctx rc = {run, reference_of(p), bytes, 0};
    if (paired)
        series[count++] = (cr_series){.ctx = &run->host_meas, .fn = ref_rep, .arg = &rc, .samples = run->samples[3]};
    cr_status st = cr_measure_interleaved(series, count, err, sizeof err);
    if (st != CR_OK) {
        run->be->release(p);
        return record_failure(run, p, bytes, err);
    }
    char note[sizeof ((cr_result *)NULL)->note] = "";
    bool ok = verify_path(run, p, bytes, expected_sum, note, sizeof note);
    run->be->release(p);

    unsigned main_phase = transfer_phase(p), transfers = transfers_of(run, p);
    const cr_measurement *m = &series[main_phase].out;
    cr_result r;
    init_row(&r, run->be->base.name, run->ses.info.name, p->key, "size", bytes);
    r.bytes_per_rep = (double)transfers * (double)bytes; /* the bandwidth of all of them together */
    set_stats(&r, m);
    if (p->kind == BW_TECHNIQUE) {
        /* A technique's figure is its time, from host input to host output. */
        r.figure = m->stats.median * 1e3;
        r.figure_best = m->stats.min * 1e3;
        snprintf(r.unit, sizeof r.unit, "ms");
        snprintf(r.params, sizeof r.params, "workload=%s", p->workload == BW_VECTOR_ADD ? "vectoradd" : "reduce");
        r.valid = ok;
        snprintf(r.note, sizeof r.note, "%s", note);
        *seconds = ok ? m->stats.median : NAN;
        *valid = ok;
        return record(run, &r);
    }
    double ref = run->ref_figure[reference_of(p)];
    /* The host moves one transfer's bytes in its time: times its ratio by
     * the transfers the path made in its own. */
    if (paired && series[count - 1].out.stats.n == m->stats.n)
        r.ref_ratio = transfers * cr_median_of_ratios(run->samples[3], run->samples[main_phase], m->stats.n);
    else
        r.ref_ratio = r.figure / ref;
    int len = snprintf(r.params, sizeof r.params, "ref=%s;ref_GBps=%.4g;paired=%d", ref_names[reference_of(p)],
                       paired ? (double)bytes / series[count - 1].out.stats.median * 1e-9 : ref, paired);
    /* Against the all-cores copy measured at this size before the paths:
     * never interleaved, so a ratio of medians. */
    if (reference_of(p) == REF_MEMCPY && len > 0 && (size_t)len < sizeof r.params)
        snprintf(r.params + len, sizeof r.params - (size_t)len, ";mt_ref=%s;mt_ref_GBps=%.4g;mt_ref_ratio=%.4g",
                 ref_names[REF_MEMCPY_MT], run->ref_figure[REF_MEMCPY_MT], r.figure / run->ref_figure[REF_MEMCPY_MT]);
    if (transfers > 1)
        cr_result_add_param(&r, "transfers=%u", transfers);
    r.valid = ok;
    snprintf(r.note, sizeof r.note, "%s", note);
    if (ok && m->below_resolution)
        snprintf(r.note, sizeof r.note, "median below 20 timer ticks");
    else if (ok && (p->from == BW_MEM_MALLOC || p->to == BW_MEM_MALLOC))
        snprintf(r.note, sizeof r.note, "%s", p->desc); /* how the device reaches it: HMM, ATS, system SVM */
    if (record_measured(run, p, &r, ok) != 0)
        return -1;

    double total = 0;
    for (unsigned i = 0; i < p->phases; ++i)
        total += series[i].out.stats.median;
    *seconds = total;
    *valid = ok;

    /* Map and unmap: latencies, never bandwidths. A map that would have had
     * to beat twice the host's copy bandwidth cannot have moved the data. */
    for (unsigned i = 0; i < p->phases; ++i) {
        if (i == main_phase)
            continue;
        char variant[64];
        snprintf(variant, sizeof variant, "%s:%s", p->key, i == 0 ? "map" : "unmap");
        init_row(&r, run->be->base.name, run->ses.info.name, variant, "size", bytes);
        cr_measurement phase = series[i].out;
        phase.energy = (cr_energy_point){0}; /* the access's row has the energy of all three */
        set_stats(&r, &phase);
        r.bytes_per_rep = NAN;
        r.figure = series[i].out.stats.median * 1e6;
        r.figure_best = series[i].out.stats.min * 1e6;
        snprintf(r.unit, sizeof r.unit, "us");
        bool none = bw_moved_no_data((double)bytes, series[i].out.stats.median,
                                     run->ref_figure[REF_MEMCPY] * 1e9);
        snprintf(r.params, sizeof r.params, "data_moved=%s", none ? "no (zero-copy)" : "possibly");
        r.valid = ok;
        if (!ok)
            snprintf(r.note, sizeof r.note, "the access through this map failed verification");
        if (record(run, &r) != 0)
            return -1;
    }
    return 0;
}

/* ---- the transfer model ---- */

/* The path's fit row: c and b where the fit was made over valid points
 * only, else invalid; its note says what was fitted, how many points were
 * left out, or why there is no fit.
 *
 * The model stays per transfer: S is the size of one transfer and T(S) the
 * time of the repetition that made all of a path's transfers at once. For
 * a duplex copy (two transfers of S, one each way, overlapping) B(S) =
 * S/T(S) is what each direction moved while the other ran, b the rate of
 * one direction, and the path's size rows report the two together. */
static int record_fit_row(bw_run *run, const bw_path *p, const bw_fit_outcome *o)
{
    cr_result r;
    init_row(&r, run->be->base.name, run->ses.info.name, p->key, "fit", 0);
    r.bytes_per_rep = NAN;
    r.stats.n = o->valid;
    cr_result_unmeasured(&r);
    r.valid = bw_fit_outcome_valid(o);
    bw_fit_outcome_note(o, r.note, sizeof r.note);
    if (!r.valid)
        return record(run, &r);
    const bw_fit *f = &o->fit;
    r.figure = f->b_Bps * 1e-9;
    snprintf(r.params, sizeof r.params, "c_us=%.4g;b_GBps=%.4g;max_rel_err=%.3g;rms_rel_err=%.3g%s", f->c_s * 1e6,
             f->b_Bps * 1e-9, f->max_rel_err, f->rms_rel_err, f->intercept_clamped ? ";c_clamped_to_0=1" : "");
    size_t used = strlen(r.note);
    unsigned transfers = transfers_of(run, p);
    if (p->kind == BW_CPU_ACCESS)
        snprintf(r.note + used, sizeof r.note - used, "; time = map + access + unmap");
    if (transfers > 1) {
        cr_result_add_param(&r, "transfers=%u", transfers);
        snprintf(r.note + used, sizeof r.note - used, "; b per transfer, %u at once", transfers);
    }
    return record(run, &r);
}

/* The fit's error at one measured point, valid only where the point and
 * the fit both are: an invalid point was left out of the fit (its error
 * is still given, as a diagnosis), and without a fit there is no error. */
static int record_fit_error(bw_run *run, const bw_path *p, double bytes, double seconds, bool point_valid,
                            const bw_fit_outcome *o)
{
    cr_result r;
    init_row(&r, run->be->base.name, run->ses.info.name, p->key, "fit-error", (uint64_t)bytes);
    r.bytes_per_rep = NAN;
    cr_result_unmeasured(&r);
    snprintf(r.unit, sizeof r.unit, "%%");
    r.valid = point_valid && bw_fit_outcome_valid(o);
    if (!bw_fit_outcome_valid(o)) {
        snprintf(r.params, sizeof r.params, "measured_GBps=%.4g", bytes / seconds * 1e-9);
        snprintf(r.note, sizeof r.note, "no fit for this path (see its fit row)");
        return record(run, &r);
    }
    r.figure = 100.0 * bw_fit_rel_err(&o->fit, bytes, seconds);
    snprintf(r.params, sizeof r.params, "fit_GBps=%.4g;measured_GBps=%.4g",
             bytes / bw_fit_seconds(&o->fit, bytes) * 1e-9, bytes / seconds * 1e-9);
    if (!point_valid)
        snprintf(r.note, sizeof r.note, "this point failed verification: left out of the fit");
    return record(run, &r);
}

/* Fits the path over its valid points and records the fit row and a
 * fit-error row per size it has a time at; *fit and *fitted tell the
 * techniques' model whether there is a fit to predict from. */
static int record_fit(bw_run *run, const bw_path *p, const uint64_t *sizes, const double *seconds, const bool *valid,
                      size_t n, bw_fit *fit, bool *fitted)
{
    double bytes[MAX_SIZES];
    for (size_t i = 0; i < n; ++i)
        bytes[i] = (double)sizes[i];
    bw_fit_outcome o;
    if (bw_fit_valid_points(bytes, seconds, valid, n, &o) != 0) {
        fprintf(stderr, "%s: error: out of memory fitting %s\n", run->ses.opt.program, p->key);
        return -1;
    }
    *fitted = bw_fit_outcome_valid(&o);
    if (*fitted)
        *fit = o.fit;
    if (record_fit_row(run, p, &o) != 0)
        return -1;
    for (size_t i = 0; i < n; ++i)
        if (!isnan(seconds[i]) && record_fit_error(run, p, bytes[i], seconds[i], valid[i], &o) != 0)
            return -1;
    return 0;
}

/* ---- the techniques against the model (Lee 2012, Eq. 3.1-3.5) ---- */

static const char *const technique_names[BW_NTECHNIQUES] = {"default", "cpu-resident", "gpu-resident", "mixed"};

static double measured_at(const double *seconds, const uint64_t *sizes, size_t nsizes, uint64_t bytes)
{
    for (size_t s = 0; s < nsizes; ++s)
        if (sizes[s] == bytes)
            return seconds[s];
    return NAN;
}

/* Predicted seconds of technique path p on bytes of input, from the fitted
 * paths that model its stages; NaN when one of them has no fit. Vector add
 * moves two inputs of S/2 and one output of S/2, its kernel reads S and
 * writes S/2; reduce moves S in, reads S and returns a few bytes, costed as
 * the output path's fixed cost. The kernel terms use the kernel paths' B(S),
 * whose fixed cost stands for Lee's C. */
static double predict(const bw_path *p, uint64_t bytes, const bw_path *paths, size_t npaths, const bw_fit *fits,
                      const bool *fitted)
{
    const bw_fit *stage[4] = {NULL, NULL, NULL, NULL};
    for (int k = 0; k < 4; ++k)
        for (size_t i = 0; i < npaths; ++i)
            if (p->model[k] && fitted[i] && strcmp(paths[i].key, p->model[k]) == 0)
                stage[k] = &fits[i];
    for (int k = 0; k < 4; ++k)
        if (stage[k] == NULL)
            return NAN;
    double S = (double)bytes;
    if (p->workload == BW_VECTOR_ADD)
        return 2 * bw_fit_seconds(stage[0], S / 2) + bw_fit_seconds(stage[1], S) + bw_fit_seconds(stage[2], S / 2) +
               bw_fit_seconds(stage[3], S / 2);
    return bw_fit_seconds(stage[0], S) + bw_fit_seconds(stage[1], S) + stage[3]->c_s;
}

/* The same composition with each stage's measured time at its size instead
 * of the fit: what the model predicts without Eq. 3.5's smoothing. NaN when
 * a stage was not measured at the size it needs. */
static double compose_measured(const bw_path *p, uint64_t bytes, const bw_path *paths, size_t npaths,
                               const uint64_t *sizes, size_t nsizes, double (*seconds)[MAX_SIZES])
{
    size_t stage[4];
    for (int k = 0; k < 4; ++k) {
        stage[k] = SIZE_MAX;
        for (size_t i = 0; i < npaths; ++i)
            if (p->model[k] && strcmp(paths[i].key, p->model[k]) == 0)
                stage[k] = i;
        if (stage[k] == SIZE_MAX)
            return NAN;
    }
    /* Time of stage k at b bytes; reduce's few output bytes cost what the
     * smallest measured transfer costs. */
#define AT(k, b) measured_at(seconds[stage[k]], sizes, nsizes, (b))
    if (p->workload == BW_VECTOR_ADD)
        return 2 * AT(0, bytes / 2) + AT(1, bytes) + AT(2, bytes / 2) + AT(3, bytes / 2);
    return AT(0, bytes) + AT(1, bytes) + seconds[stage[3]][0];
#undef AT
}

/* "a<b<c<d" by ascending time. */
static void rank_text(const double *t, char *buf, size_t len)
{
    int order[BW_NTECHNIQUES] = {0, 1, 2, 3};
    for (int i = 1; i < BW_NTECHNIQUES; ++i)
        for (int j = i; j > 0 && t[order[j]] < t[order[j - 1]]; --j) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    buf[0] = '\0';
    for (int i = 0; i < BW_NTECHNIQUES; ++i) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? "<" : "", technique_names[order[i]]);
    }
}

/* Where the rankings differ: each pair the model orders the other way,
 * with how far apart they measured and how wrong the model was on each. */
static void explain_ranking(const double *meas, const double *pred, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int a = 0; a < BW_NTECHNIQUES; ++a)
        for (int b = a + 1; b < BW_NTECHNIQUES; ++b) {
            if ((meas[a] < meas[b]) == (pred[a] < pred[b]))
                continue;
            size_t used = strlen(buf);
            snprintf(buf + used, len - used, "%s%s vs %s: measured %.1f%% apart, model off by %+.0f%%/%+.0f%%",
                     used ? "; " : "", technique_names[a], technique_names[b],
                     100.0 * fabs(meas[a] - meas[b]) / fmin(meas[a], meas[b]), 100.0 * (pred[a] / meas[a] - 1),
                     100.0 * (pred[b] / meas[b] - 1));
        }
}

static int record_techniques(bw_run *run, const bw_path *paths, size_t npaths, const uint64_t *sizes, size_t nsizes,
                             double (*seconds)[MAX_SIZES], const bw_fit *fits, const bool *fitted)
{
    for (int w = BW_VECTOR_ADD; w <= BW_REDUCE; ++w) {
        const char *wname = w == BW_VECTOR_ADD ? "vectoradd" : "reduce";
        double meas[BW_NTECHNIQUES], pred[BW_NTECHNIQUES], comp[BW_NTECHNIQUES];
        uint64_t ranked_at = 0;
        for (size_t s = 0; s < nsizes; ++s) {
            int complete = 0;
            for (size_t i = 0; i < npaths; ++i) {
                const bw_path *p = &paths[i];
                if (p->kind != BW_TECHNIQUE || (int)p->workload != w || isnan(seconds[i][s]))
                    continue;
                double t = seconds[i][s], pt = predict(p, sizes[s], paths, npaths, fits, fitted);
                double ct = compose_measured(p, sizes[s], paths, npaths, sizes, nsizes, seconds);
                cr_result r;
                init_row(&r, run->be->base.name, run->ses.info.name, p->key, "technique", sizes[s]);
                cr_result_unmeasured(&r);
                snprintf(r.timer, sizeof r.timer, "host");
                snprintf(r.unit, sizeof r.unit, "ms");
                r.figure = t * 1e3;
                if (isnan(pt))
                    snprintf(r.note, sizeof r.note, "no prediction: a path of its model has no fit");
                else
                    snprintf(r.params, sizeof r.params, "predicted_ms=%.4g;model_error_pct=%+.1f;composed_ms=%.4g",
                             pt * 1e3, 100 * (pt / t - 1), ct * 1e3);
                snprintf(r.note, sizeof r.note, "model: %s + %s + %s + %s; composed: the same stages' measured times",
                         p->model[0], p->model[1], p->model[2], p->model[3]);
                if (record(run, &r) != 0)
                    return -1;
                meas[p->technique] = t;
                pred[p->technique] = pt;
                complete += !isnan(pt);
            }
            if (complete == BW_NTECHNIQUES)
                ranked_at = sizes[s];
        }
        if (ranked_at == 0)
            continue;
        /* The ranking at the largest size where all four ran and were predicted. */
        for (size_t i = 0; i < npaths; ++i) {
            const bw_path *p = &paths[i];
            if (p->kind != BW_TECHNIQUE || (int)p->workload != w)
                continue;
            size_t s = 0;
            while (sizes[s] != ranked_at)
                ++s;
            meas[p->technique] = seconds[i][s];
            pred[p->technique] = predict(p, ranked_at, paths, npaths, fits, fitted);
            comp[p->technique] = compose_measured(p, ranked_at, paths, npaths, sizes, nsizes, seconds);
        }
        cr_result r;
        init_row(&r, run->be->base.name, run->ses.info.name, wname, "ranking", ranked_at);
        r.bytes_per_rep = NAN;
        cr_result_unmeasured(&r);
        r.unit[0] = '\0';
        char m[48], p[48], c[48]; /* "default<cpu-resident<gpu-resident<mixed" is 39 */
        rank_text(meas, m, sizeof m);
        rank_text(pred, p, sizeof p);
        rank_text(comp, c, sizeof c);
        bool match = strcmp(m, p) == 0;
        snprintf(r.params, sizeof r.params, "measured=%s;predicted=%s;match=%d;composed=%s", m, p, match, c);
        if (match) {
            snprintf(r.note, sizeof r.note, "the model ranks the techniques as measured: use %.*s", (int)strcspn(m, "<"),
                     m);
        } else {
            /* Why first (the pairs can run long): do the fits or the
             * composition itself miss? */
            snprintf(r.note, sizeof r.note, "%s; ",
                     strcmp(m, c) == 0 ? "the stages' measured times rank as measured: the fitted B(S) miss (caches)"
                                       : "the stages' measured times rank otherwise too: the gaps are within the "
                                         "model's error");
            size_t used = strlen(r.note);
            explain_ranking(meas, pred, r.note + used, sizeof r.note - used);
        }
        if (record(run, &r) != 0)
            return -1;
    }
    return 0;
}

/* ---- the peer-to-peer topology and the paths matrix ---- */

/* What links the devices, as the driver says: one row per link, or one
 * row saying why there is no table, so that its absence is never silent. */
static int record_topology(bw_run *run)
{
    cr_result r;
    init_unmeasured_row(run, &r, "p2p-topology", "p2p-topology");
    r.unit[0] = '\0';
    char why[CR_ERRLEN];
    if (run->be->peer_links == NULL) {
        snprintf(why, sizeof why, "the %s API has no peer-to-peer query", run->be->base.name);
        return record_unsupported_row(run, &r, why);
    }
    static bw_peer_link links[MAX_PEER_LINKS];
    unsigned devices = 0;
    size_t n = run->be->peer_links(links, MAX_PEER_LINKS, &devices);
    if (devices < 2) {
        snprintf(why, sizeof why, "needs >= 2 devices (%u present)", devices);
        return record_unsupported_row(run, &r, why);
    }
    for (size_t i = 0; i < n && i < MAX_PEER_LINKS; ++i) {
        const bw_peer_link *l = &links[i];
        cr_result row = r;
        snprintf(row.params, sizeof row.params, "from=%u;to=%u;access=%d;native_atomics=%d;rank=%d;link=%s", l->from,
                 l->to, l->access, l->native_atomics, l->rank, l->link);
        if (n >= MAX_PEER_LINKS)
            snprintf(row.note, sizeof row.note, "the first %d links of %u devices", MAX_PEER_LINKS, devices);
        if (record(run, &row) != 0)
            return -1;
    }
    return 0;
}

/* After the sweep, at the largest size: one row per cell of the matrix
 * (bw_matrix_cells), the cell's fastest verified path with its size row's
 * statistics (the local-memory path's best vector width), or why none of
 * its paths runs here. */
static int record_matrix(bw_run *run)
{
    bw_matrix_entry *e = calloc(run->npaths, sizeof *e);
    bw_matrix_cell *cells = calloc(run->npaths, sizeof *cells);
    size_t n = 0;
    int rc = e && cells ? 0 : -1;
    for (size_t i = 0; i < run->npaths && rc == 0; ++i)
        if (path_selected(run, &run->paths[i])) {
            bool local = run->paths[i].kind == BW_KERNEL_LOCAL;
            bool at_end = run->has_largest[i] && (local || run->largest[i].size_bytes == run->max_bytes);
            e[n++] = (bw_matrix_entry){&run->paths[i], run->runnable[i], run->transfers[i], at_end,
                                       at_end ? run->largest[i].figure : NAN};
        }
    size_t ncells = rc == 0 ? bw_matrix_cells(e, n, cells) : 0;
    for (size_t c = 0; c < ncells && rc == 0; ++c) {
        const bw_path *p = e[cells[c].entry].path;
        size_t i = (size_t)(p - run->paths);
        cr_result r;
        if (cells[c].measured) {
            r = run->largest[i];
            snprintf(r.sweep, sizeof r.sweep, "matrix");
        } else {
            init_unmeasured_row(run, &r, p->key, "matrix");
        }
        snprintf(r.params, sizeof r.params, "from=%s;to=%s;engine=%s", bw_memory_name(p->from), bw_memory_name(p->to),
                 bw_engine_name(p->engine));
        if (cells[c].measured && run->transfers[i] > 1)
            cr_result_add_param(&r, "transfers=%u", run->transfers[i]);
        if (cells[c].measured && p->kind == BW_KERNEL_LOCAL)
            cr_result_add_param(&r, "vector=%u", run->local_width);
        rc = cells[c].measured ? record(run, &r) : record_unsupported_row(run, &r, run->why[i]);
    }
    free(e);
    free(cells);
    return rc;
}

/* ---- set-up ---- */

/* Asks the backend, once the device is open, which selected paths run
 * here and how many transfers each makes; unselected paths count as not
 * running, without a row. */
static int classify_paths(bw_run *run)
{
    size_t n = run->npaths;
    run->runnable = calloc(n, sizeof *run->runnable);
    run->why = calloc(n, sizeof *run->why);
    run->transfers = calloc(n, sizeof *run->transfers);
    run->largest = calloc(n, sizeof *run->largest);
    run->has_largest = calloc(n, sizeof *run->has_largest);
    if (!run->runnable || !run->why || !run->transfers || !run->largest || !run->has_largest) {
        fprintf(stderr, "%s: error: out of memory\n", run->ses.opt.program);
        return CR_EXIT_FAILED;
    }
    run->max_transfers = 1;
    for (size_t i = 0; i < n; ++i) {
        const bw_path *p = &run->paths[i];
        run->transfers[i] = 1;
        if (!path_selected(run, p))
            continue;
        run->runnable[i] = run->be->supported(p, run->why[i], sizeof run->why[i]) == CR_OK;
        if (run->runnable[i] && p->kind == BW_COPY && run->be->transfers) {
            unsigned t = run->be->transfers(p);
            run->transfers[i] = t ? t : 1;
        }
        if (run->runnable[i] && run->transfers[i] > run->max_transfers)
            run->max_transfers = run->transfers[i];
    }
    return 0;
}

/* Checks the sizes against the device and the host; fills the default,
 * which stops below the device's allocation limit and what the host's
 * memory holds (the session holds that note back until every check has
 * passed). */
/* Where the full sweep ends: 8x the larger last-level cache, the device's
 * or the host's, and no less than 256 MiB. Beyond 4x the cache every path
 * streams from memory (STREAM's rule), and a transfer's bandwidth is on
 * its plateau; larger transfers cost time and add a point of the same
 * plateau. */
static uint64_t full_sweep_end(const bw_run *run)
{
    uint64_t llc = run->ses.info.cache_bytes;
    uint64_t host = run->ses.topo ? cr_topo_llc_bytes(run->ses.topo) : 0;
    if (host > llc)
        llc = host;
    uint64_t end = UINT64_C(256) << 20;
    while (end / 8 < llc && end <= UINT64_MAX / 2)
        end *= 2;
    return end;
}

static int check_sizes(bw_run *run)
{
    bw_config *c = &run->cfg;
    uint64_t limit = run->ses.info.max_alloc_bytes;
    char a[32], b[32];
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    /* the pattern, the floats, a check per transfer, and a path's own
     * source and destination per transfer */
    uint64_t copies = 2 + 3 * (uint64_t)run->max_transfers;
    uint64_t room = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 10 * 9 / copies : UINT64_MAX;
    if (c->sizes.start == 0) {
        c->sizes = run->ses.opt.quick ? (cr_range){UINT64_C(4) << 10, UINT64_C(16) << 20, 16}
                                  : (cr_range){UINT64_C(1) << 10, full_sweep_end(run), 2};
        uint64_t full = c->sizes.end;
        while (c->sizes.end > limit && c->sizes.end > c->sizes.start)
            c->sizes.end /= c->sizes.factor;
        uint64_t by_device = c->sizes.end;
        while (c->sizes.end > room && c->sizes.end > c->sizes.start)
            c->sizes.end /= c->sizes.factor;
        cr_format_bytes(c->sizes.end, a, sizeof a);
        if (c->sizes.end < by_device)
            cr_session_note(&run->ses, "sizes capped at %s by the host's memory", a);
        else if (c->sizes.end < full)
            cr_session_note(&run->ses, "sizes capped at %s by the device's allocation limit", a);
    }
    size_t n = cr_range_count(&c->sizes);
    uint64_t last = cr_range_value(&c->sizes, n - 1);
    if (last > limit) {
        cr_format_bytes(last, a, sizeof a);
        cr_format_bytes(limit, b, sizeof b);
        return cr_fail_usage(&run->ses, "--sizes reaches %s, above the device's allocation limit of %s", a, b);
    }
    if (c->sizes.start % 16 != 0)
        return cr_fail_usage(&run->ses, "--sizes: %" PRIu64 " is not a multiple of 16 bytes (one uint4)", c->sizes.start);
    if (last > room) {
        cr_format_bytes(last * copies, a, sizeof a);
        return cr_fail_usage(&run->ses, "transfers of this size need about %s of host memory, more than is here", a);
    }
    run->max_bytes = last;
    return 0;
}

/* The local-memory path sweeps vector widths over a buffer of its own
 * (local_sweep.h); its best verified row stands for it in the matrix.
 * Its rows are headline figures: the report's table shows each width. */
static int run_local_widths(bw_run *run, const bw_path *p)
{
    bw_local_env env = {&run->ses, run->be, &run->dev_meas, run->local_bytes, run->cfg.seed};
    size_t i = (size_t)(p - run->paths);
    run->dev_meas.rule.headline = true;
    int rc = bw_local_sweep(&env, p, &run->largest[i], &run->local_width);
    run->has_largest[i] = run->local_width != 0;
    return rc;
}

static int run_sweep(bw_run *run)
{
    const bw_path *paths = run->paths;
    size_t npaths = run->npaths;
    size_t nsizes = cr_range_count(&run->cfg.sizes);
    if (nsizes > MAX_SIZES)
        nsizes = MAX_SIZES; /* a geometric range over 64-bit sizes has at most 64 values */
    uint64_t sizes[MAX_SIZES];
    for (size_t i = 0; i < nsizes; ++i)
        sizes[i] = cr_range_value(&run->cfg.sizes, i);
    double (*seconds)[MAX_SIZES] = malloc(npaths * sizeof *seconds);
    bool (*valid)[MAX_SIZES] = calloc(npaths, sizeof *valid); /* each point's row passed verification */
    const bool *runnable = run->runnable;
    int rc = seconds && valid ? 0 : -1;
    for (size_t p = 0; p < npaths && rc == 0; ++p)
        for (size_t i = 0; i < MAX_SIZES; ++i)
            seconds[p][i] = NAN;
    if (rc == 0)
        rc = record_topology(run);
    for (size_t p = 0; p < npaths && rc == 0; ++p)
        if (path_selected(run, &paths[p]) && !runnable[p])
            rc = record_unsupported(run, &paths[p], run->why[p]);
    for (size_t s = 0; s < nsizes && rc == 0; ++s) {
        /* The largest size is the headline (the table, the matrix): more of
         * its budget before a point gives up on its interval. */
        run->dev_meas.rule.headline = run->host_meas.rule.headline = sizes[s] == run->max_bytes;
        uint64_t state = run->cfg.seed * UINT64_C(0x2545F4914F6CDD1D) + sizes[s];
        cr_fill_random_bytes(run->src, sizes[s], &state);
        for (uint64_t i = 0; i < sizes[s] / 4; ++i) { /* [1, 2): sums stay exact enough to verify */
            uint32_t bits = UINT32_C(0x3F800000) | (uint32_t)(cr_splitmix64(&state) >> 41);
            memcpy(&run->floats[i], &bits, sizeof bits);
        }
        uint64_t expected_sum = word_sum(run->src, sizes[s]);
        rc = measure_references(run, sizes[s], expected_sum);
        for (size_t p = 0; p < npaths && rc == 0; ++p) {
            if (runnable[p] && paths[p].kind != BW_KERNEL_LOCAL)
                rc = measure_path(run, &paths[p], sizes[s], expected_sum, &seconds[p][s], &valid[p][s]);
        }
    }
    for (size_t p = 0; p < npaths && rc == 0; ++p)
        if (runnable[p] && paths[p].kind == BW_KERNEL_LOCAL)
            rc = run_local_widths(run, &paths[p]);
    if (nsizes < 2)
        fprintf(stderr, "note: a single size: no transfer-model fit\n");
    bw_fit *fits = calloc(npaths, sizeof *fits);
    bool *fitted = calloc(npaths, sizeof *fitted);
    if (fits == NULL || fitted == NULL)
        rc = -1;
    for (size_t p = 0; p < npaths && rc == 0 && nsizes >= 2; ++p)
        if (runnable[p] && is_transfer(&paths[p]))
            rc = record_fit(run, &paths[p], sizes, seconds[p], valid[p], nsizes, &fits[p], &fitted[p]);
    if (rc == 0)
        rc = record_techniques(run, paths, npaths, sizes, nsizes, seconds, fits, fitted);
    if (rc == 0)
        rc = record_matrix(run);
    free(fits);
    free(fitted);
    free(seconds);
    free(valid);
    return rc;
}

/* ---- the skeleton's hooks ---- */

/* --list-paths and the names in --paths need the backend's table only. */
static int parsed(void *state)
{
    bw_run *run = state;
    run->npaths = run->be->paths(&run->paths);
    if (run->cfg.list_paths) {
        for (size_t i = 0; i < run->npaths; ++i)
            printf("%-30s %s\n", run->paths[i].key, run->paths[i].desc);
        return CR_EXIT_OK;
    }
    if (run->cfg.oversubscribe && run->be->oversubscribe == NULL)
        return cr_fail_usage(&run->ses, "--oversubscribe: the %s backend has no allocation that could exceed the "
                                        "device's memory", run->be->base.name);
    return check_paths(run) == 0 ? -1 : CR_EXIT_USAGE;
}

static int plan(void *state, cr_meta *meta)
{
    bw_run *run = state;
    int rc = classify_paths(run);
    if (rc == 0)
        rc = check_sizes(run);
    if (rc != 0)
        return rc;
    bool capped;
    run->local_bytes = bw_local_buffer_bytes(&run->ses.info, &capped);
    if (capped) {
        char b[32];
        cr_format_bytes(run->local_bytes, b, sizeof b);
        cr_session_note(&run->ses, "%s: its buffer capped at %s by the device's allocation limit", BW_LOCAL_PATH_KEY,
                        b);
    }
    if (run->cfg.oversubscribe)
        run->be->oversubscribe();
    cr_meta_set(meta, "oversubscribe", "%d", run->cfg.oversubscribe);
    run->binding = bw_host_bind_threads(run->ses.topo);
    cr_meta_set(meta, "host_reference_binding", "%s", run->binding);
    cr_meta_set(meta, "host_reference_threads", "%d", bw_host_threads());
    cr_meta_set(meta, "openmp_waits", "%s", cr_omp_wait_settings());
    return -1;
}

static int run_design(void *state)
{
    bw_run *run = state;
    cr_session *ses = &run->ses;
    run->src = cr_topo_alloc(ses->topo, run->max_bytes);
    run->check = cr_topo_alloc(ses->topo, run->max_bytes * run->max_transfers);
    run->floats = cr_topo_alloc(ses->topo, run->max_bytes);
    for (int i = 0; i < 4; ++i)
        run->samples[i] = malloc((size_t)ses->opt.reps_max * sizeof *run->samples[i]);
    if (!run->src || !run->check || !run->floats || !run->samples[0] || !run->samples[1] || !run->samples[2] ||
        !run->samples[3]) {
        fprintf(stderr, "%s: error: cannot allocate host buffers\n", ses->opt.program);
        return CR_EXIT_FAILED;
    }
    cr_session_measure_init(ses, &run->dev_meas, true);
    cr_session_measure_init(ses, &run->host_meas, false);
    return run_sweep(run) == 0 ? -1 : CR_EXIT_FAILED;
}

static void release(void *state)
{
    bw_run *run = state;
    cr_topo_free(run->ses.topo, run->src, run->max_bytes);
    cr_topo_free(run->ses.topo, run->check, run->max_bytes * run->max_transfers);
    cr_topo_free(run->ses.topo, run->floats, run->max_bytes);
    for (int i = 0; i < 4; ++i)
        free(run->samples[i]);
    free(run->runnable);
    free(run->why);
    free(run->transfers);
    free(run->largest);
    free(run->has_largest);
}

static bw_run the_run;
static const cr_design bw_design = {
    .benchmark = "bandwidth",
    .summary = "Bandwidth of every host/device path against transfer size, with Lee's transfer model.",
    .options = bw_options, .n_options = N_BW_OPTIONS, .config = &the_run.cfg,
    .session = &the_run.ses, .state = &the_run, .quiet_omp_waits = true, .measures_memory = true,
    .parsed = parsed, .plan = plan, .run = run_design, .release = release,
};

int bandwidth_main(int argc, char **argv, const bw_backend *backend)
{
    the_run = (bw_run){.cfg.seed = 1, .be = backend};
    return cr_bench_main(argc, argv, &bw_design, &backend->base);
}
