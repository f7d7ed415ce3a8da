/* Experiment design of the atomics benchmark (Lee 2012 ch. 4, Samadi's
 * conflicts per warp, Li ch. 7): what is swept, how every run's counters
 * are verified, and what goes into the CSV.
 *
 *  - degree: work-items per counter, 1 (uncontended) .. all (one address),
 *    for every operation, type and memory space; 1..32 is the
 *    conflicts-per-warp curve. A `ratio` row per operation gives the
 *    uncontended over the single-address throughput (Lee Fig. 4.3).
 *  - stride: distance between neighbouring work-items' counters, 1..1024
 *    elements (Lee Fig. 4.4), uncontended.
 *  - groups: work-groups of the device's size, 1 .. filling the device,
 *    contended and uncontended.
 *  - host: the same patterns with C11 atomics on the host's threads, the
 *    hardware limit a CPU or APU device is compared with.
 *  - launch: an empty kernel's enqueue-to-start and round trip, median and
 *    mean (Lee Table 4.1 gives the mean).
 *  - locks: spin and ticket locks, one work-item per group (Lee Figs. 4.5). */
#define _GNU_SOURCE
#include "atomics/state.h"

#include "bench_main.h"
#include "error.h"
#include "omp_env.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ---- */

static int opt_iters(void *c, const char *a, char *e, size_t l)
{
    return cr_parse_count_at_most(a, AT_MAX_ITERS, "operations per work-item", &((at_config *)c)->iters, e, l);
}

/* The sweeps that run operations on counters, and those of the device's
 * own memory spaces. */
#define AT_SW_COUNTERS (AT_SW_DEGREE | AT_SW_STRIDE | AT_SW_GROUPS | AT_SW_HOST)
#define AT_SW_SPACES (AT_SW_DEGREE | AT_SW_STRIDE | AT_SW_GROUPS)

static const cr_extra_option at_options[] = {
    CR_OPTION_NAMES_FOR(AT_SW_COUNTERS, "ops", "add,inc,xchg,cas,min,max,read or all (default all)", at_config, ops,
                        at_op_names),
    CR_OPTION_NAMES_FOR(AT_SW_COUNTERS, "types", "uint32,uint64,float or all (default all; float: add only)",
                        at_config, types, at_type_names),
    CR_OPTION_NAMES_FOR(AT_SW_SPACES, "spaces", "global,local or all (default all)", at_config, spaces,
                        at_space_names),
    CR_OPTION_SWEEPS("sweeps", "degree,stride,groups,host,launch,locks or all (default all)", at_config, sweeps,
                     at_sweep_names),
    CR_OPTION_FOR(AT_SW_STRIDE, CR_OPT_RANGE, "strides", "RANGE",
                  "strides in elements of the stride sweep (default 1:1024:x2; quick 1:1024:x4, x2 in a memory "
                  "space where fewer than 5 of those fit)",
                  at_config, strides),
    CR_OPTION_FOR(AT_SW_DEGREE, CR_OPT_RANGE, "degrees", "RANGE",
                  "work-items per counter of the degree sweep (default 1:all:x2, and all)", at_config, degrees),
    CR_OPTION_CALL_FOR(AT_SW_COUNTERS | AT_SW_LOCKS, "iters", "N",
                       "atomic operations per work-item at every point (default calibrated at each point: ~10 ms a "
                       "repetition)",
                       opt_iters),
};
#define N_AT_OPTIONS (sizeof at_options / sizeof at_options[0])

static at_state S; /* one run per process */

/* ---- set-up ---- */

static int allocate(at_state *s)
{
    at_endpoint *eps[2] = {&s->dev, s->use_host ? &s->host : NULL};
    uint64_t most = 0, outs = 0;
    for (int e = 0; e < 2; ++e) {
        if (!eps[e])
            continue;
        uint64_t wi = eps[e]->work_items;
        uint64_t strides_end = cr_range_value(&s->cfg.strides, cr_range_count(&s->cfg.strides) - 1);
        uint64_t stride = strides_end > 16 ? strides_end : 16;
        uint64_t need = wi * stride + 1;
        most = need > most ? need : most;
        outs = wi > outs ? wi : outs;
    }
    uint64_t bytes_cap = s->cfg.max_bytes / 8;
    s->counters_cap = most < bytes_cap ? most : bytes_cap;
    s->outs_cap = outs;
    s->counters = malloc((size_t)s->counters_cap * 8);
    s->read_sums = malloc((size_t)outs * sizeof *s->read_sums);
    if (!s->counters || !s->read_sums) {
        fprintf(stderr, "%s: error: cannot allocate the host copies of the counters\n", s->ses.opt.program);
        return -1;
    }
    return 0;
}

static int run_sweeps(at_state *s)
{
    unsigned sw = s->cfg.sweeps;
    if ((sw & AT_SW_HOST) && s->use_host && at_sweep_host(s) != 0)
        return -1;
    if ((sw & AT_SW_DEGREE) && at_sweep_degree(s) != 0)
        return -1;
    if ((sw & AT_SW_STRIDE) && at_sweep_stride(s) != 0)
        return -1;
    if ((sw & AT_SW_GROUPS) && at_sweep_groups(s) != 0)
        return -1;
    if ((sw & AT_SW_LAUNCH) && at_sweep_launch(s) != 0)
        return -1;
    if (sw & AT_SW_LOCKS) {
        uint64_t cus = s->dev.info.compute_units ? s->dev.info.compute_units : 1;
        if (at_sweep_locks_on(s, &s->dev, cus * 8) != 0)
            return -1;
        if (s->use_host && at_sweep_locks_on(s, &s->host, s->host.work_items) != 0)
            return -1;
    }
    return 0;
}

