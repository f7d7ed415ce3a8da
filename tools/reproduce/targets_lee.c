/* Lee 2012: contended atomics (Fig. 4.3), the launch of an empty kernel
 * (Table 4.1) and the memory paths of an APU (Table 3.2). */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "reproduce/targets.h"

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
void rr_lee_fig43(const rr_device *d, const rr_thesis *th, rr_outcome *o)
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

/* Table 4.1: the mean of 100 launches of an empty kernel, enqueue to
 * completion on the host clock (as the thesis timed it). */
void rr_lee_table41(const rr_device *d, const rr_thesis *th, rr_outcome *o)
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

/* Table 3.2's rows, each the bandwidth path that measures the same thing:
 * OpenCL's (a host buffer is an ALLOC_HOST_PTR buffer; the kernel rows
 * take its READ_ONLY/WRITE_ONLY form, as Table 3.3 does on Llano), then
 * CUDA's where it names it otherwise (pinned copies, mapped memory). */
static const char *const table32_rows[][3] = {
    {"Host Buffer → Device Buffer", "h2d-write-pinned", "h2d-memcpy-pinned-async"},
    {"Host Buffer ← Device Buffer", "d2h-read-pinned", "d2h-memcpy-pinned-async"},
    {"CPU ← Host Buffer (Read)", "cpu-read-host", NULL},
    {"CPU → Host Buffer (Write)", "cpu-write-host", NULL},
    {"GPU ← Host Buffer (Read)", "kernel-read-host-ro", "kernel-read-mapped"},
    {"GPU → Host Buffer (Write)", "kernel-write-host-wo", "kernel-write-mapped"},
    {"CPU ← Device Buffer (Read)", "cpu-read-device", NULL},
    {"CPU → Device Buffer (Write)", "cpu-write-device", NULL},
    {"GPU ← Device Buffer (Read)", "kernel-read-device", NULL},
    {"GPU → Device Buffer (Write)", "kernel-write-device", NULL},
};

/* The largest verified size's row of a row's path, under either name. */
static size_t table32_run_row(const rr_file *f, size_t k, const char **path)
{
    size_t row = rr_largest_row(f, *path = table32_rows[k][1], "size", NULL);
    if (row == SIZE_MAX && table32_rows[k][2] != NULL)
        row = rr_largest_row(f, *path = table32_rows[k][2], "size", NULL);
    return row;
}

/* The machine of Table 3.2 to hold a device against: the discrete GPU,
 * or Llano (the faster APU) for a device sharing the host's memory. */
static const char *table32_machine(const rr_device *d)
{
    const char *type = rr_meta(d, "bandwidth", "device.type");
    const char *unified = rr_meta(d, "bandwidth", "device.unified_memory");
    return strcmp(type, "cpu") == 0 || strcmp(unified, "1") == 0 ? "Llano (A8-3850)" : "Discrete (Radeon HD 5870)";
}

/* The thesis's value of a row on a machine: "<row>, <machine>". */
static const rr_value *table32_value(const rr_thesis *th, const char *row, const char *machine)
{
    char key[160];
    snprintf(key, sizeof key, "%s, %s", row, machine);
    return rr_value_keyed(th, "lee-table3.2", "bandwidth_GBps", key);
}

/* Table 3.2: each path's bandwidth over the kernel's read of a device
 * buffer, the thesis's machine's against the run's, and their order. */
void rr_lee_table32(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *f = rr_results(d, "bandwidth");
    if (f == NULL)
        return rr_not_measurable(o, "the run has no bandwidth results");
    const char *machine = table32_machine(d);
    const rr_value *base_value = table32_value(th, table32_rows[8][0], machine);
    const char *path;
    size_t base = table32_run_row(f, 8, &path);
    double base_run = base == SIZE_MAX ? NAN : rr_num(f, base, "figure");
    if (!(base_run > 0) || base_value == NULL || !(base_value->value > 0))
        return rr_not_measurable(o, "the run has no verified kernel read of a device buffer to scale the paths by");
    double x[16], y[16];
    size_t n = 0;
    char cite[200];
    for (size_t k = 0; k < sizeof table32_rows / sizeof *table32_rows; ++k) {
        const rr_value *v = table32_value(th, table32_rows[k][0], machine);
        size_t row = table32_run_row(f, k, &path);
        if (v == NULL || row == SIZE_MAX)
            continue;
        rr_rests_on(o, f, row);
        x[n] = v->value / base_value->value;
        y[n] = rr_num(f, row, "figure") / base_run;
        rr_cite(v, cite, sizeof cite);
        rr_add_pair(o, "share_of_kernel_read", path, "x", x[n], y[n],
                    "the path's bandwidth ÷ the kernel's read of a device buffer, largest size", cite);
        ++n;
    }
    double rho = rr_spearman(x, y, n);
    if (!isfinite(rho))
        return rr_not_measurable(o, "fewer than 3 of the thesis's paths were measured here");
    RR_SAY(o, this_device, "%zu paths; their order against %s's: Spearman %.2f", n, machine, rho);
    RR_SAY(o, rule,
           "the paths scaled by the kernel's read of a device buffer, against the thesis's %s; reproduced: every "
           "one within 2x of the thesis's; holds qualitatively: the same order (Spearman rank correlation 0.7 or "
           "more); differs: below",
           machine);
    size_t within = 0;
    for (size_t k = 0; k < n; ++k)
        within += y[k] >= x[k] / 2 && y[k] <= x[k] * 2;
    o->verdict = within == n ? RR_REPRODUCED : rho >= 0.7 ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of %zu paths within 2x of the thesis's share; rank correlation %.2f", within, n, rho);
}

