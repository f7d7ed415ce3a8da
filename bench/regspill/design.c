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
#include "regspill/run.h"

#include "error.h"
#include "omp_env.h"
#include "regspill/truth.h"
#include "trial.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SWEEP_LIVE 64u

/* Enough points on both sides of a CPU's 32 vector registers (32 and 40)
 * and of the point where values no longer stay in registers at all (128
 * and 160) for the quick run to find the cliff too. */
static const unsigned quick_live[] = {4, 8, 16, 24, 32, 40, 48, 64, 128, 160, 256};

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
    if (cr_parse_count_list(arg, c->live, REGSPILL_MAX_LIVE_POINTS, &c->nlive, err, errlen) != 0)
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
    if (cr_list_check(arg, err, errlen) != 0)
        return -1;
    if (strlen(arg) >= sizeof buf) {
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
        for (size_t i = 0; i < c->narchs; ++i)
            if (strcmp(c->archs[i], a->name) == 0)
                return cr_errf(err, errlen, "'%s' is %s, given twice", tok, a->name);
        if (c->narchs == REGSPILL_MAX_ARCHS) {
            snprintf(err, errlen, "at most %d architectures", REGSPILL_MAX_ARCHS);
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

/* What a run does: the live-value sweep, the register-cap sweep and the
 * offline spill table; --offline leaves the table alone. */
enum { RS_LIVE_SWEEP = 1, RS_CAP_SWEEP = 2, RS_OFFLINE_TABLE = 4 };
#define RS_ON_DEVICE (RS_LIVE_SWEEP | RS_CAP_SWEEP)
#define RS_CAPS (RS_CAP_SWEEP | RS_OFFLINE_TABLE)

static const cr_extra_option regspill_options[] = {
    CR_OPTION_CALL_FOR(RS_LIVE_SWEEP, "live", "LIST",
                       "live values per work-item to sweep, e.g. 4,8,16 (default 2..256)", opt_live),
    CR_OPTION_CALL_FOR(RS_CAPS, "sweep-live", "N", "live values of the register-cap sweep (default 64)",
                       opt_sweep_live),
    CR_OPTION_CALL_FOR(RS_CAPS, "regs", "MIN:MAX", "register caps to sweep (default the kernel's effective region)",
                       opt_regs),
    CR_OPTION_CALL_FOR(RS_OFFLINE_TABLE, "arch", "LIST",
                       "architectures of the offline spill table (default the device's, else sm_90)", opt_arch),
    CR_OPTION_CALL_FOR(RS_CAP_SWEEP, "rule", "RULE",
                       "register rule of the critical points: per-warp (NVIDIA, default) or per-block (Li Eq. 4.3)",
                       opt_rule),
    CR_OPTION_MODE(RS_OFFLINE_TABLE, "offline", "only the offline spill table; needs the compiler, no device",
                   regspill_config, offline_only),
    CR_OPTION_CALL_FOR(RS_ON_DEVICE, "updates", "N",
                       "value updates per work-item per launch (default calibrated to ~20 ms)", opt_updates),
    CR_OPTION_FOR(RS_ON_DEVICE, CR_OPT_COUNT, "work-group", "N", "work-group size (default the backend's)",
                  regspill_config, work_group),
};
#define N_REGSPILL_OPTIONS (sizeof regspill_options / sizeof regspill_options[0])

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

/* An option read only by the cap sweep (and the offline table) changes
 * nothing where the toolchain takes no cap (and has no offline compiler).
 * -1 to go on, else the exit status. */
static int check_caps_read(regspill_run *run)
{
    if (run->be->can_cap_registers())
        return -1;
    unsigned runnable = RS_LIVE_SWEEP | (run->be->compile_offline ? RS_OFFLINE_TABLE : 0);
    char why[160];
    snprintf(why, sizeof why, "the %s toolchain of this device takes no register cap, so there is no cap sweep%s",
             run->be->base.name, run->be->compile_offline ? "" : " (and no offline table)");
    int rc = cr_check_options_read(&run->ses.opt, regspill_options, N_REGSPILL_OPTIONS, runnable, why);
    return rc == 0 ? -1 : CR_EXIT_USAGE;
}

/* The largest live-value count the run builds a kernel for. */
static unsigned most_live(const regspill_run *run)
{
    uint64_t most = run->be->can_cap_registers() ? run->cfg.sweep_live : 0;
    for (size_t i = 0; i < run->cfg.nlive; ++i)
        most = run->cfg.live[i] > most ? run->cfg.live[i] : most;
    return (unsigned)most;
}

/* The variable that makes this program the child of a trial launch. */
#define REGSPILL_TRIAL_ENV "CROSSROOF_REGSPILL_TRIAL"

/* On a CPU device a work-item's live values are kept on the runtime's
 * worker thread stacks, which it neither reports (PoCL's
 * CL_KERNEL_PRIVATE_MEM_SIZE says 1 KiB where a work-item of 256 live
 * values takes some 32) nor guards: a group too large for them ends the
 * process with a SIGSEGV, no error code. So one group of the kernel with
 * the most live values is launched in a child first (the built kernel
 * is in the runtime's cache by then). -1 to go on, else the exit status. */
static int trial_launch(regspill_run *run, unsigned live)
{
    char why[CR_ERRLEN];
    if (cr_trial_is_child(REGSPILL_TRIAL_ENV)) {
        cr_timing t;
        if (run->be->prepare(run->work_group, why, sizeof why) != CR_OK ||
            run->be->run(run->work_group, run->work_group, 1, &t, why, sizeof why) != CR_OK) {
            cr_say_error(run->ses.opt.program, "trial launch: %s", why);
            return CR_EXIT_FAILED;
        }
        return -1;
    }
    if (cr_trial_in_child(run->argc, run->argv, !run->ses.opt.check_only, REGSPILL_TRIAL_ENV, why, sizeof why) != 0)
        return cr_fail_usage(&run->ses,
                             "%u live values in groups of %" PRIu64 " work-items: one group, launched in a child "
                             "process first, %s (this CPU runtime keeps live values on its threads' stacks: fewer "
                             "--live values or a smaller --work-group)",
                             live, run->work_group, why);
    return -1;
}

/* A --work-group above what the kernel of the most live values runs in a
 * group (its registers, its private memory bound it the most) is refused
 * now, not failed at every point; on a CPU device, a group that would take
 * the process down too. -1 to go on, else the exit status. */
static int check_kernel_group(regspill_run *run)
{
    bool trial = run->ses.info.is_cpu;
    if (run->cfg.work_group == 0 && !trial)
        return -1;
    regspill_variant v = {.live = most_live(run)};
    regspill_build_info info;
    regspill_build_info_init(&info);
    char err[CR_ERRLEN];
    if (run->be->build(&v, run->work_group, &info, err, sizeof err) != CR_OK) {
        cr_say_error(run->ses.opt.program, "the kernel of %u live values: %s", v.live, err);
        return CR_EXIT_FAILED;
    }
    if (run->cfg.work_group != 0 && info.max_work_group != 0 && run->work_group > info.max_work_group)
        return cr_fail_usage(&run->ses, "--work-group %" PRIu64 " is above the %" PRIu64 " work-items a group of the "
                                        "kernel of %u live values runs",
                             run->work_group, info.max_work_group, v.live);
    return trial ? trial_launch(run, v.live) : -1;
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
    if (regspill_sweep_live(run) != 0 || (run->be->can_cap_registers() && regspill_sweep_caps(run) != 0) ||
        (run->be->compile_offline && regspill_offline_table(run) != 0))
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
    if (regspill_offline_table(run) != 0)
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
    uint64_t any_max = run->be->any_device_max_group;
    if (any_max && run->cfg.work_group > any_max)
        return cr_fail_usage(&run->ses, "--work-group %" PRIu64 " is above the %" PRIu64 " work-items a group runs on "
                                        "any %s device",
                             run->cfg.work_group, any_max, run->be->base.name);
    /* --arch names the offline table's architectures: no table, no use. */
    if (run->cfg.narchs > 0 && !run->be->compile_offline)
        return cr_fail_usage(&run->ses, "--arch: the %s backend has no offline compiler for a spill table",
                             run->be->base.name);
    /* --list-devices lists, with --offline too; --check-options only checks. */
    if (!run->cfg.offline_only || run->ses.opt.list_devices || run->ses.opt.check_only)
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
    if (rc < 0)
        rc = check_caps_read(run);
    if (rc >= 0)
        return rc;
    default_config(run);
    if ((rc = check_kernel_group(run)) >= 0)
        return rc;
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
