/* Experiment design of the stream benchmark: which points are measured,
 * how each result is verified, and what goes into the CSV. Backends are
 * reached only through the stream_backend contract. */
#define _GNU_SOURCE
#include "stream/backend.h"

#include "bench_main.h"
#include "measure.h"
#include "metadata.h"
#include "omp_env.h"
#include "options.h"
#include "results.h"
#include "session.h"
#include "stream/truth.h"
#include "stream/window.h"
#include "topology.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCALAR 0.4
#define DEFAULT_SIZE (UINT64_C(256) << 20)
#define QUICK_SIZE (UINT64_C(32) << 20)
/* Arrays at least this large (well past any cache) are measured
 * interleaved with the host reference; see measure_point. */
#define INTERLEAVE_BYTES (UINT64_C(16) << 20)

enum sweep { SWEEP_FOOTPRINT = 1, SWEEP_FIXED = 2, SWEEP_CONCURRENCY = 4 };

typedef struct {
    uint64_t size;          /* per-array bytes of the fixed and concurrency sweeps; 0 until given */
    cr_range footprint;     /* all 0 until given */
    cr_range concurrency;   /* all 0 until given */
    unsigned dtypes;        /* bit per cr_dtype */
    unsigned kernels;       /* bit per stream_kernel */
    unsigned sweeps;
    cr_host_ref host_ref;
    uint64_t seed;
} stream_config;

/* ---- benchmark-specific options ---- */

static const char *const dtype_names[] = {"float", "double"};
static const char *const kernel_names[STREAM_NKERNELS] = {"copy", "mul", "add", "triad", "dot"};
static const char *const sweep_names[] = {"footprint", "fixed", "concurrency"};

/* Sizes and ranges left at 0 were not given. */
static const cr_extra_option stream_options[] = {
    CR_OPTION(CR_OPT_SIZE, "size", "BYTES", "per-array size of the fixed and concurrency sweeps (default 256M, quick 32M)",
              stream_config, size),
    CR_OPTION(CR_OPT_RANGE, "footprint", "RANGE", "per-array sizes of the working-set sweep (default 16K:<4x LLC>:x2)",
              stream_config, footprint),
    CR_OPTION(CR_OPT_RANGE, "concurrency", "RANGE", "work-items of the concurrency sweep (default 1 to full occupancy)",
              stream_config, concurrency),
    CR_OPTION_NAMES("dtype", "float, double or all (default all)", stream_config, dtypes, dtype_names),
    CR_OPTION_NAMES("kernels", "copy,mul,add,triad,dot or all (default all)", stream_config, kernels, kernel_names),
    CR_OPTION_NAMES("sweeps", "footprint,fixed,concurrency or all (default all)", stream_config, sweeps, sweep_names),
    CR_OPTION(CR_OPT_HOST_REF, "host-ref", "MODE", "host OpenMP reference: auto (CPU/APU devices), on, off",
              stream_config, host_ref),
    CR_OPTION(CR_OPT_COUNT, "seed", "N", "seed of the random array contents (default 1)", stream_config, seed),
};
#define N_STREAM_OPTIONS (sizeof stream_options / sizeof stream_options[0])

/* ---- run state ---- */

typedef struct {
    const stream_backend *be;
    cr_device_info info;
    bool open;
    cr_measure_ctx meas;
    const char *label; /* device column */
} endpoint;

typedef struct {
    cr_session ses;
    stream_config cfg;
    endpoint dev, host;
    bool use_host;
    uint64_t conc[64];   /* work-items of the concurrency sweep */
    size_t nconc;
    void *mirror[3]; /* expected contents of a, b, c */
    void *scratch;   /* downloaded output */
    uint64_t mirror_bytes;
    int failures;
    double window_s;    /* the concurrency windows' target (window.h); CROSSROOF_STREAM_WINDOW_S in tests */
} stream_run;

typedef struct {
    const stream_backend *be;
    stream_kernel k;
    stream_geometry g; /* a window below the whole array moves on at every repetition: g.first is the last one's */
    uint64_t n;        /* elements of the arrays */
    uint64_t *cursor;  /* where the next window starts, shared by the points measured together (window.h) */
    double dot;
} rep_ctx;

static cr_status one_rep(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    rep_ctx *c = vctx;
    if (c->g.count < c->n)
        c->g.first = stream_window_place(c->n, c->g.count, c->cursor);
    return c->be->run(c->k, &c->g, SCALAR, t, &c->dot, err, errlen);
}

static int record(stream_run *run, const cr_result *r) { return cr_session_record(&run->ses, r); }

