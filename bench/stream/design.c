/* Experiment design of the stream benchmark: which points are measured,
 * in which order, over which arrays; the plan's checks are sizes.c, the
 * measurement of a kernel's points measure_points.c, the verification
 * verify.c. Backends are reached only through the stream_backend
 * contract. */
#define _GNU_SOURCE
#include "stream/run.h"

#include "bench_main.h"
#include "metadata.h"
#include "omp_env.h"
#include "random.h"
#include "results.h"
#include "stream/truth.h"
#include "stream/window.h"
#include "topology.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- benchmark-specific options ---- */

static const char *const dtype_names[] = {"float", "double"};
static const char *const kernel_names[STREAM_NKERNELS] = {"copy", "mul", "add", "triad", "dot"};
static const char *const sweep_names[] = {"footprint", "fixed", "concurrency"};

/* Sizes and ranges left at 0 were not given. */
static const cr_extra_option stream_options[] = {
    CR_OPTION_FOR(STREAM_SWEEP_FIXED | STREAM_SWEEP_CONCURRENCY, CR_OPT_SIZE, "size", "BYTES",
                  "per-array size of the fixed and concurrency sweeps (default 256M or twice a larger LLC, quick 32M)", stream_config, size),
    CR_OPTION_FOR(STREAM_SWEEP_FOOTPRINT, CR_OPT_RANGE, "footprint", "RANGE",
                  "per-array sizes of the working-set sweep (default 16K:<4x LLC>:x2)", stream_config, footprint),
    CR_OPTION_FOR(STREAM_SWEEP_CONCURRENCY, CR_OPT_RANGE, "concurrency", "RANGE",
                  "work-items of the concurrency sweep (default 1 to full occupancy)", stream_config, concurrency),
    CR_OPTION_NAMES("dtype", "float, double or all (default all)", stream_config, dtypes, dtype_names),
    CR_OPTION_NAMES("kernels", "copy,mul,add,triad,dot or all (default all)", stream_config, kernels, kernel_names),
    CR_OPTION_SWEEPS("sweeps", "footprint,fixed,concurrency or all (default all)", stream_config, sweeps, sweep_names),
    CR_OPTION(CR_OPT_HOST_REF, "host-ref", "MODE", "host OpenMP reference: auto (CPU/APU devices), on, off",
              stream_config, host_ref),
    CR_OPTION(CR_OPT_COUNT, "seed", "N", "seed of the random array contents (default 1)", stream_config, seed),
};
#define N_STREAM_OPTIONS (sizeof stream_options / sizeof stream_options[0])

/* Fills the mirrors with fresh random data and uploads them everywhere. */
static int load_arrays(stream_run *run, cr_dtype t, uint64_t n)
{
    char err[CR_ERRLEN];
    uint64_t state = run->cfg.seed * UINT64_C(0x2545F4914F6CDD1D) + n;
    for (int i = 0; i < 3; ++i)
        cr_fill_random_unit(t, run->mirror[i], n, &state);
    if (run->use_host && stream_host_limit_prepare(t, n, state, err, sizeof err) != CR_OK) {
        fprintf(stderr, "%s: error: host limit: %s\n", run->ses.opt.program, err);
        return -1;
    }
    stream_endpoint *eps[2] = {&run->dev, run->use_host ? &run->host : NULL};
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
    return stream_apply_gold(k, t, run->mirror[0], run->mirror[1], run->mirror[2], n, STREAM_SCALAR);
}

/* Loads fresh arrays of n elements and measures every selected kernel on
 * them at the points pts[0..npts), with the host kernel beside them when
 * host_kernel is true. */
static int run_points(stream_run *run, cr_dtype t, uint64_t n, const stream_point *pts, size_t npts, bool host_kernel)
{
    if (npts == 0)
        return 0;
    if (load_arrays(run, t, n) != 0)
        return -1;
    for (int k = 0; k < STREAM_NKERNELS; ++k) {
        if (!(run->cfg.kernels & (1u << k)))
            continue;
        long double gold = advance_mirrors(run, (stream_kernel)k, t, n);
        if (stream_measure_points(run, (stream_kernel)k, t, n, pts, npts, gold, host_kernel) != 0)
            return -1;
    }
    return 0;
}

/* The fixed-size point and the concurrency sweep share the array size, so
 * they are measured together: the stream triad's bandwidth and the plateau
 * of f(k) (the X-model's R) then come from the same rounds, which is what
 * makes them comparable on a machine whose bandwidth drifts. */
static int run_fixed_size(stream_run *run, cr_dtype t)
{
    uint64_t n = run->cfg.size / cr_dtype_size(t);
    stream_point pts[65]; /* the fixed point and a geometric range of 64-bit values */
    size_t np = 0;
    bool fixed = run->cfg.sweeps & STREAM_SWEEP_FIXED;
    if (fixed)
        pts[np++] = (stream_point){run->dev.be->default_geometry(n), "fixed"};
    if (run->cfg.sweeps & STREAM_SWEEP_CONCURRENCY)
        for (size_t i = 0; i < run->nconc; ++i) /* plan_concurrency kept every k within n */
            /* The whole array until measure_points sizes the window. */
            pts[np++] = (stream_point){{run->conc[i], run->dev.be->work_group_for(run->conc[i]), 0, n}, "concurrency"};
    /* The fixed point is the headline figure (and the concurrency points
     * share its stop): more of the budget before giving up on it. */
    run->dev.meas.rule.headline = run->host.meas.rule.headline = fixed;
    int rc = run_points(run, t, n, pts, np, fixed);
    run->dev.meas.rule.headline = run->host.meas.rule.headline = false;
    return rc;
}

/* ---- set-up and argument checks ---- */

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
        if (run->cfg.sweeps & STREAM_SWEEP_FOOTPRINT) {
            size_t count = cr_range_count(&run->cfg.footprint);
            for (size_t i = 0; i < count; ++i) {
                uint64_t n = cr_range_value(&run->cfg.footprint, i) / cr_dtype_size((cr_dtype)t);
                stream_point p = {run->dev.be->default_geometry(n), "footprint"};
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

static int parsed(void *state)
{
    stream_run *run = state;
    return stream_check_options(run) == 0 ? -1 : CR_EXIT_USAGE;
}

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
    int rc = stream_check_sizes(run);
    if (rc == 0)
        rc = stream_plan_concurrency(run);
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
        .parsed = parsed,
        .plan = plan,
        .run = run_design,
        .release = release,
    };
    return cr_bench_main(argc, argv, &design, &backend->base);
}
