/* What Crawford 2014 found of his cache model that this benchmark's rows
 * show (tools/reproduce): Eq. 7.1's error of the simulation against the
 * hardware, on the thesis's three kernels. */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "shared/bench_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The largest eq. 7.1 error of pattern's model rows (every footprint);
 * NaN where none. */
static double worst_error(const rr_file *f, const char *pattern, rr_outcome *o)
{
    double worst = NAN;
    for (size_t i = 0; i < f->table.nrows; ++i) {
        double e = rr_param(f, i, "error_pct");
        if (!rr_row_is(f, i, pattern, "model") || !isfinite(e))
            continue;
        worst = isnan(worst) || e > worst ? e : worst;
        rr_rests_on(o, f, i);
    }
    return worst;
}

/* Eq. 7.1: the thesis's kernels, each beside the thesis's error for it. */
static void rr_crawford_eq71(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    static const char *const kernels[][2] = {
        {"transpose", "every benchmark, misses, up to 60 work-groups, worst"},
        {"matmul", "matrix multiplication, misses, under 64 work-groups (worst: 16 x 6)"},
        {"stencil", "stencil 128 x 128 x 32, misses"},
    };
    const rr_file *f = rr_results(d, "cache");
    size_t n = 0, within = 0, near = 0;
    char cite[200];
    for (size_t k = 0; f && k < 3; ++k) {
        double err = worst_error(f, kernels[k][0], o);
        const rr_value *v = rr_value_keyed(th, "crawford-eq7.1", "percentage_error", kernels[k][1]);
        if (!isfinite(err) || v == NULL)
            continue;
        rr_cite(v, cite, sizeof cite);
        rr_add_pair(o, "percentage_error", kernels[k][0], "%", v->value, err,
                    "eq. 7.1, 100 |measured - simulated| ÷ measured; here the time per access, there the misses",
                    cite);
        RR_SAY(o, this_device, "%s%s %.3g%%", n ? ", " : "eq. 7.1's largest error: ", kernels[k][0], err);
        ++n;
        within += err <= 20;
        near += err <= 47;
    }
    if (n == 0)
        return rr_not_measurable(o, "the run has no model row of transpose, matmul or stencil (cache's pattern "
                                    "kernels and the cachesim model of the geometry it detected)");
    RR_SAY(o, rule, "eq. 7.1 on the model's time per access (the simulated hits weighted by the measured "
                    "latencies) against the measured, each of the thesis's kernels at its worst footprint; "
                    "reproduced: every one within 20%% (the thesis's worst while the work-groups fit); holds "
                    "qualitatively: every one within 47%% (its worst beyond them); differs: otherwise");
    o->verdict = within == n ? RR_REPRODUCED : near == n ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of %zu kernels within 20%%, %zu within 47%%", within, n, near);
}

static const rr_target targets[] = {
    {"crawford-eq7.1", rr_crawford_eq71},
};
const cr_bench_part rr_targets_cache = {targets, sizeof targets / sizeof targets[0]};
