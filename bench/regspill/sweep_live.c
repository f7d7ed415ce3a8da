/* Sweep 1 of the regspill benchmark: throughput against the values each
 * work-item keeps live, and the cliff where they no longer fit in
 * registers. */
#include "regspill/run.h"

#include "regspill/truth.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* A throughput below this fraction of the best at fewer live values marks the cliff. */
#define CLIFF_KEEP 0.7

int regspill_sweep_live(regspill_run *run)
{
    const regspill_config *c = &run->cfg;
    uint64_t updates = c->updates;
    double throughput[REGSPILL_MAX_LIVE_POINTS];
    unsigned measured_live[REGSPILL_MAX_LIVE_POINTS];
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
            if (regspill_record_build_failure(run, "live-values", "live", what, err) != 0)
                return -1;
            continue;
        }
        if (updates == 0 && regspill_calibrate(run, live, &updates) != 0)
            return -1;
        uint32_t rounds = regspill_rounds_for(updates, live);
        cr_result r;
        regspill_init_row(run, &r, "live-values", "live");
        r.size_bytes = 4u * (uint64_t)live * run->lanes; /* live bytes per work-item */
        cr_result_add_param(&r, "live=%u;rounds=%" PRIu32, live, rounds);
        regspill_build_facts f = regspill_facts_of(&b);
        regspill_add_build_params(&r, &f, &b);
        if (regspill_measure_built(run, live, rounds, &r) != 0 || cr_session_record(&run->ses, &r) != 0)
            return -1;
        if (r.valid && !isnan(r.figure)) {
            throughput[nmeasured] = r.figure;
            measured_live[nmeasured++] = live;
        }
    }
    if (nmeasured < 2)
        return 0;
    cr_result r;
    regspill_init_row(run, &r, "cliff", "live");
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
