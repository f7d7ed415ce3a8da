/* End-to-end tests of the xgraph tool on results directories the test
 * writes itself (through the suite's own row writer): the parameters it
 * fits, the figures, the application report, and bad input. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"
#include "shared/tests/corrupt_inputs.h"

#include <math.h>
#include <sys/stat.h>

/* The tools sit beside the benchmark executables' directory. */
static const char *tool = "../tools/xgraph";

/* ---- fixtures ---- */

/* DIR/NAME, a results CSV with its header written. */
static FILE *results_csv(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    cr_result_write_header(f);
    return f;
}

/* A results directory of one device with cus compute units: its stream
 * metadata (and extra, lines of it) written, stream-BACKEND.csv open. */
static FILE *stream_results(const char *dir, const char *backend, unsigned cus, const char *extra)
{
    mkdir(dir, 0755);
    char path[512];
    snprintf(path, sizeof path, "%s/stream-%s.meta.csv", dir, backend);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "key,value\ndevice.name,synthetic device\ndevice.type,%s\ndevice.compute_units,%u\nbackend,%s\n%s",
            strcmp(backend, "cuda") == 0 ? "gpu/accelerator" : "cpu", cus, backend, extra);
    fclose(f);
    char name[64];
    snprintf(name, sizeof name, "stream-%s.csv", backend);
    return results_csv(dir, name);
}

static cr_result row(const char *bench, const char *backend, const char *variant, const char *dtype,
                     const char *sweep, uint64_t work_items, double figure, const char *unit)
{
    cr_result r = {.work_items = work_items, .figure = figure, .figure_best = figure, .ref_ratio = NAN,
                   .valid = true, .bytes_per_rep = NAN, .ops_per_rep = NAN};
    snprintf(r.benchmark, sizeof r.benchmark, "%s", bench);
    snprintf(r.backend, sizeof r.backend, "%s", backend);
    snprintf(r.device, sizeof r.device, "synthetic device");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    snprintf(r.dtype, sizeof r.dtype, "%s", dtype);
    snprintf(r.sweep, sizeof r.sweep, "%s", sweep);
    snprintf(r.unit, sizeof r.unit, "%s", unit);
    r.stats = (cr_summary){.n = 5, .min = 1e-3, .median = 1e-3, .mean = 1e-3, .max = 1e-3, .stddev = 0, .ci_rel = 0};
    snprintf(r.timer, sizeof r.timer, "event");
    snprintf(r.stop, sizeof r.stop, "stable");
    return r;
}

/* DIR/latency-opencl.csv: the pointer chase's main-memory level at ns, and
 * the host's row, which the tool must ignore. */
static void pointer_chase(const char *dir, double ns)
{
    FILE *f = results_csv(dir, "latency-opencl.csv");
    cr_result l = row("latency", "opencl", "memory", "uint64", "level", 1, ns, "ns");
    cr_result_add_param(&l, "cache_bytes=33554432;footprint=268435456");
    cr_result_write_row(f, &l);
    l = row("latency", "host", "memory", "uint64", "level", 1, 70, "ns");
    cr_result_write_row(f, &l);
    fclose(f);
}

/* An OpenCL CPU device with 2 compute units; per compute unit k = 0.5 .. 16.
 *  f_float(k) = min(40k, 30) GB/s: delta = 0.75, L = 0.75 x 2 x 12 B / 30 GB/s
 *  = 0.6 ns; f_double(k) = min(20k, 30): delta = 1.5, L = 1.5 x 2 x 24 / 30 =
 *  2.4 ns. Fixed triad 31 GB/s (float: 30/31, within 10%) and 40 GB/s
 *  (double: 30/40, not). g_E(x) = min(10E·x, 120) Gflop/s float, min(5E·x,
 *  60) double, E = 1, 2, 4: pi_E = 12/E; M = 120, M/R = 4 flop/B. The chase's
 *  memory level: 80 ns. Rows the tool must ignore: the host's, other
 *  kernels, an invalid fma point. */
static void opencl_fixture(char dir[256], const char *name, bool with_fma, bool with_latency)
{
    snprintf(dir, 256, "%s/%s", tmp, name); /* TMP/NAME */
    FILE *f = stream_results(dir, "opencl", 2, "");
    for (int i = 0; i < 6; ++i) {
        double k = 0.5 * (1 << i);
        cr_result r = row("stream", "opencl", "triad", "float", "concurrency", (uint64_t)(2 * k), fmin(40 * k, 30),
                          "GB/s");
        cr_result_add_param(&r, "host_limit_GBps=29");
        r.ref_ratio = i % 2 ? 1.01 : 0.99; /* against the host's limit, measured interleaved */
        cr_result_write_row(f, &r);
        r = row("stream", "opencl", "triad", "double", "concurrency", (uint64_t)(2 * k), fmin(20 * k, 30), "GB/s");
        cr_result_write_row(f, &r);
        r = row("stream", "opencl", "copy", "float", "concurrency", (uint64_t)(2 * k), 99, "GB/s");
        cr_result_write_row(f, &r);
    }
    cr_result r = row("stream", "opencl", "triad", "float", "fixed", 16, 31, "GB/s");
    r.ref_ratio = 1.2;
    cr_result_write_row(f, &r);
    r = row("stream", "opencl", "triad", "double", "fixed", 16, 40, "GB/s");
    cr_result_write_row(f, &r);
    r = row("stream", "host-openmp", "triad", "float", "fixed", 2, 50, "GB/s");
    cr_result_write_row(f, &r);
    fclose(f);

    if (with_fma) {
        f = results_csv(dir, "fma-opencl.csv");
        for (int e = 1; e <= 4; e *= 2)
            for (int i = 0; i < 6; ++i) {
                double x = 0.5 * (1 << i);
                for (int d = 0; d < 2; ++d) {
                    cr_result g = row("fma", "opencl", "fma", d ? "double" : "float", "concurrency",
                                      (uint64_t)(2 * x), fmin((d ? 5 : 10) * e * x, d ? 60 : 120), "Gflop/s");
                    cr_result_add_param(&g, "ilp=%d", e);
                    cr_result_add_param(&g, "per_cu=%g", x);
                    cr_result_add_param(&g, "per_cu_unit=work-items");
                    cr_result_add_param(&g, "iters=1000");
                    cr_result_write_row(f, &g);
                }
            }
        cr_result bad = row("fma", "opencl", "fma", "float", "concurrency", 4, 999, "Gflop/s");
        cr_result_add_param(&bad, "ilp=1;per_cu=2;per_cu_unit=work-items");
        bad.valid = false;
        cr_result_write_row(f, &bad);
        fclose(f);
    }
    if (with_latency)
        pointer_chase(dir, 80);
}

