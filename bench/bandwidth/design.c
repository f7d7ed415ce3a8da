/* Experiment design of the bandwidth benchmark: every memory path a backend
 * offers, over a transfer-size sweep, each point verified, compared with the
 * host's own bandwidth at the same size, and every path fitted with Lee's
 * transfer model; then the paths matrix at the largest size and the
 * devices' peer-to-peer topology. Backends are reached only through
 * bw_backend. */
#define _GNU_SOURCE
#include "bandwidth/run.h"

#include "bandwidth/host_ref.h"
#include "bandwidth/local_sweep.h"
#include "bench_main.h"
#include "error.h"
#include "metadata.h"
#include "omp_env.h"
#include "random.h"
#include "topology.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ---- */

/* The names are checked against the backend's paths once parsing is done. */
static int opt_paths(void *ctx, const char *arg, char *err, size_t errlen)
{
    if (cr_list_check(arg, err, errlen) != 0)
        return -1;
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
        if (!bw_path_selected(run, p))
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

/* The host's room for one transfer's buffers, copies of them at once: 90%
 * of its memory (all of it where the system does not say). */
static uint64_t host_room(uint64_t copies)
{
    uint64_t phys = cr_host_memory_bytes();
    return phys ? phys / 10 * 9 / copies : UINT64_MAX;
}

/* Transfers of last bytes, copies of them at once, within the host's room:
 * 0, or the exit status after one line. */
static int check_host_room(bw_run *run, uint64_t last, uint64_t copies)
{
    if (last <= host_room(copies))
        return 0;
    char a[32];
    cr_format_bytes(last > UINT64_MAX / copies ? UINT64_MAX : last * copies, a, sizeof a);
    return cr_fail_usage(&run->ses, "transfers of this size need about %s of host memory, more than is here", a);
}

/* The buffers a transfer's sizes need at once: the pattern, the floats, a
 * check per transfer, and a path's own source and destination per
 * transfer. */
static uint64_t copies_of(unsigned transfers) { return 2 + 3 * (uint64_t)transfers; }

/* What --sizes needs no device for: a first size of whole uint4s, and
 * host memory for the fewest buffers, those of a path of one transfer. */
static int check_sizes_given(bw_run *run)
{
    const cr_range *r = &run->cfg.sizes;
    if (r->start == 0)
        return 0;
    if (r->start % 16 != 0)
        return cr_fail_usage(&run->ses, "--sizes: %" PRIu64 " is not a multiple of 16 bytes (one uint4)", r->start);
    return check_host_room(run, cr_range_value(r, cr_range_count(r) - 1), copies_of(1));
}

static int check_sizes(bw_run *run)
{
    bw_config *c = &run->cfg;
    uint64_t limit = run->ses.info.max_alloc_bytes;
    char a[32], b[32];
    uint64_t copies = copies_of(run->max_transfers), room = host_room(copies);
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
    int rc = check_host_room(run, last, copies);
    if (rc != 0)
        return rc;
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
    if (nsizes > BW_MAX_SIZES)
        nsizes = BW_MAX_SIZES; /* a geometric range over 64-bit sizes has at most 64 values */
    uint64_t sizes[BW_MAX_SIZES];
    for (size_t i = 0; i < nsizes; ++i)
        sizes[i] = cr_range_value(&run->cfg.sizes, i);
    double (*seconds)[BW_MAX_SIZES] = malloc(npaths * sizeof *seconds);
    bool (*valid)[BW_MAX_SIZES] = calloc(npaths, sizeof *valid); /* each point's row passed verification */
    const bool *runnable = run->runnable;
    int rc = seconds && valid ? 0 : -1;
    for (size_t p = 0; p < npaths && rc == 0; ++p)
        for (size_t i = 0; i < BW_MAX_SIZES; ++i)
            seconds[p][i] = NAN;
    if (rc == 0)
        rc = bw_record_topology(run);
    for (size_t p = 0; p < npaths && rc == 0; ++p)
        if (bw_path_selected(run, &paths[p]) && !runnable[p])
            rc = bw_record_unsupported(run, &paths[p], run->why[p]);
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
        uint64_t expected_sum = bw_word_sum(run->src, sizes[s]);
        rc = bw_measure_references(run, sizes[s], expected_sum);
        for (size_t p = 0; p < npaths && rc == 0; ++p) {
            if (runnable[p] && paths[p].kind != BW_KERNEL_LOCAL)
                rc = bw_measure_path(run, &paths[p], sizes[s], expected_sum, &seconds[p][s], &valid[p][s]);
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
        if (runnable[p] && bw_is_transfer(&paths[p]))
            rc = bw_record_fit(run, &paths[p], sizes, seconds[p], valid[p], nsizes, &fits[p], &fitted[p]);
    if (rc == 0)
        rc = bw_record_techniques(run, sizes, nsizes, seconds, fits, fitted);
    if (rc == 0)
        rc = bw_record_matrix(run);
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
    /* A listing after the paths are checked: a bad --paths beside it is
     * refused, as any other bad option beside --list-devices is. */
    if (run->cfg.list_paths && bw_check_paths(run) != 0)
        return CR_EXIT_USAGE;
    if (run->cfg.list_paths && run->ses.opt.check_only)
        return cr_fail_usage(&run->ses, "--check-options: --list-paths prints and exits, measuring nothing");
    if (run->cfg.list_paths) {
        for (size_t i = 0; i < run->npaths; ++i)
            printf("%-30s %s\n", run->paths[i].key, run->paths[i].desc);
        return CR_EXIT_OK;
    }
    if (run->cfg.oversubscribe && run->be->oversubscribe == NULL)
        return cr_fail_usage(&run->ses, "--oversubscribe: the %s backend has no allocation that could exceed the "
                                        "device's memory", run->be->base.name);
    if (bw_check_paths(run) != 0)
        return CR_EXIT_USAGE;
    return check_sizes_given(run) == 0 ? -1 : CR_EXIT_USAGE;
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
    if (!run->src || !run->check || !run->floats) {
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