/* The dot's coverage check (truth.h): the dot runs again at geometry g on
 * the check pattern and must give its count exactly. It exists because the
 * tolerance cannot see one missing product of the random arrays: in float
 * a correct dot of 16 Mi of them is off by tens of products. a and b get
 * the mirrors back afterwards. */
static bool check_dot_coverage(stream_run *run, endpoint *ep, cr_dtype t, uint64_t n, const stream_geometry *g,
                               char *note, size_t notelen)
{
    char err[CR_ERRLEN];
    size_t es = cr_dtype_size(t);
    char *window = (char *)run->scratch + g->first * es;
    uint64_t runs = stream_dot_check_runs(t, g->count);
    stream_dot_check_ones(t, run->scratch, n);
    bool ok = ep->be->upload(STREAM_A, run->scratch, err, sizeof err) == CR_OK;
    if (!ok)
        snprintf(note, notelen, "dot check run failed: %s", err);
    memset(run->scratch, 0, n * es); /* b outside the window: zeros (all-zero bits in either type) */
    for (uint64_t r = 0; r < runs && ok; ++r) {
        uint64_t first, want = stream_dot_check_fill(t, window, g->count, r, &first);
        cr_timing ignored;
        double got = 0;
        if (ep->be->upload(STREAM_B, run->scratch, err, sizeof err) != CR_OK ||
            ep->be->run(STREAM_DOT, g, SCALAR, &ignored, &got, err, sizeof err) != CR_OK) {
            snprintf(note, notelen, "dot check run failed: %s", err);
            ok = false;
        } else if (!stream_dot_check_ok(got, want)) {
            snprintf(note, notelen,
                     "dot misses or repeats products: %.17g instead of exactly %" PRIu64
                     " on check pattern %" PRIu64 " of %" PRIu64,
                     got, want, r + 1, runs);
            ok = false;
        }
    }
    if (ep->be->upload(STREAM_A, run->mirror[STREAM_A], err, sizeof err) != CR_OK ||
        ep->be->upload(STREAM_B, run->mirror[STREAM_B], err, sizeof err) != CR_OK) {
        if (ok)
            snprintf(note, notelen, "restoring the arrays after the dot check failed: %s", err);
        ok = false;
    }
    return ok;
}

/* Elements of x[0..n) that are not all-one bits: written where nothing
 * should have been. */
static uint64_t count_written(const void *x, size_t es, uint64_t n, uint64_t *first)
{
    const unsigned char *bytes = x;
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; ++i)
        for (size_t j = 0; j < es; ++j)
            if (bytes[i * es + j] != 0xff) {
                if (count++ == 0)
                    *first = i;
                break;
            }
    return count;
}

/* Verifies the output of kernel k on endpoint ep, run at geometry g,
 * against the mirrors. gold_dot is the dot over the whole arrays; a
 * window's is computed here. An output run over a window (after
 * rerun_for_check) must hold the kernel's values inside it and the
 * all-ones fill outside. */
static bool verify(stream_run *run, endpoint *ep, stream_kernel k, cr_dtype t, uint64_t n, double dot,
                   long double gold_dot, const stream_geometry *g, char *note, size_t notelen)
{
    size_t es = cr_dtype_size(t);
    bool windowed = g->count < n;
    if (k == STREAM_DOT) {
        if (windowed) {
            char *at[3];
            for (int i = 0; i < 3; ++i)
                at[i] = (char *)run->mirror[i] + g->first * es;
            gold_dot = stream_apply_gold(STREAM_DOT, t, at[0], at[1], at[2], g->count, SCALAR);
        }
        double tol = stream_dot_tolerance(t, g->count, g->work_items);
        double rel = fabs((double)((long double)dot - gold_dot)) / (double)gold_dot;
        if (!(rel <= tol)) {
            snprintf(note, notelen, "dot off by %.3g relative (tolerance %.3g)", rel, tol);
            return false;
        }
        return check_dot_coverage(run, ep, t, n, g, note, notelen);
    }
    char err[CR_ERRLEN];
    stream_array out = stream_kernels[k].output;
    if (ep->be->download(out, run->scratch, err, sizeof err) != CR_OK) {
        snprintf(note, notelen, "download failed: %s", err);
        return false;
    }
    uint64_t first = 0, at = g->first * es;
    uint64_t bad = stream_compare(k, t, (char *)run->scratch + at, (char *)run->mirror[out] + at, g->count, &first);
    if (bad) {
        snprintf(note, notelen, "%" PRIu64 " of %" PRIu64 " elements wrong, first at %" PRIu64, bad, g->count,
                 g->first + first);
        return false;
    }
    uint64_t end = g->first + g->count;
    if (windowed && ((bad = count_written(run->scratch, es, g->first, &first)) != 0 ||
                     (bad = count_written((char *)run->scratch + end * es, es, n - end, &first)) != 0)) {
        snprintf(note, notelen, "%" PRIu64 " elements written outside the window [%" PRIu64 ", %" PRIu64 ")", bad,
                 g->first, end);
        return false;
    }
    return true;
}

