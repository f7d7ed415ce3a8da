/* The plan of the FMA benchmark's sweep: the chain counts, the
 * concurrency ladder per compute unit, the kernels' own limits, the host
 * buffers and what the metadata says of them. */
#define _GNU_SOURCE
#include "fma/run.h"

#include "bench_main.h"
#include "error.h"
#include "fma/launch.h"
#include "fma/truth.h"
#include "omp_env.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const unsigned fma_full_ilp[6] = {1, 2, 3, 4, 6, 8};
const unsigned fma_quick_ilp[4] = {1, 2, 4, 8};
const char *const fma_type_names[CR_NDTYPES] = {"float", "double"};


/* The most units per compute unit a run may ask for: full occupancy, or on
 * a CPU one work-group per compute unit, and there no more than the sweep
 * ends at: a CPU runtime runs a group's work-items on one thread and may
 * keep their chains on its stack between barriers (PoCL does), a limit no
 * query says (PoCL reports the device's 4096 for the kernels, and a group
 * of 3072 of E = 8 overflows an 8 MiB stack), while beyond CPU_MAX_PER_CU
 * a core has long saturated. */
static uint64_t per_cu_limit(const fma_geometry *g)
{
    if (g->max_units_per_cu)
        return g->max_units_per_cu;
    uint64_t unit = g->unit_items ? g->unit_items : 1;
    uint64_t by_group = g->max_work_group ? g->max_work_group / unit : CPU_MAX_PER_CU;
    return by_group < CPU_MAX_PER_CU ? by_group : CPU_MAX_PER_CU;
}

/* The chain counts of the sweep: --ilp's, else the default's. */
static void default_ilp(fma_state *s)
{
    fma_config *c = &s->cfg;
    if (c->nilp != 0)
        return;
    const unsigned *src = s->ses.opt.quick ? fma_quick_ilp : fma_full_ilp;
    c->nilp = s->ses.opt.quick ? sizeof fma_quick_ilp / sizeof *fma_quick_ilp : sizeof fma_full_ilp / sizeof *fma_full_ilp;
    for (size_t i = 0; i < c->nilp; ++i)
        c->ilp[i] = src[i];
}

/* The device's work-group limit lowered to the smallest of the kernels
 * the sweep runs: each type the device has, at each chain count. -1 to go
 * on, else the exit status. */
static int kernel_limits(fma_state *s)
{
    char err[CR_ERRLEN];
    for (int t = 0; t < CR_NDTYPES; ++t) {
        if (!((s->cfg.types >> t) & 1u) || s->be->supports((cr_dtype)t, err, sizeof err) != CR_OK)
            continue;
        for (size_t e = 0; e < s->cfg.nilp; ++e) {
            uint64_t limit = 0;
            if (s->be->work_group_limit((cr_dtype)t, (unsigned)s->cfg.ilp[e], &limit, err, sizeof err) != CR_OK) {
                cr_say_error(s->ses.opt.program, "%s kernel of %" PRIu64 " chains: %s", fma_type_names[t],
                             s->cfg.ilp[e], err);
                return CR_EXIT_FAILED;
            }
            if (limit != 0 && (s->geo.max_work_group == 0 || limit < s->geo.max_work_group))
                s->geo.max_work_group = limit;
        }
    }
    return -1;
}

/* 1, f, f^2, ... up to end, and end itself: the number of points (at most
 * 34 for f = 4; the quick ladder takes f = 2 only for end <= 64). */
static size_t geometric_ladder(uint64_t end, uint64_t f, uint64_t *out)
{
    cr_range r = {1, end, f};
    size_t n = cr_range_count(&r);
    for (size_t i = 0; i < n; ++i)
        out[i] = cr_range_value(&r, i);
    if (out[n - 1] != end)
        out[n++] = end;
    return n;
}

/* The quick run's default ladder from 1 to end: x4, or x2 where x4 gives
 * fewer than QUICK_MIN_POINTS points, and then (a device holding only a
 * few units per compute unit) the middle of the widest gap that a launch
 * can hold, until there are enough points or no gap is left. The points
 * are distinct and ascending by construction: nothing is clamped. */