/* ---- reading the outputs ---- */

typedef struct {
    csv_record header;
    int ncols;
    csv_record rows[128];
    int nrows;
} small_table;

static void read_any(const char *path, small_table *t)
{
    char *text = csv_slurp(path);
    if (text == NULL)
        fail_msg("%s was not written", path);
    const char *p = text;
    t->ncols = csv_next(&p, t->header);
    t->nrows = 0;
    int n;
    while (t->nrows < 128 && (n = csv_next(&p, t->rows[t->nrows])) > 0) {
        assert_int_equal(n, t->ncols);
        ++t->nrows;
    }
    free(text);
}

/* The parameters xgraph fitted, DIR/xgraph-params.csv. */
static void read_params(const char *dir, small_table *t)
{
    char path[512];
    snprintf(path, sizeof path, "%s/xgraph-params.csv", dir);
    read_any(path, t);
}

/* Runs xgraph on DIR without drawing, and reads the parameters it fitted. */
/* xgraph DIR --no-plot, its parameters read into t; what it printed must
 * hold each of the texts given (NULL for none). */
static void fit_without_plots_saying(const char *dir, small_table *t, const char *printed, const char *also)
{
    char args[300];
    snprintf(args, sizeof args, "%s --no-plot", dir);
    run_result r = run_with_status(0, NULL, tool, args);
    if (printed)
        expect_in(r.out, printed);
    if (also)
        expect_in(r.out, also);
    run_free(&r);
    read_params(dir, t);
}

static void fit_without_plots(const char *dir, small_table *t)
{
    fit_without_plots_saying(dir, t, NULL, NULL);
}

static const char *field(const small_table *t, int r, const char *col)
{
    int c = csv_column((char (*)[CSV_FIELD_LEN])t->header, t->ncols, col);
    assert_true(c >= 0);
    return t->rows[r][c];
}

/* The value of a parameter row ("" ilp: any). */
static double param(const small_table *t, const char *name, const char *dtype, const char *ilp)
{
    for (int r = 0; r < t->nrows; ++r)
        if (strcmp(field(t, r, "parameter"), name) == 0 && strcmp(field(t, r, "dtype"), dtype) == 0 &&
            (ilp[0] == '\0' || strcmp(field(t, r, "ilp"), ilp) == 0)) {
            const char *v = field(t, r, "value");
            return v[0] ? strtod(v, NULL) : NAN;
        }
    fail_msg("no %s row for %s", name, dtype);
    return NAN;
}

/* A column of a parameter row. */
static const char *param_column(const small_table *t, const char *name, const char *dtype, const char *col)
{
    for (int r = 0; r < t->nrows; ++r)
        if (strcmp(field(t, r, "parameter"), name) == 0 && strcmp(field(t, r, "dtype"), dtype) == 0)
            return field(t, r, col);
    fail_msg("no %s row for %s", name, dtype);
    return "";
}

static const char *param_note(const small_table *t, const char *name, const char *dtype)
{
    return param_column(t, name, dtype, "note");
}

/* A fitted parameter of a type (and an ILP, "" for any), and its value. */
typedef struct {
    const char *name, *dtype, *ilp;
    double value;
} fitted;

static void expect_fitted(const small_table *t, const fitted *want, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        double got = param(t, want[i].name, want[i].dtype, want[i].ilp);
        if (!(fabs(got - want[i].value) <= 1e-6 * fabs(want[i].value)))
            fail_msg("%s %s%s%s: got %.10g, want %.10g", want[i].name, want[i].dtype, want[i].ilp[0] ? " ilp " : "",
                     want[i].ilp, got, want[i].value);
    }
}

static void starts_with(const char *text, const char *prefix)
{
    if (strncmp(text, prefix, strlen(prefix)) != 0)
        fail_msg("'%s' does not start with '%s'", text, prefix);
}

static void close_to(double got, double want, int line)
{
    if (!(fabs(got - want) <= 1e-6 * fabs(want)))
        fail_msg("line %d: got %.10g, want %.10g", line, got, want);
}
#define near(a, b) close_to((a), (b), __LINE__)

static void is_png(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("%s was not drawn", path);
    unsigned char sig[8] = {0};
    size_t got = fread(sig, 1, 8, f);
    fclose(f);
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    assert_int_equal(got, 8);
    assert_memory_equal(sig, png, 8);
    snprintf(path, sizeof path, "%s/%.*s.svg", dir, (int)strlen(name) - 4, name);
    char *svg = csv_slurp(path);
    if (svg == NULL || strstr(svg, "<svg") == NULL)
        fail_msg("%s is no SVG", path);
    free(svg);
}

/* ---- tests ---- */

