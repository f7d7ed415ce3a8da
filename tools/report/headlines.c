/* The headline numbers of each benchmark, read from its CSV by column name
 * and parameter key, so that a benchmark that gains columns or rows keeps
 * its report. Only verified rows (valid = 1) become numbers. */
#define _GNU_SOURCE
#include "report/headlines.h"
#include "report/cache_detect.h"
#include "report/cache_model.h"
#include "report/flags.h"

#include "error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is(const cr_csv_table *t, size_t i, const char *col, const char *value)
{
    return strcmp(rp_get(t, i, col), value) == 0;
}

static bool valid(const cr_csv_table *t, size_t i)
{
    return is(t, i, "valid", "1");
}

static double num(const cr_csv_table *t, size_t i, const char *col)
{
    return rp_number(rp_get(t, i, col));
}

static double param(const cr_csv_table *t, size_t i, const char *key)
{
    char v[96];
    return cr_params_get(rp_get(t, i, "params"), key, v, sizeof v) ? rp_number(v) : NAN;
}

static const char *param_text(const cr_csv_table *t, size_t i, const char *key, char *buf, size_t len)
{
    if (!cr_params_get(rp_get(t, i, "params"), key, buf, len))
        buf[0] = '\0';
    return buf;
}

/* A device row, not one of the host references measured beside it. */
static bool device_row(const cr_csv_table *t, size_t i)
{
    const char *b = rp_get(t, i, "backend");
    return strncmp(b, "host", 4) != 0;
}

/* ---- bandwidth: every path ---- */

/* A local-width row of the local-memory path: its vector width's line. */
static void local_width_row(rp_section *sec, rp_table *local, const cr_csv_table *t, size_t i)
{
    char buf[32];
    rp_row *r = rp_row_for(local, "%s", param_text(t, i, "vector", buf, sizeof buf));
    rp_set_num(r, 0, param(t, i, "loads_per_barrier"), 3);
    if (is(t, i, "stop", "unsupported")) {
        rp_set_text(r, 1, "not supported");
        return;
    }
    rp_set_num(r, 1, num(t, i, "figure"), 4);
    rp_set_num(r, 2, num(t, i, "figure_best"), 4);
    rp_mark_flags(sec, local, r, 1, t, i);
}

static void bandwidth(rp_section *sec, const char *file, const cr_csv_table *t)
{
    (void)file;
    rp_table *paths = rp_add_table(sec, "bandwidth-paths",
                                   "Every path at its largest transfer size, and Lee's transfer model T(S) = c + S/b "
                                   "fitted over all sizes (host references included)",
                                   "path", "size", "GB/s", "vs host", "vs host all cores", "fit b (GB/s)",
                                   "fit c (us)", "fit max err (%)", NULL);
    rp_table *maps = rp_add_table(sec, "bandwidth-maps", "Map and unmap latencies at the largest transfer size",
                                  "operation", "size", "us", "data moved", NULL);
    rp_table *local = rp_add_table(sec, "bandwidth-local",
                                   "Local (CUDA: shared) memory per vector width: every load and store of the "
                                   "kernel-local-memory path's rounds",
                                   "vector (words)", "loads per barrier", "GB/s", "best GB/s", NULL);
    rp_table *rank = rp_add_table(sec, "bandwidth-ranking",
                                  "Memory-movement techniques at the largest size, fastest first (Lee 2012, Sec. 3.4)",
                                  "workload", "measured", "predicted by the model", "model agrees", NULL);
    char size[48], buf[160];
    for (size_t i = 0; i < t->nrows; ++i) {
        const char *sweep = rp_get(t, i, "sweep"), *variant = rp_get(t, i, "variant");
        if (!valid(t, i))
            continue;
        double bytes = num(t, i, "size_bytes");
        if (strcmp(sweep, "size") == 0) {
            bool bw = is(t, i, "unit", "GB/s"), lat = is(t, i, "unit", "us");
            if (!bw && !lat)
                continue;
            rp_table *into = bw ? paths : maps;
            rp_row *r = rp_row_for(into, "%s", variant);
            if (isfinite(r->cells[0].num) && !(bytes > r->cells[0].num))
                continue; /* a larger size is already there */
            rp_format_bytes(bytes, size, sizeof size);
            rp_set_text(r, 0, "%s", size);
            r->cells[0].num = bytes;
            if (is(t, i, "stop", "unsupported")) {
                rp_set_text(r, 1, "not supported");
            } else if (bw) {
                rp_set_num(r, 1, num(t, i, "figure"), 4);
                rp_set_num(r, 2, num(t, i, "ref_ratio"), 3);
                rp_set_num(r, 3, param(t, i, "mt_ref_ratio"), 3);
            } else {
                rp_set_num(r, 1, num(t, i, "figure"), 4);
                rp_set_text(r, 2, "%s", param_text(t, i, "data_moved", buf, sizeof buf));
            }
            rp_mark_flags(sec, into, r, 1, t, i);
        } else if (strcmp(sweep, "local-width") == 0) {
            local_width_row(sec, local, t, i);
        } else if (strcmp(sweep, "fit") == 0) {
            rp_row *r = rp_row_for(paths, "%s", variant);
            rp_set_num(r, 4, param(t, i, "b_GBps"), 4);
            rp_set_num(r, 5, param(t, i, "c_us"), 4);
            rp_set_num(r, 6, 100 * param(t, i, "max_rel_err"), 3);
        } else if (strcmp(sweep, "ranking") == 0) {
            rp_row *r = rp_row_for(rank, "%s", variant);
            rp_set_text(r, 0, "%s", param_text(t, i, "measured", buf, sizeof buf));
            rp_set_text(r, 1, "%s", param_text(t, i, "predicted", buf, sizeof buf));
            double match = param(t, i, "match");
            rp_set_text(r, 2, "%s", !isfinite(match) ? "" : match == 1 ? "yes" : "no");
            rp_format_bytes(bytes, size, sizeof size);
            snprintf(rank->title, sizeof rank->title,
                     "Memory-movement techniques at %s, fastest first (Lee 2012, Sec. 3.4)", size);
        }
    }
}