static size_t quick_ladder(const fma_geometry *g, uint64_t end, uint64_t *out)
{
    size_t n = geometric_ladder(end, 4, out);
    if (n < QUICK_MIN_POINTS)
        n = geometric_ladder(end, 2, out);
    while (n < QUICK_MIN_POINTS) {
        size_t best = n;
        for (size_t i = 0; i + 1 < n; ++i) {
            uint64_t wi, wg, mid = out[i] + (out[i + 1] - out[i]) / 2;
            char err[CR_ERRLEN];
            if (out[i + 1] - out[i] >= 2 && fma_launch_shape(g, mid, &wi, &wg, err, sizeof err) == 0 &&
                (best == n || out[i + 1] - out[i] > out[best + 1] - out[best]))
                best = i;
        }
        if (best == n)
            break;
        memmove(&out[best + 2], &out[best + 1], (n - best - 1) * sizeof *out);
        out[best + 1] = out[best] + (out[best + 2] - out[best]) / 2;
        ++n;
    }
    return n;
}

/* What --per-cu needs no device for: no more units per compute unit than
 * the 32-bit launch dimensions hold work-items (a unit is one or more). */
int fma_check_per_cu_given(fma_state *s)
{
    const cr_range *r = &s->cfg.per_cu;
    if (r->start == 0)
        return -1;
    uint64_t end = cr_range_value(r, cr_range_count(r) - 1);
    if (end > UINT32_MAX)
        return cr_fail_usage(&s->ses, "--per-cu reaches %" PRIu64 " per compute unit, above the %" PRIu32
                                      " work-items a launch holds", end, UINT32_MAX);
    return -1;
}

/* Fills the ILP list and the concurrency ladder. Returns -1 to go on, or
 * the exit status after a usage error. */
static int plan_sweep(fma_state *s)
{
    fma_config *c = &s->cfg;
    uint64_t limit = per_cu_limit(&s->geo);
    cr_range r = c->per_cu;
    bool per_cu_given = c->per_cu.start != 0;
    if (per_cu_given) {
        uint64_t end = cr_range_value(&r, cr_range_count(&r) - 1);
        if (end > limit)
            return cr_fail_usage(&s->ses, "--per-cu reaches %" PRIu64 " %s per compute unit, above the %" PRIu64
                                 " %s",
                                 end, s->geo.unit_name, limit,
                                 s->geo.max_units_per_cu ? "this device holds"
                                                         : "a CPU device is swept to: one thread runs a work-group, "
                                                           "its chains on a stack whose limit no runtime reports");
    } else {
        uint64_t cpu_end = s->ses.opt.quick ? QUICK_CPU_MAX_PER_CU : CPU_MAX_PER_CU;
        uint64_t end = s->geo.max_units_per_cu ? limit : (cpu_end < limit ? cpu_end : limit);
        end = end ? end : 1;
        if (s->ses.opt.quick) {
            s->npoints = quick_ladder(&s->geo, end, s->per_cu);
            if (s->npoints < QUICK_MIN_POINTS)
                cr_session_note(&s->ses, "quick sweep: %zu concurrency points per curve, not %u: the device holds "
                                "at most %" PRIu64 " %s per compute unit",
                                s->npoints, QUICK_MIN_POINTS, end, s->geo.unit_name);
            return -1;
        }
        r = (cr_range){1, end, 2};
    }
    size_t n = cr_range_count(&r);
    if (n > MAX_POINTS)
        return cr_fail_usage(&s->ses, "--per-cu has %zu points, more than %d", n, MAX_POINTS);
    for (size_t i = 0; i < n; ++i) {
        s->per_cu[i] = cr_range_value(&r, i);
        /* A point no launch can hold is refused now, not failed mid-run. */
        uint64_t wi, wg;
        char err[CR_ERRLEN];
        if (per_cu_given && fma_launch_shape(&s->geo, s->per_cu[i], &wi, &wg, err, sizeof err) != 0)
            return cr_fail_usage(&s->ses, "--per-cu: %s", err);
    }
    s->npoints = n;
    /* The default sweep always ends at full occupancy: the plateau. */
    if (!per_cu_given && s->per_cu[n - 1] != r.end && n < MAX_POINTS)
        s->per_cu[s->npoints++] = r.end;
    return -1;
}

