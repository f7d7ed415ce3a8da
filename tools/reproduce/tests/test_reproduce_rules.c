/* The rules of the targets held against one device: Li's X-graph knee,
 * gesummv's cache peak, his critical points and register profiles, Lee's atomics against the
 * stride and his transfer model, Crawford's eq. 7.1. Each rule gets rows
 * as its benchmark writes them and the thesis's values built in, and is
 * checked for each verdict it can give. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reproduce/reproduce.h"
#include "shared/csv_schema.h"
#include "tests/test_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static rr_thesis thesis;
static rr_outcome out;

static int load_thesis(void **state)
{
    (void)state;
    char err[512];
    return rr_thesis_builtin(&thesis, err, sizeof err);
}

static int free_thesis(void **state)
{
    (void)state;
    rr_thesis_free(&thesis);
    return 0;
}

/* Files of a device directory: name, text, name, text, ..., NULL. The
 * outcome of target on them, in out. */
static const rr_outcome *judge(const char *target, ...)
{
    rr_file files[4];
    size_t n = 0;
    va_list ap;
    va_start(ap, target);
    for (const char *name; n < 4 && (name = va_arg(ap, const char *)) != NULL; ++n) {
        const char *text = va_arg(ap, const char *);
        char err[512];
        snprintf(files[n].name, sizeof files[n].name, "%s", name);
        if (cr_csv_parse(&files[n].table, name, text, strlen(text), &cr_schema_any, err, sizeof err) != 0)
            fail_msg("%s", err);
    }
    va_end(ap);
    rr_device d = {"dev", files, n};
    const rr_target *t = NULL;
    for (size_t i = 0; i < rr_target_count(); ++i)
        t = strcmp(rr_target_at(i)->id, target) == 0 ? rr_target_at(i) : t;
    assert_non_null(t);
    memset(&out, 0, sizeof out);
    t->evaluate(&d, &thesis, &out);
    while (n > 0)
        cr_csv_free(&files[--n].table);
    return &out;
}

/* The run's side of the pair of quantity and key; NaN where none. */
static double run_value(const char *quantity, const char *key)
{
    for (size_t i = 0; i < out.npairs; ++i)
        if (strcmp(out.pairs[i].quantity, quantity) == 0 && strcmp(out.pairs[i].key, key) == 0)
            return out.pairs[i].run;
    return NAN;
}

static const char xgraph_head[] = "parameter,dtype,ilp,value,unit,fit_quality,source,flags,note\n";
static const char meta_132[] = "key,value\ndevice.compute_units,132\n";

/* H200-like: 3000 GB/s × 300 ns ÷ 132 SMs = 6818 B in flight per SM,
 * inside the thesis GPUs' 6144-8192 B (float); a tenth of R, 682 B, is
 * not within 2x; R in a cache is the premise failing; no L, nothing to
 * turn R into bytes. */
static void test_li_fig310(void **state)
{
    (void)state;
    char x[512];
    snprintf(x, sizeof x, "%sR,float,,3000,GB/s,,,,\nL_ns,float,,300,ns,,,,\n", xgraph_head);
    assert_int_equal(judge("li-fig3.10", "xgraph-params.csv", x, "stream-cuda.meta.csv", meta_132, NULL)->verdict,
                     RR_REPRODUCED);
    assert_near(run_value("bytes_in_flight_per_sm", "Tesla K40 float"), 3000.0 * 300 / 132, 1e-6);
    assert_non_null(strstr(out.evidence, "xgraph-params.csv:2 xgraph-params.csv:3"));
    snprintf(x, sizeof x, "%sR,float,,300,GB/s,,,,\nL_chase_ns,float,,300,ns,,,,\n", xgraph_head);
    assert_int_equal(judge("li-fig3.10", "xgraph-params.csv", x, "stream-cuda.meta.csv", meta_132, NULL)->verdict,
                     RR_QUALITATIVE);
    snprintf(x, sizeof x, "%sR,float,,3000,GB/s,,,cache,\nL_ns,float,,300,ns,,,,\n", xgraph_head);
    assert_int_equal(judge("li-fig3.10", "xgraph-params.csv", x, "stream-cuda.meta.csv", meta_132, NULL)->verdict,
                     RR_DIFFERS);
    assert_string_equal(out.flags, "cache");
    snprintf(x, sizeof x, "%sR,float,,3000,GB/s,,,,\n", xgraph_head);
    assert_int_equal(judge("li-fig3.10", "xgraph-params.csv", x, "stream-cuda.meta.csv", meta_132, NULL)->verdict,
                     RR_NOT_MEASURABLE);
    assert_non_null(strstr(out.reason, "no latency"));
}

