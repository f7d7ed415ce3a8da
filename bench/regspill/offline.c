/* Sweep 3 of the regspill benchmark: the offline spill table, registers
 * and spill bytes per cap from the offline compiler's log, no device
 * needed. */
#include "regspill/run.h"

#include "regspill/ptxas_log.h"
#include "regspill/truth.h"

#include <inttypes.h>
#include <stdio.h>

/* offline_row's answer where there is no offline compiler (a machine with a
 * GPU driver but no toolkit): the table is not supported there, and ends. */
#define OFFLINE_NO_COMPILER (-3)

static int offline_row(regspill_run *run, const char *arch, const char *variant, unsigned live, unsigned cap,
                       regspill_build_facts *out)
{
    char log[8192], err[CR_ERRLEN];
    regspill_variant v = {live, cap};
    cr_result r;
    regspill_init_row(run, &r, variant, "registers");
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
    *out = (regspill_build_facts){p.found ? p.registers : -1, p.spill_store_bytes, p.spill_load_bytes, p.stack_frame_bytes,
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
int regspill_offline_table(regspill_run *run)
{
    unsigned live = (unsigned)run->cfg.sweep_live;
    for (size_t i = 0; i < run->cfg.narchs; ++i) {
        const char *arch = run->cfg.archs[i];
        const occ_arch *a = occ_arch_find(arch);
        unsigned max_cap = a ? a->max_regs_per_thread : 255;
        regspill_build_facts lo, hi;
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
            regspill_build_facts f;
            int rc = offline_row(run, arch, "offline-cap", live, cap, &f);
            if (rc == -2 || rc == OFFLINE_NO_COMPILER)
                return rc == -2 ? -1 : 0;
        }
        for (unsigned j = 0; j < regspill_standard_live_count; ++j) {
            regspill_build_facts f;
            int rc = offline_row(run, arch, "offline-default", regspill_standard_live[j], 0, &f);
            if (rc == -2 || rc == OFFLINE_NO_COMPILER)
                return rc == -2 ? -1 : 0;
        }
    }
    return 0;
}
