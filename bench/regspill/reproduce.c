/* What Li 2016 found of registers that this benchmark's rows show
 * (tools/reproduce): Fig. 4.1. */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "shared/bench_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Fig. 4.1: throughput falls once live values spill out of registers. */
static void rr_li_fig41(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    const rr_file *f = rr_results(d, "regspill");
    size_t row = f ? rr_first_row(f, "cliff", "live", NULL) : SIZE_MAX;
    double drop = row == SIZE_MAX ? NAN : rr_param(f, row, "drop");
    if (!isfinite(drop))
        return rr_not_measurable(o, "the run found no spill point (regspill's cliff row): no sweep reached a spill");
    rr_rests_on(o, f, row);
    rr_add_pair(o, "after_over_best", "first spilling point", "x", NAN, drop,
                "throughput at the first spilling point ÷ the best before it", "Fig. 4.1");
    RR_SAY(o, this_device, "past %.0f live values throughput falls to %.2f of the best", rr_param(f, row, "last_fitting"),
           drop);
    RR_SAY(o, rule, "the thesis's gain from more registers per thread, seen from the side of too few: holds "
                    "qualitatively where more live values than registers (a spill) bring throughput below 0.8 of "
                    "the best before it; differs: not. The jumps where a register more costs a block per SM are "
                    "regspill's caps sweep (CUDA), not compared here; the figure's bars are not printed as numbers");
    o->verdict = drop < 0.8 ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%.2f of the best at the first spilling point", drop);
}

static const rr_target targets[] = {
    {"li-fig4.1", "Li 2016, Fig. 4.1: register spill", rr_li_fig41},
};
const cr_bench_part rr_targets_regspill = {targets, sizeof targets / sizeof targets[0]};