static const char results_head[] = "variant,dtype,sweep,size_bytes,params,median_s,figure,valid,flags\n";

/* A results file: the header, then the rows fmt makes (each call its own
 * buffer of four, so that two can stand in one call of judge). */
static const char *rows(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *rows(const char *fmt, ...)
{
    static char csv[4][4096];
    static size_t next;
    char *buf = csv[next++ % 4];
    size_t used = (size_t)snprintf(buf, sizeof csv[0], "%s", results_head);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, sizeof csv[0] - used, fmt, ap);
    va_end(ap);
    return buf;
}

/* regspill's tuner row with the critical points' and the exhaustive
 * search's speed-ups and the reduction. */
static const rr_outcome *tuner(const char *target, double cp, double best, double reduction)
{
    return judge(target, "regspill-cuda.csv",
                 rows("tuner,uint32,registers,,live=64;rule=per-warp;critical_points=32/40/64;searched=3/49;"
                      "best_cp=64;best=63;default=72;speedup_cp=%.4f;speedup_best=%.4f;reduction=%.3g,,%.4f,1,\n",
                      cp, best, reduction, cp),
                 NULL);
}

/* Fermi: 7.9% against 9%, 15x fewer points: short of the optimum by
 * 0.0101. 8% against 9% with 16x is within; 4% against 9% (0.046 short)
 * holds qualitatively; 0% against 20% differs; no tuner row, not
 * measurable. */
static void test_li_fig44_to_46(void **state)
{
    (void)state;
    assert_int_equal(tuner("li-fig4.4", 1.08, 1.09, 16)->verdict, RR_REPRODUCED);
    assert_near(run_value("speedup_pct", "GTX570 (Fermi) CP-based (Proposed) over compiler default, mean of 12 apps"),
                8.0, 1e-9);
    assert_near(run_value("search_space_reduction", "GTX570 (Fermi) geometric mean of 12 apps"), 16, 1e-9);
    assert_int_equal(tuner("li-fig4.4", 1.04, 1.09, 16)->verdict, RR_QUALITATIVE);
    assert_int_equal(tuner("li-fig4.5", 1.00, 1.20, 16)->verdict, RR_DIFFERS);
    /* Maxwell's 13x: 40x is beyond 2x of it, though the optimum is met. */
    assert_int_equal(tuner("li-fig4.6", 1.07, 1.07, 40)->verdict, RR_QUALITATIVE);
    assert_int_equal(judge("li-fig4.5", "regspill-cuda.csv", results_head, NULL)->verdict, RR_NOT_MEASURABLE);
}

static void test_li_critical_points(void **state)
{
    (void)state;
    assert_int_equal(tuner("li-critical-points", 1.08, 1.09, 16)->verdict, RR_REPRODUCED);
    assert_near(run_value("speedup", "max over apps and GPUs"), 1.08, 1e-9);
    /* The optimum missed by 4.6%: near enough; by 17%: not. */
    assert_int_equal(tuner("li-critical-points", 1.04, 1.09, 16)->verdict, RR_QUALITATIVE);
    assert_int_equal(tuner("li-critical-points", 1.00, 1.20, 16)->verdict, RR_DIFFERS);
}