static void init_row(cr_result *r, const endpoint *ep, stream_kernel k, cr_dtype t, uint64_t n,
                     const stream_geometry *g, const char *sweep)
{
    cr_result_begin(r, "stream", ep->be->base.name, ep->label, stream_kernels[k].name, cr_dtype_name(t), sweep,
                    "GB/s");
    size_t es = cr_dtype_size(t);
    r->size_bytes = n * es;
    r->work_items = g->work_items;
    r->work_group = g->work_group;
    /* What one repetition moves: its window of the arrays. */
    r->bytes_per_rep = (double)stream_kernels[k].arrays_moved * (double)g->count * (double)es;
    r->ops_per_rep = k == STREAM_COPY ? 0 : (double)g->count * (k == STREAM_TRIAD || k == STREAM_DOT ? 2 : 1);
    /* What a cache would have to hold: the windows a point cycles through. */
    r->working_set_bytes = stream_kernels[k].arrays_moved * stream_window_span(n, g->count) * es;
}

/* Turns one measured series into a verified row. */
static int record_series(stream_run *run, endpoint *ep, stream_kernel k, cr_dtype t, uint64_t n,
                         const stream_geometry *g, const char *sweep, const cr_measurement *m, double dot,
                         long double gold_dot, double limit_figure, double ratio, const char *limit_problem)
{
    cr_result r;
    init_row(&r, ep, k, t, n, g, sweep);
    cr_measurement_to_row(m, &r);
    r.figure = r.bytes_per_rep / m->stats.median * 1e-9;
    r.figure_best = r.bytes_per_rep / m->stats.min * 1e-9;
    r.peak_kind = CR_PEAK_MEMORY;
    if (!isnan(limit_figure)) {
        r.ref_ratio = ratio;
        r.ref_is_limit = true;
        snprintf(r.params, sizeof r.params, "host_limit_GBps=%.4g", limit_figure);
    }
    r.valid = verify(run, ep, k, t, n, dot, gold_dot, g, r.note, sizeof r.note);
    if (r.valid && limit_problem) {
        r.valid = false;
        snprintf(r.note, sizeof r.note, "%s", limit_problem);
    }
    if (r.valid && m->below_resolution)
        snprintf(r.note, sizeof r.note, "median below 20 timer ticks");
    return record(run, &r);
}

static int record_failure(stream_run *run, endpoint *ep, stream_kernel k, cr_dtype t, uint64_t n,
                          const stream_geometry *g, const char *sweep, const char *err)
{
    cr_result r;
    init_row(&r, ep, k, t, n, g, sweep);
    r.valid = false;
    cr_result_unmeasured(&r);
    snprintf(r.note, sizeof r.note, "run failed: %s", err);
    fprintf(stderr, "%s: error: %s %s %s: %s\n", run->ses.opt.program, ep->be->base.name, r.variant, r.dtype, err);
    return record(run, &r);
}

static cr_status limit_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)arg, (void)err, (void)errlen;
    return stream_host_limit_run(t);
}

/* Bandwidth of series x relative to the host limit. Interleaved series are
 * compared repetition by repetition (the median of the paired ratios), so
 * that drift moving both sides cancels; otherwise the medians are compared. */
static double limit_ratio(const cr_series *limit, const cr_series *x, double limit_bytes, double x_bytes,
                           bool paired)
{
    double scale = x_bytes / limit_bytes;
    if (paired && limit->out.stats.n == x->out.stats.n)
        return scale * cr_median_of_ratios(limit->samples, x->samples, x->out.stats.n);
    return scale * limit->out.stats.median / x->out.stats.median;
}

/* One device point of a measurement: its geometry and the sweep it is a
 * point of. */
typedef struct {
    stream_geometry g;
    const char *sweep;
} dev_point;

/* Runs a point once more, at geometry g, on an output array filled with
 * NaN, so that what verify() then reads back was written by the point
 * itself and not by another point measured beside it, and nothing outside
 * its window. */
static cr_status rerun_for_check(stream_run *run, stream_kernel k, cr_dtype t, uint64_t n, const stream_geometry *g,
                                 char *err, size_t errlen)
{
    memset(run->scratch, 0xff, n * cr_dtype_size(t)); /* all-ones: a NaN in either type */
    cr_status st = run->dev.be->upload(stream_kernels[k].output, run->scratch, err, errlen);
    cr_timing ignored;
    double dot;
    return st != CR_OK ? st : run->dev.be->run(k, g, SCALAR, &ignored, &dot, err, errlen);
}