static void test_parameters_and_figures(void **state)
{
    (void)state;
    char dir[256], path[600];
    opencl_fixture(dir, "ocl", true, true);
    run_result r = run_with_status(0, NULL, tool, dir);
    assert_string_equal(r.err, "");
    expect_in(r.out, "k and x in work-items/CU");
    run_free(&r);

    static small_table t;
    read_params(dir, &t);
    assert_int_equal(t.ncols, 9);
    assert_string_equal(t.header[0], "parameter");
    assert_string_equal(t.header[7], "flags");
    assert_string_equal(t.header[8], "note");
    static const fitted want[] = {
        {"R", "float", "", 30},
        {"s", "float", "", 40},
        {"delta_k", "float", "", 0.75},
        {"delta95_k", "float", "", 1},
        {"L_chase_ns", "float", "", 80},
        {"L_ratio", "float", "", 0.6 / 80},
        {"L_ns", "float", "", 80}, /* Little's law fails its premise: the chase's */
        {"R_triad", "float", "", 31},
        {"R_over_triad", "float", "", 30.0 / 31},
        {"R_consistent", "float", "", 1},
        /* Plateau ratios (k >= 0.75: k = 1..16) 1.01 0.99 1.01 0.99 1.01:
         * median 1.01, against the fixed triad's 1.2: -15.8%, not consistent. */
        {"R_host_ratio", "float", "", 1.01},
        {"R_triad_host_ratio", "float", "", 1.2},
        {"R_consistent_drift", "float", "", 0},
        {"delta_k", "double", "", 1.5},
        {"L_ratio", "double", "", 2.4 / 80},
        {"R_consistent", "double", "", 0}, /* 30 against 40 */
        {"M_E", "float", "2", 120},
        {"m_E", "float", "2", 20},
        {"pi_E", "float", "1", 12},
        {"pi_E", "float", "2", 6},
        {"pi_E", "float", "4", 3},
        {"M", "float", "", 120},
        {"M_best_measured", "float", "", 120}, /* the invalid 999 is not a measurement */
        {"M_consistent", "float", "", 1},
        {"Z_ridge", "float", "", 4},
        {"M", "double", "", 60},
        {"pi_E", "double", "4", 3},
    };
    expect_fitted(&t, want, countof(want));
    assert_true(isnan(param(&t, "L_fit_ns", "float", "")) && isnan(param(&t, "L_fit_ns", "double", "")));
    /* No llc_bytes in this metadata: where R was measured is not known. */
    assert_true(isnan(param(&t, "R_resident", "float", "")));
    starts_with(param_note(&t, "R", "float"), "R, the plateau of the memory system or of a cache (residency unknown: "
                                              "no last-level cache size in the metadata): min(slope*k, plateau)");
    assert_true(strncmp(param_note(&t, "R_consistent", "float"), "yes", 3) == 0);
    assert_true(strncmp(param_note(&t, "R_consistent", "double"), "no", 2) == 0);
    is_png(dir, "xgraph-float.png");
    is_png(dir, "xgraph-double.png");
    snprintf(path, sizeof path, "%s/xgraph-float.dat", dir);
    char *dat = csv_slurp(path);
    assert_non_null(dat);
    assert_non_null(strstr(dat, "reference f(k): Tesla K40")); /* Li's Table 3.2, float rows */
    free(dat);
}

static void test_cuda_counts_warps_per_sm(void **state)
{
    (void)state;
    /* 4 SMs, warps of 32: k warps per SM launch 128k threads. f(k) = min(10k,
     * 200) GB/s at k = 4, 8, ..., 64: delta = 20 warps/SM, and Little gives
     * L = 20 x 32 x 4 x 12 B / 200 GB/s = 153.6 ns. */
    char dir[256];
    snprintf(dir, sizeof dir, "%s/cuda", tmp);
    FILE *f = stream_results(dir, "cuda", 4, "device.warp_size,32\n");
    for (int k = 4; k <= 64; k += 4) {
        cr_result r = row("stream", "cuda", "triad", "float", "concurrency", (uint64_t)k * 128, fmin(10.0 * k, 200),
                          "GB/s");
        cr_result_write_row(f, &r);
    }
    fclose(f);
    expect_output(tool, dir, 0, "warps/SM", "missing:"); /* no fma, no latency: said */
    static small_table t;
    read_params(dir, &t);
    near(param(&t, "delta_k", "float", ""), 20);
    /* No pointer chase to check Little's law against: kept in words only. */
    assert_true(isnan(param(&t, "L_fit_ns", "float", "")));
    assert_non_null(strstr(param_note(&t, "L_fit_ns", "float"), "Little's law at the knee gives 153.6 ns"));
    assert_true(isnan(param(&t, "M", "float", "")));
    assert_non_null(strstr(param_note(&t, "M", "float"), "no fma-cuda.csv"));
    is_png(dir, "xgraph-float.png");
}

static void test_cache_form(void **state)
{
    (void)state;
    /* f(k) of Li's Eq. 3.5 with L$ = 1 ns, L = 40 ns, R = 40 GB/s,
     * S$/beta = 32, alpha = 4 on 2 compute units: a float triad keeps
     * b = 12 bytes per work-item in flight, 24 per unit of k. It peaks near
     * k = 12 and dips into a valley; the tool fits the cache form back. */
    char dir[256];
    snprintf(dir, sizeof dir, "%s/cache", tmp);
    FILE *f = stream_results(dir, "opencl", 2, "");
    uint64_t last = 0;
    for (double k = 1; k <= 256; k *= 1.15) {
        uint64_t wi = (uint64_t)llround(2 * k);
        if (wi == last)
            continue;
        last = wi;
        double kk = (double)wi / 2, miss = pow(32 / kk + 1, 1 - 4.0), lm = fmax(40, kk * 24 / 40);
        cr_result r = row("stream", "opencl", "triad", "float", "concurrency", wi, kk * 24 / (1 + (lm - 1) * miss),
                          "GB/s");
        cr_result_write_row(f, &r);
    }
    fclose(f);
    static small_table t;
    fit_without_plots(dir, &t);
    assert_true(fabs(param(&t, "R_eq35", "float", "") / 40 - 1) < 0.02);
    assert_true(fabs(param(&t, "L_eq35_ns", "float", "") / 40 - 1) < 0.05);
    assert_true(fabs(param(&t, "L_cache_ns", "float", "") - 1) < 0.05);
    assert_true(fabs(param(&t, "alpha", "float", "") / 4 - 1) < 0.05);
    double psi = param(&t, "cache_peak", "float", "");
    assert_true(psi > 8 && psi < 16);
    /* The plain fit's file has no cache rows where there is no peak. */
    opencl_fixture(dir, "nopeak", false, false);
    fit_without_plots(dir, &t);
    assert_true(isnan(param(&t, "cache_peak", "float", "")));
    assert_non_null(strstr(param_note(&t, "cache_peak", "float"), "no cache peak"));
}

/* A stream run on 2 compute units whose triad arrays are 32 MiB each (96
 * MiB in all, as a quick run), with metadata lines extra: f(k) = min(10k,
 * 20) GB/s at k = 0.5 .. 16, float and double. */