/* A reg-cap row: cap, spilled bytes each way, blocks per SM, whether a
 * critical point, seconds. */
static void cap_row(char *csv, size_t len, unsigned cap, unsigned spill, unsigned blocks, int cp, double s)
{
    size_t used = strlen(csv);
    snprintf(csv + used, len - used,
             "reg-cap,uint32,registers,,live=64;rounds=64;cap=%u;registers=%u;spill_store_bytes=%u;"
             "spill_load_bytes=%u;stack_bytes=0;critical_point=%d;blocks_per_sm=%u;occupancy=0.5;limiter=registers,"
             "%.3f,1,1,\n",
             cap, cap, spill, spill, cp, blocks, s);
}

/* Caps 30-38 in three levels (8, 6 and 5 blocks per SM: critical points
 * 32, 35 and 38), spills gone from 32, each level at its best at its
 * last cap; top_spills: the top cap spills too. */
static const char *profile(bool top_spills, bool cp_slow)
{
    static char csv[4096];
    snprintf(csv, sizeof csv, "%s", results_head);
    cap_row(csv, sizeof csv, 30, 64, 8, 0, 1.2);
    cap_row(csv, sizeof csv, 31, 32, 8, 0, 1.1);
    cap_row(csv, sizeof csv, 32, 0, 8, 1, 1.0);
    cap_row(csv, sizeof csv, 33, 0, 6, 0, 1.05);
    cap_row(csv, sizeof csv, 34, 0, 6, 0, 1.04);
    cap_row(csv, sizeof csv, 35, 0, 6, 1, cp_slow ? 1.2 : 1.04);
    cap_row(csv, sizeof csv, 36, 0, 5, 0, 1.1);
    cap_row(csv, sizeof csv, 37, 0, 5, 0, 1.1);
    cap_row(csv, sizeof csv, 38, top_spills ? 8 : 0, 5, 1, 1.1);
    return csv;
}

static void test_li_fig47_to_49(void **state)
{
    (void)state;
    assert_int_equal(judge("li-fig4.7", "regspill-cuda.csv", profile(false, false), NULL)->verdict, RR_QUALITATIVE);
    assert_near(run_value("spill_gone_at", "cap"), 32, 0);
    assert_non_null(strstr(out.evidence, "regspill-cuda.csv:2-10"));
    assert_int_equal(judge("li-fig4.7", "regspill-cuda.csv", profile(true, false), NULL)->verdict, RR_DIFFERS);
    /* Level 6's critical point 15% slower than its best: no steps. */
    assert_int_equal(judge("li-fig4.7", "regspill-cuda.csv", profile(false, true), NULL)->verdict, RR_DIFFERS);
    /* Three critical points against Kepler's about five: within 2x. */
    assert_int_equal(judge("li-fig4.8", "regspill-cuda.csv", profile(false, false), NULL)->verdict, RR_REPRODUCED);
    assert_near(run_value("critical_points", "this kernel"), 3, 0);
    assert_int_equal(judge("li-fig4.9", "regspill-cuda.csv", profile(false, false), NULL)->verdict, RR_QUALITATIVE);
    assert_near(run_value("concurrency_levels", "this kernel"), 3, 0);
    assert_int_equal(judge("li-fig4.9", "regspill-cuda.csv", results_head, NULL)->verdict, RR_NOT_MEASURABLE);
}

/* Atomics against the stride: xchg and the read at strides 1, 2, 4, 8. */
static const char *strides(const double *xchg, const double *read)
{
    static char csv[2048];
    snprintf(csv, sizeof csv, "%s", results_head);
    for (int op = 0; op < 2; ++op)
        for (int k = 0; k < 4; ++k) {
            size_t used = strlen(csv);
            snprintf(csv + used, sizeof csv - used, "%s,uint32,stride,,space=global;degree=1;stride=%d,0.01,%g,1,\n",
                     op ? "read" : "xchg", 1 << k, op ? read[k] : xchg[k]);
        }
    return csv;
}