/* Sizes the window of a concurrency point (window.h) by running it: each
 * size runs twice, at the shared cursor, and the quicker run tells the next
 * size (one the machine interrupted, or that set something up, would make
 * the window far too small). The runs write what the mirrors already
 * hold. */
static cr_status calibrate_window(rep_ctx *c, double target_s, char *err, size_t errlen)
{
    bool done = false;
    c->g.count = stream_window_first(c->n, c->g.work_items);
    while (!done) {
        uint64_t quickest = UINT64_MAX;
        for (int i = 0; i < 2; ++i) {
            cr_timing t;
            c->g.first = stream_window_place(c->n, c->g.count, c->cursor);
            if (c->be->run(c->k, &c->g, SCALAR, &t, &c->dot, err, errlen) != CR_OK)
                return CR_ERR;
            if (t.host_ns < quickest)
                quickest = t.host_ns;
        }
        c->g.count = stream_window_next(c->n, c->g.work_items, c->g.count, (double)quickest * 1e-9, target_s, &done);
    }
    if (c->g.count == c->n)
        c->g.first = 0; /* the whole array does not move */
    return CR_OK;
}

/* Measures kernel k at the device points pts[0..npts) and, with the host
 * reference, the host's limit and (unless host_kernel is false) the same
 * kernel on the host, beside the first point; then verifies every output
 * and records the rows. The device points are measured interleaved, one
 * repetition of each in turn, so that the machine's drift between them
 * cannot pass for a difference between them. Large arrays are measured
 * interleaved with the host as well, so that drift hits device and host
 * alike. Small ones are not, and nothing is on a CPU device: there two
 * thread pools (the OpenCL runtime's and OpenMP's) waiting on the same cores
 * slow each other down more than any drift could, and the host's limit
 * must be measured with the device idle. */
static int measure_points(stream_run *run, stream_kernel k, cr_dtype t, uint64_t n, const dev_point *pts,
                          size_t npts, long double gold_dot, bool host_kernel)
{
    size_t cap = npts + 2;
    cr_series *series = calloc(cap, sizeof *series);
    rep_ctx *ctx = calloc(cap, sizeof *ctx);
    double *samples = malloc(cap * (size_t)run->ses.opt.reps_max * sizeof *samples);
    if (series == NULL || ctx == NULL || samples == NULL) {
        free(series), free(ctx), free(samples);
        fprintf(stderr, "%s: error: out of memory for %zu series\n", run->ses.opt.program, cap);
        return -1;
    }
    size_t count = 0, limit_i = SIZE_MAX, host_i = SIZE_MAX;
    for (size_t i = 0; i < cap; ++i)
        series[i].samples = samples + i * (size_t)run->ses.opt.reps_max;
    if (run->use_host) {
        limit_i = count;
        series[count].ctx = &run->host.meas;
        series[count++].fn = limit_rep;
    }
    stream_geometry host_geom = {0};
    if (run->use_host && host_kernel) {
        host_geom = run->host.be->default_geometry(n);
        ctx[count] = (rep_ctx){.be = run->host.be, .k = k, .g = host_geom};
        series[count].ctx = &run->host.meas;
        series[count].fn = one_rep;
        series[count].arg = &ctx[count];
        host_i = count++;
    }
    size_t dev_i = count;
    char err[CR_ERRLEN];
    cr_status st = CR_OK;
    uint64_t cursor = 0;
    bool windowed = false;
    for (size_t p = 0; p < npts; ++p, ++count) {
        ctx[count] = (rep_ctx){.be = run->dev.be, .k = k, .g = pts[p].g, .n = n, .cursor = &cursor};
        series[count].ctx = &run->dev.meas;
        series[count].fn = one_rep;
        series[count].arg = &ctx[count];
        if (st == CR_OK && strcmp(pts[p].sweep, "concurrency") == 0)
            st = calibrate_window(&ctx[count], run->window_s, err, sizeof err);
        windowed |= ctx[count].g.count < n;
    }

    bool interleave = n * cr_dtype_size(t) >= INTERLEAVE_BYTES && !run->ses.info.is_cpu;
    if (st == CR_OK)
        st = interleave ? cr_measure_sweep_interleaved(series, count, npts, err, sizeof err)
                        : cr_measure_sweep_interleaved(&series[dev_i], npts, npts, err, sizeof err);
    if (st == CR_OK && !interleave && dev_i > 0)
        st = cr_measure_interleaved(series, dev_i, err, sizeof err);
    int rc = 0;
    if (st != CR_OK) {
        for (size_t p = 0; p < npts && rc == 0; ++p)
            rc = record_failure(run, &run->dev, k, t, n, &ctx[dev_i + p].g, pts[p].sweep, err);
        goto out;
    }

    double limit_figure = NAN, host_ratio = NAN;
    double limit_bytes = 3.0 * (double)n * (double)cr_dtype_size(t);
    double moved = (double)stream_kernels[k].arrays_moved * (double)cr_dtype_size(t);
    const char *limit_problem = NULL;
    if (limit_i != SIZE_MAX) {
        limit_figure = limit_bytes / series[limit_i].out.stats.median * 1e-9;
        if (stream_host_limit_check() != 0)
            limit_problem = "the host limit's triad failed verification; no ratio can be trusted";
        if (host_i != SIZE_MAX)
            host_ratio = limit_ratio(&series[limit_i], &series[host_i], limit_bytes, moved * (double)n, interleave);
    }
    if (host_i != SIZE_MAX &&
        (rc = record_series(run, &run->host, k, t, n, &host_geom, pts[0].sweep, &series[host_i].out,
                            ctx[host_i].dot, gold_dot, limit_figure, host_ratio, limit_problem)) != 0)
        goto out;
    for (size_t p = 0; p < npts && rc == 0; ++p) {
        size_t i = dev_i + p;
        const stream_geometry *g = &ctx[i].g;
        /* The last repetition was the last point's: the others run again,
         * and all of them where a window's rerun has left the output NaN
         * outside it. */
        if (k != STREAM_DOT && (windowed || (npts > 1 && p + 1 < npts)) &&
            rerun_for_check(run, k, t, n, g, err, sizeof err) != CR_OK) {
            rc = record_failure(run, &run->dev, k, t, n, g, pts[p].sweep, err);
            continue;
        }
        double ratio = limit_i == SIZE_MAX ? NAN
                                           : limit_ratio(&series[limit_i], &series[i], limit_bytes,
                                                         moved * (double)g->count, interleave);
        rc = record_series(run, &run->dev, k, t, n, g, pts[p].sweep, &series[i].out, ctx[i].dot, gold_dot,
                           limit_figure, ratio, limit_problem);
    }
out:
    /* The next kernel reads this one's output whole: where windows left
     * some of it unwritten (or NaN from a check), it gets the mirror's. */
    if (rc == 0 && windowed && k != STREAM_DOT &&
        run->dev.be->upload(stream_kernels[k].output, run->mirror[stream_kernels[k].output], err, sizeof err) !=
            CR_OK) {
        fprintf(stderr, "%s: error: %s: %s\n", run->ses.opt.program, run->dev.be->base.name, err);
        rc = -1;
    }
    free(series), free(ctx), free(samples);
    return rc;
}