static void residency_fixture(char dir[256], const char *name, const char *extra)
{
    snprintf(dir, 256, "%s/%s", tmp, name);
    FILE *f = stream_results(dir, "opencl", 2, extra);
    for (int i = 0; i < 6; ++i) {
        double k = 0.5 * (1 << i);
        for (int d = 0; d < 2; ++d) {
            cr_result r = row("stream", "opencl", "triad", d ? "double" : "float", "concurrency", (uint64_t)(2 * k),
                              fmin(10 * k, 20), "GB/s");
            r.size_bytes = UINT64_C(32) << 20; /* one array, as stream writes it */
            cr_result_write_row(f, &r);
        }
    }
    fclose(f);
}

/* The residency fixture NAME with the metadata lines meta, fitted; it
 * must print printed (and also, where not NULL). R stays what the fit
 * gives; both types get one verdict, R_resident, which is returned. */
static double resident(char dir[256], const char *name, const char *meta, small_table *t, const char *printed,
                       const char *also)
{
    residency_fixture(dir, name, meta);
    fit_without_plots_saying(dir, t, printed, also);
    near(param(t, "R", "float", ""), 20);
    double r = param(t, "R_resident", "float", ""), d = param(t, "R_resident", "double", "");
    assert_true(r == d || (isnan(r) && isnan(d)));
    return r;
}

static void test_r_residency(void **state)
{
    (void)state;
    char dir[256];
    static small_table t;

    /* 96 MiB below 4 x 32 MiB: the plateau is the cache's. */
    near(resident(dir, "res-cache", "llc_bytes,33554432\n", &t, "R (cache)",
                  "this is the cache's bandwidth, not memory's"),
         1);
    starts_with(param_note(&t, "R", "float"), "R (cache): the triad arrays, 96 MiB in all, are below 4x the 32 MiB "
                                              "last-level cache: this is the cache's bandwidth, not memory's: ");
    assert_non_null(strstr(param_note(&t, "R_resident", "double"), "below 4x the 32 MiB last-level cache"));

    /* 96 MiB against 4 x 24 MiB = 96 MiB: not below, so memory. */
    near(resident(dir, "res-memory", "llc_bytes,25165824\n", &t, "R (memory)", NULL), 0);
    starts_with(param_note(&t, "R", "float"), "R, the memory system's plateau: the triad arrays, 96 MiB in all, are "
                                              "at least 4x the 24 MiB last-level cache: they stream from memory: ");
    assert_null(strstr(param_note(&t, "R", "float"), "cache's bandwidth"));

    /* The device's own cache when it is the larger (a discrete GPU's L2). */
    near(resident(dir, "res-device", "llc_bytes,8388608\ndevice.cache_bytes,33554432\n", &t, "R (cache)", NULL), 1);

    /* No llc_bytes (or 0, a topology that did not tell): unknown, and said. */
    const char *const unknown[] = {"", "llc_bytes,0\n"};
    for (size_t i = 0; i < countof(unknown); ++i) {
        assert_true(isnan(resident(dir, i ? "res-zero" : "res-unknown", unknown[i], &t, "R (residency?)",
                                   "residency unknown: no last-level cache size in the metadata")));
        assert_string_equal(param_note(&t, "R_resident", "float"),
                            "residency unknown: no last-level cache size in the metadata");
        assert_non_null(strstr(param_note(&t, "R", "double"), "residency unknown"));
    }

    /* An LLC size but rows that record no array size: unknown too. */
    opencl_fixture(dir, "res-nosize", false, false);
    char path[512];
    snprintf(path, sizeof path, "%s/stream-opencl.meta.csv", dir);
    FILE *m = fopen(path, "a");
    assert_non_null(m);
    fputs("llc_bytes,33554432\n", m);
    fclose(m);
    fit_without_plots(dir, &t);
    assert_true(isnan(param(&t, "R_resident", "float", "")));
    assert_string_equal(param_note(&t, "R_resident", "float"),
                        "residency unknown: f's rows record no array size");
}

/* The model's headlines pass the plausibility gate against the peaks in
 * the stream run's metadata: R above the memory peak and M above its type's
 * compute peak are flagged with the reason; a cache-resident R is labelled
 * cache; what is below its peak, or has none, is not flagged. */
static void test_headlines_against_the_peaks(void **state)
{
    (void)state;
    char dir[256], path[512];
    static small_table t;
    opencl_fixture(dir, "peaks", true, true); /* R float 30 GB/s, M float 120, M double 60 Gflop/s */
    snprintf(path, sizeof path, "%s/stream-opencl.meta.csv", dir);
    FILE *m = fopen(path, "a");
    assert_non_null(m);
    fputs("peak.memory_GBps,25\npeak.memory_source,planted memory\npeak.float_GFLOPs,100\n"
          "peak.double_GFLOPs,100\npeak.compute_source,planted compute\n",
          m);
    fclose(m);
    fit_without_plots(dir, &t);
    assert_string_equal(param_column(&t, "R", "float", "flags"), "above-peak");
    assert_non_null(strstr(param_note(&t, "R", "float"), "above-peak: 30 GB/s is 1.2x the memory peak of 25 GB/s "
                                                         "(planted memory)"));
    assert_string_equal(param_column(&t, "M", "float", "flags"), "above-peak");
    assert_non_null(strstr(param_note(&t, "M", "float"), "above-peak: 120 Gflop/s is 1.2x the float peak of 100 "
                                                         "GFLOP/s (planted compute)"));
    assert_string_equal(param_column(&t, "M_E", "float", "flags"), "above-peak");
    assert_string_equal(param_column(&t, "M", "double", "flags"), "");
    assert_string_equal(param_column(&t, "s", "float", "flags"), "");

    /* No peaks in the metadata: nothing to judge against. */
    opencl_fixture(dir, "nopeaks", true, true);
    fit_without_plots(dir, &t);
    assert_string_equal(param_column(&t, "R", "float", "flags"), "");
    assert_string_equal(param_column(&t, "M", "float", "flags"), "");

    /* Arrays in the cache: R is the cache's, whatever the memory peak. */
    residency_fixture(dir, "peaks-cache", "llc_bytes,33554432\npeak.memory_GBps,5\n");
    fit_without_plots(dir, &t);
    assert_string_equal(param_column(&t, "R", "float", "flags"), "cache");
    assert_string_equal(param_column(&t, "R", "double", "flags"), "cache");
}

/* Where L comes from, as each output says it: the L_ns row (value and
 * source), the summary's "L" line. */
