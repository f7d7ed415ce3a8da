/* What Lee 2012 found of the memory paths that this benchmark's rows show
 * (tools/reproduce): Table 3.2's paths, Table 3.3's two routes to a host
 * buffer. */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "shared/bench_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
static void rr_lee_table32(const rr_device *d, const rr_thesis *th, rr_outcome *o)
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
static void rr_lee_table33(const rr_device *d, const rr_thesis *th, rr_outcome *o)
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

static const rr_target targets[] = {
    {"lee-table3.2", "Lee 2012, Table 3.2: the memory paths of an APU", rr_lee_table32},
    {"lee-table3.3", "Lee 2012, Table 3.3: a host buffer by the Onion and the Garlic route", rr_lee_table33},
};
const cr_bench_part rr_targets_bandwidth = {targets, sizeof targets / sizeof targets[0]};
