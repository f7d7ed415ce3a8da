/* Experiment design of the cache benchmark: what the caches are, measured
 * with pointer chases (Crawford's stride/footprint chases, Li ch. 5's
 * load kinds), each the latency benchmark's walker over a chain this
 * design builds in the order its question needs:
 *
 *  - capacity: random order at the line's stride, footprints 1 KiB up in
 *    quarter-octave steps (sweep_capacity.c): the levels, their capacities
 *    and latencies, and memory's;
 *  - grid: footprint x stride, random order (sweep_grid.c): the heat map,
 *    and the line from where the boundaries start to move;
 *  - line: pairs of loads at offset d in randomly ordered blocks
 *    (sweep_line.c): the unit each level fills, sector or line;
 *  - ways: addresses one capacity apart in one set (sweep_ways.c): the
 *    ways, hence the sets, and the replacement at ways + 1;
 *  - write: stores then chases, and store streams (sweep_write.c): write
 *    allocation and write-back;
 *  - loads: the API's other kinds of load (sweep_loads.c): CUDA's .ca,
 *    .cg and read-only paths and the footprint where bypassing L1 wins.
 *
 * Then the detection rows (detect.c, analysis.c), and the cache model's
 * validation with the geometry found (patterns.h).
 *
 * On a CPU device the chains live in 2 MiB-aligned host memory advised to
 * be huge pages, which the device reads in place, so that a physically
 * indexed level's set bits are those of the addresses the design chose;
 * and the host's sysfs says what each level is, for every row to compare
 * with. */
#define _GNU_SOURCE
#include "cache/patterns.h"
#include "cache/state.h"

#include "bench_main.h"
#include "error.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cc_sweep_names[CC_NSWEEPS] = {"capacity", "grid", "line", "ways", "write", "loads"};

#define CC_MIN_TOP (UINT64_C(64) << 10)
#define CC_DEFAULT_LLC (UINT64_C(64) << 20)
#define CC_SYSFS_CACHES "/sys/devices/system/cpu/cpu0/cache"
#define CC_THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"

static cc_state S; /* one run per process */

static int opt_max_footprint(void *ctx, const char *arg, char *err, size_t errlen)
{
    cc_config *c = ctx;
    if (cr_parse_size(arg, &c->max_footprint, err, errlen) != 0)
        return -1;
    /* Below 64 KiB no sweep reaches beyond a first-level cache. */
    if (c->max_footprint < CC_MIN_TOP)
        return cr_errf(err, errlen, "max footprint %" PRIu64 " B is below the 64 KiB minimum", c->max_footprint);
    if (c->max_footprint > CC_MAX_SPAN)
        return cr_errf(err, errlen, "max footprint %" PRIu64 " B is above the 1 GiB a chase may span",
                       c->max_footprint);
    return 0;
}

static const cr_extra_option cc_options[] = {
    CR_OPTION_SWEEPS("sweeps", "what to measure: capacity, grid, line, ways, write, loads (default all; line, ways "
                               "and write need capacity)",
                     cc_config, sweeps, cc_sweep_names),
    CR_OPTION(CR_OPT_COUNT, "seed", "N", "seed of the random orders (default 1)", cc_config, seed),
    CR_OPTION_CALL_FOR(1u << CC_SWEEP_CAPACITY | 1u << CC_SWEEP_GRID | 1u << CC_SWEEP_LOADS, "max-footprint", "SIZE",
                       "largest footprint of the capacity, grid and loads sweeps, 64K..1G (default 4x the largest "
                       "cache, quick 2x)",
                       opt_max_footprint),
};
#define N_CC_OPTIONS (sizeof cc_options / sizeof cc_options[0])

static bool wants(const cc_state *s, unsigned sweep) { return s->cfg.sweeps >> sweep & 1; }

static int parsed(void *state)
{
    cc_state *s = state;
    if (s->cfg.sweeps == 0)
        s->cfg.sweeps = (1u << CC_NSWEEPS) - 1;
    const unsigned needs_levels[] = {CC_SWEEP_LINE, CC_SWEEP_WAYS, CC_SWEEP_WRITE};
    for (size_t i = 0; i < sizeof needs_levels / sizeof needs_levels[0]; ++i)
        if (wants(s, needs_levels[i]) && !wants(s, CC_SWEEP_CAPACITY))
            return cr_fail_usage(&s->ses, "--sweeps %s needs capacity (the levels it probes)",
                                 cc_sweep_names[needs_levels[i]]);
    return -1;
}

/* The largest cache there is to go beyond: the host's last level for a
 * CPU device, else the one the API reports. */
static uint64_t largest_cache(const cc_state *s)
{
    uint64_t llc = s->ses.info.cache_bytes;
    if (s->ses.info.is_cpu && s->ses.topo) {
        uint64_t host = cr_topo_llc_bytes(s->ses.topo);
        llc = host > llc ? host : llc;
    }
    return llc;
}