/* Fills the mirrors with fresh random data and uploads them everywhere. */
static int load_arrays(stream_run *run, cr_dtype t, uint64_t n)
{
    char err[CR_ERRLEN];
    uint64_t state = run->cfg.seed * UINT64_C(0x2545F4914F6CDD1D) + n;
    for (int i = 0; i < 3; ++i)
        stream_fill_random(t, run->mirror[i], n, &state);
    if (run->use_host && stream_host_limit_prepare(t, n, state, err, sizeof err) != CR_OK) {
        fprintf(stderr, "%s: error: host limit: %s\n", run->ses.opt.program, err);
        return -1;
    }
    endpoint *eps[2] = {&run->dev, run->use_host ? &run->host : NULL};
    for (int e = 0; e < 2; ++e) {
        if (eps[e] == NULL)
            continue;
        const stream_backend *be = eps[e]->be;
        if (be->prepare(t, n, err, sizeof err) != CR_OK) {
            fprintf(stderr, "%s: error: %s: %s\n", run->ses.opt.program, be->base.name, err);
            return -1;
        }
        for (int i = 0; i < 3; ++i) {
            if (be->upload((stream_array)i, run->mirror[i], err, sizeof err) != CR_OK) {
                fprintf(stderr, "%s: error: %s: %s\n", run->ses.opt.program, be->base.name, err);
                return -1;
            }
        }
    }
    return 0;
}

static long double advance_mirrors(stream_run *run, stream_kernel k, cr_dtype t, uint64_t n)
{
    return stream_apply_gold(k, t, run->mirror[0], run->mirror[1], run->mirror[2], n, SCALAR);
}

/* Loads fresh arrays of n elements and measures every selected kernel on
 * them at the points pts[0..npts), with the host kernel beside them when
 * host_kernel is true. */