/* ---- stream: the fixed-size figures and the peak of f(k) ---- */

static void stream(rp_section *sec, const char *file, const cr_csv_table *t)
{
    (void)file;
    rp_table *fixed = rp_add_table(sec, "stream-fixed", "", "kernel", "GB/s", "best GB/s", "host limit (GB/s)",
                                   "vs host limit", NULL);
    rp_table *conc = rp_add_table(sec, "stream-concurrency", "Peak of f(k) over the concurrency sweep", "kernel",
                                  "peak f(k) (GB/s)", "k at the peak", "largest k", NULL);
    for (size_t i = 0; i < t->nrows; ++i) {
        if (!valid(t, i) || !device_row(t, i))
            continue;
        if (is(t, i, "sweep", "fixed")) {
            rp_row *r = rp_row_for(fixed, "%s %s", rp_get(t, i, "variant"), rp_get(t, i, "dtype"));
            rp_set_num(r, 0, num(t, i, "figure"), 4);
            rp_set_num(r, 1, num(t, i, "figure_best"), 4);
            rp_set_num(r, 2, param(t, i, "host_limit_GBps"), 4);
            rp_set_num(r, 3, num(t, i, "ref_ratio"), 3);
            rp_mark_flags(sec, fixed, r, 0, t, i);
            char size[48];
            rp_format_bytes(num(t, i, "size_bytes"), size, sizeof size);
            snprintf(fixed->title, sizeof fixed->title, "Arrays of %s each (the fixed sweep), median of the repetitions",
                     size);
        } else if (is(t, i, "sweep", "concurrency")) {
            rp_row *r = rp_row_for(conc, "%s %s", rp_get(t, i, "variant"), rp_get(t, i, "dtype"));
            double bw = num(t, i, "figure"), k = num(t, i, "work_items");
            if (!isfinite(r->cells[0].num) || bw > r->cells[0].num) {
                rp_set_num(r, 0, bw, 4);
                rp_set_int(r, 1, k);
                rp_mark_flags(sec, conc, r, 0, t, i);
            }
            if (!isfinite(r->cells[2].num) || k > r->cells[2].num)
                rp_set_int(r, 2, k);
        }
    }
}

/* ---- the X-model's parameters, as build/tools/xgraph fitted them ---- */

/* The column's number where it holds one, else its text as it stands. */
static void set_number_or_text(rp_row *r, int c, const cr_csv_table *t, size_t i, const char *col, int digits)
{
    double v = num(t, i, col);
    if (isfinite(v))
        rp_set_num(r, c, v, digits);
    else
        rp_set_text(r, c, "%s", rp_get(t, i, col));
}

