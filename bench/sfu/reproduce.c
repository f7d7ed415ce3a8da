/* What Li 2016 found of fast and precise math that this benchmark's rows
 * show (tools/reproduce): Tables 6.4 and 6.5, the partition of Figs
 * 6.3-6.4. */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "shared/bench_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The function of the run's SFU table that a thesis row names. */
static const char *run_function(const char *thesis_function)
{
    static const char *const names[][2] = {{"x/y", "div"},   {"1/x", "rcp"},  {"√x", "sqrt"},  {"1/√x", "rsqrt"},
                                           {"x^y", "pow"},   {"e^x", "exp"},  {"ln(x)", "log"}, {"sin(x)", "sin"},
                                           {"cos(x)", "cos"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
        if (strcmp(names[i][0], thesis_function) == 0)
            return names[i][1];
    return NULL;
}

/* The best verified throughput row of func/version in dtype; SIZE_MAX
 * where there is none. */
static size_t sfu_row(const rr_file *f, const char *func, const char *dtype, const char *version)
{
    char variant[96];
    snprintf(variant, sizeof variant, "%s/%s", func, version);
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (strcmp(rr_get(f, i, "variant"), variant) == 0 && strcmp(rr_get(f, i, "dtype"), dtype) == 0 &&
            strcmp(rr_get(f, i, "sweep"), "throughput") == 0 && strcmp(rr_get(f, i, "valid"), "1") == 0 &&
            rr_num(f, i, "figure") > 0 && (best == SIZE_MAX || rr_num(f, i, "figure") > rr_num(f, best, "figure")))
            best = i;
    return best;
}

/* The thesis's T/M of a function on an architecture in a version. */
static const rr_value *table6_tm(const rr_thesis *th, const char *target, const char *func, const char *dtype,
                                 const char *arch, const char *version)
{
    char key[96];
    snprintf(key, sizeof key, "%s %s %s %s", func, dtype, arch, version);
    return rr_value_keyed(th, target, "throughput_per_sm_Gops", key);
}

typedef struct {
    size_t compared, within, faster;
    char slower[200];
} sfu_tally;

/* One function: the thesis's SFU ÷ SPU (or DPU) per architecture beside
 * the run's fast ÷ precise throughput. */
static void sfu_function(const rr_thesis *th, const char *target, const char *thesis_function, const char *slow,
                         const rr_file *t, const char *dtype, rr_outcome *o, sfu_tally *tally)
{
    const char *func = run_function(thesis_function);
    size_t precise = func ? sfu_row(t, func, dtype, "precise") : SIZE_MAX, fast = SIZE_MAX;
    /* The thesis's SFU version is PTX's approximate instruction: CUDA's
     * ptx-approx, OpenCL's native; failing those the next fastest kind. */
    static const char *const fast_versions[] = {"ptx-approx", "native", "intrinsic", "relaxed-math"};
    const char *fast_version = NULL;
    for (size_t k = 0; func && fast == SIZE_MAX && k < sizeof fast_versions / sizeof *fast_versions; ++k)
        fast = sfu_row(t, func, dtype, fast_version = fast_versions[k]);
    if (precise == SIZE_MAX || fast == SIZE_MAX)
        return;
    double run = rr_num(t, fast, "figure") / rr_num(t, precise, "figure");
    static const char *const archs[] = {"Fermi", "Kepler", "Maxwell"};
    double lo = NAN, hi = NAN;
    char key[96], basis[160];
    snprintf(basis, sizeof basis, "the fast version's throughput ÷ the precise one's (run: %s ÷ precise)",
             fast_version);
    for (size_t a = 0; a < 3; ++a) {
        const rr_value *fast_tm = table6_tm(th, target, thesis_function, dtype, archs[a], "SFU"),
                       *slow_tm = table6_tm(th, target, thesis_function, dtype, archs[a], slow);
        if (fast_tm == NULL || slow_tm == NULL)
            continue;
        double ratio = fast_tm->value / slow_tm->value;
        char cite[200];
        rr_cite(fast_tm, cite, sizeof cite);
        if (!isfinite(ratio))
            continue;
        snprintf(key, sizeof key, "%s %s", func, archs[a]);
        rr_add_pair(o, "fast_over_precise", key, "x", ratio, run, basis, cite);
        lo = isnan(lo) || ratio < lo ? ratio : lo;
        hi = isnan(hi) || ratio > hi ? ratio : hi;
    }
    if (isnan(lo))
        return;
    rr_rests_on(o, t, precise);
    rr_rests_on(o, t, fast);
    tally->compared++;
    tally->within += run >= lo / 1.5 && run <= hi * 1.5;
    tally->faster += run > 1.1;
    if (run <= 1.1)
        rr_say(tally->slower, sizeof tally->slower, "%s%s %.2fx", *tally->slower ? ", " : "", func, run);
}

static void sfu_table(const rr_device *d, const rr_thesis *th, const char *target, const char *dtype,
                      const char *slow, rr_outcome *o)
{
    const rr_file *t = rr_results(d, "sfu");
    if (t == NULL)
        return rr_not_measurable(o, "the run has no SFU results");
    static const char *const functions[] = {"x/y", "1/x", "√x", "1/√x", "x^y", "e^x", "ln(x)", "sin(x)", "cos(x)"};
    sfu_tally tally = {0};
    for (size_t i = 0; i < sizeof functions / sizeof *functions; ++i)
        sfu_function(th, target, functions[i], slow, t, dtype, o, &tally);
    if (tally.compared == 0)
        return rr_not_measurable(o, "no function of the thesis has a verified precise and fast throughput in %s here", dtype);
    RR_SAY(o, rule,
           "per function, the fast version's throughput ÷ the precise one's against the thesis's SFU ÷ %s T/M on "
           "Fermi, Kepler and Maxwell; reproduced: 3 in 4 functions within the thesis's range widened 1.5x; holds "
           "qualitatively: 3 in 4 faster by over 1.1x; differs: fewer",
           slow);
    RR_SAY(o, this_device, "%zu of %zu functions faster in their fast version (%s)", tally.faster, tally.compared,
           dtype);
    o->verdict = 4 * tally.within >= 3 * tally.compared   ? RR_REPRODUCED
                 : 4 * tally.faster >= 3 * tally.compared ? RR_QUALITATIVE
                                                          : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of %zu within the thesis's range, %zu faster%s%s", tally.within, tally.compared,
           tally.faster, *tally.slower ? "; not faster: " : "", tally.slower);
}

static void rr_li_table64(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    sfu_table(d, th, "li-table6.4", "float", "SPU", o);
}

static void rr_li_table65(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    sfu_table(d, th, "li-table6.5", "double", "DPU", o);
}

/* Figs 6.3-6.4: the best throughput is (almost always) all-fast. */
static void rr_li_partition(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    const rr_file *f = rr_results(d, "sfu");
    if (f == NULL)
        return rr_not_measurable(o, "the run has no SFU results");
    size_t curves = 0, best_at_end = 0;
    char variant[128] = "";
    for (size_t i = 0; i < f->table.nrows; ++i) {
        if (strcmp(rr_get(f, i, "sweep"), "partition") != 0 || strcmp(rr_get(f, i, "variant"), variant) == 0)
            continue;
        snprintf(variant, sizeof variant, "%s", rr_get(f, i, "variant"));
        double best = 0, all_fast = NAN;
        for (size_t j = i; j < f->table.nrows && strcmp(rr_get(f, j, "variant"), variant) == 0; ++j) {
            if (strcmp(rr_get(f, j, "sweep"), "partition") != 0 || strcmp(rr_get(f, j, "valid"), "1") != 0)
                continue;
            double g = rr_num(f, j, "figure");
            best = g > best ? g : best;
            if (rr_param(f, j, "lambda") == 1)
                all_fast = g;
            rr_rests_on(o, f, j);
        }
        if (!(best > 0) || isnan(all_fast))
            continue;
        ++curves;
        best_at_end += all_fast >= 0.95 * best;
        rr_add_pair(o, "all_fast_over_best", variant, "x", 1.0, all_fast / best,
                    "throughput with every unit fast ÷ the best partition's (thesis: the best is all-fast)",
                    "Figs 6.3-6.4");
    }
    if (curves == 0)
        return rr_not_measurable(o, "the run has no partition sweep with its all-fast point");
    RR_SAY(o, rule, "holds qualitatively: in 3 of 4 curves or more the all-fast point is within 5%% of the best "
                    "(the thesis: best almost always all-SFU); differs: fewer. The thesis prints no numbers to "
                    "reproduce");
    RR_SAY(o, this_device, "all-fast best (within 5%%) in %zu of %zu curves", best_at_end, curves);
    o->verdict = 4 * best_at_end >= 3 * curves ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of %zu partition curves peak at all-fast", best_at_end, curves);
}

static const rr_target targets[] = {
    {"li-table6.4", rr_li_table64}, {"li-table6.5", rr_li_table65}, {"li-partition", rr_li_partition},
};
const cr_bench_part rr_targets_sfu = {targets, sizeof targets / sizeof targets[0]};
