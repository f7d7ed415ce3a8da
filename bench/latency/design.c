/* Experiment design of the latency benchmark: a pointer chase measuring the
 * latency of one load from each level of the memory hierarchy, the L_$
 * and L of Li's X-model (Eq. 3.1, L_k = h·L_$ + (1−h)·L_m), directly, as
 * the cross-check of the L derived from the other benchmarks.
 *
 *  - footprint: one work-item walks a random cycle through every line of a
 *    buffer (perm.h), footprints from 4 KiB doubling to well
 *    beyond the last-level cache; ns per load against footprint shows the
 *    cache levels as plateaus.
 *  - level: one row per cache level the device (or, for CPUs, hwloc)
 *    reports, taken from the largest footprint that fits in half of it and
 *    not in the smaller levels, and a `memory` row from the largest
 *    footprint when it is at least 4x the last-level cache.
 *  - cycles: beside the ns of each row, cycles per load: counted by the
 *    core that walked where the backend can (the cycles column, CUDA's
 *    clock64), else ns times the clock the device reports
 *    (cycles_from_clock= in params), where it reports one (cycles.h).
 *
 * A footprint beyond the device's largest allocation (an OpenCL device may
 * cap one allocation far below its memory) is allocated in pieces, one
 * random cycle running through every line of all of them (pieces.h); the
 * cost of choosing each load's piece is measured beside the one-buffer walk
 * at a footprint that fits one piece (the `overhead` row), so that it can
 * be subtracted. --piece-bytes forces the split, to test it anywhere.
 *
 * Each repetition continues the walk where the last one stopped, so a
 * footprint beyond the caches is never re-walked over a few lines that the
 * caches could keep; the host knows where every walk must end (the cycle
 * position) and checks every run exactly. Footprints beyond the TLBs' reach
 * add page walks to each load, as they do for any random access: L is
 * measured as applications see it, with the pages the allocator gives.
 *
 * The device and the host are measured one after the other, not
 * interleaved: two walkers would share the caches whose capacity is the
 * point of the sweep. */
#define _GNU_SOURCE
#include "latency/run.h"

#include "bench_main.h"
#include "error.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lt_state S; /* one run per process */

/* ---- options ---- */

static int opt_footprint(void *ctx, const char *arg, char *err, size_t errlen)
{
    lt_config *c = ctx;
    if (cr_parse_range(arg, &c->footprint, err, errlen) != 0)
        return -1;
    if (c->footprint.start < LT_MIN_FOOTPRINT) {
        char b[32];
        cr_format_bytes(c->footprint.start, b, sizeof b);
        /* Below a page every footprint sits in L1 alike, and a chain needs
         * lines enough to be random. */
        return cr_errf(err, errlen, "footprint %s is below the 4 KiB minimum", b);
    }
    return 0;
}

static int opt_piece_bytes(void *ctx, const char *arg, char *err, size_t errlen)
{
    lt_config *c = ctx;
    uint64_t v;
    if (cr_parse_size(arg, &v, err, errlen) != 0)
        return -1;
    /* A power of two, so that a word index splits into piece and offset
     * with a shift; at least a page, which every line size divides. */
    if ((v & (v - 1)) != 0)
        return cr_errf(err, errlen, "piece size %" PRIu64 " B is not a power of two", v);
    if (v < LT_MIN_FOOTPRINT)
        return cr_errf(err, errlen, "piece size %" PRIu64 " B is below the 4 KiB minimum", v);
    c->piece_bytes = v;
    return 0;
}

static const cr_extra_option lt_options[] = {
    CR_OPTION_CALL("footprint", "RANGE",
                   "bytes walked, start >= 4K (default 4K:<8x LLC or more>:x2, quick 4K:<4x LLC or more>:x4)",
                   opt_footprint),
    CR_OPTION(CR_OPT_HOST_REF, "host-ref", "MODE",
              "the host's own walk beside the device: auto (CPU/APU devices), on, off", lt_config, host_ref),
    CR_OPTION(CR_OPT_COUNT, "seed", "N", "seed of the random cycle (default 1)", lt_config, seed),
    CR_OPTION_CALL("piece-bytes", "SIZE",
                   "split every chain larger than SIZE (a power of two >= 4K) into pieces of SIZE, separate "
                   "allocations (default: only chains one allocation cannot hold)",
                   opt_piece_bytes),
};
#define N_LT_OPTIONS (sizeof lt_options / sizeof lt_options[0])

/* ---- set-up ---- */

static int open_host(lt_state *s)
{
    int opened = cr_open_wanted_host_ref(&s->ses, s->cfg.host_ref, &lt_host_backend.base, &s->host.info);
    if (opened <= 0)
        return opened;
    s->host.be = &lt_host_backend;
    s->use_host = true;
    lt_find_caches(s, &s->host);
    return 0;
}

/* One chain layout for both walkers: the larger line, so that no two
 * elements share a line on either. */
static int choose_line(lt_state *s)
{
    unsigned line = s->dev.caches.line_bytes;
    if (s->use_host && s->host.caches.line_bytes > line)
        line = s->host.caches.line_bytes;
    if (line < 8 || line > 4096 || (line & (line - 1)) != 0) {
        fprintf(stderr, "%s: error: cache line of %u bytes reported; need a power of two from 8 to 4096\n",
                s->ses.opt.program, line);
        return -1;
    }
    s->line_bytes = line;
    return 0;
}

