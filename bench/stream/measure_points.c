/* One kernel of the stream benchmark at a group of device points, measured
 * beside the host's limit and the host's own kernel (measure_group.h),
 * then verified and recorded. The device points are measured interleaved,
 * one repetition of each in turn, so that the machine's drift between them
 * cannot pass for a difference between them. Large arrays are measured
 * interleaved with the host as well, on every device: each round the
 * host's limit and its kernel take their slice alone (the device's
 * repetitions have ended), then the device its own, so that the limit a
 * row is judged against is memory's in the same phase, not in another
 * minute of a machine whose bandwidth wanders by tens of percent. On a CPU
 * device the two thread pools (the OpenCL runtime's and OpenMP's) take
 * turns on the same cores; OpenMP's threads sleep soon after their slice
 * (GOMP_SPINCOUNT, session.c). Small arrays sit in a cache and are flagged
 * so; their references are measured apart, after the points. */
#include "stream/run.h"

#include "measure_group.h"
#include "stream/window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Arrays at least this large are measured interleaved with the host
 * reference. */
#define INTERLEAVE_BYTES (UINT64_C(16) << 20)

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
    return c->be->run(c->k, &c->g, STREAM_SCALAR, t, &c->dot, err, errlen);
}

/* The host's limit for kernel k's work (backend.h). */
static stream_kernel limit_kernel(stream_kernel k) { return k == STREAM_DOT ? STREAM_DOT : STREAM_TRIAD; }

static cr_status limit_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return stream_host_limit_run(*(const stream_kernel *)arg, t);
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
            if (c->be->run(c->k, &c->g, STREAM_SCALAR, &t, &c->dot, err, errlen) != CR_OK)
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

/* The kernel's group: its series' contexts, which series is which, and
 * what the host's limit gives every row. */
typedef struct {
    stream_run *run;
    stream_kernel k;
    cr_dtype t;
    uint64_t n;
    const stream_point *pts;
    size_t npts;
    long double gold_dot;
    rep_ctx *ctx;                 /* one per series */
    size_t limit_i, host_i, dev_i; /* the series of the limit, the host's kernel (SIZE_MAX: none), the first point */
    uint64_t cursor;
    bool interleave, windowed;
    stream_kernel limit_k; /* the limit's kernel */
    double limit_figure, limit_best; /* GB/s, of the median and the best; NaN without the host */
    const char *limit_problem;
} kernel_group;

