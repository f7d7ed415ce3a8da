/* Experiment design of the register-spill benchmark (Li, ch. 4): what is
 * swept, how each run is verified, what goes into the CSV.
 *
 *  1. Live values: the kernel keeps N values per work-item live; throughput
 *     against N shows the cliff where they no longer fit in registers.
 *  2. Register cap (toolchains that take one): the kernel of --sweep-live
 *     values built with every cap r in the register effective region
 *     [r_min, r_max] (Eq. 4.1; bounds found by building with cap 1 and with
 *     the architecture's maximum, as Li does); registers, spills, occupancy
 *     from the calculator and the runtime, and time for each r; then the
 *     critical-points tuner against the exhaustive sweep and the default.
 *  3. Offline spill table (toolchains with an offline compiler): registers
 *     and spill bytes per cap, no device needed. */
#define _GNU_SOURCE
#include "regspill/backend.h"

#include "error.h"
#include "measure.h"
#include "omp_env.h"
#include "regspill/occupancy.h"
#include "regspill/ptxas_log.h"
#include "regspill/recurrence.h"
#include "regspill/truth.h"
#include "session.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LIVE_POINTS 64
#define MAX_ARCHS 8
#define DEFAULT_SWEEP_LIVE 64u
/* A throughput below this fraction of the best at fewer live values marks the cliff. */
#define CLIFF_KEEP 0.7
/* Launch time the calibration aims at, so timer resolution and launch
 * overhead stay negligible. */
#define TARGET_REP_S 0.02
#define QUICK_TARGET_REP_S 0.005

/* Enough points on both sides of a CPU's 32 vector registers (32 and 40)
 * and of the point where values no longer stay in registers at all (128
 * and 160) for the quick run to find the cliff too. */
static const unsigned quick_live[] = {4, 8, 16, 24, 32, 40, 48, 64, 128, 160, 256};

typedef struct {
    uint64_t live[MAX_LIVE_POINTS];
    size_t nlive;            /* 0: the default list */
    uint64_t sweep_live;     /* 0: DEFAULT_SWEEP_LIVE */
    uint64_t r_lo, r_hi;     /* 0: the kernel's effective region */
    char archs[MAX_ARCHS][16];
    size_t narchs;
    occ_rule rule;
    bool offline_only;
    uint64_t updates; /* value updates per work-item per launch, 0 = calibrate */
    uint64_t work_group;
} regspill_config;

/* ---- options ---- */

static int check_live(uint64_t live, char *err, size_t errlen)
{
    if (live <= RS_LIVE_MAX)
        return 0;
    return cr_errf(err, errlen, "live-value count %" PRIu64 " is above the kernel's limit of %u", live, RS_LIVE_MAX);
}

static int opt_live(void *ctx, const char *arg, char *err, size_t errlen)
{
    regspill_config *c = ctx;
    if (cr_parse_count_list(arg, c->live, MAX_LIVE_POINTS, &c->nlive, err, errlen) != 0)
        return -1;
    return check_live(c->live[c->nlive - 1], err, errlen);
}

static int opt_sweep_live(void *ctx, const char *arg, char *err, size_t errlen)
{
    regspill_config *c = ctx;
    if (cr_parse_count(arg, &c->sweep_live, err, errlen) != 0)
        return -1;
    return check_live(c->sweep_live, err, errlen);
}

static int opt_regs(void *ctx, const char *arg, char *err, size_t errlen)
{
    regspill_config *c = ctx;
    if (cr_parse_interval(arg, &c->r_lo, &c->r_hi, err, errlen) != 0)
        return -1;
    if (c->r_hi > 255)
        return cr_errf(err, errlen, "register cap %" PRIu64 " is above 255, the most any architecture allows", c->r_hi);
    return 0;
}