static void expect_l(const small_table *t, const char *dtype, double want, const char *source)
{
    double l = param(t, "L_ns", dtype, "");
    if (isnan(want))
        assert_true(isnan(l));
    else
        near(l, want);
    assert_string_equal(param_column(t, "L_ns", dtype, "source"), source);
}

/* The opencl fixture (Little's law gives 0.6 ns float, 2.4 ns double) with
 * its pointer chase at chase_ns (NaN: no latency CSV), fitted; it must
 * print printed. */
static void little_fixture(char dir[256], const char *name, double chase_ns, small_table *t, const char *printed)
{
    opencl_fixture(dir, name, false, false);
    if (!isnan(chase_ns))
        pointer_chase(dir, chase_ns);
    fit_without_plots_saying(dir, t, printed, NULL);
    double ratio = param(t, "L_ratio", "float", ""); /* the evidence stays, whatever the verdict */
    if (isnan(chase_ns))
        assert_true(isnan(ratio));
    else
        near(ratio, 0.6 / chase_ns);
}

/* Little's law omitted for dtype: L_fit_ns empty, its note starting with
 * why, and the model's L = l from source. */
static void expect_little_omitted(const small_table *t, const char *dtype, const char *why, double l,
                                  const char *source)
{
    assert_true(isnan(param(t, "L_fit_ns", dtype, "")));
    starts_with(param_note(t, "L_fit_ns", dtype), why);
    expect_l(t, dtype, l, source);
}

static void test_little_kept_within_2x_of_the_chase(void **state)
{
    (void)state;
    char dir[256];
    static small_table t;
    /* 1 ns chase: float 0.6x, inside 0.5..2, kept; double 2.4x, outside. */
    little_fixture(dir, "little-kept", 1, &t,
                   "  L                       0.6 ns                 the X-model's L: Little's law at the knee "
                   "(within 2x of the pointer chase)");
    near(param(&t, "L_fit_ns", "float", ""), 0.6);
    starts_with(param_note(&t, "L_fit_ns", "float"),
                "Little's law at the knee: L = delta x 1 thread(s) per unit x 2 compute units x b / R, b = 12 bytes "
                "(triad: 3 loads and stores of 4-byte float per iteration); its premise holds: 0.6x the 1 ns pointer "
                "chase (within 2x)");
    expect_l(&t, "float", 0.6, "L_fit_ns");
    assert_string_equal(param_note(&t, "L_ns", "float"),
                        "the X-model's L: Little's law at the knee (within 2x of the pointer chase)");
    /* Above the chase is no better than below it. */
    expect_little_omitted(&t, "double",
                          "omitted: Little's law at the knee gives 2.4 ns, 2.4x the 1 ns pointer chase; its premise "
                          "(one memory latency per delta x b bytes in flight) fails: f saturates only with more bytes "
                          "in flight than one memory latency needs",
                          1, "L_chase_ns");
}

static void test_little_omitted_100x_below_the_chase(void **state)
{
    (void)state;
    char dir[256], path[600];
    static small_table t;
    /* 80 ns chase: Little's law's 0.6 ns is 133x below it. The summary's L
     * is the chase's, and says so. */
    little_fixture(dir, "little-below", 80, &t,
                   "  L                        80 ns                 the X-model's L: the "
                   "pointer chase (Little's law at the knee: its premise fails)");
    expect_little_omitted(&t, "float",
                          "omitted: Little's law at the knee gives 0.6 ns, 0.0075x the 80 ns pointer chase; its "
                          "premise (one memory latency per delta x b bytes in flight) fails: prefetchers and vector "
                          "loads keep more in flight (L = delta x 1 thread(s) per unit x 2 compute units x b / R",
                          80, "L_chase_ns");
    expect_l(&t, "double", 80, "L_chase_ns");
    /* The X-graph's legend gives the chase's L, never Little's 0.6 ns. */
    run_result r = run_with_status(0, NULL, tool, dir);
    run_free(&r);
    snprintf(path, sizeof path, "%s/xgraph-float.svg", dir);
    char *svg = csv_slurp(path);
    assert_non_null(svg);
    expect_in(svg, "f fit: R 30 GB/s, δ 0.75, L 80 ns (chase)");
    assert_null(strstr(svg, "0.6 ns"));
    free(svg);
}

static void test_little_unchecked_without_a_chase(void **state)
{
    (void)state;
    char dir[256];
    static small_table t;
    little_fixture(dir, "little-nochase", NAN, &t, "no pointer-chase latency to check Little's law against");
    assert_true(isnan(param(&t, "L_fit_ns", "float", "")));
    assert_string_equal(param_note(&t, "L_fit_ns", "float"),
                        "omitted: no main-memory pointer chase to check the premise against (no latency-opencl.csv "
                        "in the directory); Little's law at the knee gives 0.6 ns (L = delta x 1 thread(s) per unit x "
                        "2 compute units x b / R, b = 12 bytes (triad: 3 loads and stores of 4-byte float per "
                        "iteration))");
    expect_l(&t, "float", NAN, "");
    assert_string_equal(param_note(&t, "L_ns", "float"),
                        "the X-model's L: unknown (Little's law at the knee: unchecked, no main-memory pointer "
                        "chase)");
}

static void test_little_omitted_for_a_cache_resident_stream(void **state)
{
    (void)state;
    char dir[256];
    static small_table t;
    /* f = min(10k, 20): Little's law gives 2 x 2 x 12 B / 20 GB/s = 2.4 ns,
     * 0.8x a 3 ns chase, which would hold; but 96 MiB of arrays sit in a
     * 32 MiB cache's 4x. */
    residency_fixture(dir, "little-cache", "llc_bytes,33554432\n");
    pointer_chase(dir, 3);
    fit_without_plots(dir, &t);
    near(param(&t, "R_resident", "float", ""), 1);
    expect_little_omitted(&t, "float",
                          "omitted: cache-resident arrays: Little's law here is not about memory; it gives 2.4 ns at "
                          "the knee of f measured in a cache (the triad arrays, 96 MiB in all, are below 4x the 32 "
                          "MiB last-level cache",
                          3, "L_chase_ns");
    near(param(&t, "L_ratio", "float", ""), 0.8);
    /* The same run streaming from memory (a 24 MiB cache): kept. */
    residency_fixture(dir, "little-memory", "llc_bytes,25165824\n");
    pointer_chase(dir, 3);
    fit_without_plots(dir, &t);
    near(param(&t, "L_fit_ns", "float", ""), 2.4);
    expect_l(&t, "float", 2.4, "L_fit_ns");
}