static void xmodel(rp_section *sec, const char *file, const cr_csv_table *t)
{
    rp_table *x =
        rp_add_table(sec, "xmodel-params", "", "parameter", "value", "unit", "fit quality", "source", "note", NULL);
    snprintf(x->title, sizeof x->title,
             "R, L, M and the transition points (delta: f(k) saturates; pi: g(x) saturates), from %s", file);
    /* The model's own parameters; the fit's by-products and cross-checks
     * stay in the CSV. */
    static const char *const headline[] = {"R",          "delta_k", "L_ns",       "L_fit_ns", "L_chase_ns",
                                           "M",          "M_E",     "pi_E",       "cache_peak", "Z_ridge",
                                           "n_balance", "R_consistent", "M_consistent"};
    size_t shown = 0;
    for (size_t i = 0; i < t->nrows; ++i) {
        const char *dtype = rp_get(t, i, "dtype"), *ilp = rp_get(t, i, "ilp");
        bool wanted = false;
        for (size_t k = 0; k < sizeof headline / sizeof *headline && !wanted; ++k)
            wanted = strcmp(rp_get(t, i, "parameter"), headline[k]) == 0;
        if (!wanted)
            continue;
        ++shown;
        rp_row *r = rp_row_for(x, "%s%s%s%s%s", rp_get(t, i, "parameter"), *dtype ? " " : "", dtype,
                               *ilp ? " ilp=" : "", ilp);
        set_number_or_text(r, 0, t, i, "value", 4);
        rp_set_text(r, 1, "%s", rp_get(t, i, "unit"));
        set_number_or_text(r, 2, t, i, "fit_quality", 3);
        rp_set_text(r, 3, "%s", rp_get(t, i, "source"));
        rp_set_text(r, 4, "%s", rp_get(t, i, "note"));
        rp_mark_flags(sec, x, r, 0, t, i);
    }
    if (shown < t->nrows)
        rp_strings_push(&sec->notes,
                        "%zu more rows of %s: the fit's other parameters (slopes, the cache form of Eq. 3.5) and "
                        "its cross-checks.",
                        t->nrows - shown, file);
}

/* ---- atomics: contention ratios and launch latency ---- */

/* A launch row's mean in microseconds: its mean_us=, else (results
 * written before the rows had it) its mean_s column. */
static double launch_mean_us(const cr_csv_table *t, size_t i)
{
    double us = param(t, i, "mean_us");
    return isfinite(us) ? us : num(t, i, "mean_s") * 1e6;
}

/* results/reference/lee2012-table4.1.csv, embedded by the build: the report
 * is installed and reads no source tree. */
extern const char report_lee2012_table41_csv[];

/* Lee's Table 4.1 parsed and checked (gpu, lee_name, launch_ms in c[]), so
 * that a table is added only when every row is good. */
static int lee_launch_parse(cr_csv_table *t, int c[3], char *err, size_t errlen)
{
    static const char *const cols[] = {"gpu", "lee_name", "launch_ms"};
    const char *csv = report_lee2012_table41_csv;
    if (cr_csv_parse(t, "lee2012-table4.1.csv (built in)", csv, strlen(csv), &cr_schema_any, err, errlen) != 0)
        return -1;
    int rc = cr_csv_require(t, cols, 3, c, err, errlen);
    for (size_t i = 0; i < t->nrows && rc == 0; ++i) {
        double ms;
        rc = cr_csv_number(t, i, c[2], false, &ms, err, errlen);
        if (rc == 0 && !(ms > 0))
            rc = cr_errf(err, errlen, "%s:%u: launch_ms must be positive", t->path, t->rows[i].line);
    }
    if (rc != 0)
        cr_csv_free(t);
    return rc;
}

/* Lee's means beside the device's launch table, in its unit (us). The cells
 * are text: they are the thesis's numbers, not the run's, and a comparison
 * of two runs (which compares numeric cells) must not pair them. */
static void lee_launch_table(rp_section *sec)
{
    if (rp_find_table(sec, "atomics-lee-launch"))
        return;
    cr_csv_table t;
    int c[3];
    char err[256];
    if (lee_launch_parse(&t, c, err, sizeof err) != 0) {
        rp_strings_push(&sec->notes, "Lee 2012 Table 4.1 not shown: %s.", err);
        return;
    }
    rp_table *lee = rp_add_table(sec, "atomics-lee-launch", "Lee 2012 Table 4.1 (mean of 100 empty-kernel launches)",
                                 "GPU", "Lee's name", "mean (us)", NULL);
    for (size_t i = 0; i < t.nrows; ++i) {
        double ms = rp_number(t.rows[i].fields[c[2]]);
        rp_row *r = rp_row_for(lee, "%s", t.rows[i].fields[c[0]]);
        rp_set_text(r, 0, "%s", t.rows[i].fields[c[1]]);
        rp_set_text(r, 1, "%.4g", ms * 1e3);
    }
    cr_csv_free(&t);
}