static void test_lee_fig44(void **state)
{
    (void)state;
    const double flat[] = {100, 102, 99, 101}, rising[] = {50, 100, 101, 100}, falling[] = {100, 50, 30, 20};
    /* Reads level from stride 2, the HD 5870's: reproduced. */
    assert_int_equal(judge("lee-fig4.4", "atomics-cuda.csv", strides(flat, rising), NULL)->verdict, RR_REPRODUCED);
    assert_near(run_value("read_saturation_stride", "Radeon HD 5870 (AMD Low)"), 2, 0);
    assert_near(run_value("write_spread", "xchg"), 102.0 / 99, 1e-9);
    /* Reads flat from stride 1: writes flat, reads not as on the AMD GPUs. */
    assert_int_equal(judge("lee-fig4.4", "atomics-cuda.csv", strides(flat, flat), NULL)->verdict, RR_QUALITATIVE);
    assert_int_equal(judge("lee-fig4.4", "atomics-cuda.csv", strides(falling, rising), NULL)->verdict, RR_DIFFERS);
    assert_int_equal(judge("lee-fig4.4", "atomics-cuda.csv", results_head, NULL)->verdict, RR_NOT_MEASURABLE);
}

/* The H200's fits of its two pinned copies (results/reference), the
 * errors scaled by error_scale. */
static const char *h200_fits(double error_scale)
{
    static char csv[4096];
    static const char *const paths[] = {"h2d-memcpy-pinned-async", "d2h-memcpy-pinned-async"};
    static const double c_us[] = {9.836, 8.752}, b[] = {55.49, 55.51}, measured[2][3] = {{36.49, 53.81, 55.31},
                                                                                         {37.93, 54.05, 55.31}};
    static const double err[2][3] = {{0.0106, -0.1229, 0.1124}, {0.0165, -0.1973, 0.1811}};
    snprintf(csv, sizeof csv, "%s", results_head);
    for (int p = 0; p < 2; ++p) {
        size_t used = strlen(csv);
        used += (size_t)snprintf(csv + used, sizeof csv - used,
                                 "%s,,fit,,c_us=%g;b_GBps=%g;max_rel_err=0.002;rms_rel_err=0.0015,,%g,1,\n", paths[p],
                                 c_us[p], b[p], b[p]);
        for (int s = 0; s < 3; ++s)
            used += (size_t)snprintf(csv + used, sizeof csv - used,
                                     "%s,,fit-error,%d,fit_GBps=1;measured_GBps=%g,,%g,1,\n", paths[p], 1 << (20 + 4 * s),
                                     measured[p][s], err[p][s] * error_scale);
    }
    return csv;
}

static void test_lee_fig39_310(void **state)
{
    (void)state;
    assert_int_equal(judge("lee-fig3.9", "bandwidth-cuda.csv", h200_fits(1), NULL)->verdict, RR_QUALITATIVE);
    assert_near(run_value("smallest_over_b", "h2d-memcpy-pinned-async"), 36.49 / 55.49, 1e-9);
    assert_int_equal(judge("lee-fig3.10", "bandwidth-cuda.csv", h200_fits(1), NULL)->verdict, RR_REPRODUCED);
    assert_near(run_value("fit_error_pct", "largest"), 0.1973, 1e-9);
    /* 100 times the errors: up to 19.7%, 2 of 6 within 10%. */
    assert_int_equal(judge("lee-fig3.10", "bandwidth-cuda.csv", h200_fits(100), NULL)->verdict, RR_QUALITATIVE);
    assert_int_equal(judge("lee-fig3.10", "bandwidth-cuda.csv", h200_fits(200), NULL)->verdict, RR_DIFFERS);
    assert_int_equal(judge("lee-fig3.9", "bandwidth-cuda.csv", results_head, NULL)->verdict, RR_NOT_MEASURABLE);
}

