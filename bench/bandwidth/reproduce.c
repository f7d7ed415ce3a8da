/* What Lee 2012 found of the memory paths that this benchmark's rows show
 * (tools/reproduce): Table 3.2's paths, Table 3.3's two routes to a host
 * buffer, and the transfer model B(S) = S/(c + S/b) of Figs 3.9-3.15:
 * its fits, their error, and its predictions of the techniques. */
#define _GNU_SOURCE
#include "reproduce/rules.h"
#include "shared/bench_parts.h"
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The row of path's fit (sweep fit, valid); SIZE_MAX where none. */
static size_t fit_row(const rr_file *f, const char *path)
{
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (rr_row_is(f, i, path, "fit") && rr_param(f, i, "b_GBps") > 0)
            return i;
    return SIZE_MAX;
}

/* The transfer path of Table 3.2's host-to-device (k 0) or
 * device-to-host (k 1) row that has a fit; NULL where neither name has. */
static const char *fitted_transfer(const rr_file *f, size_t k, size_t *row)
{
    for (size_t n = 1; n <= 2; ++n)
        if ((*row = fit_row(f, table32_rows[k][n])) != SIZE_MAX)
            return table32_rows[k][n];
    return NULL;
}

/* The measured bandwidth of path's smallest (smallest true) or largest
 * fitted size, from its fit-error rows; NaN where none. */
static double fitted_end(const rr_file *f, const char *path, bool smallest, rr_outcome *o)
{
    size_t at = SIZE_MAX;
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (rr_row_is(f, i, path, "fit-error") && isfinite(rr_param(f, i, "measured_GBps")) &&
            (at == SIZE_MAX || (rr_num(f, i, "size_bytes") < rr_num(f, at, "size_bytes")) == smallest))
            at = i;
    if (at == SIZE_MAX)
        return NAN;
    rr_rests_on(o, f, at);
    return rr_param(f, at, "measured_GBps");
}

/* Fig. 3.9: host-device transfers slow when small, level when large. */
static void rr_lee_fig39(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    const rr_file *f = rr_results(d, "bandwidth");
    size_t rows[2], rises = 0;
    const char *paths[2] = {f ? fitted_transfer(f, 0, &rows[0]) : NULL, f ? fitted_transfer(f, 1, &rows[1]) : NULL};
    if (paths[0] == NULL || paths[1] == NULL)
        return rr_not_measurable(o, "the run has no transfer-model fit of a host-to-device and a device-to-host "
                                    "copy (bandwidth's size sweep of h2d- and d2h- paths)");
    for (size_t k = 0; k < 2; ++k) {
        rr_rests_on(o, f, rows[k]);
        double b = rr_param(f, rows[k], "b_GBps"), c = rr_param(f, rows[k], "c_us");
        double small = fitted_end(f, paths[k], true, o) / b, large = fitted_end(f, paths[k], false, o) / b;
        rr_add_pair(o, "smallest_over_b", paths[k], "x", NAN, small, "bandwidth at the smallest size ÷ the fit's b",
                    "Fig. 3.9 (shape)");
        rr_add_pair(o, "largest_over_b", paths[k], "x", NAN, large, "bandwidth at the largest size ÷ the fit's b",
                    "Fig. 3.9 (shape)");
        rises += c > 0 && small < 0.8 && fabs(large - 1) <= 0.1;
        RR_SAY(o, this_device, "%s%s: c = %.3g us, b = %.4g GB/s, the smallest size at %.2f of b, the largest at %.2f",
               k ? "; " : "", paths[k], c, b, small, large);
    }
    RR_SAY(o, rule, "holds qualitatively: in both directions the fit has an overhead (c > 0), the smallest size "
                    "moves under 0.8 of b and the largest within 10%% of b; differs: otherwise; the figure prints "
                    "no numbers, so nothing is reproduced to a tolerance");
    o->verdict = rises == 2 ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of 2 directions low when small and level when large", rises);
}

/* The absolute errors of path's fit-error rows, appended to err (at most
 * max); their count. */
static size_t fit_errors(const rr_file *f, const char *path, double *err, size_t max, rr_outcome *o)
{
    size_t n = 0, first = SIZE_MAX, last = 0;
    for (size_t i = 0; i < f->table.nrows && n < max; ++i)
        if (rr_row_is(f, i, path, "fit-error") && isfinite(rr_num(f, i, "figure"))) {
            err[n++] = fabs(rr_num(f, i, "figure"));
            first = first == SIZE_MAX ? i : first;
            last = i;
            rr_add_flags(o, rr_get(f, i, "flags"));
        }
    if (n > 0)
        rr_rests_on_rows(o, f, first, last);
    return n;
}