/* The bandwidth at the largest verified size of a path; NaN where none. */
static double path_bandwidth(const rr_file *f, const char *path, rr_outcome *o)
{
    size_t row = rr_largest_row(f, path, "size", NULL);
    if (row == SIZE_MAX)
        return NAN;
    rr_rests_on(o, f, row);
    return rr_num(f, row, "figure");
}

/* Table 3.3: a kernel's access to a host buffer by the Onion route
 * (READ_WRITE) over the Garlic route (READ_ONLY / WRITE_ONLY), reading and
 * writing, against Llano's. */
void rr_lee_table33(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *f = rr_results(d, "bandwidth");
    if (f == NULL)
        return rr_not_measurable(o, "the run has no bandwidth results");
    static const char *const paths[2][3] = {{"read", "kernel-read-host-rw", "kernel-read-host-ro"},
                                            {"write", "kernel-write-host-rw", "kernel-write-host-wo"}};
    static const char *const keys[2][2] = {{"Read (Onion), Llano (A8-3850)", "Read (Garlic), Llano (A8-3850)"},
                                           {"Write (Onion), Llano (A8-3850)", "Write (Garlic), Llano (A8-3850)"}};
    double run[2], thesis[2];
    for (size_t k = 0; k < 2; ++k) {
        run[k] = path_bandwidth(f, paths[k][1], o) / path_bandwidth(f, paths[k][2], o);
        const rr_value *onion = rr_value_keyed(th, "lee-table3.3", "bandwidth_GBps", keys[k][0]);
        const rr_value *garlic = rr_value_keyed(th, "lee-table3.3", "bandwidth_GBps", keys[k][1]);
        thesis[k] = onion && garlic ? onion->value / garlic->value : NAN;
        char cite[200] = "";
        if (onion)
            rr_cite(onion, cite, sizeof cite);
        rr_add_pair(o, "onion_over_garlic", paths[k][0], "x", thesis[k], run[k],
                    "READ_WRITE ÷ READ_ONLY (or WRITE_ONLY) bandwidth, largest size; thesis: Llano", cite);
    }
    if (!isfinite(run[0]) || !isfinite(run[1]))
        return rr_not_measurable(o, "the run lacks a verified kernel access to a host buffer by both routes");
    RR_SAY(o, this_device, "a kernel reads a READ_WRITE host buffer at %.2f and writes it at %.2f of the "
                           "one-way buffer's bandwidth", run[0], run[1]);
    RR_SAY(o, rule, "the READ_WRITE (Onion) route over the one-way (Garlic) one, reading and writing; reproduced: "
                    "both within 0.15 of Llano's (%.2f, %.2f); holds qualitatively: reads lose more than writes "
                    "(by 0.1 or more); differs: not",
           thesis[0], thesis[1]);
    bool within = fabs(run[0] - thesis[0]) <= 0.15 && fabs(run[1] - thesis[1]) <= 0.15;
    o->verdict = within ? RR_REPRODUCED : run[1] - run[0] >= 0.1 ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "reads %.2f, writes %.2f against Llano's %.2f and %.2f%s", run[0], run[1], thesis[0],
           thesis[1], o->verdict == RR_DIFFERS ? ": the route makes no such difference here" : "");
}

/* The add on 32-bit words in global memory at each degree (work-items on
 * one counter): the degree into x, the throughput into y; their count. */
static size_t degree_curve(const rr_file *f, double *x, double *y, size_t max, rr_outcome *o)
{
    size_t n = 0;
    for (size_t i = 0; i < f->table.nrows && n < max; ++i)
        if (strcmp(rr_get(f, i, "variant"), "add") == 0 && strcmp(rr_get(f, i, "sweep"), "degree") == 0 &&
            strcmp(rr_get(f, i, "dtype"), "uint32") == 0 && strcmp(rr_get(f, i, "valid"), "1") == 0 &&
            strstr(rr_get(f, i, "params"), "space=global") != NULL && rr_num(f, i, "figure") > 0 &&
            rr_param(f, i, "degree") >= 1) {
            x[n] = rr_param(f, i, "degree");
            y[n++] = rr_num(f, i, "figure");
            rr_rests_on(o, f, i);
        }
    return n;
}

/* Samadi's Fig. 5.3a: atomicAdd's throughput falls as the conflicts per
 * warp rise, roughly as their inverse. */
void rr_samadi_fig53a(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    const rr_file *f = rr_results(d, "atomics");
    double x[32], y[32];
    size_t n = f ? degree_curve(f, x, y, 32, o) : 0;
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