static int opt_arch(void *ctx, const char *arg, char *err, size_t errlen)
{
    regspill_config *c = ctx;
    char buf[128];
    if (strlen(arg) >= sizeof buf || arg[0] == '\0') {
        snprintf(err, errlen, "'%s' is not a list of architectures", arg);
        return -1;
    }
    strcpy(buf, arg);
    c->narchs = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const occ_arch *a = occ_arch_find(tok);
        if (a == NULL) {
            snprintf(err, errlen, "unknown architecture '%s' (try sm_75, sm_80, sm_90, sm_100, sm_120)", tok);
            return -1;
        }
        if (c->narchs == MAX_ARCHS) {
            snprintf(err, errlen, "at most %d architectures", MAX_ARCHS);
            return -1;
        }
        snprintf(c->archs[c->narchs++], sizeof c->archs[0], "%s", a->name);
    }
    return 0;
}

static int opt_rule(void *ctx, const char *arg, char *err, size_t errlen)
{
    regspill_config *c = ctx;
    if (strcmp(arg, "per-warp") == 0)
        c->rule = OCC_RULE_PER_WARP;
    else if (strcmp(arg, "per-block") == 0)
        c->rule = OCC_RULE_PER_BLOCK;
    else {
        snprintf(err, errlen, "'%s' is not per-warp or per-block", arg);
        return -1;
    }
    return 0;
}

static int opt_updates(void *ctx, const char *arg, char *err, size_t errlen)
{
    return cr_parse_count_at_most(arg, UINT32_MAX, "updates per work-item", &((regspill_config *)ctx)->updates, err,
                                  errlen);
}

static const cr_extra_option regspill_options[] = {
    CR_OPTION_CALL("live", "LIST", "live values per work-item to sweep, e.g. 4,8,16 (default 2..256)", opt_live),
    CR_OPTION_CALL("sweep-live", "N", "live values of the register-cap sweep (default 64)", opt_sweep_live),
    CR_OPTION_CALL("regs", "MIN:MAX", "register caps to sweep (default the kernel's effective region)", opt_regs),
    CR_OPTION_CALL("arch", "LIST", "architectures of the offline spill table (default the device's, else sm_90)",
                   opt_arch),
    CR_OPTION_CALL("rule", "RULE",
                   "register rule of the critical points: per-warp (NVIDIA, default) or per-block (Li Eq. 4.3)",
                   opt_rule),
    CR_OPTION(CR_OPT_FLAG, "offline", NULL, "only the offline spill table; needs the compiler, no device",
              regspill_config, offline_only),
    CR_OPTION_CALL("updates", "N", "value updates per work-item per launch (default calibrated to ~20 ms)",
                   opt_updates),
    CR_OPTION(CR_OPT_COUNT, "work-group", "N", "work-group size (default the backend's)", regspill_config,
              work_group),
};
#define N_REGSPILL_OPTIONS (sizeof regspill_options / sizeof regspill_options[0])

void regspill_build_info_init(regspill_build_info *b)
{
    *b = (regspill_build_info){.registers = -1, .private_bytes = -1, .static_smem_bytes = -1, .blocks_per_cu_api = -1};
}

/* ---- run state ---- */

typedef struct {
    cr_session ses;
    regspill_config cfg;
    const regspill_backend *be;
    int argc;                /* the command line, for the metadata of an offline run */
    char **argv;
    bool open;
    cr_measure_ctx meas;
    uint64_t work_items, work_group;
    unsigned lanes;          /* copies per work-item */
    uint64_t outputs;        /* work_items * lanes */
    uint32_t *truth, *got;   /* truth: of the sampled outputs only */
    uint64_t *sample;        /* the outputs verified (truth.h), ascending */
    uint64_t nsample;
    unsigned truth_live;     /* what truth[] holds */
    uint32_t truth_rounds;
    double *samples;
} regspill_run;

typedef struct {
    const regspill_backend *be;
    uint64_t work_items, work_group;
    uint32_t rounds;
} rep_ctx;

static cr_status one_rep(void *vctx, cr_timing *t, char *err, size_t errlen)
{
    rep_ctx *c = vctx;
    return c->be->run(c->work_items, c->work_group, c->rounds, t, err, errlen);
}


static void init_row(const regspill_run *run, cr_result *r, const char *variant, const char *sweep)
{
    cr_result_begin(r, "regspill", run->be->base.name, run->ses.info.name, variant, "uint32", sweep, NULL);
    r->work_items = run->work_items;
    r->work_group = run->work_group;
    if (run->lanes > 1)
        cr_result_add_param(r, "lanes=%u", run->lanes);
}

