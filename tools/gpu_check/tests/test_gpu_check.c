/* The GPU check's verdicts on synthetic runs laid out as run_all.sh and the
 * CUDA benchmarks leave them: an H100-like device whose plausible figures
 * pass, then each planted defect caught with its words and exit status. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu_check/cli.h"
#include "gpu_check/tests/verdicts.h"
#include "shared/csv_schema.h"
#include "shared/tests/put_file.h"
#include "tests/scratch_dir.h"
#include "tests/test_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char dir[128];
CR_SCRATCH_FIXTURES(dir, "gpu-check")

#define DEVICE_DIR "cuda-0-NVIDIA_H100_80GB_HBM3"
#define RESULTS_HEADER                                                                                                 \
    "benchmark,backend,device,variant,dtype,sweep,size_bytes,work_items,work_group,params,bytes_per_rep,"             \
    "ops_per_rep,n,min_s,median_s,mean_s,max_s,stddev_s,ci_rel,timer,stop,figure,figure_best,unit,ref_ratio,valid,"   \
    "flags,note"
#define MIB(n) ((unsigned long long)(n) << 20)

/* What a device's benchmarks measured: the figures the rules judge, near
 * those published for an H100 (memory: 659 cycles on an H100 PCIe,
 * arXiv:2507.10789; local memory: 0.87 of 128 B a clock and SM). */
typedef struct {
    double triad_double, triad_float, kernel_read, h2d, d2h, managed, fma_float, fma_double, l2_cycles, memory_ns,
        memory_cycles;
    double local;            /* the local memory's best point, sweep local-width (0: no such rows) */
    unsigned long long stream_bytes;
    const char *triad_valid; /* "1" or "0" */
    const char *pcie_GBps;   /* the metadata's device.pcie_link_GBps */
    const char *memory_peak; /* peak.memory_GBps */
    bool with_fma;           /* fma-cuda.csv written */
    const char *fma_csv;     /* where set, fma-cuda.csv holds this text instead of its rows */
} device_figures;

static device_figures h100(void)
{
    return (device_figures){.triad_double = 3010, .triad_float = 2950, .kernel_read = 3100, .h2d = 52, .d2h = 53,
                            .managed = 12, .fma_float = 60100, .fma_double = 30050, .l2_cycles = 260,
                            .memory_ns = 354, .memory_cycles = 700, .local = 29100, .stream_bytes = MIB(256),
                            .triad_valid = "1", .pcie_GBps = "63.0154", .memory_peak = "3352.32", .with_fma = true};
}

/* The cycles column, where the shared schema has it (latency writes one on
 * CUDA); the L2 figure is unjudged where it does not. */
static bool cycles_column(void) { return cr_schema_column(&cr_schema_results, "cycles") != NULL; }

/* One verified row of a result file: header first where text is empty. */
static void add_row(char *text, size_t len, const char *bench, const char *variant, const char *dtype,
                    const char *sweep, unsigned long long size, double figure, const char *unit, const char *valid,
                    double cycles)
{
    size_t used = strlen(text);
    if (used == 0)
        used += (size_t)snprintf(text, len, "%s%s\n", RESULTS_HEADER, cycles_column() ? ",cycles" : "");
    char cyc[40] = "";
    if (cycles_column())
        snprintf(cyc, sizeof cyc, cycles > 0 ? ",%.6g" : ",", cycles);
    snprintf(text + used, len - used,
             "%s,cuda,NVIDIA H100 80GB HBM3,%s,%s,%s,%llu,,,,,,5,1,1,1,1,0,0,event,stable,%.6g,,%s,,%s,,%s%s\n",
             bench, variant, dtype, sweep, size, figure, unit, valid, valid[0] == '0' ? "verification failed" : "",
             cyc);
}

static void put_meta(const char *dev, const char *bench, const device_figures *f)
{
    char text[2048], name[64];
    snprintf(text, sizeof text,
             "key,value\ndevice.name,NVIDIA H100 80GB HBM3\ndevice.cache_bytes,52428800\n"
             "peak.memory_GBps,%s\npeak.memory_source,memory clock x bus width x 2 (double data rate)\n"
             "peak.float_GFLOPs,66908.2\npeak.double_GFLOPs,33454.1\npeak.compute_source,132 CUs x 1980 MHz\n"
             "device.pcie_link_GBps,%s\ndevice.pcie_link_source,sysfs max_link_speed x max_link_width\n"
             "peak.local_GBps,33454.1\npeak.local_source,132 SMs x 1980 MHz x 128 B/clk/SM (32 banks x 4 B)\n",
             f->memory_peak, f->pcie_GBps);
    snprintf(name, sizeof name, "%s-cuda.meta.csv", bench);
    put_file(dev, name, text);
}

