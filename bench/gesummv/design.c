/* Experiment design of the gesummv benchmark: Polybench's y = alpha*A*x +
 * beta*B*x against the work-items k in flight, the MS throughput f(k) of
 * an application whose work-items reuse their own data (Li 2016, Fig.
 * 3.12). Per type, every k is one point of one interleaved group over the
 * same matrices; each point is then verified (verify.c). The plan's
 * checks are plan.c. Backends are reached only through the contract. */
#include "gesummv/run.h"

#include "bench_main.h"
#include "measure_group.h"
#include "metadata.h"
#include "ones_window.h"
#include "random.h"
#include "results.h"
#include "gesummv/truth.h"
#include "topology.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const dtype_names[] = {"float", "double"};

/* Sizes and ranges left at 0 were not given. */
static const cr_extra_option gesummv_options[] = {
    CR_OPTION(CR_OPT_SIZE, "size", "BYTES",
              "A and B together (default 4x the last-level cache, quick 2M); the order is the next multiple of 32",
              gesummv_config, size),
    CR_OPTION(CR_OPT_RANGE, "concurrency", "RANGE", "work-items k (default 1 to full occupancy, below the rows)",
              gesummv_config, concurrency),
    CR_OPTION_NAMES("dtype", "float, double or all (default all)", gesummv_config, dtypes, dtype_names),
    CR_OPTION(CR_OPT_COUNT, "seed", "N", "seed of the random matrices and vector (default 1)", gesummv_config, seed),
};
#define N_GESUMMV_OPTIONS (sizeof gesummv_options / sizeof gesummv_options[0])

/* One point: k work-items in groups of `group`. */
typedef struct {
    const gesummv_backend *be;
    uint64_t k, group;
} point;

/* The points of one type, measured together. */
typedef struct {
    gesummv_run *run;
    cr_dtype t;
    uint64_t n;
    point pts[64];
} type_group;

static cr_status one_rep(void *vpt, cr_timing *t, char *err, size_t errlen)
{
    const point *pt = vpt;
    return pt->be->run(pt->k, pt->group, GESUMMV_ALPHA, GESUMMV_BETA, t, err, errlen);
}

static void init_row(cr_result *r, const gesummv_run *run, cr_dtype t, uint64_t n, uint64_t k, uint64_t group)
{
    cr_result_begin(r, "gesummv", run->be->base.name, run->ses.info.name, "gesummv", cr_dtype_name(t),
                    "concurrency", "GB/s");
    double es = (double)cr_dtype_size(t), nn = (double)n;
    r->size_bytes = 2 * n * n * cr_dtype_size(t);
    r->working_set_bytes = (2 * n * n + 2 * n) * cr_dtype_size(t);
    r->work_items = k;
    r->work_group = group;
    /* A and B once, x, and y written: what the kernel must move. */
    r->bytes_per_rep = (2 * nn * nn + 2 * nn) * es;
    /* Two multiply-adds an element of a row, then alpha, beta and their sum. */
    r->ops_per_rep = 4 * nn * nn + 3 * nn;
    r->peak_kind = CR_PEAK_MEMORY;
    cr_result_add_param(r, "n=%" PRIu64, n);
}

static int point_measured(void *vtg, const cr_group *g, size_t p)
{
    type_group *tg = vtg;
    const cr_measurement *m = &g->series[p].out;
    cr_result r;
    init_row(&r, tg->run, tg->t, tg->n, tg->pts[p].k, tg->pts[p].group);
    cr_measurement_to_row(m, &r);
    r.figure = r.bytes_per_rep / m->stats.median * 1e-9;
    r.figure_best = r.bytes_per_rep / m->stats.min * 1e-9;
    bool ok = gesummv_verify(tg->run, tg->t, tg->n, tg->pts[p].k, tg->pts[p].group, &r);
    cr_result_verdict(&r, ok, r.note, m);
    return cr_session_record(&tg->run->ses, &r);
}

static int point_failed(void *vtg, size_t p, const char *err)
{
    type_group *tg = vtg;
    cr_result r;
    init_row(&r, tg->run, tg->t, tg->n, tg->pts[p].k, tg->pts[p].group);
    r.valid = false;
    cr_result_unmeasured(&r);
    snprintf(r.note, sizeof r.note, "run failed: %s", err);
    fprintf(stderr, "%s: error: %s gesummv %s k=%" PRIu64 ": %s\n", tg->run->ses.opt.program,
            tg->run->be->base.name, cr_dtype_name(tg->t), tg->pts[p].k, err);
    return cr_session_record(&tg->run->ses, &r);
}

/* Fresh random matrices and vector of type t and order n, their gold, the
 * device's copies, and the coverage check's matrix of ones. */