static void init_row(cr_result *r, const stream_endpoint *ep, stream_kernel k, cr_dtype t, uint64_t n,
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

/* The bytes of the host limit's repetition, and of series i's. */
static double limit_bytes(const kernel_group *kg)
{
    return (double)stream_kernels[kg->limit_k].arrays_moved * (double)kg->n * (double)cr_dtype_size(kg->t);
}

static double series_bytes(const kernel_group *kg, size_t i)
{
    return (double)stream_kernels[kg->k].arrays_moved * (double)cr_dtype_size(kg->t) * (double)kg->ctx[i].g.count;
}

/* Series i, measured, as a verified row of endpoint ep. */
static int record_series(kernel_group *kg, const cr_group *g, stream_endpoint *ep, size_t i, const char *sweep)
{
    const cr_measurement *m = &g->series[i].out;
    const stream_geometry *geom = &kg->ctx[i].g;
    cr_result r;
    init_row(&r, ep, kg->k, kg->t, kg->n, geom, sweep);
    cr_measurement_to_row(m, &r);
    r.figure = r.bytes_per_rep / m->stats.median * 1e-9;
    r.figure_best = r.bytes_per_rep / m->stats.min * 1e-9;
    r.peak_kind = CR_PEAK_MEMORY;
    if (kg->limit_i != SIZE_MAX) {
        const cr_series *limit = &g->series[kg->limit_i];
        r.ref_ratio = cr_group_ratio(limit, &g->series[i], limit_bytes(kg), series_bytes(kg, i), kg->interleave);
        r.ref_is_limit = true;
        snprintf(r.params, sizeof r.params, "host_limit_GBps=%.4g;host_limit_best_GBps=%.4g;host_limit_kernel=%s",
                 kg->limit_figure, kg->limit_best, stream_kernels[kg->limit_k].name);
        if (kg->interleave) {
            /* Measured in the same rounds: best to best, and the spread. */
            r.limit_best = kg->limit_best;
            r.ref_best_ratio = r.figure_best / kg->limit_best;
            r.ref_spread = hypot(m->stats.ci_rel, limit->out.stats.ci_rel);
            cr_result_add_param(&r, "limit_spread=%.3g", r.ref_spread);
        }
    }
    bool ok = stream_verify(kg->run, ep, kg->k, kg->t, kg->n, kg->ctx[i].dot, kg->gold_dot, geom, r.note,
                            sizeof r.note);
    if (ok && kg->limit_problem) {
        ok = false;
        snprintf(r.note, sizeof r.note, "%s", kg->limit_problem);
    }
    cr_result_verdict(&r, ok, r.note, m);
    return cr_session_record(&kg->run->ses, &r);
}

static int record_failure(kernel_group *kg, const stream_geometry *geom, const char *sweep, const char *err)
{
    stream_run *run = kg->run;
    cr_result r;
    init_row(&r, &run->dev, kg->k, kg->t, kg->n, geom, sweep);
    r.valid = false;
    cr_result_unmeasured(&r);
    snprintf(r.note, sizeof r.note, "run failed: %s", err);
    fprintf(stderr, "%s: error: %s %s %s: %s\n", run->ses.opt.program, run->dev.be->base.name, r.variant, r.dtype,
            err);
    return cr_session_record(&run->ses, &r);
}

static int point_failed(void *vkg, size_t p, const char *err)
{
    kernel_group *kg = vkg;
    return record_failure(kg, &kg->ctx[kg->dev_i + p].g, kg->pts[p].sweep, err);
}

/* The host's limit for every row, and the host kernel's own row. */
static int references_measured(void *vkg, const cr_group *g)
{
    kernel_group *kg = vkg;
    if (kg->limit_i == SIZE_MAX)
        return 0;
    const cr_summary *limit = &g->series[kg->limit_i].out.stats;
    kg->limit_figure = limit_bytes(kg) / limit->median * 1e-9;
    kg->limit_best = limit_bytes(kg) / limit->min * 1e-9;
    if (stream_host_limit_check(kg->limit_k) != 0)
        kg->limit_problem = kg->limit_k == STREAM_DOT
                                ? "the host limit's dot failed verification; no ratio can be trusted"
                                : "the host limit's triad failed verification; no ratio can be trusted";
    return kg->host_i == SIZE_MAX ? 0 : record_series(kg, g, &kg->run->host, kg->host_i, kg->pts[0].sweep);
}

/* Runs a point once more, at geometry g, on an output array filled with
 * NaN, so that what is then read back was written by the point itself and
 * not by another point measured beside it, and nothing outside its
 * window. */
static cr_status rerun_for_check(stream_run *run, stream_kernel k, cr_dtype t, uint64_t n, const stream_geometry *g,
                                 char *err, size_t errlen)
{
    memset(run->scratch, 0xff, n * cr_dtype_size(t)); /* all-ones: a NaN in either type */
    cr_status st = run->dev.be->upload(stream_kernels[k].output, run->scratch, err, errlen);
    cr_timing ignored;
    double dot;
    return st != CR_OK ? st : run->dev.be->run(k, g, STREAM_SCALAR, &ignored, &dot, err, errlen);
}

static int point_measured(void *vkg, const cr_group *g, size_t p)
{
    kernel_group *kg = vkg;
    size_t i = kg->dev_i + p;
    char err[CR_ERRLEN];
    /* The last repetition was the last point's: the others run again, and
     * all of them where a window's rerun has left the output NaN outside
     * it. */
    if (kg->k != STREAM_DOT && (kg->windowed || (kg->npts > 1 && p + 1 < kg->npts)) &&
        rerun_for_check(kg->run, kg->k, kg->t, kg->n, &kg->ctx[i].g, err, sizeof err) != CR_OK)
        return record_failure(kg, &kg->ctx[i].g, kg->pts[p].sweep, err);
    return record_series(kg, g, &kg->run->dev, i, kg->pts[p].sweep);
}

/* The host's limit and (host_kernel) the host's own kernel, then the device
 * points, each concurrency point's window sized first. */
static cr_status add_series(kernel_group *kg, cr_group *g, bool host_kernel, char *err, size_t errlen)
{
    stream_run *run = kg->run;
    if (run->use_host)
        kg->limit_i = cr_group_add(g, &run->host.meas, limit_rep, &kg->limit_k);
    if (run->use_host && host_kernel) {
        kg->host_i = g->count;
        kg->ctx[kg->host_i] = (rep_ctx){.be = run->host.be, .k = kg->k, .g = run->host.be->default_geometry(kg->n)};
        cr_group_add(g, &run->host.meas, one_rep, &kg->ctx[kg->host_i]);
    }
    cr_group_points(g);
    kg->dev_i = g->count;
    cr_status st = CR_OK;
    for (size_t p = 0; p < kg->npts; ++p) {
        rep_ctx *c = &kg->ctx[g->count];
        *c = (rep_ctx){.be = run->dev.be, .k = kg->k, .g = kg->pts[p].g, .n = kg->n, .cursor = &kg->cursor};
        cr_group_add(g, &run->dev.meas, one_rep, c);
        if (st == CR_OK && strcmp(kg->pts[p].sweep, "concurrency") == 0)
            st = calibrate_window(c, run->window_s, err, errlen);
        kg->windowed |= c->g.count < kg->n;
    }
    return st;
}

int stream_measure_points(stream_run *run, stream_kernel k, cr_dtype t, uint64_t n, const stream_point *pts,
                          size_t npts, long double gold_dot, bool host_kernel)
{
    kernel_group kg = {.run = run, .k = k, .t = t, .n = n, .pts = pts, .npts = npts, .gold_dot = gold_dot,
                       .limit_i = SIZE_MAX, .host_i = SIZE_MAX, .limit_k = limit_kernel(k),
                       .limit_figure = NAN, .limit_best = NAN,
                       .interleave = n * cr_dtype_size(t) >= INTERLEAVE_BYTES};
    cr_group g;
    kg.ctx = calloc(npts + 2, sizeof *kg.ctx);
    if (kg.ctx == NULL || cr_group_init(&g, npts + 2, run->ses.opt.reps_max) != 0) {
        free(kg.ctx);
        fprintf(stderr, "%s: error: out of memory for %zu series\n", run->ses.opt.program, npts + 2);
        return -1;
    }
    char err[CR_ERRLEN];
    cr_status st = add_series(&kg, &g, host_kernel, err, sizeof err);
    const cr_group_steps steps = {.points = npts, .ctx = &kg, .failed = point_failed,
                                  .measured = references_measured, .point = point_measured};
    int rc = st == CR_OK ? cr_group_run(&g, kg.interleave ? CR_GROUP_SWEEP : CR_GROUP_APART, &steps)
                         : cr_group_fail(&steps, err);
    /* The next kernel reads this one's output whole: where windows left
     * some of it unwritten (or NaN from a check), it gets the mirror's. */
    stream_array out = stream_kernels[k].output;
    if (rc == 0 && kg.windowed && k != STREAM_DOT &&
        run->dev.be->upload(out, run->mirror[out], err, sizeof err) != CR_OK) {
        fprintf(stderr, "%s: error: %s: %s\n", run->ses.opt.program, run->dev.be->base.name, err);
        rc = -1;
    }
    cr_group_free(&g);
    free(kg.ctx);
    return rc;
}
