/* Ranasinghe 2014, Table 5.1: the energy of each level, as energy-levels
 * measured it beside the thesis's values. */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "reproduce/targets.h"

#include <math.h>
#include <string.h>

/* Why the device measured no energy, in the words of a benchmark's sensor
 * row; "" where no row says. */
static const char *sensor_reason(const rr_device *d)
{
    for (size_t k = 0; k < d->nfiles; ++k) {
        const rr_file *f = &d->files[k];
        for (size_t i = 0; i < f->table.nrows; ++i)
            if (strcmp(rr_get(f, i, "variant"), "energy") == 0 && strcmp(rr_get(f, i, "sweep"), "sensor") == 0 &&
                *rr_get(f, i, "note"))
                return rr_get(f, i, "note");
    }
    return "";
}

void rr_ranasinghe_table51(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    const rr_file *e = rr_named(d, "energy-levels.csv");
    double run[16], thesis[16];
    size_t n = 0, within = 0;
    for (size_t i = 0; e && i < e->table.nrows && n < 16; ++i) {
        if (strcmp(rr_get(e, i, "status"), "measured") != 0 || !isfinite(rr_num(e, i, "thesis_pj")))
            continue;
        run[n] = rr_num(e, i, "pj");
        thesis[n] = rr_num(e, i, "thesis_pj");
        within += run[n] >= thesis[n] / 2 && run[n] <= thesis[n] * 2;
        rr_add_pair(o, "pj", rr_get(e, i, "level"), "pJ", thesis[n], run[n],
                    "energy per byte or operation, static power subtracted", rr_get(e, i, "thesis_symbol"));
        rr_rests_on(o, e, i);
        ++n;
    }
    if (n == 0) {
        const char *why = sensor_reason(d);
        return rr_not_measurable(o, "no level's energy was measured here%s%s", *why ? ": " : "", why);
    }
    double rho = rr_spearman(thesis, run, n);
    RR_SAY(o, rule, "reproduced: every measured level within 2x of the thesis's pJ; holds qualitatively: the "
                    "levels in the thesis's order (Spearman 0.7 or more, 3 levels or more); differs: otherwise");
    RR_SAY(o, this_device, "%zu level(s) measured", n);
    o->verdict = within == n ? RR_REPRODUCED : rho >= 0.7 ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of %zu levels within 2x of the thesis; rank correlation %.2f", within, n, rho);
}