static int run_points(stream_run *run, cr_dtype t, uint64_t n, const dev_point *pts, size_t npts, bool host_kernel)
{
    if (npts == 0)
        return 0;
    if (load_arrays(run, t, n) != 0)
        return -1;
    for (int k = 0; k < STREAM_NKERNELS; ++k) {
        if (!(run->cfg.kernels & (1u << k)))
            continue;
        long double gold = advance_mirrors(run, (stream_kernel)k, t, n);
        if (measure_points(run, (stream_kernel)k, t, n, pts, npts, gold, host_kernel) != 0)
            return -1;
    }
    return 0;
}

/* Concurrency values: 1, 2, 4, ... below the compute-unit count, then whole
 * multiples of it, so that every compute unit holds the same number. */
static size_t default_concurrency(const cr_device_info *d, bool quick, uint64_t *out, size_t cap)
{
    uint64_t cus = d->compute_units ? d->compute_units : 1;
    uint64_t per_cu_max = d->max_threads_per_cu ? d->max_threads_per_cu : 1;
    if (quick && per_cu_max > 64)
        per_cu_max = 64;
    size_t n = 0;
    for (uint64_t k = 1; k < cus && n < cap; k *= 2)
        out[n++] = k;
    for (uint64_t per = 1; per <= per_cu_max && n < cap; per *= 2)
        out[n++] = per * cus;
    return n;
}

/* The fixed-size point and the concurrency sweep share the array size, so
 * they are measured together: the stream triad's bandwidth and the plateau
 * of f(k) (the X-model's R) then come from the same rounds, which is what
 * makes them comparable on a machine whose bandwidth drifts. */
static int run_fixed_size(stream_run *run, cr_dtype t)
{
    uint64_t n = run->cfg.size / cr_dtype_size(t);
    dev_point pts[65]; /* the fixed point and a geometric range of 64-bit values */
    size_t np = 0;
    bool fixed = run->cfg.sweeps & SWEEP_FIXED;
    if (fixed)
        pts[np++] = (dev_point){run->dev.be->default_geometry(n), "fixed"};
    if (run->cfg.sweeps & SWEEP_CONCURRENCY)
        for (size_t i = 0; i < run->nconc; ++i) /* plan_concurrency kept every k within n */
            /* The whole array until measure_points sizes the window. */
            pts[np++] = (dev_point){{run->conc[i], run->dev.be->work_group_for(run->conc[i]), 0, n}, "concurrency"};
    /* The fixed point is the headline figure (and the concurrency points
     * share its stop): more of the budget before giving up on it. */
    run->dev.meas.rule.headline = run->host.meas.rule.headline = fixed;
    int rc = run_points(run, t, n, pts, np, fixed);
    run->dev.meas.rule.headline = run->host.meas.rule.headline = false;
    return rc;
}

/* ---- set-up and argument checks ---- */

static uint64_t pow2_ceil(uint64_t v)
{
    uint64_t p = 1;
    while (p < v && p <= UINT64_MAX / 2)
        p *= 2;
    return p;
}