/* VectorAdd's technique rows: measured ms and the model's, each
 * technique at 1 MiB and 16 MiB. */
static const char *techniques(double off, double gpu_off)
{
    static char csv[2048];
    static const char *const names[] = {"default", "cpu-resident", "gpu-resident", "mixed"};
    snprintf(csv, sizeof csv, "%s", results_head);
    for (int t = 0; t < 4; ++t)
        for (int s = 0; s < 2; ++s) {
            double e = t == 2 ? gpu_off : off, ms = 1.0 + t + 10 * s;
            size_t used = strlen(csv);
            snprintf(csv + used, sizeof csv - used,
                     "vectoradd-%s,,technique,%d,predicted_ms=%g;model_error_pct=%+.1f;composed_ms=1,,%g,1,\n",
                     names[t], 1 << (20 + 4 * s), ms * (1 + e / 100), e, ms);
        }
    return csv;
}

static void test_lee_fig311_313(void **state)
{
    (void)state;
    /* 5% off, GPU-Resident 80% off as on Llano: reproduced. */
    assert_int_equal(judge("lee-fig3.11", "bandwidth-cuda.csv", techniques(5, 80), NULL)->verdict, RR_REPRODUCED);
    assert_int_equal(judge("lee-fig3.11", "bandwidth-cuda.csv", techniques(15, 15), NULL)->verdict, RR_QUALITATIVE);
    assert_int_equal(judge("lee-fig3.11", "bandwidth-cuda.csv", techniques(50, 50), NULL)->verdict, RR_DIFFERS);
    /* 80% off is within 2x; 150% off (2.5x) is not, on 6 of 8 points. */
    assert_int_equal(judge("lee-fig3.13", "bandwidth-cuda.csv", techniques(5, 80), NULL)->verdict, RR_QUALITATIVE);
    assert_near(run_value("predicted_over_measured", "gpu-resident 1048576 B"), 1.8, 1e-9);
    assert_int_equal(judge("lee-fig3.13", "bandwidth-cuda.csv", techniques(150, 5), NULL)->verdict, RR_DIFFERS);
    assert_int_equal(judge("lee-fig3.13", "bandwidth-cuda.csv", results_head, NULL)->verdict, RR_NOT_MEASURABLE);
}

/* One path's single fit (rms error single) and its two regimes'. */
static const char *regimes(double single, double cache, double memory)
{
    return rows("d2d-memcpy,,fit,,c_us=6;b_GBps=1795;max_rel_err=0.5;rms_rel_err=%g,,1795,1,poor-fit\n"
                "d2d-memcpy,,fit-regime,,regime=cache;c_us=5;b_GBps=3000;max_rel_err=0.1;rms_rel_err=%g,,3000,1,\n"
                "d2d-memcpy,,fit-regime,,regime=memory;c_us=7;b_GBps=1500;max_rel_err=0.1;rms_rel_err=%g,,1500,1,\n",
                single, cache, memory);
}

static void test_lee_fig312(void **state)
{
    (void)state;
    assert_int_equal(judge("lee-fig3.12", "bandwidth-cuda.csv", regimes(0.3, 0.05, 0.1), NULL)->verdict,
                     RR_QUALITATIVE);
    assert_near(run_value("piecewise_over_single_rms", "d2d-memcpy"), 0.1 / 0.3, 1e-9);
    assert_string_equal(out.flags, "poor-fit");
    assert_int_equal(judge("lee-fig3.12", "bandwidth-cuda.csv", regimes(0.3, 0.05, 0.2), NULL)->verdict, RR_DIFFERS);
    /* A single fit within 10%: nothing for the regimes to mend. */
    assert_int_equal(judge("lee-fig3.12", "bandwidth-cuda.csv", regimes(0.05, 0.01, 0.01), NULL)->verdict,
                     RR_NOT_MEASURABLE);
}

