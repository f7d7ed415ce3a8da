/* What Li 2016 found of registers that this benchmark's rows show
 * (tools/reproduce): Fig. 4.1's spill, the critical-points tuner of
 * Figs 4.4-4.6 and the chapter's claim, the profiles over the register
 * caps of Figs 4.7-4.9. */
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

/* The tuner row (the critical points against the exhaustive sweep);
 * SIZE_MAX where the run has none with its speed-ups. */
static size_t tuner_row(const rr_file *f)
{
    for (size_t i = 0; f && i < f->table.nrows; ++i)
        if (rr_row_is(f, i, "tuner", "registers") && rr_param(f, i, "speedup_cp") > 0 &&
            rr_param(f, i, "speedup_best") > 0 && rr_param(f, i, "reduction") > 0)
            return i;
    return SIZE_MAX;
}

static const char no_tuner[] = "the run has no tuner row (regspill's register-cap sweep: a toolchain that takes a "
                               "cap, CUDA or NVIDIA's OpenCL, on an architecture of the occupancy table)";

/* Figs 4.4-4.6: the critical points' speed-up over the compiler's default
 * beside the exhaustive search's, and the search's reduction, against the
 * thesis's GPU of target ("GTX570 (Fermi)", ...). */
static void tuner_against(const rr_device *d, const rr_thesis *th, const char *target, rr_outcome *o)
{
    const rr_file *f = rr_results(d, "regspill");
    size_t row = tuner_row(f);
    if (row == SIZE_MAX)
        return rr_not_measurable(o, "%s", no_tuner);
    rr_rests_on(o, f, row);
    double cp = rr_param(f, row, "speedup_cp"), best = rr_param(f, row, "speedup_best");
    double reduction = rr_param(f, row, "reduction"), th_cp = NAN, th_best = NAN, th_reduction = NAN;
    size_t i = 0;
    char cite[200];
    for (const rr_value *v; (v = rr_next_value(th, target, NULL, &i)) != NULL;) {
        bool is_cp = strstr(v->key, "CP-based") != NULL, speedup = strcmp(v->quantity, "speedup_pct") == 0;
        if (!speedup && strcmp(v->quantity, "search_space_reduction") != 0)
            continue;
        rr_cite(v, cite, sizeof cite);
        double run = !speedup ? reduction : 100 * ((is_cp ? cp : best) - 1);
        rr_add_pair(o, v->quantity, v->key, v->unit, v->value, run,
                    speedup ? "time at the compiler's default ÷ at the chosen cap, minus 1" : "caps ÷ critical points",
                    cite);
        *(speedup ? is_cp ? &th_cp : &th_best : &th_reduction) = v->value;
    }
    double th_share = (1 + th_cp / 100) / (1 + th_best / 100), share = cp / best;
    rr_add_pair(o, "cp_over_exhaustive", "speed-up", "x", th_share, share,
                "the critical points' speed-up ÷ the exhaustive search's", target);
    RR_SAY(o, this_device, "the critical points %+.1f%%, the exhaustive search %+.1f%% over the default, %.3g times "
                           "fewer points", 100 * (cp - 1), 100 * (best - 1), reduction);
    RR_SAY(o, rule, "one kernel (regspill's) against the thesis's mean of 12 applications: reproduced: the critical "
                    "points fall short of the exhaustive optimum by at most twice the thesis's shortfall (%.3f) and "
                    "the search shrinks within 2x of the thesis's %.3gx; holds qualitatively: short by 5%% or less "
                    "with the search shrunk 2x or more; differs: otherwise",
           1 - th_share, th_reduction);
    double shortfall = 1 - share;
    bool shrinks = reduction >= th_reduction / 2 && reduction <= th_reduction * 2;
    o->verdict = shortfall <= 2 * (1 - th_share) + 1e-9 && shrinks ? RR_REPRODUCED
                 : shortfall <= 0.05 && reduction >= 2      ? RR_QUALITATIVE
                                                            : RR_DIFFERS;
    RR_SAY(o, reason, "short of the optimum by %.3f (the thesis %.3f), the search %.3gx smaller (the thesis %.3gx)",
           shortfall, 1 - th_share, reduction, th_reduction);
}

static void rr_li_fig44(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    tuner_against(d, th, "li-fig4.4", o);
}

static void rr_li_fig45(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    tuner_against(d, th, "li-fig4.5", o);
}

static void rr_li_fig46(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    tuner_against(d, th, "li-fig4.6", o);
}

/* Ch. 4: timing only the critical points gains about 10% (up to 50%) over
 * the default and shrinks the search up to 20x. */