static uint64_t pow2_floor(uint64_t v)
{
    uint64_t p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

/* Checks every size against the device and host limits; fills defaults.
 * Notes about lowered defaults are held back by the session until the run
 * starts, so that a bad argument's error is the only line printed. */
static int check_sizes(stream_run *run)
{
    const cr_device_info *d = &run->ses.info;
    stream_config *c = &run->cfg;
    uint64_t limit = d->max_alloc_bytes;
    if (d->global_mem_bytes / 3 < limit)
        limit = d->global_mem_bytes / 3; /* three arrays live at once */
    char a[32], b[32];
    if (c->size != 0) {
        if (c->size > limit) {
            cr_format_bytes(c->size, a, sizeof a);
            cr_format_bytes(limit, b, sizeof b);
            return cr_fail_usage(&run->ses, "--size %s exceeds the device limit of %s per array (max allocation, or a third of global memory)", a, b);
        }
    } else {
        c->size = run->ses.opt.quick ? QUICK_SIZE : DEFAULT_SIZE;
        if (c->size > limit) {
            c->size = pow2_floor(limit);
            cr_format_bytes(c->size, a, sizeof a);
            cr_session_note(&run->ses, "default array size lowered to %s by the device's allocation limit", a);
        }
    }
    if (c->footprint.start != 0) {
        uint64_t end = cr_range_value(&c->footprint, cr_range_count(&c->footprint) - 1);
        if (end > limit) {
            cr_format_bytes(end, a, sizeof a);
            cr_format_bytes(limit, b, sizeof b);
            return cr_fail_usage(&run->ses, "--footprint reaches %s, above the device limit of %s per array", a, b);
        }
    } else {
        uint64_t llc = d->cache_bytes;
        if (run->ses.topo && (d->is_cpu || d->unified_memory) && cr_topo_llc_bytes(run->ses.topo) > llc)
            llc = cr_topo_llc_bytes(run->ses.topo);
        uint64_t end = run->ses.opt.quick ? (UINT64_C(4) << 20) : pow2_ceil(4 * (llc ? llc : (UINT64_C(8) << 20)));
        if (end > limit) {
            end = pow2_floor(limit);
            cr_format_bytes(end, a, sizeof a);
            cr_session_note(&run->ses, "working-set sweep capped at %s per array by the device's allocation limit", a);
        }
        c->footprint = (cr_range){UINT64_C(16) << 10, end, run->ses.opt.quick ? 16 : 2};
    }
    /* Every size must hold whole elements of every selected type. */
    uint64_t sizes[2] = {c->size, c->footprint.start};
    for (int i = 0; i < 2; ++i)
        if (sizes[i] % 8 != 0 && (c->dtypes & (1u << CR_DOUBLE)))
            return cr_fail_usage(&run->ses, "size %" PRIu64 " is not a multiple of 8 bytes (one double)", sizes[i]);
        else if (sizes[i] % 4 != 0)
            return cr_fail_usage(&run->ses, "size %" PRIu64 " is not a multiple of 4 bytes (one float)", sizes[i]);
    /* Host memory: three mirrors and one scratch array; with the reference
     * three host arrays and three for its limit; a CPU or APU device's own
     * three arrays live there too. Refuse rather than swap. */
    uint64_t biggest = c->size;
    uint64_t fp_end = cr_range_value(&c->footprint, cr_range_count(&c->footprint) - 1);
    if (fp_end > biggest)
        biggest = fp_end;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0) {
        uint64_t phys = (uint64_t)pages * (uint64_t)page;
        unsigned arrays = 4 + (run->use_host ? 6 : 0) + (d->unified_memory ? 3 : 0);
        uint64_t need = biggest * arrays; /* biggest is below the device limit: no overflow */
        if (need > phys / 10 * 9) {
            cr_format_bytes(need, a, sizeof a);
            cr_format_bytes(phys, b, sizeof b);
            return cr_fail_usage(&run->ses, "arrays of this size need %s of host memory, more than 90%% of the %s here", a, b);
        }
    }
    run->mirror_bytes = biggest;
    return 0;
}

/* The types that will run: those selected, double only where the device
 * has it. */
static bool dtype_runs(const stream_run *run, cr_dtype t)
{
    return (run->cfg.dtypes & (1u << t)) && (t != CR_DOUBLE || run->ses.info.has_fp64);
}

/* The concurrency sweep's work-items. Every work-item must have an element
 * of its own at --size in every type that runs (idle work-items would not
 * be concurrency): a --concurrency beyond that is refused; the default
 * ladder stops below it, with a note. */
static int plan_concurrency(stream_run *run)
{
    size_t es = dtype_runs(run, CR_DOUBLE) ? cr_dtype_size(CR_DOUBLE) : cr_dtype_size(CR_FLOAT);
    uint64_t n = run->cfg.size / es;
    const cr_range *given = &run->cfg.concurrency;
    char a[32];
    cr_format_bytes(run->cfg.size, a, sizeof a);
    if (given->start != 0) {
        run->nconc = cr_range_count(given); /* at most 64 over 64-bit values */
        uint64_t end = cr_range_value(given, run->nconc - 1);
        if (end > n)
            return cr_fail_usage(&run->ses,
                                 "--concurrency reaches %" PRIu64 " work-items, above the %" PRIu64
                                 " elements of a %s array of %s (at most one work-item per element)",
                                 end, n, cr_dtype_name(es == 8 ? CR_DOUBLE : CR_FLOAT), a);
        for (size_t i = 0; i < run->nconc; ++i)
            run->conc[i] = cr_range_value(given, i);
        return 0;
    }
    uint64_t k[64];
    size_t nk = default_concurrency(&run->ses.info, run->ses.opt.quick, k, 64);
    run->nconc = 0;
    while (run->nconc < nk && k[run->nconc] <= n) {
        run->conc[run->nconc] = k[run->nconc];
        run->nconc++;
    }
    if (run->nconc < nk && (run->cfg.sweeps & SWEEP_CONCURRENCY))
        cr_session_note(&run->ses, "concurrency %" PRIu64 " and above skipped: more work-items than the %" PRIu64
                                   " elements of an array of %s", k[run->nconc], n, a);
    return 0;
}

static int open_host(stream_run *run)
{
    int opened = cr_open_wanted_host_ref(&run->ses, run->cfg.host_ref, &stream_host_backend.base, &run->host.info);
    if (opened <= 0)
        return opened;
    run->host.be = &stream_host_backend;
    run->host.open = true;
    run->host.label = run->host.info.name;
    run->use_host = true;
    return 0;
}