static int plan(void *state, cr_meta *meta)
{
    cc_state *s = state;
    bool quick = s->ses.opt.quick;
    /* A walk of half a millisecond: PoCL's launch costs tens of
     * microseconds, a small part of it; the points are many, so fewer
     * repetitions than the suite's default unless --reps says otherwise. */
    s->target_s = quick ? 0.0003 : 0.0005;
    s->warm_budget_s = quick ? 0.01 : 0.02;
    if (!s->ses.opt.reps_given) {
        s->ses.rule.min_reps = quick ? 3 : 5;
        s->ses.rule.max_reps = quick ? 10 : 20;
        s->ses.rule.max_time_s = quick ? 0.05 : 0.15;
    }
    lt_caches caches;
    s->be->chase->caches(&caches);
    s->line0 = caches.line_bytes >= 16 && caches.line_bytes <= 4096 ? caches.line_bytes : 128;
    s->llc_hint = largest_cache(s);
    uint64_t llc = s->llc_hint ? s->llc_hint : CC_DEFAULT_LLC;
    uint64_t top = s->cfg.max_footprint ? s->cfg.max_footprint : llc * (quick ? 2 : 4);
    if (top > CC_MAX_SPAN)
        top = CC_MAX_SPAN;
    uint64_t limit = s->ses.info.max_alloc_bytes < s->ses.info.global_mem_bytes / 4 ? s->ses.info.max_alloc_bytes
                                                                                    : s->ses.info.global_mem_bytes / 4;
    if (top > limit) {
        char a[32], b[32];
        cr_format_bytes(top, a, sizeof a);
        cr_format_bytes(limit, b, sizeof b);
        if (s->cfg.max_footprint)
            return cr_fail_usage(&s->ses, "--max-footprint %s is above the %s the device allows", a, b);
        top = limit;
    }
    s->top = top;
    s->in_place = s->be->in_place_ok && s->ses.info.is_cpu;
    cc_thp_mode(CC_THP_ENABLED, s->thp, sizeof s->thp);
    s->huge = s->in_place && (strcmp(s->thp, "always") == 0 || strcmp(s->thp, "madvise") == 0);
    if (s->ses.info.is_cpu)
        cc_reference_read(CC_SYSFS_CACHES, &s->ref);
    char buf[256] = "";
    size_t used = 0;
    for (unsigned k = 0; k < s->ref.count && used < sizeof buf; ++k) {
        const cc_ref_level *r = &s->ref.level[k];
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%sL%u %" PRIu64 " B %u-way %u B line %u sets",
                                 k ? "; " : "", r->level, r->size, r->ways, r->line, r->sets);
    }
    cr_meta_set(meta, "reference_caches", "%s", s->ref.count ? buf : "none (not a CPU device, or no sysfs)");
    cr_meta_set(meta, "chain_memory", "%s",
                !s->in_place ? "device buffers, copied"
                : s->huge    ? "host memory read in place, 2 MiB-aligned, madvise(MADV_HUGEPAGE)"
                             : "host memory read in place, 4 KiB pages (transparent huge pages off)");
    cr_meta_set(meta, "transparent_hugepage", "%s", s->thp[0] ? s->thp : "unknown");
    cr_meta_set(meta, "line_stride", "%u (%s)", s->line0, caches.line_source);
    cr_meta_set(meta, "max_footprint", "%" PRIu64, s->top);
    cr_meta_set(meta, "seed", "%" PRIu64, s->cfg.seed);
    return -1;
}

static int record_pattern_row(void *ctx, const cr_result *row) { return cr_session_record(ctx, row); }

static int run_sweeps(cc_state *s)
{
    int (*const sweep[CC_NSWEEPS])(cc_state *) = {cc_sweep_capacity, cc_sweep_grid, cc_sweep_line,
                                                  cc_sweep_ways,     cc_sweep_write, cc_sweep_loads};
    for (unsigned i = 0; i < CC_NSWEEPS; ++i) {
        if (!wants(s, i) || (i == CC_SWEEP_LOADS && s->be->n_load_kinds == 0))
            continue;
        if (sweep[i](s) != 0)
            return -1;
    }
    if (wants(s, CC_SWEEP_CAPACITY) && cc_detect(s) != 0)
        return -1;
    cc_pattern_env env = {.ses = &s->ses, .meas = &s->meas, .ops = s->be->patterns, .geometry = &s->geo,
                          .quick = s->ses.opt.quick, .record = record_pattern_row, .record_ctx = &s->ses};
    return cc_patterns_run(&env);
}

static int run_design(void *state)
{
    cc_state *s = state;
    cr_session_measure_init(&s->ses, &s->meas, true);
    return run_sweeps(s) == 0 ? -1 : CR_EXIT_FAILED;
}

static void release(void *state)
{
    cc_state *s = state;
    cc_series_free(&s->capacity);
    for (unsigned g = 0; g < CC_GRID_STRIDES; ++g)
        cc_series_free(&s->grid[g]);
    for (unsigned k = 0; k < CC_MAX_LOAD_KINDS; ++k)
        cc_series_free(&s->loads[k]);
    for (unsigned k = 0; k < CC_MAX_LEVELS; ++k) {
        cc_series_free(&s->level[k].pairs);
        cc_series_free(&s->level[k].ways);
    }
}

static const cr_design cc_design = {
    .benchmark = "cache",
    .summary = "Cache geometry by pointer chases: capacity, line, sector, ways, sets, replacement and write policy "
               "of each level, with the evidence, then the cache model checked against the device.",
    .options = cc_options, .n_options = N_CC_OPTIONS, .config = &S.cfg, .session = &S.ses, .state = &S,
    .parsed = parsed, .plan = plan, .run = run_design, .release = release,
};

/* The chain's host words are unmapped only after the backend has closed
 * (it may read them in place until then). */
static void unmap_chain(void) { cc_host_words_unmap(&S.chain_mem); }

int cache_main(int argc, char **argv, const cc_backend *backend)
{
    memset(&S, 0, sizeof S);
    S.cfg = (cc_config){.seed = 1};
    S.be = backend;
    int rc = cr_bench_main(argc, argv, &cc_design, &backend->base);
    unmap_chain();
    return rc;
}