/* Registers and spills of a build: the compiler's log where it has one,
 * else what the runtime reports. */
typedef struct {
    int registers;
    int64_t spill_store, spill_load, stack;
    int lower_bound;
} build_facts;

static build_facts facts_of(const regspill_build_info *b)
{
    ptxas_report p;
    ptxas_parse(b->log, NULL, &p);
    build_facts f = {.registers = p.found ? p.registers : b->registers,
                     .spill_store = p.spill_store_bytes,
                     .spill_load = p.spill_load_bytes,
                     .stack = p.stack_frame_bytes,
                     .lower_bound = p.lower_bound};
    return f;
}

static void add_build_params(cr_result *r, const build_facts *f, const regspill_build_info *b)
{
    if (f->registers >= 0)
        cr_result_add_param(r, "registers=%d", f->registers);
    if (f->spill_store >= 0)
        cr_result_add_param(r, "spill_store_bytes=%" PRId64 ";spill_load_bytes=%" PRId64, f->spill_store,
                            f->spill_load);
    if (f->stack >= 0)
        cr_result_add_param(r, "stack_bytes=%" PRId64, f->stack);
    if (b->private_bytes >= 0)
        cr_result_add_param(r, "private_bytes=%" PRId64, b->private_bytes);
}

/* ---- verification ---- */

static bool verify(regspill_run *run, unsigned live, uint32_t rounds, char *note, size_t notelen)
{
    char err[CR_ERRLEN];
    if (run->be->download(run->got, run->work_items, err, sizeof err) != CR_OK) {
        snprintf(note, notelen, "download failed: %s", err);
        return false;
    }
    if (run->truth_live != live || run->truth_rounds != rounds) {
        regspill_truth_sample(run->truth, run->sample, run->nsample, live, rounds);
        run->truth_live = live;
        run->truth_rounds = rounds;
    }
    uint64_t first = 0, bad = regspill_compare(run->got, run->sample, run->truth, run->nsample, &first);
    if (bad) {
        snprintf(note, notelen,
                 "%" PRIu64 " of %" PRIu64 " checked outputs wrong, first %" PRIu64 " (0x%08x, expected 0x%08x)", bad,
                 run->nsample, run->sample[first], run->got[run->sample[first]], run->truth[first]);
        return false;
    }
    return true;
}

/* ---- one measured point ---- */

static uint32_t rounds_for(uint64_t updates, unsigned live)
{
    uint64_t r = updates / live;
    return r == 0 ? 1 : (uint32_t)r;
}

/* Measures the built kernel and fills the timing part of r; verifies. */
static int measure_built(regspill_run *run, unsigned live, uint32_t rounds, cr_result *r)
{
    rep_ctx ctx = {run->be, run->work_items, run->work_group, rounds};
    cr_series s = {.ctx = &run->meas, .fn = one_rep, .arg = &ctx, .samples = run->samples};
    char err[CR_ERRLEN];
    if (cr_measure_interleaved(&s, 1, err, sizeof err) != CR_OK) {
        cr_result_unmeasured(r);
        r->valid = false;
        snprintf(r->note, sizeof r->note, "run failed: %s", err);
        fprintf(stderr, "%s: error: %s\n", run->ses.opt.program, err);
        return 0;
    }
    cr_measurement_to_row(&s.out, r);
    r->ops_per_rep = (double)RS_OPS_PER_UPDATE * live * rounds * (double)run->outputs;
    r->bytes_per_rep = 4.0 * (double)run->outputs;
    r->figure = r->ops_per_rep / s.out.stats.median * 1e-9;
    r->figure_best = r->ops_per_rep / s.out.stats.min * 1e-9;
    snprintf(r->unit, sizeof r->unit, "Gop/s");
    r->valid = verify(run, live, rounds, r->note, sizeof r->note);
    cr_result_add_param(r, "checked=%" PRIu64, run->nsample);
    if (r->valid && s.out.below_resolution)
        snprintf(r->note, sizeof r->note, "median below 20 timer ticks");
    return 0;
}