static void atomics(rp_section *sec, const char *file, const cr_csv_table *t)
{
    (void)file;
    rp_table *ratio = rp_add_table(sec, "atomics-ratio",
                                   "Uncontended over one-address throughput per operation (Lee Fig. 4.3)",
                                   "operation type space", "ratio", "work-items per counter", "uncontended (Mop/s)",
                                   "one address (Mop/s)", NULL);
    rp_table *launch = rp_add_table(sec, "atomics-launch",
                                    "Empty-kernel launch, median and mean of the launches (Lee Table 4.1 gives the "
                                    "mean)",
                                    "interval", "median (us)", "mean (us)", "best (us)", NULL);
    for (size_t i = 0; i < t->nrows; ++i) {
        if (!valid(t, i) || !device_row(t, i))
            continue;
        if (is(t, i, "sweep", "ratio")) {
            char space[32];
            rp_row *r = rp_row_for(ratio, "%s %s %s", rp_get(t, i, "variant"), rp_get(t, i, "dtype"),
                                   param_text(t, i, "space", space, sizeof space));
            rp_set_num(r, 0, num(t, i, "figure"), 3);
            rp_set_int(r, 1, param(t, i, "degree_high"));
            rp_set_num(r, 2, param(t, i, "low_Mops"), 4);
            rp_set_num(r, 3, param(t, i, "high_Mops"), 4);
        } else if (is(t, i, "sweep", "launch") && is(t, i, "unit", "us")) {
            rp_row *r = rp_row_for(launch, "%s", rp_get(t, i, "variant"));
            rp_set_num(r, 0, num(t, i, "figure"), 4);
            rp_set_num(r, 1, launch_mean_us(t, i), 4);
            rp_set_num(r, 2, num(t, i, "figure_best"), 4);
            rp_mark_flags(sec, launch, r, 0, t, i);
        }
    }
    if (launch->nrows > 0)
        lee_launch_table(sec);
}

/* ---- SFU: the Table 6.4/6.5 analogue the benchmark writes beside its CSV ---- */

static bool is_sfu_table(const char *file)
{
    static const char suffix[] = ".table.csv";
    size_t n = strlen(file), k = sizeof suffix - 1;
    return n >= k && strcmp(file + n - k, suffix) == 0;
}

/* An error in ulp: four significant digits, but never fewer than its whole
 * part has, so that native cos's 32768 ulp reads 32768, not 3.277e+04. */
/* An error cell: "inf" where the error is infinite (a NaN or infinite
 * result where the exact value is finite), else the number to digits
 * significant digits, the whole part never cut (32768 ulp, not 3.277e+04). */
static void set_error(rp_row *r, int c, const cr_csv_table *t, size_t i, const char *col, int digits)
{
    if (strcmp(rp_get(t, i, col), "inf") == 0) {
        rp_set_text(r, c, "inf");
        return;
    }
    double v = num(t, i, col);
    for (double whole = 1e4; digits < 17 && fabs(v) >= whole; whole *= 10)
        ++digits;
    rp_set_num(r, c, v, digits);
}

static void sfu(rp_section *sec, const char *file, const cr_csv_table *t)
{
    /* Both domains' worst ulp: a native version can be close on the typical
     * domain and thousands of ulp off on the wide one, and only the two side
     * by side say which. */
    rp_table *s = rp_add_table(sec, "sfu-table", "", "function type version", "latency (ns)",
                               "throughput (Gop/s)", "speed-up", "mean rel. err", "max rel. err", "max ulp",
                               "max ulp (wide domain)", "verified", NULL);
    snprintf(s->title, sizeof s->title, "Speed and error per function and version (Li Tables 6.4/6.5), from %s",
             file);
    for (size_t i = 0; i < t->nrows; ++i) {
        rp_row *r = rp_row_for(s, "%s %s %s", rp_get(t, i, "func"), rp_get(t, i, "dtype"),
                               rp_get(t, i, "version"));
        bool ok = valid(t, i);
        rp_set_text(r, 7, "%s", ok ? "yes" : "NO");
        if (!ok)
            continue;
        rp_set_num(r, 0, num(t, i, "latency_ns"), 4);
        rp_set_num(r, 1, num(t, i, "throughput_Gops"), 4);
        rp_mark_flags(sec, s, r, 1, t, i);
        rp_set_num(r, 2, num(t, i, "speedup_vs_precise"), 3);
        set_error(r, 3, t, i, "mean_rel_err", 3);
        set_error(r, 4, t, i, "max_rel_err", 3);
        set_error(r, 5, t, i, "max_ulp", 4);
        set_error(r, 6, t, i, "max_ulp_wide", 4);
    }
}