static void test_application(void **state)
{
    (void)state;
    char dir[256], args[512], path[600];
    opencl_fixture(dir, "app", true, false);

    /* Z = 2, E = 2, n = 8, float: demand min(20x, 120)/2 = 10(8 - k) for
     * x < pi = 6; f = 30 on its plateau: 10(8 - k) = 30 at k = 5, x = 3:
     * memory-bound, MS 30 GB/s, CS 60 Gflop/s. */
    snprintf(args, sizeof args, "%s --app Z=2,E=2,n=8", dir);
    run_result r = run_with_status(0, NULL, tool, args);
    const char *fl = strstr(r.out, "float: Z = 2");
    assert_non_null(fl);
    expect_all_in(fl, "crossing 1: k = 5, x = 3 work-items/CU: MS 30 GB/s, CS 60 Gflop/s; stable", "memory-bound");
    assert_null(strstr(fl, "crossing 2"));
    run_free(&r);
    static small_table t;
    snprintf(path, sizeof path, "%s/xgraph-app.csv", dir);
    read_any(path, &t);
    assert_int_equal(t.nrows, 2); /* one crossing per type */
    assert_string_equal(field(&t, 0, "dtype"), "float");
    near(strtod(field(&t, 0, "k"), NULL), 5);
    near(strtod(field(&t, 0, "cs_Gflops"), NULL), 60);
    assert_string_equal(field(&t, 0, "state"), "memory-bound");
    assert_string_equal(field(&t, 0, "stability"), "stable");
    is_png(dir, "xgraph-app-float.png");

    /* Z = 8, E = 4: demand min(40x, 120)/8 = 15 for x >= 3; f = 40k = 15 at
     * k = 0.375, x = 7.625 >= pi = 3: compute-bound, CS 120 Gflop/s. */
    snprintf(args, sizeof args, "%s --app Z=8,E=4,n=8 --no-plot", dir);
    expect_output(tool, args, 0, "crossing 1: k = 0.375, x = 7.625 work-items/CU: MS 15 GB/s, CS 120 Gflop/s",
                  "compute-bound");

    /* Z = 1, E = 1, n = 1: demand 10(1 - k), f = 40k: k = 0.2, x = 0.8;
     * below delta = 0.75 and pi = 12: capacity-bound, MS = CS = 8. */
    snprintf(args, sizeof args, "%s --app n=1,E=1,Z=1 --no-plot --f-curve measured", dir);
    expect_output(tool, args, 0, "crossing 1: k = 0.2, x = 0.8 work-items/CU: MS 8 GB/s, CS 8 Gflop/s",
                  "capacity-bound", "measured points joined");
}

static void test_three_crossings(void **state)
{
    (void)state;
    /* Li's Fig. 3.9-B through the command line: measured f(k) with a cache
     * peak, k = 4, 6, 12, 20, 24, 28 per CU -> 100, 40, 28, 60, 60, 60 GB/s
     * (joined: 25k to the peak, then -30/k, -2/k, +4/k, flat; it stays at
     * R = 60 from k = 20 on: delta = 20). g_1(x) = min(20x, 160) (pi = 8).
     * Z = 2, n = 12: demand 80 for k <= 4, then 120 - 10k (the unit test's
     * case): crossings at k = 3.2 (stable, compute-bound), 5 (unstable:
     * |f'| = 30 > g'/Z = 10, Eq. 3.6), 8.5 (stable, thrashing). */
    char dir[256], args[512];
    snprintf(dir, sizeof dir, "%s/three", tmp);
    FILE *f = stream_results(dir, "opencl", 2, "");
    static const double k[] = {4, 6, 12, 20, 24, 28}, y[] = {100, 40, 28, 60, 60, 60};
    for (int i = 0; i < 6; ++i) {
        cr_result r = row("stream", "opencl", "triad", "float", "concurrency", (uint64_t)(2 * k[i]), y[i], "GB/s");
        cr_result_write_row(f, &r);
    }
    fclose(f);
    f = results_csv(dir, "fma-opencl.csv");
    for (int x = 1; x <= 16; x *= 2) {
        cr_result g = row("fma", "opencl", "fma", "float", "concurrency", (uint64_t)(2 * x), fmin(20.0 * x, 160),
                          "Gflop/s");
        cr_result_add_param(&g, "ilp=1;per_cu=%d;per_cu_unit=work-items", x);
        cr_result_write_row(f, &g);
    }
    fclose(f);
    snprintf(args, sizeof args, "%s --app Z=2,E=1,n=12 --f-curve measured", dir);
    expect_output(tool, args, 0, "δ = 20, where",
                  "crossing 1: k = 3.2, x = 8.8 work-items/CU: MS 80 GB/s, CS 160 Gflop/s; stable",
                  "crossing 2: k = 5, x = 7 work-items/CU: MS 70 GB/s, CS 140 Gflop/s; unstable "
                  "(df/dk -30, dg/dx/Z 10); thrashing",
                  "crossing 3: k = 8.5, x = 3.5 work-items/CU: MS 35 GB/s, CS 70 Gflop/s; stable "
                  "(df/dk -2, dg/dx/Z 10); thrashing",
                  "compute-bound", "one of the stable states");
    is_png(dir, "xgraph-app-float.png");
}

/* DIR/gesummv-opencl.csv: an application's own f(k) in float with a cache
 * peak (Li's Fig. 3.12), k = 4, 6, 12, 20, 24, 28 per CU (2 CUs) -> 100,
 * 40, 28, 60, 60, 60 GB/s, and rows the tool must ignore: an invalid one,
 * another backend's. No double rows. */