static int allocate(fma_state *s)
{
    uint64_t most = 0;
    unsigned lanes = 1;
    for (int t = 0; t < CR_NDTYPES; ++t)
        if ((s->cfg.types >> t) & 1u) {
            unsigned l = s->be->lanes((cr_dtype)t);
            lanes = l > lanes ? l : lanes;
        }
    for (size_t p = 0; p < s->npoints; ++p) {
        uint64_t wi, wg;
        char err[CR_ERRLEN];
        if (fma_launch_shape(&s->geo, s->per_cu[p], &wi, &wg, err, sizeof err) == 0 && wi > most)
            most = wi;
    }
    s->max_ilp = 1;
    for (size_t e = 0; e < s->cfg.nilp; ++e)
        if (s->cfg.ilp[e] > s->max_ilp)
            s->max_ilp = (unsigned)s->cfg.ilp[e];
    s->most_work_items = most;
    s->max_chains = most * s->max_ilp * lanes;
    size_t bytes = (size_t)s->max_chains * sizeof(double);
    s->seeds = malloc(bytes ? bytes : 1);
    s->got = malloc(bytes ? bytes : 1);
    s->expected = malloc(FMA_VERIFY_SAMPLE * sizeof(double));
    s->sample = malloc(FMA_VERIFY_SAMPLE * sizeof *s->sample);
    if (!s->seeds || !s->got || !s->expected || !s->sample) {
        fprintf(stderr, "%s: error: cannot allocate %" PRIu64 " chains on the host\n", s->ses.opt.program,
                s->max_chains);
        return -1;
    }
    return 0;
}

static void describe(const fma_state *s, cr_meta *meta)
{
    char list[64] = "";
    size_t used = 0;
    for (size_t i = 0; i < s->cfg.nilp && used < sizeof list; ++i)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%" PRIu64, i ? "," : "", s->cfg.ilp[i]);
    cr_meta_set(meta, "ilp", "%s", list);
    if (s->geo.unit_items > 1)
        cr_meta_set(meta, "per_cu_unit", "%s of %" PRIu64 " work-items", s->geo.unit_name, s->geo.unit_items);
    else
        cr_meta_set(meta, "per_cu_unit", "%s", s->geo.unit_name);
    cr_meta_set(meta, "per_cu_points", "%" PRIu64 " .. %" PRIu64 " (%zu points)", s->per_cu[0],
                s->per_cu[s->npoints - 1], s->npoints);
    cr_meta_set(meta, "max_units_per_cu", "%" PRIu64 "%s", per_cu_limit(&s->geo),
                s->geo.max_units_per_cu ? " (full occupancy)" : " (no residency limit: one work-group per compute unit)");
    cr_meta_set(meta, "schedule", "%s", s->be->schedule());
    cr_meta_set(meta, "lanes", "float %u, double %u", s->be->lanes(CR_FLOAT), s->be->lanes(CR_DOUBLE));
    cr_meta_set(meta, "operands", "x = fma(x, a, b), a = %a, b = %a, seeds in [1, 2)", FMA_OPERAND_A, FMA_OPERAND_B);
    cr_meta_set(meta, "verification", "bit-exact against C's fmaf/fma: every chain up to %u, else %u evenly spread",
                FMA_VERIFY_SAMPLE, FMA_VERIFY_SAMPLE);
    if (s->cfg.iters)
        cr_meta_set(meta, "iterations", "%" PRIu64 " steps per chain (--iters)", s->cfg.iters);
    else
        cr_meta_set(meta, "iterations", "calibrated per point to about %g s a launch",
                    s->ses.opt.quick ? QUICK_TARGET_REP_S : TARGET_REP_S);
    cr_meta_set(meta, "openmp_waits", "%s", cr_omp_wait_settings());
}

int fma_plan(void *state, cr_meta *meta)
{
    fma_state *s = state;
    s->be->geometry(&s->geo);
    default_ilp(s);
    int rc = kernel_limits(s);
    if (rc < 0)
        rc = plan_sweep(s);
    if (rc >= 0)
        return rc;
    if (allocate(s) != 0)
        return CR_EXIT_FAILED;
    describe(s, meta);
    return -1;
}
