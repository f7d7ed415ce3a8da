/* Sweep 2 of the regspill benchmark: the kernel of --sweep-live values
 * built with every register cap of its effective region (Li Eq. 4.1),
 * with registers, spills, occupancy and time per cap, and the
 * critical-points tuner against the exhaustive sweep and the default. */
#include "regspill/run.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    unsigned cap;
    int registers;
    double median_s;
    bool ok;
} cap_point;

/* Builds the sweep kernel with cap and returns its facts; -1 on failure. */
static int build_capped(regspill_run *run, unsigned live, unsigned cap, regspill_build_info *b, regspill_build_facts *f)
{
    regspill_variant v = {live, cap};
    regspill_build_info_init(b);
    char err[CR_ERRLEN], what[48];
    snprintf(what, sizeof what, "live=%u;cap=%u", live, cap);
    if (run->be->build(&v, run->work_group, b, err, sizeof err) != CR_OK) {
        regspill_record_build_failure(run, "reg-cap", "registers", what, err);
        return -1;
    }
    *f = regspill_facts_of(b);
    if (f->registers < 0) {
        regspill_record_build_failure(run, "reg-cap", "registers", what,
                             "neither the compiler nor the runtime says how many registers the kernel uses");
        return -1;
    }
    return 0;
}

static void add_occupancy(regspill_run *run, cr_result *r, const occ_arch *a, int registers,
                          const regspill_build_info *b)
{
    if (a == NULL)
        return;
    occ_kernel k = {(unsigned)run->work_group, b->static_smem_bytes > 0 ? (unsigned)b->static_smem_bytes : 0,
                    (unsigned)registers};
    occ_result warp, block;
    char err[CR_ERRLEN];
    if (occ_compute(a, &k, OCC_RULE_PER_WARP, &warp, err, sizeof err) != 0 ||
        occ_compute(a, &k, OCC_RULE_PER_BLOCK, &block, err, sizeof err) != 0) {
        cr_result_add_param(r, "occupancy=unknown");
        return;
    }
    cr_result_add_param(r, "blocks_per_sm=%u;blocks_per_sm_eq43=%u;occupancy=%.4f;limiter=%s", warp.blocks_per_sm,
                        block.blocks_per_sm, warp.occupancy, occ_limiter_name(warp.limiter));
    if (b->blocks_per_cu_api >= 0) {
        cr_result_add_param(r, "blocks_per_sm_api=%d", b->blocks_per_cu_api);
        if ((unsigned)b->blocks_per_cu_api != warp.blocks_per_sm && r->valid) {
            r->valid = false;
            snprintf(r->note, sizeof r->note,
                     "the occupancy calculator says %u blocks per SM, the runtime's occupancy API %d",
                     warp.blocks_per_sm, b->blocks_per_cu_api);
        }
    }
}

static int tuner_row(regspill_run *run, const occ_arch *a, unsigned live, const cap_point *pts, size_t n,
                     const cap_point *deflt)
{
    cr_result r;
    regspill_init_row(run, &r, "tuner", "registers");
    cr_result_unmeasured(&r);
    snprintf(r.unit, sizeof r.unit, "speedup");
    occ_level levels[64];
    char err[CR_ERRLEN];
    int nl = occ_critical_points(a, (unsigned)run->work_group, 0, pts[0].cap, pts[n - 1].cap, run->cfg.rule, levels,
                                 64, err, sizeof err);
    if (nl <= 0) {
        r.valid = false;
        snprintf(r.note, sizeof r.note, "no critical points: %s", nl < 0 ? err : "no register count launches");
        return cr_session_record(&run->ses, &r);
    }
    /* The best over everything, and over the critical points alone: a CP
     * is a cap, the kernel built with it is the point with that cap. */
    const cap_point *best = NULL, *best_cp = NULL;
    char cps[96] = "";
    size_t cplen = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!pts[i].ok)
            continue;
        if (!best || pts[i].median_s < best->median_s)
            best = &pts[i];
        for (int l = 0; l < nl; ++l)
            if (levels[l].r_hi == pts[i].cap && (!best_cp || pts[i].median_s < best_cp->median_s))
                best_cp = &pts[i];
    }
    for (int l = 0; l < nl && cplen < sizeof cps - 8; ++l)
        cplen += (size_t)snprintf(cps + cplen, sizeof cps - cplen, "%s%u", l ? "/" : "", levels[l].r_hi);
    cr_result_add_param(&r, "live=%u;rule=%s;critical_points=%s;searched=%d/%zu", live,
                        run->cfg.rule == OCC_RULE_PER_WARP ? "per-warp" : "per-block", cps, nl, n);
    if (!best || !best_cp || !deflt || !deflt->ok) {
        r.valid = false;
        snprintf(r.note, sizeof r.note, "too few valid points to compare the tuner with the exhaustive sweep");
        return cr_session_record(&run->ses, &r);
    }
    r.figure = deflt->median_s / best_cp->median_s;
    r.ref_ratio = best->median_s / best_cp->median_s; /* 1: the CPs found the exhaustive optimum */
    cr_result_add_param(&r, "best_cp=%u;best=%u;default=%d;speedup_cp=%.4f;speedup_best=%.4f;reduction=%.3g",
                        best_cp->cap, best->cap, deflt->registers, deflt->median_s / best_cp->median_s,
                        deflt->median_s / best->median_s, (double)n / nl);
    snprintf(r.note, sizeof r.note, "%s", best_cp == best ? "the critical points contain the exhaustive optimum"
                                                           : "the exhaustive optimum lies between critical points");
    return cr_session_record(&run->ses, &r);
}