static void gesummv_rows(const char *dir)
{
    FILE *f = results_csv(dir, "gesummv-opencl.csv");
    static const double k[] = {4, 6, 12, 20, 24, 28}, y[] = {100, 40, 28, 60, 60, 60};
    for (int i = 0; i < 6; ++i) {
        cr_result r = row("gesummv", "opencl", "gesummv", "float", "concurrency", (uint64_t)(2 * k[i]), y[i], "GB/s");
        cr_result_add_param(&r, "n=4096");
        cr_result_write_row(f, &r);
    }
    cr_result r = row("gesummv", "opencl", "gesummv", "float", "concurrency", 20, 500, "GB/s");
    r.valid = false;
    cr_result_write_row(f, &r);
    r = row("gesummv", "cuda", "gesummv", "float", "concurrency", 20, 500, "GB/s");
    cr_result_write_row(f, &r);
    fclose(f);
}

/* --f-curve gesummv: the application X-graph on the application's own
 * measured f(k) instead of stream's fit. g_2(x) = min(20x, 120) (pi = 6),
 * Z = 2, n = 12: demand 60 for k <= 6, then 120 - 10k. Joined, f is 25k to
 * the peak, then falls by 30/k and 2/k, rises by 4/k, flat at 60 from k =
 * 20 (its plateau: delta = 20). Crossings: k = 2.4 (stable,
 * compute-bound), 16/3 (unstable: f falls by 30/k against a flat demand),
 * 8.5 (stable: -2 + 10 > 0, Eq. 3.6; thrashing). On stream's fit
 * min(40k, 30) the same application crosses once, at k = 9, memory-bound. */
static void test_application_on_its_own_f(void **state)
{
    (void)state;
    char dir[256], args[512], path[600];
    opencl_fixture(dir, "own-f", true, false);
    gesummv_rows(dir);
    snprintf(args, sizeof args, "%s --app Z=2,E=2,n=12", dir);
    expect_output(tool, args, 0, "crossing 1: k = 9, x = 3 work-items/CU: MS 30 GB/s, CS 60 Gflop/s; stable",
                  "memory-bound");
    snprintf(args, sizeof args, "%s --app Z=2,E=2,n=12 --f-curve gesummv", dir);
    run_result r = run_with_status(0, NULL, tool, args);
    const char *fl = strstr(r.out, "float: Z = 2");
    assert_non_null(fl);
    expect_all_in(fl,
                  "f(k): gesummv's own f(k), its 6 measured points joined, flat after the last; δ = 20, where they "
                  "stay within 5% of its plateau, 60 GB/s",
                  "crossing 1: k = 2.4, x = 9.6 work-items/CU: MS 60 GB/s, CS 120 Gflop/s; stable",
                  "crossing 2: k = 5.333, x = 6.667 work-items/CU: MS 60 GB/s, CS 120 Gflop/s; unstable (df/dk -30, "
                  "dg/dx/Z 0)",
                  "crossing 3: k = 8.5, x = 3.5 work-items/CU: MS 35 GB/s, CS 70 Gflop/s; stable (df/dk -2, "
                  "dg/dx/Z 10); thrashing",
                  "one of the stable states");
    expect_in(r.out, "double: not solved: no f(k): no double gesummv rows in the concurrency sweep");
    run_free(&r);
    static small_table t;
    snprintf(path, sizeof path, "%s/xgraph-app.csv", dir);
    read_any(path, &t);
    assert_int_equal(t.nrows, 3);
    starts_with(field(&t, 0, "f_curve"), "gesummv's own f(k)");
    assert_string_equal(field(&t, 2, "state"), "thrashing");
    is_png(dir, "xgraph-app-float.png");
    snprintf(path, sizeof path, "%s/xgraph-app-float.dat", dir);
    char *dat = csv_slurp(path);
    assert_non_null(dat);
    expect_in(dat, "# f(k) measured: gesummv (median), k in work-items/CU, GB/s\n4 100\n6 40\n12 28\n");
    free(dat);

    /* Without the application's rows: the file named, exit 1. */
    opencl_fixture(dir, "no-own-f", true, false);
    snprintf(args, sizeof args, "%s --app Z=2,E=2,n=12 --f-curve gesummv", dir);
    expect_error(tool, args, 1, "gesummv-opencl.csv: no such file: --f-curve gesummv takes f(k) from its concurrency "
                                "sweep");
    FILE *f = results_csv(dir, "gesummv-opencl.csv");
    cr_result bad = row("gesummv", "opencl", "gesummv", "float", "concurrency", 20, 500, "GB/s");
    bad.valid = false;
    cr_result_write_row(f, &bad);
    fclose(f);
    expect_error(tool, args, 1, "gesummv-opencl.csv: no valid gesummv rows of the concurrency sweep for backend opencl");
}

/* Replaces line `line` (1-based) of DIR/NAME by text. */
static void rewrite_line(const char *dir, const char *name, int line, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *all = csv_slurp(path);
    assert_non_null(all);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int n = 1;
    for (char *p = all; *p;) {
        char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p + 1) : strlen(p);
        if (n == line)
            fprintf(f, "%s\n", text);
        else
            fwrite(p, 1, len, f);
        p += len;
        ++n;
    }
    fclose(f);
    free(all);
}

/* xgraph stopped (SIGTERM to its process group, as run_all.sh stops a
 * task) while gnuplot draws: no figure, cut or empty, and none of its
 * temporaries (the gnuplot script and log, the figure's temporary name)
 * is left. gnuplot here is a stand-in that waits. */
static void test_stopped_drawing_leaves_nothing_behind(void **state)
{
    (void)state;
    char dir[256], cmd[1024];
    opencl_fixture(dir, "stopped", true, false);
    snprintf(cmd, sizeof cmd, "%s/%s '%s'", bin_dir, tool, dir);
    expect_nothing_left_after_sigterm(cmd, ":", dir, "^\\.xgraph-gp-", "^\\.xgraph|drawing|\\.(png|svg)$");
    /* To xgraph alone, once gnuplot runs (the stand-in says so). */
    char started[300];
    opencl_fixture(dir, "stopped-alone", true, false);
    snprintf(cmd, sizeof cmd, "%s/%s '%s'", bin_dir, tool, dir);
    snprintf(started, sizeof started, "touch %s/gnuplot-started", dir);
    expect_nothing_left_after_sigterm_to(cmd, started, dir, "^gnuplot-started$", "^\\.xgraph|drawing|\\.(png|svg)$",
                                         false);
}