static int run_sweep(lt_state *s)
{
    size_t count = cr_range_count(&s->cfg.footprint);
    lt_endpoint *eps[2] = {&s->dev, &s->host};
    for (int e = 0; e < 2; ++e) {
        eps[e]->points = calloc(count, sizeof *eps[e]->points);
        if (!eps[e]->points) {
            fprintf(stderr, "%s: error: out of memory\n", s->ses.opt.program);
            return -1;
        }
    }
    for (size_t i = 0; i < count; ++i) {
        uint64_t footprint = cr_range_value(&s->cfg.footprint, i);
        lt_chain chain;
        if (lt_chain_build(&chain, footprint / s->line_bytes, s->line_bytes / 8, s->cfg.seed) != 0) {
            fprintf(stderr, "%s: error: cannot allocate the chain for %" PRIu64 " bytes\n", s->ses.opt.program,
                    footprint);
            return -1;
        }
        double host_ns = NAN;
        int rc = 0;
        if (s->use_host) {
            rc = lt_measure_point(s, &s->host, &chain, footprint, NAN);
            host_ns = s->host.points[s->host.npoints - 1].row.figure;
        }
        if (rc == 0)
            rc = lt_measure_point(s, &s->dev, &chain, footprint, host_ns);
        lt_chain_free(&chain);
        if (rc != 0)
            return -1;
    }
    if (s->pieces_used && lt_record_overhead(s) != 0)
        return -1;
    if (lt_record_levels(s, &s->dev) != 0)
        return -1;
    return s->use_host ? lt_record_levels(s, &s->host) : 0;
}

static void meta_caches(cr_meta *meta, const char *who, const lt_caches *c)
{
    char buf[512] = "";
    size_t used = 0;
    for (unsigned i = 0; i < c->count && used < sizeof buf; ++i)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s %" PRIu64 " B (%s)", i ? "; " : "",
                                 c->level[i].name, c->level[i].bytes, c->level[i].source);
    char key[48];
    snprintf(key, sizeof key, "%s_cache_levels", who);
    cr_meta_set(meta, key, "%s", c->count ? buf : "none reported");
    snprintf(key, sizeof key, "%s_line_bytes", who);
    cr_meta_set(meta, key, "%u (%s)", c->line_bytes, c->line_source[0] ? c->line_source : "unknown");
}

/* ---- the skeleton's hooks ---- */

static int parsed(void *state) { return lt_check_options(state) == 0 ? -1 : CR_EXIT_USAGE; }

static int plan(void *state, cr_meta *meta)
{
    lt_state *s = state;
    s->dev.info = s->ses.info;
    /* 2 ms a run: long enough that a launch's fixed cost is lost in it
     * (PoCL's event interval matches the host's own walk to 0.3% even at
     * 0.2 ms), short enough that on a shared CPU most runs are not cut by
     * the scheduler, whose slices are a few milliseconds. */
    s->target_s = 0.002;
    s->warm_budget_s = s->ses.opt.quick ? 0.025 : 0.05;
    lt_find_caches(s, &s->dev);
    if (open_host(s) != 0 || choose_line(s) != 0)
        return CR_EXIT_FAILED;
    int rc = lt_check_footprints(s);
    if (rc != 0)
        return rc;
    cr_meta_set(meta, "host_reference", "%s", s->use_host ? s->host.info.name : "off");
    cr_meta_set(meta, "chain", "one random cycle over every line, stride %u B, seed %" PRIu64, s->line_bytes,
                s->cfg.seed);
    meta_caches(meta, "device", &s->dev.caches);
    if (s->pieces_used) {
        char a[32], b[32];
        cr_format_bytes(s->one_alloc, a, sizeof a);
        cr_format_bytes(s->piece_bytes, b, sizeof b);
        cr_meta_set(meta, "chain_pieces", "device chains above %s in pieces of %s (%s), one cycle through all",
                    a, b, s->cfg.piece_bytes ? "--piece-bytes" : "the device's largest allocation");
    }
    if (s->use_host)
        meta_caches(meta, "host", &s->host.caches);
    return -1;
}

static int run_design(void *state)
{
    lt_state *s = state;
    cr_session_measure_init(&s->ses, &s->dev.meas, true);
    if (s->use_host)
        cr_session_measure_init(&s->ses, &s->host.meas, false);
    return run_sweep(s) == 0 ? -1 : CR_EXIT_FAILED;
}

static void release(void *state)
{
    lt_state *s = state;
    if (s->use_host)
        s->host.be->base.close();
    free(s->dev.points);
    free(s->host.points);
}

static const cr_design lt_design = {
    .benchmark = "latency",
    .summary = "Memory latency by pointer chase: one work-item walking a random cycle, against footprint, with the "
               "latency of each cache level and of main memory.",
    .options = lt_options, .n_options = N_LT_OPTIONS, .config = &S.cfg, .session = &S.ses, .state = &S,
    .parsed = parsed, .plan = plan,
    .run = run_design, .release = release,
};

int latency_main(int argc, char **argv, const lt_backend *backend)
{
    memset(&S, 0, sizeof S);
    S.cfg = (lt_config){.host_ref = CR_HOST_REF_AUTO, .seed = 1};
    S.dev.be = backend;
    return cr_bench_main(argc, argv, &lt_design, &backend->base);
}