/* How many of err[0..n) are at most limit. */
static size_t within(const double *err, size_t n, double limit)
{
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        k += err[i] <= limit;
    return k;
}

/* The largest of v[0..n); NaN where n is 0. */
static double largest(const double *v, size_t n)
{
    double m = NAN;
    for (size_t i = 0; i < n; ++i)
        m = i == 0 || v[i] > m ? v[i] : m;
    return m;
}

/* Fig. 3.10: the fit's error at each size of the two transfers. */
static void rr_lee_fig310(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *f = rr_results(d, "bandwidth");
    double err[64];
    size_t n = 0, row;
    for (size_t k = 0; f && k < 2; ++k) {
        const char *path = fitted_transfer(f, k, &row);
        n += path ? fit_errors(f, path, err + n, 64 - n, o) : 0;
    }
    if (n == 0)
        return rr_not_measurable(o, "the run has no fit-error rows of a host-device transfer (bandwidth's "
                                    "transfer-model fit of h2d- and d2h- paths)");
    size_t most = within(err, n, 10), all = within(err, n, 15);
    cr_summary spread;
    cr_summarize(err, n, &spread);
    const rr_value *v_most = rr_value_keyed(th, "lee-fig3.10", "fit_error_pct", "Llano transfers, most sizes");
    const rr_value *v_all = rr_value_keyed(th, "lee-fig3.10", "fit_error_pct", "Llano transfers, all sizes");
    char cite[200];
    if (v_most && v_all) {
        rr_cite(v_most, cite, sizeof cite);
        rr_add_pair(o, "fit_error_pct", "median (most sizes)", "%", v_most->value, spread.median,
                    "|fitted - measured| ÷ measured, host-device transfers", cite);
        rr_cite(v_all, cite, sizeof cite);
        rr_add_pair(o, "fit_error_pct", "largest", "%", v_all->value, largest(err, n),
                    "|fitted - measured| ÷ measured, host-device transfers", cite);
    }
    RR_SAY(o, this_device, "%zu sizes: %zu within 10%%, %zu within 15%%, the largest error %.3g%%", n, most, all,
           largest(err, n));
    RR_SAY(o, rule, "the fit's error at each size of Table 3.2's two transfers; reproduced: every one within 15%% "
                    "and over half within 10%%; holds qualitatively: every one within 25%% (beyond, the suite "
                    "calls a fit poor); differs: otherwise");
    o->verdict = all == n && 2 * most > n ? RR_REPRODUCED : within(err, n, 25) == n ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of %zu within 15%%, %zu within 10%%", all, n, most);
}

/* A workload's technique rows: the model's errors (absolute) into err,
 * their flags into o; their count. gpu_resident: that technique's alone,
 * or the others'. */
static size_t technique_errors(const rr_file *f, const char *workload, bool gpu_resident, double *err, size_t max,
                               rr_outcome *o)
{
    size_t n = 0, wl = strlen(workload);
    for (size_t i = 0; i < f->table.nrows && n < max; ++i) {
        const char *v = rr_get(f, i, "variant");
        double e = rr_param(f, i, "model_error_pct");
        if (!rr_row_is(f, i, v, "technique") || strncmp(v, workload, wl) != 0 || v[wl] != '-' || !isfinite(e) ||
            (strcmp(v + wl + 1, "gpu-resident") == 0) != gpu_resident)
            continue;
        err[n++] = fabs(e);
        rr_add_flags(o, rr_get(f, i, "flags"));
    }
    return n;
}