static void rr_li_critical_points(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *f = rr_results(d, "regspill");
    size_t row = tuner_row(f);
    if (row == SIZE_MAX)
        return rr_not_measurable(o, "%s", no_tuner);
    rr_rests_on(o, f, row);
    double cp = rr_param(f, row, "speedup_cp"), share = cp / rr_param(f, row, "speedup_best");
    double reduction = rr_param(f, row, "reduction");
    rr_pair_each(o, th, "li-critical-points", "speedup_pct", "%", 100 * (cp - 1),
                 "time at the compiler's default ÷ at the best critical point, minus 1");
    rr_pair_each(o, th, "li-critical-points", "speedup", "x", cp, "time at the default ÷ at the best critical point");
    rr_pair_each(o, th, "li-critical-points", "search_space_reduction", "x", reduction, "caps ÷ critical points");
    RR_SAY(o, this_device, "the best critical point %+.1f%% over the default, %.3f of the exhaustive optimum's "
                           "speed-up, %.3g times fewer points", 100 * (cp - 1), share, reduction);
    RR_SAY(o, rule, "reproduced: the critical points' speed-up over the compiler's default within the thesis's "
                    "0-50%%, within 1%% of the exhaustive optimum, the search shrunk 2x or more; holds "
                    "qualitatively: within 5%% of the optimum, the search shrunk 2x or more; differs: otherwise");
    bool optimum = share >= 0.99, near = share >= 0.95, shrunk = reduction >= 2;
    o->verdict = cp >= 1 && cp <= 1.5 && optimum && shrunk ? RR_REPRODUCED
                 : near && shrunk                          ? RR_QUALITATIVE
                                                           : RR_DIFFERS;
    RR_SAY(o, reason, "speed-up %.3gx over the default, %.3f of the optimum's, search %.3gx smaller", cp, share,
           reduction);
}

/* The register-cap sweep as Figs 4.7-4.9 read it. */
typedef struct {
    size_t caps, levels, critical, levels_checked, levels_stepped;
    double spill_gone_at; /* the cap from which no cap spills; NaN where the top one does */
    bool spills;          /* some cap spills */
} cap_profile;

/* The profile of the reg-cap rows with their occupancy; false where
 * fewer than 2 have it. Its evidence and flags into o. */
static bool cap_profile_of(const rr_file *f, cap_profile *p, rr_outcome *o)
{
    enum { MAX = 256 };
    double cap[MAX], secs[MAX], blocks[MAX];
    bool critical[MAX];
    size_t n = 0, first = SIZE_MAX, last = 0;
    *p = (cap_profile){0, 0, 0, 0, 0, NAN, false};
    for (size_t i = 0; f && i < f->table.nrows && n < MAX; ++i) {
        double spill = rr_param(f, i, "spill_store_bytes") + rr_param(f, i, "spill_load_bytes");
        if (!rr_row_is(f, i, "reg-cap", "registers") || !isfinite(rr_param(f, i, "blocks_per_sm")) ||
            !(rr_num(f, i, "median_s") > 0) || !isfinite(spill))
            continue;
        cap[n] = rr_param(f, i, "cap");
        secs[n] = rr_num(f, i, "median_s");
        blocks[n] = rr_param(f, i, "blocks_per_sm");
        critical[n] = rr_param(f, i, "critical_point") == 1;
        p->critical += critical[n];
        p->spills |= spill > 0;
        p->spill_gone_at = spill > 0 ? NAN : isnan(p->spill_gone_at) ? cap[n] : p->spill_gone_at;
        first = first == SIZE_MAX ? i : first;
        last = i;
        rr_add_flags(o, rr_get(f, i, "flags"));
        ++n;
    }
    if (n < 2)
        return false;
    rr_rests_on_rows(o, f, first, last);
    p->caps = n;
    /* Each concurrency level (blocks per SM): its critical point, the
     * last cap of the level, within 3% of the level's best time. */
    for (size_t k = 0; k < n; ++k) {
        bool seen = false;
        for (size_t j = 0; j < k; ++j)
            seen |= blocks[j] == blocks[k];
        if (seen)
            continue;
        ++p->levels;
        double best = INFINITY, at_cp = NAN;
        size_t members = 0;
        for (size_t j = 0; j < n; ++j)
            if (blocks[j] == blocks[k]) {
                ++members;
                best = secs[j] < best ? secs[j] : best;
                at_cp = critical[j] ? secs[j] : at_cp;
            }
        if (members < 2 || isnan(at_cp))
            continue;
        ++p->levels_checked;
        p->levels_stepped += at_cp <= 1.03 * best;
    }
    return true;
}

static const char no_caps[] = "the run has no register-cap sweep with its occupancy (regspill's reg-cap rows: a "
                              "toolchain that takes a cap, on an architecture of the occupancy table)";