static int record_build_failure(regspill_run *run, const char *variant, const char *sweep, const char *what,
                                const char *err)
{
    cr_result r;
    init_row(run, &r, variant, sweep);
    cr_result_add_param(&r, "%s", what);
    cr_result_unmeasured(&r);
    r.valid = false;
    snprintf(r.note, sizeof r.note, "build failed: %s", err);
    fprintf(stderr, "%s: error: %s: %s\n", run->ses.opt.program, what, err);
    return cr_session_record(&run->ses, &r);
}

/* Doubles the rounds until one launch of the first live count takes the
 * target time; the value updates per work-item then stay the same for every
 * live count, so every point does the same work. */
static int calibrate(regspill_run *run, unsigned live, uint64_t *updates)
{
    double target = run->ses.opt.quick ? QUICK_TARGET_REP_S : TARGET_REP_S;
    uint32_t rounds = 16;
    char err[CR_ERRLEN];
    for (;;) {
        cr_timing t = {0};
        if (run->be->run(run->work_items, run->work_group, rounds, &t, err, sizeof err) != CR_OK) {
            fprintf(stderr, "%s: error: calibration: %s\n", run->ses.opt.program, err);
            return -1;
        }
        cr_timer_state ts = {0};
        cr_timer_kind kind;
        bool switched;
        double s = cr_timer_pick(&ts, &t, &kind, &switched);
        if (s >= target || rounds >= UINT32_MAX / 2 / live)
            break;
        rounds *= 2;
    }
    *updates = (uint64_t)rounds * live;
    return 0;
}

/* ---- sweep 1: live values ---- */

static int sweep_live(regspill_run *run)
{
    const regspill_config *c = &run->cfg;
    uint64_t updates = c->updates;
    double throughput[MAX_LIVE_POINTS];
    unsigned measured_live[MAX_LIVE_POINTS];
    size_t nmeasured = 0;
    for (size_t i = 0; i < c->nlive; ++i) {
        unsigned live = (unsigned)c->live[i];
        regspill_variant v = {live, 0};
        regspill_build_info b;
        regspill_build_info_init(&b);
        char err[CR_ERRLEN], what[32];
        snprintf(what, sizeof what, "live=%u", live);
        cr_status st = run->be->build(&v, run->work_group, &b, err, sizeof err);
        if (st == CR_UNSUPPORTED) {
            fprintf(stderr, "note: %s: %s\n", what, err);
            continue;
        }
        if (st != CR_OK) {
            if (record_build_failure(run, "live-values", "live", what, err) != 0)
                return -1;
            continue;
        }
        if (updates == 0 && calibrate(run, live, &updates) != 0)
            return -1;
        uint32_t rounds = rounds_for(updates, live);
        cr_result r;
        init_row(run, &r, "live-values", "live");
        r.size_bytes = 4u * (uint64_t)live * run->lanes; /* live bytes per work-item */
        cr_result_add_param(&r, "live=%u;rounds=%" PRIu32, live, rounds);
        build_facts f = facts_of(&b);
        add_build_params(&r, &f, &b);
        if (measure_built(run, live, rounds, &r) != 0 || cr_session_record(&run->ses, &r) != 0)
            return -1;
        if (r.valid && !isnan(r.figure)) {
            throughput[nmeasured] = r.figure;
            measured_live[nmeasured++] = live;
        }
    }
    if (nmeasured < 2)
        return 0;
    cr_result r;
    init_row(run, &r, "cliff", "live");
    cr_result_unmeasured(&r);
    snprintf(r.unit, sizeof r.unit, "values");
    size_t k = regspill_find_cliff(throughput, nmeasured, CLIFF_KEEP);
    if (k == 0) {
        snprintf(r.note, sizeof r.note, "no drop below %.0f%% of the best throughput up to %u live values",
                 CLIFF_KEEP * 100, measured_live[nmeasured - 1]);
    } else {
        double best = 0;
        for (size_t i = 0; i < k; ++i)
            best = throughput[i] > best ? throughput[i] : best;
        r.figure = measured_live[k - 1];
        cr_result_add_param(&r, "last_fitting=%u;first_spilling=%u;best_Gops=%.4g;after_Gops=%.4g;drop=%.3f",
                  measured_live[k - 1], measured_live[k], best, throughput[k], throughput[k] / best);
        snprintf(r.note, sizeof r.note, "throughput falls to %.0f%% of the best between %u and %u live values",
                 100 * throughput[k] / best, measured_live[k - 1], measured_live[k]);
    }
    return cr_session_record(&run->ses, &r);
}

