/* Li 2016: the memory system's R (Table 3.2), the SFU against the SPU/DPU
 * (Tables 6.4 and 6.5), the fast/precise partition (Figs 6.3-6.4) and the
 * register spill (Fig. 4.1). */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "reproduce/targets.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The nominal bandwidth of the GPU a value of Table 3.2 is keyed by
 * ("GTX570 float": "GTX570"). */
static double table32_memory(const rr_thesis *th, const char *key)
{
    size_t i = 0, n = strcspn(key, " ");
    for (const rr_value *v; (v = rr_next_value(th, "li-table3.2", "mem_GBps", &i)) != NULL;)
        if (strlen(v->key) == n && strncmp(v->key, key, n) == 0)
            return v->value;
    return NAN;
}

static size_t xgraph_row(const rr_file *f, const char *parameter, const char *dtype)
{
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (strcmp(rr_get(f, i, "parameter"), parameter) == 0 && strcmp(rr_get(f, i, "dtype"), dtype) == 0 &&
            isfinite(rr_num(f, i, "value")))
            return i;
    return SIZE_MAX;
}

/* Table 3.2: R over the memory's peak, the thesis GPUs' against the run's,
 * for float and double. */
void rr_li_table32(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *x = rr_named(d, "xgraph-params.csv");
    double peak = NAN;
    const char *peak_text = rr_meta(d, "stream", "peak.memory_GBps");
    if (*peak_text)
        cr_number_fault(peak_text, &peak);
    if (x == NULL)
        return rr_not_measurable(o, "the run has no X-model fit (xgraph-params.csv): xgraph did not run here");
    if (!(peak > 0))
        return rr_not_measurable(o, "the run records no memory peak (peak.memory_GBps) to scale R by");
    static const char *const dtypes[] = {"float", "double"};
    size_t compared = 0, within = 0, premise_fails = 0;
    char cite[200];
    for (size_t k = 0; k < 2; ++k) {
        size_t row = xgraph_row(x, "R", dtypes[k]);
        if (row == SIZE_MAX)
            continue;
        rr_rests_on(o, x, row);
        double run = rr_num(x, row, "value") / peak, lo = NAN, hi = NAN;
        size_t i = 0, n = 0;
        for (const rr_value *v; (v = rr_next_value(th, "li-table3.2", "R_GBps", &i)) != NULL;) {
            if (strstr(v->key, dtypes[k]) == NULL)
                continue;
            double ratio = v->value / table32_memory(th, v->key);
            rr_cite(v, cite, sizeof cite);
            rr_add_pair(o, "R_over_memory_peak", v->key, "x", ratio, run, "R ÷ the memory's peak", cite);
            lo = n == 0 || ratio < lo ? ratio : lo;
            hi = n == 0 || ratio > hi ? ratio : hi;
            ++n;
        }
        ++compared;
        bool cache = strstr(rr_get(x, row, "flags"), "cache") != NULL;
        premise_fails += cache;
        within += !cache && run >= lo - 0.1 && run <= hi + 0.1;
        RR_SAY(o, this_device, "%sR %s = %.3g GB/s, %.2f of the memory's peak (%.4g GB/s)%s", k && *o->this_device ? "; " : "",
               dtypes[k], rr_num(x, row, "value"), run, peak, cache ? ", the cache's" : "");
        RR_SAY(o, reason, "%s%s: %.2f against the thesis's %.2f-%.2f", *o->reason ? "; " : "", dtypes[k], run, lo, hi);
    }
    if (compared == 0)
        return rr_not_measurable(o, "xgraph-params.csv has no R");
    RR_SAY(o, rule,
           "R ÷ the memory's peak (the run's peak.memory_GBps; the thesis's nominal bandwidth); reproduced: within "
           "0.1 of the thesis GPUs' range for every type; holds qualitatively: f(k) reaches a plateau R (the fit "
           "found one); differs: R is not memory's (the arrays sat in a cache: the premise fails)");
    if (premise_fails > 0) {
        o->verdict = RR_DIFFERS;
        RR_SAY(o, reason, "; the triad arrays sat in the last-level cache (flag cache): R is the cache's bandwidth");
    } else {
        o->verdict = within == compared ? RR_REPRODUCED : RR_QUALITATIVE;
    }
}

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
static double table6_tm(const rr_thesis *th, const char *target, const char *func, const char *dtype,
                        const char *arch, const char *version)
{
    char key[96];
    snprintf(key, sizeof key, "%s %s %s %s", func, dtype, arch, version);
    const rr_value *v = rr_value_keyed(th, target, "throughput_per_sm_Gops", key);
    return v ? v->value : NAN;
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
        double ratio = table6_tm(th, target, thesis_function, dtype, archs[a], "SFU") /
                       table6_tm(th, target, thesis_function, dtype, archs[a], slow);
        if (!isfinite(ratio))
            continue;
        snprintf(key, sizeof key, "%s %s", func, archs[a]);
        rr_add_pair(o, "fast_over_precise", key, "x", ratio, run, basis, target);
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

void rr_li_table64(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    sfu_table(d, th, "li-table6.4", "float", "SPU", o);
}

void rr_li_table65(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    sfu_table(d, th, "li-table6.5", "double", "DPU", o);
}

/* Figs 6.3-6.4: the best throughput is (almost always) all-fast. */
void rr_li_partition(const rr_device *d, const rr_thesis *th, rr_outcome *o)
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

/* Fig. 4.1: throughput falls once live values spill out of registers. */
void rr_li_fig41(const rr_device *d, const rr_thesis *th, rr_outcome *o)
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
