/* What the theses found of atomics that this benchmark's rows show
 * (tools/reproduce): Lee 2012's contended atomics (Fig. 4.3), atomics
 * against the stride (Fig. 4.4) and empty kernel's launch (Table 4.1), Samadi 2014's atomic add against conflicts
 * (Fig. 5.3a). */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "shared/bench_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The contention ratio of add on 32-bit words in global memory. */
static size_t global_add_ratio(const rr_file *f)
{
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (strcmp(rr_get(f, i, "variant"), "add") == 0 && strcmp(rr_get(f, i, "sweep"), "ratio") == 0 &&
            strcmp(rr_get(f, i, "dtype"), "uint32") == 0 && strcmp(rr_get(f, i, "valid"), "1") == 0 &&
            isfinite(rr_num(f, i, "figure")) && strstr(rr_get(f, i, "params"), "space=global") != NULL)
            return i;
    return SIZE_MAX;
}

/* Fig. 4.3's factors: every work-item on one address against each on its
 * own, add on 32-bit words in global memory. */
static void rr_lee_fig43(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *f = rr_results(d, "atomics");
    size_t row = f ? global_add_ratio(f) : SIZE_MAX;
    if (row == SIZE_MAX)
        return rr_not_measurable(o, "the run has no verified contention ratio of add on uint32 in global memory (atomics' ratio sweep)");
    double lo, hi, run = rr_num(f, row, "figure");
    rr_thesis_range(th, "lee-fig4.3", "slowdown_ratio", &lo, &hi);
    rr_rests_on(o, f, row);
    rr_pair_each(o, th, "lee-fig4.3", "slowdown_ratio", "x", run, "contended ÷ uncontended atomic add throughput");
    double degree = rr_param(f, row, "degree_high");
    RR_SAY(o, this_device, "contended add %.3gx slower (%.0f work-items on one address against one each)", run,
           degree);
    RR_SAY(o, rule,
           "reproduced: the factor within the thesis GPUs' range %.3g-%.3g, widened 1.5x each way; holds "
           "qualitatively: contended slower by more than 1.1x; differs: not slower",
           lo, hi);
    if (run >= lo / 1.5 && run <= hi * 1.5)
        o->verdict = RR_REPRODUCED;
    else
        o->verdict = run > 1.1 ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%.3gx against %.3g-%.3gx in the thesis%s", run, lo, hi,
           run > 1.1 && o->verdict != RR_REPRODUCED ? ": slower when contended, by another factor (the thesis put "
                                                      "every work-item of a grid on one address)"
                                                    : "");
}

/* op's curve over a sweep's knob (its param, "degree" or "stride"), uint32
 * in global memory: the knob into x, the throughput into y; their count. */
static size_t curve(const rr_file *f, const char *op, const char *knob, double *x, double *y, size_t max,
                    rr_outcome *o)
{
    size_t n = 0;
    for (size_t i = 0; i < f->table.nrows && n < max; ++i)
        if (rr_row_is(f, i, op, knob) && strcmp(rr_get(f, i, "dtype"), "uint32") == 0 &&
            strstr(rr_get(f, i, "params"), "space=global") != NULL && rr_num(f, i, "figure") > 0 &&
            rr_param(f, i, knob) >= 1) {
            x[n] = rr_param(f, i, knob);
            y[n++] = rr_num(f, i, "figure");
            rr_rests_on(o, f, i);
        }
    return n;
}

/* The smallest stride from which every larger one is within 10% of the
 * best of them: where the curve levels. */
static double saturation_stride(const double *x, const double *y, size_t n)
{
    double at = NAN;
    for (size_t k = 0; k < n; ++k) {
        double best = 0, worst = INFINITY;
        for (size_t j = 0; j < n; ++j)
            if (x[j] >= x[k]) {
                best = y[j] > best ? y[j] : best;
                worst = y[j] < worst ? y[j] : worst;
            }
        if (worst >= 0.9 * best && (isnan(at) || x[k] < at))
            at = x[k];
    }
    return at;
}

/* Fig. 4.4: atomic writes (xchg) flat against the stride; atomic reads
 * (add 0) level from a stride of 2 to 4 elements on the AMD GPUs. */