static int run_all_sweeps(stream_run *run)
{
    for (int t = 0; t < CR_NDTYPES; ++t) {
        if (!(run->cfg.dtypes & (1u << t)))
            continue;
        if (t == CR_DOUBLE && !run->ses.info.has_fp64) {
            fprintf(stderr, "note: %s has no double precision; double skipped\n", run->ses.info.name);
            continue;
        }
        if (run->cfg.sweeps & SWEEP_FOOTPRINT) {
            size_t count = cr_range_count(&run->cfg.footprint);
            for (size_t i = 0; i < count; ++i) {
                uint64_t n = cr_range_value(&run->cfg.footprint, i) / cr_dtype_size((cr_dtype)t);
                dev_point p = {run->dev.be->default_geometry(n), "footprint"};
                if (run_points(run, (cr_dtype)t, n, &p, 1, true) != 0)
                    return -1;
            }
        }
        if (run_fixed_size(run, (cr_dtype)t) != 0)
            return -1;
    }
    return 0;
}

/* ---- the skeleton's hooks ---- */

static int plan(void *state, cr_meta *meta)
{
    stream_run *run = state;
    run->dev.info = run->ses.info;
    run->dev.open = true;
    run->dev.label = run->ses.info.name;
    /* Test hook: a target short enough that every point of a small CPU
     * run gets a window, so that the windows' verification is exercised. */
    const char *window_s = getenv("CROSSROOF_STREAM_WINDOW_S");
    run->window_s = window_s ? strtod(window_s, NULL) : 0;
    if (!(run->window_s > 0))
        run->window_s = STREAM_WINDOW_TARGET_S;
    if (open_host(run) != 0)
        return CR_EXIT_FAILED;
    int rc = check_sizes(run);
    if (rc == 0)
        rc = plan_concurrency(run);
    if (rc != 0)
        return rc;
    /* The geometry of the whole-array sweeps, per device type its backend's. */
    const stream_geometry g = run->dev.be->default_geometry(run->cfg.size / sizeof(float));
    char size[32];
    cr_format_bytes(run->cfg.size, size, sizeof size);
    cr_meta_set(meta, "geometry", "%s; %" PRIu64 " work-items in groups of %" PRIu64 " for %s of floats",
                run->dev.be->layout(), g.work_items, g.work_group, size);
    cr_meta_set(meta, "host_reference", "%s", run->use_host ? run->host.info.name : "off");
    cr_meta_set(meta, "host_reference_api", "%s", run->use_host ? run->host.info.api_version : "");
    cr_meta_set(meta, "openmp_waits", "%s", cr_omp_wait_settings());
    return -1;
}

static int run_design(void *state)
{
    stream_run *run = state;
    cr_session *ses = &run->ses;
    for (int i = 0; i < 3; ++i)
        run->mirror[i] = cr_topo_alloc(ses->topo, run->mirror_bytes);
    run->scratch = cr_topo_alloc(ses->topo, run->mirror_bytes);
    if (!run->mirror[0] || !run->mirror[1] || !run->mirror[2] || !run->scratch) {
        fprintf(stderr, "%s: error: cannot allocate host arrays\n", ses->opt.program);
        return CR_EXIT_FAILED;
    }
    cr_session_measure_init(ses, &run->dev.meas, true);
    if (run->use_host)
        cr_session_measure_init(ses, &run->host.meas, false);
    return run_all_sweeps(run) == 0 ? -1 : CR_EXIT_FAILED;
}

static void release(void *state)
{
    stream_run *run = state;
    for (int i = 0; i < 3; ++i)
        cr_topo_free(run->ses.topo, run->mirror[i], run->mirror_bytes);
    cr_topo_free(run->ses.topo, run->scratch, run->mirror_bytes);
    if (run->host.open)
        run->host.be->base.close();
}

int stream_main(int argc, char **argv, const stream_backend *backend)
{
    static stream_run run;
    memset(&run, 0, sizeof run);
    run.cfg = (stream_config){.dtypes = 3, .kernels = (1u << STREAM_NKERNELS) - 1, .sweeps = 7, .seed = 1};
    run.dev.be = backend;
    const cr_design design = {
        .benchmark = "stream",
        .summary = "Stream bandwidth (copy, mul, add, triad, dot) against working set and concurrency.",
        .options = stream_options,
        .n_options = N_STREAM_OPTIONS,
        .config = &run.cfg,
        .session = &run.ses,
        .state = &run,
        .quiet_omp_waits = true,
        .measures_memory = true,
        .plan = plan,
        .run = run_design,
        .release = release,
    };
    return cr_bench_main(argc, argv, &design, &backend->base);
}