static int open_host(at_state *s)
{
    if (!(s->cfg.sweeps & AT_SW_HOST) || (!s->dev.info.is_cpu && !s->dev.info.unified_memory))
        return 0;
    if (cr_open_host_ref(&s->ses, &at_host_backend.base, &s->host.info) != 0)
        return -1;
    s->host.be = &at_host_backend;
    s->use_host = true;
    at_host_backend.geometry(&s->host.work_items, &s->host.work_group, &s->host.max_work_group);
    cr_session_measure_init(&s->ses, &s->host.meas, false);
    return 0;
}

/* Says how many operations each point runs: --iters, or calibrated. */
static void note_iters(at_state *s)
{
    s->target_s = s->ses.opt.quick ? AT_QUICK_TARGET_S : AT_TARGET_S;
    if (s->cfg.iters_given)
        fprintf(stderr, "note: %" PRIu64 " atomic operations per work-item at every point (--iters)\n", s->cfg.iters);
    else
        fprintf(stderr,
                "note: operations per work-item calibrated at every point for %.3g ms a repetition (each row's "
                "iters)\n",
                s->target_s * 1e3);
}

/* ---- the skeleton's hooks ---- */

/* Which of --sweeps, --ops, --types and --spaces name items of their own. */
static void given_choices(const at_state *s, bool given[4])
{
    const char *const names[4] = {"sweeps", "ops", "types", "spaces"};
    for (int i = 0; i < 4; ++i)
        given[i] = cr_option_given(&s->ses.opt, at_options, N_AT_OPTIONS, names[i]);
}

static int parsed(void *state)
{
    at_state *s = state;
    bool given[4];
    given_choices(s, given);
    int rc = at_check_selection(s, given, false);
    if (rc >= 0)
        return rc;
    s->cfg.strides_given = s->cfg.strides.start != 0;
    if ((rc = at_check_strides_given(s)) >= 0)
        return rc;
    s->cfg.iters_given = s->cfg.iters != 0;
    if (s->cfg.strides.start == 0)
        s->cfg.strides = (cr_range){1, 1024, s->ses.opt.quick ? AT_QUICK_STRIDE_FACTOR : 2};
    return -1;
}

static int plan(void *state, cr_meta *meta)
{
    at_state *s = state;
    s->dev.info = s->ses.info;
    bool given[4];
    given_choices(s, given);
    int rc = at_check_selection(s, given, true);
    if (rc >= 0)
        return rc;
    s->dev.be->geometry(&s->dev.work_items, &s->dev.work_group, &s->dev.max_work_group);
    if (s->cfg.degrees.start != 0) {
        uint64_t end = cr_range_value(&s->cfg.degrees, cr_range_count(&s->cfg.degrees) - 1);
        if (end > s->dev.work_items)
            return cr_fail_usage(&s->ses,
                                 "--degrees reaches %" PRIu64 ", more than the %" PRIu64 " work-items that run", end,
                                 s->dev.work_items);
    }
    /* Half the device's largest allocation, and at most 1 GiB: the host
     * keeps a copy to verify. */
    s->cfg.max_bytes = s->ses.info.max_alloc_bytes / 2;
    if (s->cfg.max_bytes > AT_MAX_COUNTER_BYTES)
        s->cfg.max_bytes = AT_MAX_COUNTER_BYTES;
    rc = at_check_strides(s);
    if (rc >= 0)
        return rc;
    at_plan_strides(s);
    if (open_host(s) != 0)
        return CR_EXIT_FAILED;
    cr_meta_set(meta, "host_reference", "%s", s->use_host ? s->host.info.name : "off");
    cr_meta_set(meta, "work_items", "%" PRIu64, s->dev.work_items);
    cr_meta_set(meta, "work_group", "%" PRIu64, s->dev.work_group);
    if (s->cfg.sweeps & AT_SW_STRIDE) {
        char list[160] = "";
        size_t used = 0;
        for (int space = 0; space < AT_NSPACES && used < sizeof list; ++space)
            if (at_selected(s->cfg.spaces, space))
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s %" PRIu64 ":%" PRIu64 ":x%" PRIu64,
                                         used ? ", " : "", at_space_names[space], s->space_strides[space].start,
                                         s->space_strides[space].end, s->space_strides[space].factor);
        cr_meta_set(meta, "strides", "%s", list);
    }
    cr_meta_set(meta, "openmp_waits", "%s", cr_omp_wait_settings());
    return -1;
}

static int run_design(void *state)
{
    at_state *s = state;
    if (allocate(s) != 0)
        return CR_EXIT_FAILED;
    cr_session_measure_init(&s->ses, &s->dev.meas, true);
    note_iters(s);
    if (run_sweeps(s) != 0)
        return CR_EXIT_FAILED;
    return -1;
}

static void release(void *state)
{
    at_state *s = state;
    free(s->counters);
    free(s->read_sums);
    if (s->use_host)
        s->host.be->base.close();
}

static const cr_design at_design = {
    .benchmark = "atomics",
    .summary = "Atomic operations against stride, contention degree and work-groups, with the host's C11 atomics, "
               "kernel launch latency and locks.",
    .options = at_options, .n_options = N_AT_OPTIONS, .config = &S.cfg, .session = &S.ses, .state = &S,
    .quiet_omp_waits = true, .parsed = parsed, .plan = plan, .run = run_design, .release = release,
};

int atomics_main(int argc, char **argv, const at_backend *backend)
{
    memset(&S, 0, sizeof S);
    S.cfg = (at_config){.ops = (1u << AT_NOPS) - 1, .types = (1u << AT_NTYPES) - 1, .spaces = 3, .sweeps = AT_SW_ALL};
    S.dev.be = backend;
    return cr_bench_main(argc, argv, &at_design, &backend->base);
}