/* Whether the profile has Fig. 4.7's two shapes: spills gone before the
 * top cap, and time in steps (each level's critical point its best). */
static bool stepped(const cap_profile *p)
{
    return p->spills && isfinite(p->spill_gone_at) && p->levels_checked > 0 && p->levels_stepped == p->levels_checked;
}

static void say_profile(const cap_profile *p, rr_outcome *o)
{
    RR_SAY(o, this_device, "%zu caps, %zu concurrency level(s), %zu critical point(s); spills %s; %zu of %zu levels "
                           "at their best (within 3%%) at the critical point", p->caps, p->levels, p->critical,
           !p->spills ? "never" : isfinite(p->spill_gone_at) ? "stop below the top cap" : "last to the top cap",
           p->levels_stepped, p->levels_checked);
    rr_add_pair(o, "spill_gone_at", "cap", "registers", NAN, p->spill_gone_at,
                "the cap from which no cap spills (empty: the top one spills)", "Fig. 4.7 (shape)");
}

/* The run's profile into p, said in o; false (o not measurable) where the
 * run has none. */
static bool profile_of(const rr_device *d, cap_profile *p, rr_outcome *o)
{
    if (!cap_profile_of(rr_results(d, "regspill"), p, o)) {
        rr_not_measurable(o, "%s", no_caps);
        return false;
    }
    say_profile(p, o);
    return true;
}

static const char profile_rule[] =
    "the register caps' rows: spills stop below the top cap, and time moves in steps at the concurrency levels "
    "(in every level of two caps or more, the critical point, its last cap, within 3% of the level's best); the "
    "local L1 hit rate is not measured (no hardware counters)";

/* Fig. 4.7: on Fermi, time in steps at the concurrency levels, spills
 * gone before the top of the register region. */
static void rr_li_fig47(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    cap_profile p;
    if (!profile_of(d, &p, o))
        return;
    RR_SAY(o, rule, "%s; holds qualitatively: both; differs: not; the figure prints no numbers", profile_rule);
    o->verdict = stepped(&p) ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%s", stepped(&p) ? "spills stop below the top cap and each level is at its best at its critical point"
                                        : "spills do not stop below the top cap, or a level's critical point is not its best");
}

/* Fig. 4.8: on Kepler the same profiles, about five critical points a
 * kernel. */
static void rr_li_fig48(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    cap_profile p;
    if (!profile_of(d, &p, o))
        return;
    const rr_value *v = rr_value_keyed(th, "li-fig4.8", "critical_points_per_app", "all apps Tesla K40 (Kepler)");
    double five = v ? v->value : NAN;
    char cite[200] = "";
    if (v)
        rr_cite(v, cite, sizeof cite);
    rr_add_pair(o, "critical_points", "this kernel", "points", five, (double)p.critical,
                "critical points over the register region", cite);
    RR_SAY(o, rule, "%s; reproduced: both, with the critical points within 2x of the thesis's about %.0f; holds "
                    "qualitatively: both; differs: not. The occupancies of LEU, DCT and MRG are those applications' "
                    "shared-memory and block limits, and SGM's hit rate needs counters: not compared",
           profile_rule, five);
    bool count = p.critical >= five / 2 && p.critical <= five * 2;
    o->verdict = stepped(&p) ? count ? RR_REPRODUCED : RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu critical points against about %.0f; the profile %s", p.critical, five,
           stepped(&p) ? "holds" : "does not hold");
}

/* Fig. 4.9: on Maxwell the same, and the occupancy moves with the
 * registers once the block cap no longer holds it. */
static void rr_li_fig49(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    cap_profile p;
    if (!profile_of(d, &p, o))
        return;
    rr_add_pair(o, "concurrency_levels", "this kernel", "levels", NAN, (double)p.levels,
                "distinct blocks per SM over the caps", "Fig. 4.9 (shape)");
    RR_SAY(o, rule, "%s; holds qualitatively: both, and the occupancy takes two values or more over the caps (the "
                    "registers, not the block cap, set the concurrency); differs: not; the figure prints no numbers",
           profile_rule);
    o->verdict = stepped(&p) && p.levels >= 2 ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu concurrency level(s); the profile %s", p.levels, stepped(&p) ? "holds" : "does not hold");
}

static const rr_target targets[] = {
    {"li-fig4.1", rr_li_fig41}, {"li-fig4.4", rr_li_fig44}, {"li-fig4.5", rr_li_fig45}, {"li-fig4.6", rr_li_fig46},
    {"li-fig4.7", rr_li_fig47}, {"li-fig4.8", rr_li_fig48}, {"li-fig4.9", rr_li_fig49},
    {"li-critical-points", rr_li_critical_points},
};
const cr_bench_part rr_targets_regspill = {targets, sizeof targets / sizeof targets[0]};