/* A run directory: the log (one line per CUDA benchmark, with status and
 * exit code as given) and the device's files; returns its path. */
static const char *make_run(const char *name, const device_figures *f, const char *log_rows)
{
    static char run[512];
    char dev[700], cmd[1500];
    snprintf(run, sizeof run, "%s/%s", dir, name);
    snprintf(dev, sizeof dev, "%s/" DEVICE_DIR, run);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", run, dev);
    assert_int_equal(system(cmd), 0);
    char log[4096];
    snprintf(log, sizeof log, "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n%s",
             log_rows);
    put_file(run, "run-log.csv", log);
    static char text[8192];
    text[0] = '\0';
    add_row(text, sizeof text, "stream", "triad", "double", "footprint", MIB(1), 2000, "GB/s", "1", 0);
    add_row(text, sizeof text, "stream", "triad", "double", "footprint", f->stream_bytes, f->triad_double, "GB/s",
            f->triad_valid, 0);
    add_row(text, sizeof text, "stream", "triad", "float", "footprint", f->stream_bytes, f->triad_float, "GB/s", "1", 0);
    put_file(dev, "stream-cuda.csv", text);
    text[0] = '\0';
    const char *paths[] = {"kernel-read-device", "h2d-memcpy-pinned", "d2h-memcpy-pinned", "kernel-read-managed"};
    const double figs[] = {f->kernel_read, f->h2d, f->d2h, f->managed};
    for (int i = 0; i < 4; ++i) {
        add_row(text, sizeof text, "bandwidth", paths[i], "", "size", MIB(32), figs[i] / 2, "GB/s", "1", 0);
        add_row(text, sizeof text, "bandwidth", paths[i], "", "size", MIB(1024), figs[i], "GB/s", "1", 0);
    }
    /* The older local-memory kernel's rows (one load and one store a
     * barrier) are of sweep size, as in results/reference/NVIDIA_H200. */
    add_row(text, sizeof text, "bandwidth", "kernel-local-memory", "", "size", MIB(256), 19100, "GB/s", "1", 0);
    if (f->local > 0) {
        add_row(text, sizeof text, "bandwidth", "kernel-local-memory", "", "local-width", MIB(256), f->local / 2,
                "GB/s", "1", 0);
        add_row(text, sizeof text, "bandwidth", "kernel-local-memory", "", "local-width", MIB(256), f->local, "GB/s",
                "1", 0);
    }
    put_file(dev, "bandwidth-cuda.csv", text);
    if (f->fma_csv) {
        put_file(dev, "fma-cuda.csv", f->fma_csv);
    } else if (f->with_fma) {
        text[0] = '\0';
        add_row(text, sizeof text, "fma", "fma", "float", "concurrency", 4096, f->fma_float / 4, "Gflop/s", "1", 0);
        add_row(text, sizeof text, "fma", "fma", "float", "concurrency", 65536, f->fma_float, "Gflop/s", "1", 0);
        add_row(text, sizeof text, "fma", "fma", "double", "concurrency", 65536, f->fma_double, "Gflop/s", "1", 0);
        put_file(dev, "fma-cuda.csv", text);
    }
    text[0] = '\0';
    add_row(text, sizeof text, "latency", "L2", "uint64", "level", MIB(16), 140, "ns", "1", f->l2_cycles);
    add_row(text, sizeof text, "latency", "memory", "uint64", "level", MIB(256), f->memory_ns, "ns", "1",
            f->memory_cycles);
    put_file(dev, "latency-cuda.csv", text);
    const char *benches[] = {"stream", "bandwidth", "fma", "latency"};
    for (int i = 0; i < 4; ++i)
        put_meta(dev, benches[i], f);
    return run;
}

#define LOG_ROW(task, status, code, reason)                                                                            \
    task ",cuda,0,NVIDIA H100 80GB HBM3," DEVICE_DIR "," status "," code ",12.5,gpu-check,2026-01-01T00:00:00Z," reason "\n"