/* ---- sweep 2: register caps and the critical-points tuner ---- */

typedef struct {
    unsigned cap;
    int registers;
    double median_s;
    bool ok;
} cap_point;

/* Builds the sweep kernel with cap and returns its facts; -1 on failure. */
static int build_capped(regspill_run *run, unsigned live, unsigned cap, regspill_build_info *b, build_facts *f)
{
    regspill_variant v = {live, cap};
    regspill_build_info_init(b);
    char err[CR_ERRLEN], what[48];
    snprintf(what, sizeof what, "live=%u;cap=%u", live, cap);
    if (run->be->build(&v, run->work_group, b, err, sizeof err) != CR_OK) {
        record_build_failure(run, "reg-cap", "registers", what, err);
        return -1;
    }
    *f = facts_of(b);
    if (f->registers < 0) {
        record_build_failure(run, "reg-cap", "registers", what,
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
    init_row(run, &r, "tuner", "registers");
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

static int sweep_caps(regspill_run *run)
{
    const char *arch_name = run->be->arch();
    const occ_arch *a = arch_name ? occ_arch_find(arch_name) : NULL;
    if (arch_name && !a)
        fprintf(stderr, "note: architecture %s is not in the occupancy table; occupancy not computed\n", arch_name);
    unsigned live = (unsigned)run->cfg.sweep_live;
    unsigned max_cap = a ? a->max_regs_per_thread : 255;
    regspill_build_info b;
    build_facts f;
    uint64_t updates = run->cfg.updates;

    /* The default build, then the region's bounds (Li: cap 1 gives r_min,
     * the architecture's maximum r_max). */
    if (build_capped(run, live, 0, &b, &f) != 0)
        return 0;
    if (updates == 0 && calibrate(run, live, &updates) != 0)
        return -1;
    uint32_t rounds = rounds_for(updates, live);
    cap_point deflt = {0, f.registers, NAN, false};
    cr_result r;
    init_row(run, &r, "reg-default", "registers");
    cr_result_add_param(&r, "live=%u;rounds=%" PRIu32 ";cap=none", live, rounds);
    add_build_params(&r, &f, &b);
    add_occupancy(run, &r, a, f.registers, &b);
    if (measure_built(run, live, rounds, &r) != 0 || cr_session_record(&run->ses, &r) != 0)
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
        init_row(run, &r, "reg-cap", "registers");
        cr_result_add_param(&r, "live=%u;rounds=%" PRIu32 ";cap=%u", live, rounds, cap);
        add_build_params(&r, &f, &b);
        bool is_cp = false;
        for (int l = 0; l < nl; ++l)
            is_cp = is_cp || levels[l].r_hi == cap;
        cr_result_add_param(&r, "critical_point=%d", is_cp);
        add_occupancy(run, &r, a, f.registers, &b);
        if (measure_built(run, live, rounds, &r) != 0 || cr_session_record(&run->ses, &r) != 0) {
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

/* ---- 3: offline spill table ---- */

/* offline_row's answer where there is no offline compiler (a machine with a
 * GPU driver but no toolkit): the table is not supported there, and ends. */
#define OFFLINE_NO_COMPILER (-3)

static int offline_row(regspill_run *run, const char *arch, const char *variant, unsigned live, unsigned cap,
                       build_facts *out)
{
    char log[8192], err[CR_ERRLEN];
    regspill_variant v = {live, cap};
    cr_result r;
    init_row(run, &r, variant, "registers");
    snprintf(r.backend, sizeof r.backend, "offline");
    snprintf(r.device, sizeof r.device, "%s", arch);
    r.work_items = r.work_group = 0;
    cr_result_unmeasured(&r);
    snprintf(r.unit, sizeof r.unit, "B/thread");
    cr_result_add_param(&r, "arch=%s;live=%u;cap=%u", arch, live, cap);
    cr_status st = run->be->compile_offline(&v, arch, log, sizeof log, err, sizeof err);
    if (st == CR_UNSUPPORTED) { /* no offline compiler on this machine: one row says so */
        snprintf(r.stop, sizeof r.stop, "unsupported");
        snprintf(r.note, sizeof r.note, "not supported: %s", err);
        fprintf(stderr, "note: the offline spill table: %s\n", err);
        return cr_session_record(&run->ses, &r) != 0 ? -2 : OFFLINE_NO_COMPILER;
    }
    if (st != CR_OK) {
        r.valid = false;
        snprintf(r.note, sizeof r.note, "offline compile failed: %s", err);
        fprintf(stderr, "%s: error: %s live=%u cap=%u: %s\n", run->ses.opt.program, arch, live, cap, err);
        cr_session_record(&run->ses, &r);
        return -1;
    }
    ptxas_report p;
    ptxas_parse(log, NULL, &p);
    *out = (build_facts){p.found ? p.registers : -1, p.spill_store_bytes, p.spill_load_bytes, p.stack_frame_bytes,
                         p.lower_bound};
    if (!p.found || p.spill_store_bytes < 0) {
        r.valid = false;
        snprintf(r.note, sizeof r.note, "the compiler's log names no register count or spill figures");
    } else {
        cr_result_add_param(&r,
                            "registers=%d;spill_store_bytes=%" PRId64 ";spill_load_bytes=%" PRId64
                            ";stack_bytes=%" PRId64,
                            p.registers, p.spill_store_bytes, p.spill_load_bytes, p.stack_frame_bytes);
        r.figure = (double)(p.spill_store_bytes + p.spill_load_bytes);
    }
    if (cr_session_record(&run->ses, &r) != 0)
        return -2;
    return r.valid ? 0 : -1;
}

/* Registers and spill bytes for every cap in the effective region of the
 * sweep kernel, and the default registers of every live count. */
static int offline_table(regspill_run *run)
{
    unsigned live = (unsigned)run->cfg.sweep_live;
    for (size_t i = 0; i < run->cfg.narchs; ++i) {
        const char *arch = run->cfg.archs[i];
        const occ_arch *a = occ_arch_find(arch);
        unsigned max_cap = a ? a->max_regs_per_thread : 255;
        build_facts lo, hi;
        unsigned r_lo = (unsigned)run->cfg.r_lo, r_hi = (unsigned)run->cfg.r_hi;
        if (run->cfg.r_hi == 0) {
            int rc1 = offline_row(run, arch, "offline-bound", live, 1, &lo);
            if (rc1 == OFFLINE_NO_COMPILER)
                return 0;
            int rc2 = rc1 == 0 ? offline_row(run, arch, "offline-bound", live, max_cap, &hi) : rc1;
            if (rc1 == -2 || rc2 == -2)
                return -1;
            if (rc1 != 0 || rc2 != 0)
                continue;
            r_lo = (unsigned)(lo.lower_bound > 0 ? lo.lower_bound : lo.registers);
            r_hi = (unsigned)hi.registers;
        }
        for (unsigned cap = r_lo; cap <= r_hi; ++cap) {
            build_facts f;
            int rc = offline_row(run, arch, "offline-cap", live, cap, &f);
            if (rc == -2 || rc == OFFLINE_NO_COMPILER)
                return rc == -2 ? -1 : 0;
        }
        for (unsigned j = 0; j < regspill_standard_live_count; ++j) {
            build_facts f;
            int rc = offline_row(run, arch, "offline-default", regspill_standard_live[j], 0, &f);
            if (rc == -2 || rc == OFFLINE_NO_COMPILER)
                return rc == -2 ? -1 : 0;
        }
    }
    return 0;
}

/* ---- set-up ---- */

/* --regs needs a toolchain that takes a register cap, and caps within the
 * architecture's maximum: checked before the run begins, like every
 * argument. -1 to go on, else the exit status. */
static int check_regs(regspill_run *run)
{
    if (run->cfg.r_hi == 0)
        return -1;
    if (!run->be->can_cap_registers())
        return cr_fail_usage(&run->ses, "--regs: the %s toolchain of this device takes no register cap",
                             run->be->base.name);
    const char *arch = run->be->arch();
    const occ_arch *a = arch ? occ_arch_find(arch) : NULL;
    if (a && run->cfg.r_hi > a->max_regs_per_thread)
        return cr_fail_usage(&run->ses, "--regs: register cap %" PRIu64 " is above the %u of %s", run->cfg.r_hi,
                             a->max_regs_per_thread, a->name);
    return -1;
}

/* The launch geometry: --work-group's groups over the backend's
 * work-items, or the backend's own. -1 to go on, else the exit status. */
static int choose_geometry(regspill_run *run)
{
    uint64_t wg = run->cfg.work_group, max = run->ses.info.max_work_group;
    if (wg > max && max)
        return cr_fail_usage(&run->ses, "--work-group %" PRIu64 " is above the device's maximum of %" PRIu64, wg,
                             max);
    run->be->geometry(&run->work_items, &run->work_group);
    if (wg) {
        run->work_items = (run->work_items + wg - 1) / wg * wg;
        run->work_group = wg;
    }
    run->lanes = run->be->lanes ? run->be->lanes() : 1;
    run->outputs = run->work_items * run->lanes;
    return -1;
}

/* The host's buffers and the device's output. -1 to go on, else the exit
 * status. */
static int allocate(regspill_run *run)
{
    char err[CR_ERRLEN];
    uint64_t cap = regspill_sample_cap(run->work_items, run->work_group, run->lanes);
    run->sample = malloc((size_t)cap * sizeof *run->sample);
    run->truth = malloc((size_t)cap * sizeof *run->truth);
    run->got = malloc((size_t)run->outputs * sizeof *run->got);
    run->samples = malloc((size_t)run->ses.opt.reps_max * sizeof *run->samples);
    if (!run->sample || !run->truth || !run->got || !run->samples) {
        fprintf(stderr, "%s: error: cannot allocate %" PRIu64 " results\n", run->ses.opt.program, run->work_items);
        return CR_EXIT_FAILED;
    }
    run->nsample = regspill_sample(run->work_items, run->work_group, run->lanes, run->sample);
    if (run->be->prepare(run->work_items, err, sizeof err) != CR_OK) {
        fprintf(stderr, "%s: error: %s\n", run->ses.opt.program, err);
        return CR_EXIT_FAILED;
    }
    return -1;
}

static int run_device(void *state)
{
    regspill_run *run = state;
    int rc = allocate(run);
    if (rc >= 0)
        return rc;
    cr_session_measure_init(&run->ses, &run->meas, true);
    if (sweep_live(run) != 0 || (run->be->can_cap_registers() && sweep_caps(run) != 0) ||
        (run->be->compile_offline && offline_table(run) != 0))
        return CR_EXIT_FAILED;
    return -1;
}

static void default_config(regspill_run *run)
{
    regspill_config *c = &run->cfg;
    if (c->sweep_live == 0)
        c->sweep_live = DEFAULT_SWEEP_LIVE;
    if (c->nlive == 0) {
        const unsigned *src = run->ses.opt.quick ? quick_live : regspill_standard_live;
        size_t n = run->ses.opt.quick ? sizeof quick_live / sizeof quick_live[0] : regspill_standard_live_count;
        for (size_t i = 0; i < n; ++i)
            c->live[i] = src[i];
        c->nlive = n;
    }
    if (c->narchs == 0) {
        const char *arch = run->open ? run->be->arch() : NULL;
        snprintf(c->archs[0], sizeof c->archs[0], "%s", arch ? arch : "sm_90");
        c->narchs = 1;
    }
}

/* The spill table alone, for --offline (why NULL) and, where the backend
 * has an offline compiler, when there is no device (why says so). Returns
 * the exit status. */
static int run_offline(regspill_run *run, const char *why)
{
    cr_session *ses = &run->ses;
    default_config(run);
    snprintf(ses->info.name, sizeof ses->info.name, "none (offline compiler only)");
    ses->topo = cr_topo_open();
    cr_meta meta;
    cr_meta_init(&meta);
    cr_meta_set(&meta, "mode", "offline spill table%s%s", why ? "; no device: " : "", why ? why : "");
    int rc = cr_session_start(ses, "regspill", run->be->base.name, run->argc, run->argv, &meta);
    cr_meta_free(&meta);
    if (rc >= 0)
        return rc;
    if (offline_table(run) != 0)
        return CR_EXIT_FAILED;
    rc = cr_session_finish(ses);
    if (rc == CR_EXIT_OK && why) {
        fprintf(stderr, "%s: skipped: %s (offline spill table written)\n", ses->opt.program, why);
        return CR_EXIT_SKIPPED;
    }
    return rc;
}

/* Every live-value count given must have a kernel in this backend: a count
 * it lacks is refused, not skipped with a note mid-run. -1 to go on, else
 * the exit status. */
static int check_live_kernels(regspill_run *run)
{
    const regspill_config *c = &run->cfg;
    if (!run->be->has_kernel)
        return -1;
    char err[CR_ERRLEN];
    for (size_t i = 0; i < c->nlive; ++i)
        if (!run->be->has_kernel((unsigned)c->live[i], err, sizeof err))
            return cr_fail_usage(&run->ses, "--live: %s", err);
    if (c->sweep_live && !run->be->has_kernel((unsigned)c->sweep_live, err, sizeof err))
        return cr_fail_usage(&run->ses, "--sweep-live: %s", err);
    return -1;
}

static int parsed(void *state)
{
    regspill_run *run = state;
    int rc = check_live_kernels(run);
    if (rc >= 0)
        return rc;
    /* --arch names the offline table's architectures: no table, no use. */
    if (run->cfg.narchs > 0 && !run->be->compile_offline)
        return cr_fail_usage(&run->ses, "--arch: the %s backend has no offline compiler for a spill table",
                             run->be->base.name);
    /* --list-devices lists, with --offline too. */
    if (!run->cfg.offline_only || run->ses.opt.list_devices)
        return -1;
    if (!run->be->compile_offline)
        return cr_fail_usage(&run->ses, "--offline: the %s backend has no offline compiler", run->be->base.name);
    return run_offline(run, NULL);
}

static int without_device(void *state, const char *why) { return run_offline(state, why); }

static int plan(void *state, cr_meta *meta)
{
    regspill_run *run = state;
    run->open = true;
    int rc = choose_geometry(run);
    if (rc < 0)
        rc = check_regs(run);
    if (rc >= 0)
        return rc;
    default_config(run);
    const char *arch = run->be->arch();
    cr_meta_set(meta, "architecture", "%s", arch ? arch : "n/a");
    cr_meta_set(meta, "register_cap", "%s", run->be->can_cap_registers() ? "yes" : "no (the toolchain takes none)");
    cr_meta_set(meta, "critical_point_rule", "%s", occ_rule_name(run->cfg.rule));
    cr_meta_set(meta, "verification",
                "bit-exact against the host's recurrence: every output up to %u of them, else every lane of the "
                "first and the last work-item, one output in each of the %" PRIu64 " work-groups and %u more at "
                "random, the same for every point (each row's checked=)",
                REGSPILL_VERIFY_ALL, (run->work_items + run->work_group - 1) / run->work_group,
                REGSPILL_VERIFY_RANDOM);
    cr_meta_set(meta, "openmp_waits", "%s", cr_omp_wait_settings());
    return -1;
}

static void release(void *state)
{
    regspill_run *run = state;
    free(run->sample);
    free(run->truth);
    free(run->got);
    free(run->samples);
}

int regspill_main(int argc, char **argv, const regspill_backend *backend)
{
    static regspill_run run;
    memset(&run, 0, sizeof run);
    run.cfg.rule = OCC_RULE_PER_WARP;
    run.be = backend;
    run.argc = argc;
    run.argv = argv;
    const cr_design design = {
        .benchmark = "regspill",
        .summary = "Register pressure: throughput against live values per work-item, register caps with spills and "
                   "occupancy, and the critical-points tuner (Li ch. 4).",
        .options = regspill_options,
        .n_options = N_REGSPILL_OPTIONS,
        .config = &run.cfg,
        .session = &run.ses,
        .state = &run,
        .quiet_omp_waits = true,
        .parsed = parsed,
        .without_device = backend->compile_offline ? without_device : NULL,
        .plan = plan,
        .run = run_device,
        .release = release,
    };
    return cr_bench_main(argc, argv, &design, &backend->base);
}