static void rr_lee_fig44(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *f = rr_results(d, "atomics");
    double wx[32], wy[32], rx[32], ry[32];
    size_t nw = f ? curve(f, "xchg", "stride", wx, wy, 32, o) : 0, nr = f ? curve(f, "read", "stride", rx, ry, 32, o) : 0;
    if (nw < 3 || nr < 3)
        return rr_not_measurable(o, "the run has fewer than 3 strides of xchg or of the atomic read on uint32 in "
                                    "global memory (atomics' stride sweep)");
    double lo = INFINITY, hi = 0;
    for (size_t k = 0; k < nw; ++k) {
        lo = wy[k] < lo ? wy[k] : lo;
        hi = wy[k] > hi ? wy[k] : hi;
    }
    double spread = hi / lo, read_at = saturation_stride(rx, ry, nr), th_lo, th_hi;
    rr_thesis_range(th, "lee-fig4.4", "read_saturation_stride", &th_lo, &th_hi);
    rr_pair_each(o, th, "lee-fig4.4", "read_saturation_stride", "elements", read_at,
                 "the stride from which atomic reads are within 10% of their best");
    rr_add_pair(o, "write_spread", "xchg", "x", 1, spread, "the fastest stride's xchg ÷ the slowest; thesis: flat",
                "Fig. 4.4 (shape)");
    RR_SAY(o, this_device, "xchg within %.2fx over %zu strides; reads level from stride %.0f", spread, nw, read_at);
    RR_SAY(o, rule,
           "xchg as the atomic write, add of 0 as the read, uint32 in global memory; reproduced: writes flat "
           "(within 1.25x over the strides) and reads level from a stride within the thesis's %.0f-%.0f elements; "
           "holds qualitatively: writes flat; differs: writes depend on the stride",
           th_lo, th_hi);
    bool flat = spread <= 1.25;
    o->verdict = flat && read_at >= th_lo && read_at <= th_hi ? RR_REPRODUCED : flat ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "writes %s (%.2fx); reads level from stride %.0f against the thesis's %.0f-%.0f",
           flat ? "flat" : "depend on the stride", spread, read_at, th_lo, th_hi);
}

/* Table 4.1: the mean of 100 launches of an empty kernel, enqueue to
 * completion on the host clock (as the thesis timed it). */
static void rr_lee_table41(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *f = rr_results(d, "atomics");
    size_t row = f ? rr_first_row(f, "round-trip", "launch", NULL) : SIZE_MAX;
    double mean_us = row == SIZE_MAX ? NAN : rr_param(f, row, "mean_us");
    if (!isfinite(mean_us))
        return rr_not_measurable(o, "the run has no launch round trip with its mean (atomics' launch sweep)");
    double lo, hi, run = mean_us / 1000.0;
    rr_thesis_range(th, "lee-table4.1", "launch_ms", &lo, &hi);
    rr_rests_on(o, f, row);
    rr_pair_each(o, th, "lee-table4.1", "launch_ms", "ms", run, "mean of the launches, enqueue to completion");
    RR_SAY(o, this_device, "an empty kernel's launch takes %.3g ms (mean)", run);
    RR_SAY(o, rule,
           "reproduced: within the thesis GPUs' range %.3g-%.3g ms, widened 2x each way; holds qualitatively: "
           "a launch costs tens of microseconds or more (above 0.01 ms); differs: below",
           lo, hi);
    o->verdict = run >= lo / 2 && run <= hi * 2 ? RR_REPRODUCED : run > 0.01 ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%.3g ms: %.2gx the thesis's fastest (%.3g ms)", run, run / lo, lo);
}

/* Samadi's Fig. 5.3a: atomicAdd's throughput falls as the conflicts per
 * warp rise, roughly as their inverse. */
static void rr_samadi_fig53a(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    const rr_file *f = rr_results(d, "atomics");
    double x[32], y[32];
    size_t n = f ? curve(f, "add", "degree", x, y, 32, o) : 0;
    double rho = rr_spearman(x, y, n);
    if (!isfinite(rho))
        return rr_not_measurable(o, "the run has fewer than 3 degrees of add on uint32 in global memory");
    /* The log-log slope between the smallest and the largest degree. */
    size_t lo = 0, hi = 0;
    for (size_t k = 1; k < n; ++k) {
        lo = x[k] < x[lo] ? k : lo;
        hi = x[k] > x[hi] ? k : hi;
    }
    double slope = log(y[hi] / y[lo]) / log(x[hi] / x[lo]);
    for (size_t k = 0; k < n; ++k) {
        char key[32];
        snprintf(key, sizeof key, "degree %.0f", x[k]);
        rr_add_pair(o, "over_one_each", key, "x", x[lo] / x[k], y[k] / y[lo],
                    "throughput ÷ at the smallest degree; thesis: as the inverse of the degree (its shape)",
                    "Fig. 5.3a (shape)");
    }
    RR_SAY(o, this_device, "throughput against degree %.0f-%.0f: log-log slope %.2f, rank correlation %.2f", x[lo],
           x[hi], slope, rho);
    RR_SAY(o, rule, "reproduced: the log-log slope between the extreme degrees within -1.3 to -0.7 (as the "
                    "inverse); holds qualitatively: throughput falls with the degree (rank correlation -0.7 or "
                    "less); differs: not");
    o->verdict = slope >= -1.3 && slope <= -0.7 ? RR_REPRODUCED : rho <= -0.7 ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "slope %.2f, rank correlation %.2f over %zu degrees", slope, rho, n);
}

static const rr_target targets[] = {
    {"lee-fig4.3", rr_lee_fig43}, {"lee-fig4.4", rr_lee_fig44}, {"lee-table4.1", rr_lee_table41},
    {"samadi-fig5.3a", rr_samadi_fig53a},
};
const cr_bench_part rr_targets_atomics = {targets, sizeof targets / sizeof targets[0]};