#define ALL_PASSED                                                                                                     \
    LOG_ROW("stream-cuda", "passed", "0", "") LOG_ROW("bandwidth-cuda", "passed", "0", "")                            \
    LOG_ROW("fma-cuda", "passed", "0", "") LOG_ROW("latency-cuda", "passed", "0", "")

static void test_plausible_figures_pass(void **state)
{
    (void)state;
    device_figures f = h100();
    result r = check(make_run("plausible", &f, ALL_PASSED), "1");
    expect_status(&r, 0, "gpu-check: passed: ");
    /* Each judged line: its name, then a text it must hold. */
    static const char *const lines[][2] = {
        {"triad double", "3010 GB/s"},
        {"triad double", "2682..3252 GB/s (0.80..0.97 x 3352, peak.memory_GBps)"},
        {"triad double", "ok: stream-cuda.csv:3"},
        {"H2D pinned", "44.11..57.97 GB/s (0.70..0.92 x 63.02, device.pcie_link_GBps)"},
        {"H2D pinned", "ok: bandwidth-cuda.csv:5"},
        {"managed on demand", "0..1505 GB/s (0.00..0.50 x 3010, triad double)"},
        {"managed on demand", "ok: bandwidth-cuda.csv:9"},
        {"FMA float", "ok: fma-cuda.csv:3"},
        {"memory latency", "354 ns"},
        {"memory latency", "200..500 ns"},
        {"memory latency", "ok: latency-cuda.csv:3"},
        {"local memory", "29100 GB/s"},
        {"local memory", "23418..34123 GB/s (0.70..1.02 x 33454, peak.local_GBps)"},
        {"local memory", "ok: bandwidth-cuda.csv:12"},
        {"stream-cuda on NVIDIA H100 80GB HBM3", "ok: passed"},
        {"stream-cuda.csv", "ok: 3 rows, all valid"},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; ++i)
        expect_line(&r, lines[i][0], lines[i][1]);
    if (cycles_column()) {
        expect_line(&r, "L2 latency", "260 cycles");
        expect_line(&r, "L2 latency", "180..450 cycles");
        expect_line(&r, "memory latency cycles", "700 cycles");
        expect_line(&r, "memory latency cycles", "400..1000 cycles");
        expect_line(&r, "memory latency cycles", "ok: latency-cuda.csv:3");
    } else {
        expect_line(&r, "L2 latency", "unjudged: latency-cuda.csv has no cycles column");
    }
    assert_string_equal(r.err, "");
    result_free(&r);
}

/* gpu-check on a run made from f and logged as log_rows, with gpus
 * visible: the status and summary wanted, then, in pairs ended by NULL, the
 * table line named and a text it must hold. */
__attribute__((sentinel)) static void expect_verdict(const char *name, const device_figures *f, const char *log_rows,
                                                     const char *gpus, int status, const char *summary, ...)
{
    result r = check(make_run(name, f, log_rows), gpus);
    expect_status(&r, status, summary);
    va_list ap;
    va_start(ap, summary);
    for (const char *what; (what = va_arg(ap, const char *)) != NULL;)
        expect_line(&r, what, va_arg(ap, const char *));
    va_end(ap);
    result_free(&r);
}

/* Every benchmark ran and passed on the one GPU visible; the figures alone
 * decide the verdict. */
#define expect_failed(name, f, ...)                                                                                    \
    expect_verdict(name, f, ALL_PASSED, "1", 1, "gpu-check: FAILED: ", __VA_ARGS__, NULL)
#define expect_passed(name, f, ...)                                                                                    \
    expect_verdict(name, f, ALL_PASSED, "1", 0, "gpu-check: passed: ", __VA_ARGS__, NULL)

static void test_figure_above_its_peak_fails(void **state)
{
    (void)state;
    device_figures f = h100();
    f.triad_double = 3400; /* 1.01 x the memory's theoretical bandwidth */
    expect_failed("above-peak", &f, "triad double",
                  "FAILED: above the plausible range: 1.01 x peak.memory_GBps (stream-cuda.csv:3)");
    f = h100();
    f.fma_float = 70000;
    expect_failed("above-fma-peak", &f, "FMA float", "FAILED: above the plausible range: 1.05 x peak.float_GFLOPs");
}