/* Fig. 3.11: the model's error on VectorAdd's transfer time. */
static void rr_lee_fig311(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    const rr_file *f = rr_results(d, "bandwidth");
    double err[96], gpu[32];
    size_t n = f ? technique_errors(f, "vectoradd", false, err, 96, o) : 0;
    size_t ng = f ? technique_errors(f, "vectoradd", true, gpu, 32, o) : 0;
    if (n + ng == 0)
        return rr_not_measurable(o, "the run has no predicted VectorAdd technique (bandwidth's technique rows: "
                                    "the vectoradd paths with every stage fitted)");
    size_t first = SIZE_MAX, last = 0;
    for (size_t i = 0; i < f->table.nrows; ++i)
        if (strcmp(rr_get(f, i, "sweep"), "technique") == 0 && strncmp(rr_get(f, i, "variant"), "vectoradd-", 10) == 0)
            first = first == SIZE_MAX ? i : first, last = i;
    rr_rests_on_rows(o, f, first, last);
    size_t i = 0;
    char cite[200];
    for (const rr_value *v; (v = rr_next_value(th, "lee-fig3.11", "model_error_pct", &i)) != NULL;) {
        bool gpu_key = strstr(v->key, "GPU-Resident") != NULL;
        rr_cite(v, cite, sizeof cite);
        rr_add_pair(o, "model_error_pct", v->key, "%", v->value, gpu_key ? largest(gpu, ng) : largest(err, n),
                    gpu_key ? "the model's largest error, GPU-Resident" : "the model's largest error, the others",
                    cite);
    }
    double all[128];
    memcpy(all, err, n * sizeof *err);
    memcpy(all + n, gpu, ng * sizeof *gpu);
    size_t most = within(all, n + ng, 10), others = within(err, n, 20);
    RR_SAY(o, this_device, "%zu points: %zu within 10%%; the techniques but GPU-Resident %zu of %zu within 20%%",
           n + ng, most, others, n);
    RR_SAY(o, rule, "the model's error on each technique's measured time, every size; reproduced: every point "
                    "but GPU-Resident's (the thesis's outlier) within 20%% and over half of all within 10%%; holds "
                    "qualitatively: over half within 20%%; differs: otherwise");
    o->verdict = others == n && 2 * most > n + ng ? RR_REPRODUCED
                 : 2 * within(all, n + ng, 20) > n + ng ? RR_QUALITATIVE
                                                       : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of %zu points within 10%%, %zu of %zu within 20%% without GPU-Resident", most, n + ng,
           others, n);
}

/* Fig. 3.12: where one c + S/b misses (rms error over 10%), a model
 * piecewise in size (the fit per regime, cache and memory) misses less. */
static void rr_lee_fig312(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    const rr_file *f = rr_results(d, "bandwidth");
    size_t poor = 0, better = 0;
    for (size_t i = 0; f && i < f->table.nrows; ++i) {
        const char *path = rr_get(f, i, "variant");
        double single = rr_param(f, i, "rms_rel_err"), piecewise = NAN;
        if (!rr_row_is(f, i, path, "fit") || !(single > 0.10))
            continue;
        for (size_t k = 0; k < f->table.nrows; ++k)
            if (rr_row_is(f, k, path, "fit-regime") && isfinite(rr_param(f, k, "rms_rel_err"))) {
                piecewise = isnan(piecewise) || rr_param(f, k, "rms_rel_err") > piecewise ? rr_param(f, k, "rms_rel_err")
                                                                                         : piecewise;
                rr_rests_on(o, f, k);
            }
        if (isnan(piecewise))
            continue;
        rr_rests_on(o, f, i);
        rr_add_pair(o, "piecewise_over_single_rms", path, "x", NAN, piecewise / single,
                    "the worse regime's rms error ÷ the single fit's; thesis: 'much better' (no number)", "Fig. 3.12");
        ++poor;
        better += piecewise <= single / 2;
    }
    if (poor == 0)
        return rr_not_measurable(o, "no path has both a single fit that misses (rms error over 10%%) and fits per "
                                    "regime (bandwidth's fit-regime rows, sizes each side of the last-level cache)");
    RR_SAY(o, this_device, "%zu path(s) one c + S/b misses; the fits per regime halve the error on %zu", poor, better);
    RR_SAY(o, rule, "where one fit of B(S) misses by over 10%% rms, the fits per size regime (the thesis's piecewise "
                    "bandwidth) against it; holds qualitatively: they at least halve the rms error on every such "
                    "path; differs: not; the thesis's 0.0256 GB/s is Llano's own, not compared");
    o->verdict = better == poor ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of %zu paths' error at least halved by the regimes", better, poor);
}

/* Fig. 3.13: the model's VectorAdd times track the measured ones. */
static void rr_lee_fig313(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    const rr_file *f = rr_results(d, "bandwidth");
    size_t n = 0, close = 0, first = SIZE_MAX, last = 0;
    for (size_t i = 0; f && i < f->table.nrows; ++i) {
        const char *v = rr_get(f, i, "variant");
        double ratio = rr_param(f, i, "predicted_ms") / rr_num(f, i, "figure");
        if (!rr_row_is(f, i, v, "technique") || strncmp(v, "vectoradd-", 10) != 0 || !(ratio > 0))
            continue;
        ++n;
        close += ratio >= 0.5 && ratio <= 2;
        first = first == SIZE_MAX ? i : first;
        last = i;
        rr_add_flags(o, rr_get(f, i, "flags"));
        char key[96];
        snprintf(key, sizeof key, "%s %.0f B", v + 10, rr_num(f, i, "size_bytes"));
        rr_add_pair(o, "predicted_over_measured", key, "x", NAN, ratio, "the model's time ÷ the measured, VectorAdd",
                    "Fig. 3.13 (shape)");
    }
    if (n == 0)
        return rr_not_measurable(o, "the run has no predicted VectorAdd technique (bandwidth's technique rows)");
    rr_rests_on_rows(o, f, first, last);
    RR_SAY(o, this_device, "%zu of %zu VectorAdd points predicted within 2x of the measured time", close, n);
    RR_SAY(o, rule, "holds qualitatively: 3 in 4 points or more predicted within 2x of the measured time (the "
                    "curves track each other); differs: fewer; the figure prints no numbers");
    o->verdict = 4 * close >= 3 * n ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%zu of %zu points within 2x", close, n);
}