static const char *ranking(const char *workload, const char *measured, const char *predicted)
{
    return rows("%s,,ranking,16777216,measured=%s;predicted=%s;match=%d,,,1,\n", workload, measured, predicted,
                strcmp(measured, predicted) == 0);
}

static void test_lee_fig314_315(void **state)
{
    (void)state;
    static const char lee[] = "mixed<cpu-resident<default<gpu-resident";
    static const char other[] = "default<cpu-resident<gpu-resident<mixed";
    assert_int_equal(judge("lee-fig3.14", "bandwidth-cuda.csv", ranking("vectoradd", lee, lee), NULL)->verdict,
                     RR_REPRODUCED);
    assert_near(run_value("measured_place", "gpu-resident"), 4, 0);
    assert_int_equal(judge("lee-fig3.14", "bandwidth-cuda.csv", ranking("vectoradd", other, other), NULL)->verdict,
                     RR_QUALITATIVE);
    assert_int_equal(judge("lee-fig3.14", "bandwidth-cuda.csv", ranking("vectoradd", other, lee), NULL)->verdict,
                     RR_DIFFERS);
    /* Reduce: Mixed and GPU-Resident level in the thesis, either first here. */
    assert_int_equal(judge("lee-fig3.15", "bandwidth-cuda.csv",
                           ranking("reduce", "gpu-resident<mixed<cpu-resident<default",
                                   "gpu-resident<mixed<cpu-resident<default"),
                           NULL)
                         ->verdict,
                     RR_REPRODUCED);
    assert_int_equal(judge("lee-fig3.15", "bandwidth-cuda.csv", ranking("vectoradd", lee, lee), NULL)->verdict,
                     RR_NOT_MEASURABLE);
}

/* The cache model's rows of the thesis's three kernels, eq. 7.1 each. */
static const char *model_rows(double transpose, double matmul, double stencil)
{
    return rows("transpose,,model,65536,measured_ns=10;error_pct=%g,,9,1,\n"
                "matmul,,model,65536,measured_ns=10;error_pct=%g,,9,1,\n"
                "stencil,,model,65536,measured_ns=10;error_pct=%g,,9,1,\n"
                "chase,,model,65536,measured_ns=10;error_pct=300,,9,1,\n",
                transpose, matmul, stencil);
}

static void test_crawford_eq71(void **state)
{
    (void)state;
    assert_int_equal(judge("crawford-eq7.1", "cache-cuda.csv", model_rows(3, 12.5, 8), NULL)->verdict, RR_REPRODUCED);
    assert_near(run_value("percentage_error", "matmul"), 12.5, 1e-9);
    assert_int_equal(out.npairs, 3); /* the chase is no kernel of the thesis */
    assert_int_equal(judge("crawford-eq7.1", "cache-cuda.csv", model_rows(3, 40, 8), NULL)->verdict, RR_QUALITATIVE);
    assert_int_equal(judge("crawford-eq7.1", "cache-cuda.csv", model_rows(3, 60, 8), NULL)->verdict, RR_DIFFERS);
    assert_int_equal(judge("crawford-eq7.1", "cache-cuda.csv", results_head, NULL)->verdict, RR_NOT_MEASURABLE);
}

/* gesummv's concurrency rows of a type, k = 64, 128, ..., 16384 work-items,
 * each figure with its ci_rel, the fourth flagged unstable (no header). */
static const char *gesummv_rows(char *buf, size_t len, const char *dtype, const double *y, double ci)
{
    size_t used = 0;
    for (int i = 0; i < 9 && used < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, "gesummv,%s,concurrency,%d,%g,%g,1,%s\n", dtype, 64 << i,
                                 y[i], ci, i == 3 ? "unstable" : "");
    return buf;
}

static const char gesummv_head[] = "variant,dtype,sweep,work_items,figure,ci_rel,valid,flags\n";
static const char meta_gpu[] = "key,value\ndevice.type,gpu\ndevice.compute_units,132\n";
static const char meta_cpu[] = "key,value\ndevice.type,cpu\ndevice.compute_units,2\n";