/* ---- regspill: the cliff, the critical-points tuner, the register region ---- */

static void regspill(rp_section *sec, const char *file, const cr_csv_table *t)
{
    (void)file;
    rp_table *cliff = rp_add_table(sec, "regspill-cliff", "The spill cliff of the live-value sweep", "", "last fitting",
                                   "first spilling", "best (Gop/s)", "after (Gop/s)", "falls to (%)", NULL);
    rp_table *tuner = rp_add_table(sec, "regspill-tuner", "Li's critical-points tuner against the exhaustive sweep",
                                   "kernel", "critical points", "best CP cap", "exhaustive best cap",
                                   "default registers", "speed-up (CPs)", "speed-up (exhaustive)",
                                   "search reduction (x)", NULL);
    rp_table *region = rp_add_table(sec, "regspill-region",
                                    "Register effective region [r_min, r_max] (Li Eq. 4.1), offline compile",
                                    "architecture", "r_min", "r_max", "spill at r_min (B/thread)", NULL);
    char buf[128];
    for (size_t i = 0; i < t->nrows; ++i) {
        if (!valid(t, i))
            continue;
        const char *variant = rp_get(t, i, "variant");
        if (strcmp(variant, "cliff") == 0) {
            rp_row *r = rp_row_for(cliff, "%s %s", rp_get(t, i, "backend"), rp_get(t, i, "dtype"));
            rp_set_int(r, 0, param(t, i, "last_fitting"));
            rp_set_int(r, 1, param(t, i, "first_spilling"));
            rp_set_num(r, 2, param(t, i, "best_Gops"), 4);
            rp_set_num(r, 3, param(t, i, "after_Gops"), 4);
            rp_set_num(r, 4, 100 * param(t, i, "drop"), 3);
            const char *note = rp_get(t, i, "note");
            if (*note)
                rp_strings_push(&sec->notes, "Cliff: %s.", note);
        } else if (strcmp(variant, "tuner") == 0) {
            char rule[32];
            rp_row *r = rp_row_for(tuner, "live=%s rule=%s", param_text(t, i, "live", buf, sizeof buf),
                                   param_text(t, i, "rule", rule, sizeof rule));
            rp_set_text(r, 0, "%s", param_text(t, i, "critical_points", buf, sizeof buf));
            rp_set_int(r, 1, param(t, i, "best_cp"));
            rp_set_int(r, 2, param(t, i, "best"));
            rp_set_int(r, 3, param(t, i, "default"));
            rp_set_num(r, 4, param(t, i, "speedup_cp"), 4);
            rp_set_num(r, 5, param(t, i, "speedup_best"), 4);
            rp_set_num(r, 6, param(t, i, "reduction"), 3);
            const char *note = rp_get(t, i, "note");
            if (*note)
                rp_strings_push(&sec->notes, "Tuner: %s.", note);
        } else if (strcmp(variant, "offline-bound") == 0) {
            const char *arch = param_text(t, i, "arch", buf, sizeof buf);
            rp_row *r = rp_row_for(region, "%s live=%.0f", *arch ? arch : rp_get(t, i, "device"),
                                   param(t, i, "live"));
            double cap = param(t, i, "cap"), regs = param(t, i, "registers");
            if (cap == 1) {
                rp_set_int(r, 0, regs);
                rp_set_int(r, 2, param(t, i, "spill_store_bytes") + param(t, i, "spill_load_bytes"));
            } else {
                rp_set_int(r, 1, regs);
            }
        }
    }
    if (region->nrows > 0 && tuner->nrows == 0)
        rp_strings_push(&sec->notes, "No critical points measured: they come from the register-cap sweep on a GPU. "
                                     "build/tools/critical-points lists them for any block size and architecture.");
}

/* ---- energy per level: build/tools/energy-levels' table ---- */