static int load_type(gesummv_run *run, cr_dtype t, uint64_t n)
{
    uint64_t state = run->cfg.seed * UINT64_C(0x2545F4914F6CDD1D) + n;
    for (int i = GESUMMV_A; i <= GESUMMV_X; ++i)
        cr_fill_random_unit(t, run->host[i], gesummv_elements((gesummv_array)i, n), &state);
    gesummv_gold(t, run->host[GESUMMV_A], run->host[GESUMMV_B], run->host[GESUMMV_X], n, GESUMMV_ALPHA,
                 GESUMMV_BETA, run->gold, run->scale);
    cr_fill_ones(t, run->ones, n * n);
    char err[CR_ERRLEN];
    cr_status st = run->be->prepare(t, n, err, sizeof err);
    for (int i = GESUMMV_A; st == CR_OK && i <= GESUMMV_X; ++i)
        st = run->be->upload((gesummv_array)i, run->host[i], err, sizeof err);
    if (st == CR_OK)
        return 0;
    fprintf(stderr, "%s: error: %s: %s\n", run->ses.opt.program, run->be->base.name, err);
    return -1;
}

/* Every k of type t, measured as one interleaved group, then each checked
 * and recorded. */
static int run_type(gesummv_run *run, cr_dtype t)
{
    uint64_t n = gesummv_order(run->cfg.size, t);
    if (load_type(run, t, n) != 0)
        return -1;
    type_group tg = {.run = run, .t = t, .n = n};
    cr_group g;
    if (cr_group_init(&g, run->nconc, run->ses.opt.reps_max) != 0) {
        fprintf(stderr, "%s: error: out of memory for %zu series\n", run->ses.opt.program, run->nconc);
        return -1;
    }
    cr_group_points(&g);
    for (size_t p = 0; p < run->nconc; ++p) {
        tg.pts[p] = (point){run->be, run->conc[p], run->be->work_group_for(run->conc[p])};
        cr_group_add(&g, &run->meas, one_rep, &tg.pts[p]);
    }
    const cr_group_steps steps = {.points = run->nconc, .ctx = &tg, .failed = point_failed, .point = point_measured};
    int rc = cr_group_run(&g, CR_GROUP_SWEEP, &steps);
    cr_group_free(&g);
    return rc;
}

/* ---- the skeleton's hooks ---- */

static int parsed(void *state)
{
    gesummv_run *run = state;
    return gesummv_check_options(run) == 0 ? -1 : CR_EXIT_USAGE;
}

static int plan(void *state, cr_meta *meta)
{
    gesummv_run *run = state;
    int rc = gesummv_plan(run);
    if (rc != 0)
        return rc;
    char size[32];
    cr_format_bytes(run->cfg.size, size, sizeof size);
    cr_meta_set(meta, "matrices", "A and B together at least %s; order a multiple of %u", size, GESUMMV_ORDER_STEP);
    cr_meta_set(meta, "layout", "work-item g of k computes rows g, g+k, g+2k, ..., each over j in order");
    cr_meta_set(meta, "verification",
                "every row against a long double sum, within gamma_(n+2) of its sum of absolute products; "
                "then exactly (alpha + beta) * n on A, B and x of ones, which a missing or repeated product moves");
    return -1;
}

static int run_design(void *state)
{
    gesummv_run *run = state;
    cr_session *ses = &run->ses;
    for (int i = 0; i < GESUMMV_NARRAYS; ++i)
        run->host[i] = cr_topo_alloc(ses->topo, i <= GESUMMV_B ? run->matrix_bytes : run->vector_bytes);
    run->gold = malloc(run->rows_max * sizeof *run->gold);
    run->scale = malloc(run->rows_max * sizeof *run->scale);
    run->ones = cr_topo_alloc(ses->topo, run->matrix_bytes);
    for (int i = 0; i < GESUMMV_NARRAYS; ++i)
        if (run->host[i] == NULL || !run->gold || !run->scale || !run->ones) {
            fprintf(stderr, "%s: error: cannot allocate host arrays\n", ses->opt.program);
            return CR_EXIT_FAILED;
        }
    cr_session_measure_init(ses, &run->meas, true);
    for (int t = 0; t < CR_NDTYPES; ++t) {
        if (!(run->cfg.dtypes & (1u << t)))
            continue;
        if (!gesummv_dtype_runs(run, (cr_dtype)t)) {
            fprintf(stderr, "note: %s has no double precision; double skipped\n", ses->info.name);
            continue;
        }
        if (run_type(run, (cr_dtype)t) != 0)
            return CR_EXIT_FAILED;
    }
    return -1;
}

static void release(void *state)
{
    gesummv_run *run = state;
    free(run->gold), free(run->scale);
    cr_topo_free(run->ses.topo, run->ones, run->matrix_bytes);
    for (int i = 0; i < GESUMMV_NARRAYS; ++i)
        cr_topo_free(run->ses.topo, run->host[i], i <= GESUMMV_B ? run->matrix_bytes : run->vector_bytes);
}

static gesummv_run the_run;
static const cr_design gesummv_design = {
    .benchmark = "gesummv",
    .summary = "Polybench gesummv (y = alpha*A*x + beta*B*x) against the work-items in flight: f(k) with reuse.",
    .options = gesummv_options, .n_options = N_GESUMMV_OPTIONS, .config = &the_run.cfg,
    .session = &the_run.ses, .state = &the_run, .measures_memory = true,
    .parsed = parsed, .plan = plan, .run = run_design, .release = release,
};

int gesummv_main(int argc, char **argv, const gesummv_backend *backend)
{
    the_run = (gesummv_run){.cfg = {.dtypes = 3, .seed = 1}, .be = backend};
    return cr_bench_main(argc, argv, &gesummv_design, &backend->base);
}