static void test_bad_input(void **state)
{
    (void)state;
    char dir[256], args[700];
    opencl_fixture(dir, "bad", true, true);
    expect_listed_bad_inputs_after(tool, dir, "tools/xgraph/tests/bad_inputs.txt");
    /* Refused once the fit is done, before anything is shown or written. */
    char out[300];
    snprintf(out, sizeof out, "%s/app-refused", tmp);
    snprintf(args, sizeof args, "%s --app Z=2,E=3,n=8 --out %s", dir, out);
    expect_error(tool, args, 2, "E=3: no float fma rows with ilp=3 (measured: 1 2 4)");
    assert_int_not_equal(access(out, F_OK), 0);
    expect_error(tool, "", 2, "no results directory");
    expect_error(tool, "''", 2, "the results directory given is empty");
    snprintf(args, sizeof args, "%s/nowhere", tmp);
    expect_error(tool, args, 2, "nowhere: no such directory");
    snprintf(args, sizeof args, "%s --reference %s/none.csv", dir, tmp);
    expect_error(tool, args, 2, "none.csv");
}

/* A line of a results file that breaks it, and what xgraph says. */
static const struct {
    const char *file;
    int line;
    const char *text, *error;
} bad_lines[] = {
    {"fma-opencl.csv", 5, "fma,opencl,x,fma,float,concurrency,,4,,\"ilp=1\",,,5,,,,,,,event,ok,1,1,Gflop/s,,1",
     "fma-opencl.csv:5: 26 fields, the header has 36"},
    /* The count right, the ILP missing: */
    {"fma-opencl.csv", 5, "fma,opencl,x,fma,float,concurrency,,4,,\"per_cu=2\",,,5,,,,,,,event,ok,1,1,Gflop/s,,1,,,,,,,,,,",
     "fma-opencl.csv:5: params has no ilp="},
    {"stream-opencl.csv", 3, "stream,opencl,dev,triad,float", "stream-opencl.csv:3: 5 fields, the header has 36"},
    {"stream-opencl.csv", 4, "stream,opencl,dev,triad,float,concurrency,,2,1,,,,5,,,,,,,event,stable,fast,,GB/s,,1,,,,,,,,,,",
     "stream-opencl.csv:4: column 'figure': 'fast' is not a number"},
    {"stream-opencl.csv", 1,
     "benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,work_group,params,bytes_per_rep,ops_per_rep,"
     "n,min_s,median_s,mean_s,max_s,stddev_s,ci_rel,timer,stop,speed,figure_best,unit,ref_ratio,valid,flags,cycles,"
     "energy_j,power_w,static_w,pj_per_byte,pj_per_op,energy_sensor,energy_interval_s,note",
     "stream-opencl.csv:1: no column 'figure'"},
    {"stream-opencl.csv", 2, "stream,opencl,dev,triad,float,concurrency,,2,1,\"broken,,,5",
     "stream-opencl.csv:2: malformed quoting"},
};

/* Faults in the data: exit 1, the file (and line) named. */
static void test_bad_data(void **state)
{
    (void)state;
    char dir[256], args[700];
    snprintf(args, sizeof args, "%s/empty", tmp);
    mkdir(args, 0755);
    expect_error(tool, args, 1, "no stream-<backend>.csv");

    for (size_t i = 0; i < countof(bad_lines); ++i) {
        opencl_fixture(dir, "faults", true, true);
        rewrite_line(dir, bad_lines[i].file, bad_lines[i].line, bad_lines[i].text);
        expect_error(tool, dir, 1, bad_lines[i].error);
    }
    opencl_fixture(dir, "faults", true, true);
    snprintf(args, sizeof args, "%s/stream-opencl.meta.csv", dir);
    remove(args);
    expect_error(tool, dir, 1, "stream-opencl.meta.csv: no such file");

    /* --app without any fma CSV: g(x) is unknown, found after the fit of f(k). */
    opencl_fixture(dir, "nofma", false, false);
    snprintf(args, sizeof args, "%s --app Z=2,E=1,n=8 --no-plot", dir);
    expect_error(tool, args, 1, "needs g(x): no");
}

/* The shared list of corrupt results, the cases on the files xgraph reads:
 * refused as the report refuses them (the same reader), the file and line
 * named. The real run itself fits. */
static void test_corrupt_results_are_refused(void **state)
{
    (void)state;
    static const char *const read_here[] = {"opencl-0-cpu/stream-opencl.csv", "opencl-0-cpu/stream-opencl.meta.csv",
                                            "opencl-0-cpu/fma-opencl.csv", "opencl-0-cpu/latency-opencl.csv"};
    size_t n, tried = 0;
    corrupt_case *cases = corrupt_cases(&n);
    char run_dir[300], args[400];
    snprintf(run_dir, sizeof run_dir, "%s/corrupt", tmp);
    snprintf(args, sizeof args, "%s/opencl-0-cpu --no-plot", run_dir);
    copy_real_run(run_dir);
    expect_output(tool, args, 0, "wrote");
    for (size_t i = 0; i < n; ++i) {
        const corrupt_case *c = &cases[i];
        bool read = false;
        for (size_t k = 0; k < countof(read_here) && !read; ++k)
            read = strcmp(c->file, read_here[k]) == 0;
        if (!read)
            continue;
        ++tried;
        copy_real_run(run_dir);
        corrupt(run_dir, c);
        expect_corrupt_refused(tool, args, c, false);
    }
    free(cases);
    assert_true(tried >= 10);
}

/* What it prints must arrive: into a full disk or a closed stdout it is
 * one line and exit 1, not exit 0 with the output lost. */
static void test_unwritable_stdout_fails(void **state)
{
    (void)state;
    expect_output_must_arrive(tool, "--version");
}

CLI_TEST_MAIN(test_parameters_and_figures, test_stopped_drawing_leaves_nothing_behind, test_cuda_counts_warps_per_sm,
              test_cache_form, test_r_residency, test_headlines_against_the_peaks,
              test_little_kept_within_2x_of_the_chase, test_little_omitted_100x_below_the_chase,
              test_little_unchecked_without_a_chase, test_little_omitted_for_a_cache_resident_stream,
              test_application, test_three_crossings, test_application_on_its_own_f, test_bad_input, test_bad_data, test_corrupt_results_are_refused, test_unwritable_stdout_fails)