static void test_figure_far_below_its_limit_fails(void **state)
{
    (void)state;
    device_figures f = h100();
    f.h2d = 20; /* a x16 Gen5 link running as Gen3 */
    f.memory_ns = 150; /* an L2 hit, not memory */
    f.local = 15000;   /* bank conflicts */
    expect_failed("below", &f, "H2D pinned", "FAILED: below the plausible range: 0.317 x device.pcie_link_GBps",
                  "memory latency", "FAILED: below the plausible range: 150 ns < 200 ns (latency-cuda.csv:3)",
                  "local memory", "FAILED: below the plausible range: 0.448 x peak.local_GBps (bandwidth-cuda.csv:12)");
}

static void test_managed_memory_near_device_memory_fails(void **state)
{
    (void)state;
    device_figures f = h100();
    f.managed = 2900; /* the pages were resident: no migration measured */
    expect_failed("managed", &f, "managed on demand", "FAILED: above the plausible range: 0.963 x triad double");
}

static void test_l2_latency_in_cycles(void **state)
{
    (void)state;
    if (!cycles_column())
        skip();
    device_figures f = h100();
    f.l2_cycles = 40; /* an L1 hit, not L2 */
    expect_failed("l2-cycles", &f, "L2 latency",
                  "FAILED: below the plausible range: 40 cycles < 180 cycles (latency-cuda.csv:2)");
    /* A walk that never left L2, at L2's latency. */
    f = h100();
    f.memory_cycles = 280;
    expect_failed("memory-cycles", &f, "memory latency cycles",
                  "FAILED: below the plausible range: 280 cycles < 400 cycles (latency-cuda.csv:3)");
    /* No clock counter behind the row: said, not failed. */
    f = h100();
    f.l2_cycles = 0;
    expect_passed("l2-no-cycles", &f, "L2 latency", "unjudged: the row at latency-cuda.csv:2 has no cycles");
}

static void test_invalid_row_fails(void **state)
{
    (void)state;
    device_figures f = h100();
    f.triad_valid = "0";
    expect_failed("invalid", &f, "stream-cuda.csv",
                  "FAILED: 1 of 3 rows invalid; the first at stream-cuda.csv:3: verification failed", "triad double",
                  "FAILED: the row at stream-cuda.csv:3 is invalid: verification failed");
}

static void test_skipped_benchmark_fails_where_a_gpu_is_visible(void **state)
{
    (void)state;
    /* The driver too old for the toolkit, read as no device: every CUDA
     * benchmark exits 77 on a machine whose nvidia-smi lists a GPU. */
    const char *log = "stream-cuda,cuda,,,cuda,skipped,77,0.1,gpu-check,2026-01-01T00:00:00Z,no CUDA device: "
                      "CUDA driver version is insufficient\n"
                      "fma-cuda,cuda,,,cuda,skipped,77,0.1,gpu-check,2026-01-01T00:00:00Z,no CUDA device: "
                      "CUDA driver version is insufficient\n";
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/skipped' && mkdir -p '%s/skipped'", dir, dir);
    assert_int_equal(system(cmd), 0);
    char run[300];
    snprintf(run, sizeof run, "%s/skipped", dir);
    char text[1024];
    snprintf(text, sizeof text, "task,backend,device_index,device,dir,status,exit_code,seconds,mode,finished,reason\n%s",
             log);
    put_file(run, "run-log.csv", text);
    result r = check(run, "1");
    expect_status(&r, 1, "gpu-check: FAILED: 0 ok, 2 failed");
    expect_line(&r, "stream-cuda",
                "FAILED: skipped (exit 77) where 1 GPU(s) are visible: no CUDA device: CUDA driver version is insufficient");
    result_free(&r);
    /* No GPU at all: reported as skipped, and nothing to check. */
    r = check(run, "0");
    expect_status(&r, 77, "gpu-check: nothing to check: no CUDA benchmark found a device and no GPU is visible "
                          "(no CUDA device: CUDA driver version is insufficient)");
    expect_line(&r, "stream-cuda", "skipped: skipped (exit 77): no CUDA device");
    assert_null(strstr(r.out, "passed"));
    result_free(&r);
}

static void test_skipped_benchmark_beside_one_that_found_a_device_fails(void **state)
{
    (void)state;
    device_figures f = h100();
    const char *log = ALL_PASSED "sfu-cuda,cuda,,,cuda,skipped,77,0.1,gpu-check,2026-01-01T00:00:00Z,no CUDA device\n";
    expect_verdict("mixed-skip", &f, log, "0", 1, "gpu-check: FAILED: ", "sfu-cuda",
                   "FAILED: skipped (exit 77) where other CUDA benchmarks found a device", NULL);
}