int regspill_sweep_caps(regspill_run *run)
{
    const char *arch_name = run->be->arch();
    const occ_arch *a = arch_name ? occ_arch_find(arch_name) : NULL;
    if (arch_name && !a)
        fprintf(stderr, "note: architecture %s is not in the occupancy table; occupancy not computed\n", arch_name);
    unsigned live = (unsigned)run->cfg.sweep_live;
    unsigned max_cap = a ? a->max_regs_per_thread : 255;
    regspill_build_info b;
    regspill_build_facts f;
    uint64_t updates = run->cfg.updates;

    /* The default build, then the region's bounds (Li: cap 1 gives r_min,
     * the architecture's maximum r_max). */
    if (build_capped(run, live, 0, &b, &f) != 0)
        return 0;
    if (updates == 0 && regspill_calibrate(run, live, &updates) != 0)
        return -1;
    uint32_t rounds = regspill_rounds_for(updates, live);
    cap_point deflt = {0, f.registers, NAN, false};
    cr_result r;
    regspill_init_row(run, &r, "reg-default", "registers");
    cr_result_add_param(&r, "live=%u;rounds=%" PRIu32 ";cap=none", live, rounds);
    regspill_add_build_params(&r, &f, &b);
    add_occupancy(run, &r, a, f.registers, &b);
    if (regspill_measure_built(run, live, rounds, &r) != 0 || cr_session_record(&run->ses, &r) != 0)
        return -1;
    deflt.ok = r.valid;
    deflt.median_s = r.stats.median;

    unsigned r_lo = (unsigned)run->cfg.r_lo, r_hi = (unsigned)run->cfg.r_hi;
    if (run->cfg.r_hi == 0) {
        if (build_capped(run, live, 1, &b, &f) != 0)
            return 0;
        r_lo = (unsigned)(f.lower_bound > 0 ? f.lower_bound : f.registers);
        if (build_capped(run, live, max_cap, &b, &f) != 0)
            return 0;
        r_hi = (unsigned)f.registers;
        fprintf(stderr, "note: register effective region of the %u-value kernel: [%u, %u], default %d\n", live, r_lo,
                r_hi, deflt.registers);
    }
    if (r_hi > max_cap) {
        fprintf(stderr, "%s: error: register cap %u is above the architecture's %u\n", run->ses.opt.program, r_hi,
                max_cap);
        return -1;
    }
    size_t n = r_hi - r_lo + 1;
    cap_point *pts = calloc(n, sizeof *pts);
    if (!pts)
        return -1;
    occ_level levels[64];
    int nl = a ? occ_critical_points(a, (unsigned)run->work_group, 0, r_lo, r_hi, run->cfg.rule, levels, 64, NULL, 0)
               : 0;
    for (unsigned cap = r_lo; cap <= r_hi; ++cap) {
        cap_point *p = &pts[cap - r_lo];
        p->cap = cap;
        if (build_capped(run, live, cap, &b, &f) != 0)
            continue;
        regspill_init_row(run, &r, "reg-cap", "registers");
        cr_result_add_param(&r, "live=%u;rounds=%" PRIu32 ";cap=%u", live, rounds, cap);
        regspill_add_build_params(&r, &f, &b);
        bool is_cp = false;
        for (int l = 0; l < nl; ++l)
            is_cp = is_cp || levels[l].r_hi == cap;
        cr_result_add_param(&r, "critical_point=%d", is_cp);
        add_occupancy(run, &r, a, f.registers, &b);
        if (regspill_measure_built(run, live, rounds, &r) != 0 || cr_session_record(&run->ses, &r) != 0) {
            free(pts);
            return -1;
        }
        p->registers = f.registers;
        p->ok = r.valid;
        p->median_s = r.stats.median;
    }
    int rc = a ? tuner_row(run, a, live, pts, n, &deflt) : 0;
    free(pts);
    return rc;
}