static void other(rp_section *sec, const char *file, const cr_csv_table *t);

static void energy(rp_section *sec, const char *file, const cr_csv_table *t)
{
    if (strcmp(file, "energy-levels.csv") != 0) {
        other(sec, file, t);
        return;
    }
    rp_table *e = rp_add_table(sec, "energy-levels",
                               "Energy at each level (median over the rows that stand for it, static power subtracted)",
                               "level", "basis", "pJ", "thesis pJ", "thesis", "status", "rows used, or why none", NULL);
    size_t measured = 0;
    for (size_t i = 0; i < t->nrows; ++i) {
        rp_row *r = rp_row_for(e, "%s", rp_get(t, i, "level"));
        bool is_measured = is(t, i, "status", "measured");
        measured += is_measured;
        rp_set_text(r, 0, "%s", rp_get(t, i, "basis"));
        rp_set_num(r, 1, num(t, i, "pj"), 3);
        rp_set_num(r, 2, num(t, i, "thesis_pj"), 3);
        rp_set_text(r, 3, "%s", rp_get(t, i, "thesis_symbol"));
        rp_set_text(r, 4, "%s", rp_get(t, i, "status"));
        rp_set_text(r, 5, "%s", rp_get(t, i, is_measured ? "source" : "reason"));
    }
    if (measured == 0 && t->nrows > 0)
        rp_strings_push(&sec->notes, "No level was measured on this device: the figure shows Ranasinghe's values alone.");
}

/* ---- anything else: its size and its verification ---- */

static void file_summary(rp_section *sec, const char *title, const char *file, const cr_csv_table *t)
{
    rp_table *o = (rp_table *)rp_find_table(sec, "other-files");
    if (o == NULL)
        o = rp_add_table(sec, "other-files", title, "file", "rows", "invalid rows", "units", NULL);
    rp_row *r = rp_row_for(o, "%s", file);
    size_t invalid = 0;
    rp_strings units = {0};
    for (size_t i = 0; i < t->nrows; ++i) {
        invalid += is(t, i, "valid", "0");
        const char *u = rp_get(t, i, "unit");
        if (*u && !rp_strings_has(&units, u) && units.n < 6)
            rp_strings_push(&units, "%s", u);
    }
    rp_set_int(r, 0, (double)t->nrows);
    rp_set_int(r, 1, (double)invalid);
    char list[RP_CELL_LEN] = "";
    for (size_t k = 0; k < units.n; ++k)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", units.v[k]);
    rp_set_text(r, 2, "%s", list);
    rp_strings_free(&units);
}

static void other(rp_section *sec, const char *file, const cr_csv_table *t)
{
    file_summary(sec, "Results without a headline table here", file, t);
}

static void fit_input(rp_section *sec, const char *file, const cr_csv_table *t)
{
    file_summary(sec, "The measurements behind the fit (their numbers are in its parameters)", file, t);
}

/* ---- cache: the detected geometry, the model against the measurement ---- */

static void cache(rp_section *sec, const char *file, const cr_csv_table *t)
{
    rp_cache_detect(sec, file, t);
    rp_cache_model(sec, file, t);
}

/* ---- which extraction reads a file ---- */

typedef void extraction(rp_section *sec, const char *file, const cr_csv_table *t);

/* NULL for a file that is only listed as a source. */
static extraction *extraction_for(rp_section_id s, const char *file)
{
    switch (s) {
    case RP_BANDWIDTH: return bandwidth;
    case RP_STREAM: return stream;
    /* The fit's own file; its inputs (fma, latency) are listed. */
    case RP_XMODEL: return strncmp(file, "xgraph", 6) == 0 ? xmodel : fit_input;
    case RP_ATOMICS: return atomics;
    /* The full CSV is a source; its headline is the table file. */
    case RP_SFU: return is_sfu_table(file) ? sfu : NULL;
    case RP_REGSPILL: return regspill;
    case RP_CACHE: return cache;
    case RP_ENERGY: return energy;
    default: return other;
    }
}

void rp_headline(rp_device *d, const char *file, const cr_csv_table *t)
{
    rp_section_id s = rp_section_of_file(file);
    rp_section *sec = &d->sections[s];
    sec->ran = true;
    if (!rp_strings_has(&sec->sources, file))
        rp_strings_push(&sec->sources, "%s", file);
    extraction *extract = extraction_for(s, file);
    if (extract)
        extract(sec, file, t);
}