static void test_missing_figure_fails(void **state)
{
    (void)state;
    device_figures f = h100();
    f.with_fma = false;
    expect_failed("missing", &f, "FMA float", "FAILED: missing: no fma-cuda.csv (the benchmark failed or did not run)");
    /* Arrays that fit in L2 measure the cache, not memory. */
    f = h100();
    f.stream_bytes = MIB(64);
    expect_failed("cache", &f, "triad double",
                  "FAILED: missing: the largest point (stream-cuda.csv:3) is 64 MiB, below 4x the 50 MiB L2");
}

/* A benchmark stopped before its first point leaves a results file with
 * nothing of its own in it: its figures are missing, and so is the file. */
static void test_empty_results_file_is_missing(void **state)
{
    (void)state;
    device_figures f = h100();
    f.fma_csv = cycles_column() ? RESULTS_HEADER ",cycles\n" : RESULTS_HEADER "\n";
    expect_failed("header-only", &f, "fma-cuda.csv",
                  "FAILED: missing: the header only, no rows: the benchmark ended before it wrote one", "FMA float",
                  "FAILED: missing: fma-cuda.csv: the header only, no rows", "FMA double",
                  "FAILED: missing: fma-cuda.csv: the header only, no rows");
    f.fma_csv = "";
    expect_failed("no-bytes", &f, "fma-cuda.csv", "FAILED: missing: an empty file, not even a header", "FMA float",
                  "FAILED: missing: fma-cuda.csv: an empty file, not even a header");
    /* Rows, but none the benchmark wrote on CUDA (a file of another
     * benchmark's rows the shared reader refuses before). */
    static char text[1024];
    text[0] = '\0';
    add_row(text, sizeof text, "fma", "fma", "float", "concurrency", 0, 1000, "Gflop/s", "1", 0);
    add_row(text, sizeof text, "fma", "fma", "double", "concurrency", 0, 500, "Gflop/s", "1", 0);
    for (char *c = strstr(text, ",cuda,"); c; c = strstr(c, ",cuda,"))
        memcpy(c, ",host,", 6);
    f.fma_csv = text;
    expect_failed("other-rows", &f, "fma-cuda.csv", "FAILED: missing: none of its 2 rows is fma's on cuda",
                  "FMA float", "FAILED: missing: fma-cuda.csv: none of its 2 rows is fma's on cuda");
}

/* The older local-memory kernel (one load and one store a barrier) wrote
 * sweep size: not the figure judged, which is then missing. */
static void test_local_memory_is_the_local_width_sweep(void **state)
{
    (void)state;
    device_figures f = h100();
    f.local = 0;
    expect_failed("local-old", &f, "local memory",
                  "FAILED: missing: no row of variant kernel-local-memory, sweep local-width in bandwidth-cuda.csv");
    f = h100();
    f.local = 35000; /* 1.05 x 32 banks x 4 B a clock */
    expect_failed("local-above", &f, "local memory", "FAILED: above the plausible range: 1.05 x peak.local_GBps");
}

static void test_failed_or_timed_out_benchmark_fails(void **state)
{
    (void)state;
    device_figures f = h100();
    const char *log = ALL_PASSED "atomics-cuda,cuda,0,NVIDIA H100 80GB HBM3," DEVICE_DIR
                                 ",failed,124,120.0,gpu-check,2026-01-01T00:00:00Z,timed out after its budget of 120 s\n"
                                 "sfu-cuda,cuda,0,NVIDIA H100 80GB HBM3," DEVICE_DIR
                                 ",failed,1,3.0,gpu-check,2026-01-01T00:00:00Z,exit 1: verification failed\n";
    expect_verdict("failed", &f, log, "1", 1, "gpu-check: FAILED: ", "atomics-cuda on NVIDIA H100 80GB HBM3",
                   "FAILED: failed (exit 124): timed out after its budget of 120 s",
                   "sfu-cuda on NVIDIA H100 80GB HBM3", "FAILED: failed (exit 1): exit 1: verification failed", NULL);
}