/* f(k) of float, double (NULL: none) and the device's metadata, judged. */
static const rr_outcome *fig312(const double *f, double ci, const double *d, const char *meta)
{
    static char csv[4096];
    char a[2048] = "", b[2048] = "";
    snprintf(csv, sizeof csv, "%s%s%s", gesummv_head, f ? gesummv_rows(a, sizeof a, "float", f, ci) : "",
             d ? gesummv_rows(b, sizeof b, "double", d, ci) : "");
    return judge("li-fig3.12", "gesummv-cuda.csv", csv, "gesummv-cuda.meta.csv", meta, NULL);
}

/* A GPU's f with a cache peak at k = 512, 2.12x the plateau (the median of
 * the last three points, 245 GB/s), and a valley at 2048 (0.857x): holds;
 * the same 8% above its plateau with rows of +-5% noise: within 1 + 0.15,
 * differs; a CPU's rising f: differs, saying why; too few points or no
 * gesummv rows: not measurable. */
static void test_li_fig312(void **state)
{
    (void)state;
    static const double peaked[] = {100, 190, 350, 520, 300, 210, 240, 250, 245};
    static const double noisy[] = {100, 190, 262, 270, 255, 250, 250, 250, 250};
    static const double rising[] = {10, 20, 40, 80, 100, 110, 115, 118, 120};
    assert_int_equal(fig312(peaked, 0.01, rising, meta_gpu)->verdict, RR_QUALITATIVE);
    assert_non_null(strstr(out.this_device, "float: cache peak psi at k = 512 work-items, 3.88 per compute unit, "
                                            "2.12x the plateau (245 GB/s), falling to 0.857x at k = 2048"));
    assert_non_null(strstr(out.this_device, "double: no cache peak: rising to its plateau"));
    assert_near(run_value("peak_over_plateau", "float"), 520.0 / 245, 1e-9);
    assert_string_equal(out.evidence, "gesummv-cuda.csv:2-10 gesummv-cuda.csv:11-19");
    assert_string_equal(out.flags, "unstable");
    assert_int_equal(fig312(noisy, 0.05, NULL, meta_gpu)->verdict, RR_DIFFERS);
    assert_non_null(strstr(out.reason, "float: 1.08x the plateau at most, within 1 + 0.15"));
    assert_int_equal(fig312(noisy, 0.001, NULL, meta_gpu)->verdict, RR_QUALITATIVE); /* the same, without the noise */
    assert_int_equal(fig312(NULL, 0, rising, meta_cpu)->verdict, RR_DIFFERS);
    assert_non_null(strstr(out.reason, "a CPU device: each work-item runs its rows to the end"));
    assert_null(strstr(fig312(NULL, 0, rising, meta_gpu)->reason, "CPU"));
    char three[512];
    snprintf(three, sizeof three, "%sgesummv,float,concurrency,64,1,0,1,\ngesummv,float,concurrency,128,2,0,1,\n"
                                  "gesummv,float,concurrency,256,1,0,1,\n",
             gesummv_head);
    assert_int_equal(judge("li-fig3.12", "gesummv-cuda.csv", three, NULL)->verdict, RR_NOT_MEASURABLE);
    assert_non_null(strstr(out.reason, "fewer than 4 verified work-item counts"));
    assert_int_equal(judge("li-fig3.12", "stream-cuda.csv", results_head, NULL)->verdict, RR_NOT_MEASURABLE);
    assert_non_null(strstr(out.reason, "the run has no gesummv results"));
}

TEST_MAIN(load_thesis, free_thesis, test_li_fig310, test_li_fig44_to_46, test_li_critical_points, test_li_fig47_to_49,
          test_lee_fig44, test_lee_fig39_310, test_lee_fig311_313, test_lee_fig312, test_lee_fig314_315,
          test_crawford_eq71, test_li_fig312)