/* The 1-based place of technique in an order "a<b<c<d"; 0 where absent. */
static int place_of(const char *order, const char *technique)
{
    size_t n = strlen(technique);
    int place = 1;
    for (const char *p = order; *p; ++place) {
        size_t len = strcspn(p, "<");
        if (len == n && strncmp(p, technique, n) == 0)
            return place;
        p += len + (p[len] == '<');
    }
    return 0;
}

/* Figs 3.14 and 3.15: the model ranks workload's techniques as measured,
 * and as the thesis measured on Llano (thesis_place: each technique's place
 * there, ties their mean). */
static void technique_ranking(const rr_device *d, const char *workload, const double *thesis_place,
                              const char *figure, rr_outcome *o)
{
    static const char *const names[4] = {"default", "cpu-resident", "gpu-resident", "mixed"};
    const rr_file *f = rr_results(d, "bandwidth");
    size_t row = SIZE_MAX;
    for (size_t i = 0; f && i < f->table.nrows && row == SIZE_MAX; ++i)
        row = rr_row_is(f, i, workload, "ranking") ? i : row;
    char measured[64], predicted[64];
    if (row == SIZE_MAX || !cr_params_get(rr_get(f, row, "params"), "measured", measured, sizeof measured) ||
        !cr_params_get(rr_get(f, row, "params"), "predicted", predicted, sizeof predicted))
        return rr_not_measurable(o, "the run has no ranking of %s's techniques (bandwidth's ranking row: every "
                                    "technique run and predicted at one size)", workload);
    rr_rests_on(o, f, row);
    bool as_thesis = true;
    for (size_t k = 0; k < 4; ++k) {
        int m = place_of(measured, names[k]);
        as_thesis = as_thesis && fabs(m - thesis_place[k]) <= 0.5;
        rr_add_pair(o, "measured_place", names[k], "place", thesis_place[k], m, "place by time, 1 the fastest", figure);
        rr_add_pair(o, "predicted_place", names[k], "place", thesis_place[k], place_of(predicted, names[k]),
                    "place by the model's time, 1 the fastest", figure);
    }
    bool match = strcmp(measured, predicted) == 0;
    RR_SAY(o, this_device, "measured %s, the model %s", measured, predicted);
    RR_SAY(o, rule, "reproduced: the model ranks the techniques as measured, and in the thesis's order (a tie there "
                    "either way); holds qualitatively: as measured, in another order; differs: the model ranks "
                    "them otherwise");
    o->verdict = match && as_thesis ? RR_REPRODUCED : match ? RR_QUALITATIVE : RR_DIFFERS;
    RR_SAY(o, reason, "%s; %s the thesis's order", match ? "the model's order is the measured one" : "the model's order is not the measured one",
           as_thesis ? "the measured order is" : "the measured order is not");
}

/* Fig. 3.14: VectorAdd, Mixed < CPU-Resident < Default < GPU-Resident. */
static void rr_lee_fig314(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    static const double places[4] = {3, 2, 4, 1}; /* default, cpu-resident, gpu-resident, mixed */
    technique_ranking(d, "vectoradd", places, "Fig. 3.14 (its order)", o);
}

/* Fig. 3.15: Reduce, Mixed = GPU-Resident < CPU-Resident < Default. */
static void rr_lee_fig315(const rr_device *d, const rr_thesis *th, rr_outcome *o)
{
    (void)th;
    static const double places[4] = {4, 3, 1.5, 1.5};
    technique_ranking(d, "reduce", places, "Fig. 3.15 (its order)", o);
}

static const rr_target targets[] = {
    {"lee-table3.2", rr_lee_table32}, {"lee-table3.3", rr_lee_table33}, {"lee-fig3.9", rr_lee_fig39},
    {"lee-fig3.10", rr_lee_fig310}, {"lee-fig3.11", rr_lee_fig311}, {"lee-fig3.12", rr_lee_fig312},
    {"lee-fig3.13", rr_lee_fig313}, {"lee-fig3.14", rr_lee_fig314}, {"lee-fig3.15", rr_lee_fig315},
};
const cr_bench_part rr_targets_bandwidth = {targets, sizeof targets / sizeof targets[0]};