static void test_unknown_limits(void **state)
{
    (void)state;
    /* No PCIe link known: the copies are unjudged, said and not failed. */
    device_figures f = h100();
    f.pcie_GBps = "";
    expect_passed("no-pcie", &f, "H2D pinned", "52 GB/s", "H2D pinned",
                  "unjudged: limit unknown: device.pcie_link_GBps is '' in bandwidth-cuda.meta.csv");
    /* No memory peak from the driver: a CUDA device must report one. */
    f = h100();
    f.memory_peak = "";
    expect_failed("no-peak", &f, "triad double",
                  "FAILED: limit unknown: peak.memory_GBps is '' in stream-cuda.meta.csv "
                  "(memory clock x bus width x 2 (double data rate)); a CUDA device must report it");
}

/* Refused before judging: exit 2, nothing on stdout, and one line on
 * stderr, "gpu-check: error: ..." holding text. */
/* Every from in DIR/NAME made to, in place. */
static void sh_file_replace(const char *dir, const char *name, const char *from, const char *to)
{
    char path[700], text[65536], out[65536];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    size_t o = 0;
    for (const char *p = text; *p;) {
        const char *hit = strstr(p, from);
        size_t keep = hit ? (size_t)(hit - p) : strlen(p);
        assert_true(o + keep + strlen(to) < sizeof out);
        memcpy(out + o, p, keep);
        o += keep;
        if (!hit)
            break;
        memcpy(out + o, to, strlen(to));
        o += strlen(to);
        p = hit + strlen(from);
    }
    f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(out, 1, o, f), o);
    assert_int_equal(fclose(f), 0);
}

static void expect_refused(const char *run, const char *text)
{
    result r = check(run, "1");
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "gpu-check: error: "));
    assert_non_null(strstr(r.err, text));
    assert_non_null(strchr(r.err, '\n'));
    assert_int_equal(strchr(r.err, '\n')[1], '\0');
    result_free(&r);
}

static void test_bad_input_is_one_line_and_exit_2(void **state)
{
    (void)state;
    char run[300];
    snprintf(run, sizeof run, "%s/no-such-run", dir);
    expect_refused(run, "no-such-run/run-log.csv: No such file or directory");
    expect_refused("", "the run directory given is empty");
    device_figures f = h100();
    const char *good = make_run("corrupt", &f, ALL_PASSED);
    char path[700];
    snprintf(path, sizeof path, "%s/" DEVICE_DIR, good);
    put_file(path, "stream-cuda.csv", RESULTS_HEADER "\nstream,cuda,H100,triad,double\n");
    expect_refused(good, "stream-cuda.csv:2: ");
    /* A run log whose device folder lies outside the run. */
    const char *outside = make_run("outside", &f, ALL_PASSED);
    sh_file_replace(outside, "run-log.csv", DEVICE_DIR, "../../etc");
    expect_refused(outside, "'../../etc' is not the name of a folder of the run");
    sh_file_replace(outside, "run-log.csv", "../../etc", "/etc");
    expect_refused(outside, "'/etc' is not the name of a folder of the run");
    sh_file_replace(outside, "run-log.csv", ",/etc,", ",,");
    expect_refused(outside, "ran on device 0 but names no folder of the run");
    result r = check(good, "many");
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "gpu-check: error: --gpus-visible: 'many' is not a count of GPUs (0 to 1024)\n");
    result_free(&r);
    /* --rules judges no run: a run beside it is not silently left unjudged. */
    size_t nout, nerr;
    FILE *out = open_memstream(&r.out, &nout), *err = open_memstream(&r.err, &nerr);
    char *argv[] = {"gpu-check", "--rules", (char *)good, NULL};
    r.status = gc_main(3, argv, out, err);
    fclose(out);
    fclose(err);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "gpu-check: error: --rules takes no other argument: it judges no run (see --help)\n");
    assert_string_equal(r.out, "");
    result_free(&r);
}

TEST_MAIN(scratch_setup, scratch_teardown, test_plausible_figures_pass, test_figure_above_its_peak_fails,
          test_figure_far_below_its_limit_fails, test_managed_memory_near_device_memory_fails, test_l2_latency_in_cycles,
          test_invalid_row_fails,
          test_skipped_benchmark_fails_where_a_gpu_is_visible,
          test_skipped_benchmark_beside_one_that_found_a_device_fails, test_missing_figure_fails,
          test_empty_results_file_is_missing, test_local_memory_is_the_local_width_sweep,
          test_failed_or_timed_out_benchmark_fails, test_unknown_limits, test_bad_input_is_one_line_and_exit_2)
