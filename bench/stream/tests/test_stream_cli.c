/* End-to-end tests of the stream executables as a user runs them: real
 * runs on the OpenCL device, the CSV and metadata they write, every bad
 * input, the planted faults, and the CUDA binary without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define BENCHMARK "stream"
#include "tests/cli_harness.h"

#include <math.h>
#include <signal.h>

static void test_quick_run_is_complete_and_valid(void **state)
{
    (void)state;
    table t = run_csv(NULL, "stream-opencl", "--quick", "quick", 0, NULL);
    expect_output_lock_released("quick");
    expect_all_valid(&t);
    assert_true(t.nrows >= 50);
    bool seen[3][2][5] = {{{false}}}; /* sweep x dtype x kernel on the device */
    const char *sweeps[] = {"footprint", "fixed", "concurrency"}, *dtypes[] = {"float", "double"},
               *kernels[] = {"copy", "mul", "add", "triad", "dot"};
    const unsigned moved[] = {2, 2, 3, 3, 2};
    int host_rows = 0;
    for (int i = 0; i < t.nrows; ++i) {
        assert_string_equal(cell(&t, i, "benchmark"), "stream");
        assert_string_equal(cell(&t, i, "unit"), "GB/s");
        assert_true(strtod(cell(&t, i, "figure"), NULL) > 0);
        assert_true(strtod(cell(&t, i, "figure_best"), NULL) >= strtod(cell(&t, i, "figure"), NULL));
        assert_true(strtoul(cell(&t, i, "n"), NULL, 10) >= 5);
        double mn = strtod(cell(&t, i, "min_s"), NULL), med = strtod(cell(&t, i, "median_s"), NULL),
               mx = strtod(cell(&t, i, "max_s"), NULL);
        assert_true(mn > 0 && mn <= med && med <= mx);
        assert_true(strtod(cell(&t, i, "ref_ratio"), NULL) > 0); /* PoCL is a CPU device: host limit present */
        assert_non_null(strstr(cell(&t, i, "params"), "host_limit_GBps="));
        int s = 0, d = 0, k = 0;
        while (strcmp(sweeps[s], cell(&t, i, "sweep")) != 0)
            assert_true(++s < 3);
        while (strcmp(dtypes[d], cell(&t, i, "dtype")) != 0)
            assert_true(++d < 2);
        while (strcmp(kernels[k], cell(&t, i, "variant")) != 0)
            assert_true(++k < 5);
        /* Bytes per repetition follow the table: arrays moved x the array
         * size, or in the concurrency sweep x the window a repetition
         * touches: 16 elements per work-item a unit, below the array. */
        double bytes = strtod(cell(&t, i, "bytes_per_rep"), NULL), size = strtod(cell(&t, i, "size_bytes"), NULL);
        if (s == 2 && bytes < (double)moved[k] * size) {
            double window = bytes / moved[k] / (d ? 8 : 4), unit = 16 * strtod(cell(&t, i, "work_items"), NULL);
            assert_true(window >= unit && fmod(window, unit) == 0);
        } else {
            assert_true(bytes == (double)moved[k] * size);
        }
        if (strcmp(cell(&t, i, "backend"), "host-openmp") == 0) {
            host_rows++;
            assert_string_equal(cell(&t, i, "timer"), "host");
        } else {
            assert_string_equal(cell(&t, i, "backend"), "opencl");
            assert_string_equal(cell(&t, i, "timer"), "event");
            seen[s][d][k] = true;
        }
    }
    for (int s = 0; s < 3; ++s)
        for (int d = 0; d < 2; ++d)
            for (int k = 0; k < 5; ++k)
                assert_true(seen[s][d][k]);
    assert_true(host_rows > 0);
    table_free(&t);
    expect_meta_keys("quick", "stream-opencl", "date", "host", "cpu", "topology", "command_line", "git_revision",
                     "device.name", "device.vendor", "device.driver", "device.api_version", "device.compute_units",
                     "device.clock_mhz", "device.global_mem_bytes", "host_reference", "binding");
    char *meta = slurp_tmp("quick/stream-opencl.meta.csv");
    expect_in(meta, "NUMA");
    free(meta);
}

/* key's value as a number, NaN when absent. */
static double param_number(const table *t, int row, const char *key)
{
    const char *v = param_at(t, row, key);
    return v ? strtod(v, NULL) : NAN;
}

/* What the gate allows a row over its host limit: 1.05x, widened by the
 * spread of a limit measured in the same rounds, at most by 10%. */
static double limit_allowance(const table *t, int row)
{
    double spread = param_number(t, row, "limit_spread");
    return 1.05 * (1 + (spread > 0 ? fmin(spread, 0.10) : 0));
}

/* The row's best over its host limit's best, where that limit was measured
 * in the same rounds; NaN otherwise. */
static double best_ratio(const table *t, int row)
{
    if (isnan(param_number(t, row, "limit_spread")))
        return NAN;
    return strtod(cell(t, row, "figure_best"), NULL) / param_number(t, row, "host_limit_best_GBps");
}

/* Every row passes the plausibility gate: a working set below 4x the
 * last-level cache is labelled cache (so a quick run, whose arrays fit,
 * never passes for memory), a ratio above the host's own limit, median to
 * median or best to best, beyond 1.05x and the spread, is flagged, and
 * each flag's reason is in the note. The CPU device's memory peak is
 * measured, its compute peak derived. */
static void test_rows_pass_the_plausibility_gate(void **state)
{
    (void)state;
    table t = run_csv(NULL, "stream-opencl",
                      "--sweeps footprint,fixed --dtype float --kernels triad,copy --quick --host-limit on", "gate", 0,
                      NULL);
    double llc = meta_number("gate", "stream-opencl", "peak.llc_bytes");
    assert_true(llc > 0);
    assert_true(meta_number("gate", "stream-opencl", "peak.memory_GBps") > 0);
    assert_true(meta_number("gate", "stream-opencl", "peak.float_GFLOPs") > 0);
    char *meta = slurp_tmp("gate/stream-opencl.meta.csv");
    expect_in(meta, "peak.memory_source,\"the host's limit measured alone before the run, the fastest of a triad");
    free(meta);
    assert_true(t.nrows >= 4);
    for (int i = 0; i < t.nrows; ++i) {
        const char *flags = cell(&t, i, "flags"), *note = cell(&t, i, "note");
        double ws = strtod(cell(&t, i, "bytes_per_rep"), NULL), ratio = strtod(cell(&t, i, "ref_ratio"), NULL);
        double allow = limit_allowance(&t, i), best = best_ratio(&t, i);
        bool cache = strstr(flags, "cache") != NULL, above = strstr(flags, "above-host-limit") != NULL;
        if (cache != (ws < 4 * llc) || above != (ratio > allow || best > allow))
            fail_msg("row %d: working set %g, llc %g, ratio %g, best to best %g, allowed %g: flags '%s'", i, ws, llc,
                     ratio, best, allow, flags);
        char token[64];
        for (const char *p = flags; *p; p += strcspn(p, ";"), p += *p == ';') {
            snprintf(token, sizeof token, "%.*s:", (int)strcspn(p, ";"), p);
            if (strstr(note, token) == NULL)
                fail_msg("row %d: flag %s without its reason in the note '%s'", i, token, note);
        }
    }
    table_free(&t);
}

/* A device whose times read 30% short is caught by the limit measured in
 * the same rounds, which the spread cannot stretch that far: the same
 * point measured honestly sits at its limit (a triad on every core of the
 * same memory), planted it is 1.3x that and flagged. */
static void test_a_planted_inflation_is_above_the_host_limit(void **state)
{
    (void)state;
    const char *args = "--sweeps fixed --dtype float --kernels triad --size 64M --reps 10:60 --max-time 2";
    run_result r;
    table t = run_faulty_csv("inflate", NULL, "stream-opencl", args, "inflate", 0, &r);
    int dev = -1;
    for (int i = 0; i < t.nrows; ++i)
        if (!strcmp(cell(&t, i, "backend"), "opencl") && !strcmp(cell(&t, i, "sweep"), "fixed"))
            dev = i;
    assert_true(dev >= 0);
    assert_false(isnan(param_number(&t, dev, "limit_spread"))); /* measured in the same rounds */
    expect_cell_has(&t, dev, "flags", "above-host-limit");
    expect_cell_has(&t, dev, "note", "above-host-limit: median to median");
    table_free(&t);
    run_free(&r);
}

/* The defaults run on any host: sizes a run was not given are lowered to
 * what the device and the host's memory hold, never refused (a host with a
 * 260 MiB last-level cache and 24 GiB refused its own default sweep: 13
 * arrays of 2 GiB). A last-level cache larger than 128 MiB raises the
 * fixed size (a synthetic hwloc topology stands for it here; PoCL reads
 * the same one, so its allocation limit may lower the size again), and the
 * run says which. */
static void test_the_defaults_fit_this_host(void **state)
{
    (void)state;
    run_result r = run_with_status(0, NULL, "stream-opencl", "--check-options");
    run_free(&r);
    char args[256];
    snprintf(args, sizeof args, "--sweeps fixed --kernels triad --dtype float --reps 2:2 --max-time 0.1 --host-ref off "
                                "--out %s/big-llc", tmp);
    r = run_with_status(0, "HWLOC_SYNTHETIC='pack:1 l3:1(size=1GB) core:2 pu:1'", "stream-opencl", args);
    if (strstr(r.err, "note: default array size raised to ") == NULL &&
        strstr(r.err, "note: default array size lowered to ") == NULL)
        fail_msg("no note on the default size: %s", r.err);
    run_free(&r);
}

/* Without the host's limit (these tests' runs: CROSSROOF_HOST_LIMIT=off)
 * the CPU device's memory peak is unknown, says why, and judges nothing:
 * no figure is called above it. */
static void test_without_the_host_limit_the_memory_peak_is_unknown(void **state)
{
    (void)state;
    table t = run_csv(NULL, "stream-opencl", "--sweeps fixed --dtype float --kernels triad --size 1M --reps 5:5",
                      "no-limit", 0, NULL);
    char *meta = slurp_tmp("no-limit/stream-opencl.meta.csv");
    expect_in(meta, "\npeak.memory_GBps,\n");
    expect_in(meta, "peak.memory_source,unknown: the host's limit was not measured (--host-limit off or "
                    "CROSSROOF_HOST_LIMIT=off)\n");
    free(meta);
    for (int i = 0; i < t.nrows; ++i)
        if (strstr(cell(&t, i, "flags"), "above-peak") != NULL)
            fail_msg("row %d flagged against a peak not measured: %s", i, cell(&t, i, "flags"));
    table_free(&t);
}

/* The shape of the curve is a measurement, reported by the suite, not a
 * test assertion; the test checks the sweep's structure. */
static void test_concurrency_sweep_structure(void **state)
{
    (void)state;
    table t = run_csv(NULL, "stream-opencl",
                      "--sweeps fixed,concurrency --dtype double --kernels triad --size 64M --reps 5:20 --max-time 1",
                      "conc", 0, NULL);
    /* The host's and the device's fixed-size rows come first: the fixed
     * point and every concurrency point were measured as one interleaved
     * group, as many repetitions each, with one host limit. */
    assert_true(t.nrows >= 5);
    assert_string_equal(cell(&t, 0, "backend"), "host-openmp");
    assert_string_equal(cell(&t, 1, "sweep"), "fixed");
    assert_string_equal(cell(&t, 1, "backend"), "opencl");
    /* The host is measured in the same rounds as the device points, on a
     * CPU device too: one limit, as many repetitions, and each row's own
     * spread beside it. */
    char mine[32], first[32];
    for (int i = 1; i < t.nrows; ++i) {
        for (int k = 0; k < 2; ++k) {
            const char *key = k ? "host_limit_best_GBps" : "host_limit_GBps";
            assert_string_equal(param_text(&t, i, key, mine, sizeof mine), param_text(&t, 0, key, first, sizeof first));
        }
        assert_false(isnan(param_number(&t, i, "limit_spread")));
        assert_string_equal(cell(&t, i, "n"), cell(&t, 0, "n"));
    }
    uint64_t prev = 0, cus = 0;
    for (int i = 2; i < t.nrows; ++i) {
        assert_string_equal(cell(&t, i, "sweep"), "concurrency");
        uint64_t k = strtoull(cell(&t, i, "work_items"), NULL, 10);
        assert_true(k > prev); /* strictly increasing concurrency */
        prev = k;
        assert_string_equal(cell(&t, i, "valid"), "1");
        assert_true(strtod(cell(&t, i, "ref_ratio"), NULL) > 0);
        cus = k;
    }
    assert_int_equal(strtoull(cell(&t, 2, "work_items"), NULL, 10), 1);
    /* Up to full occupancy: 16 work-items per CPU compute unit. */
    assert_int_equal(cus % 16, 0);
    table_free(&t);
}

/* The concurrency sweep's windows, made one unit each (16 elements per
 * work-item) by the test hook's tiny target: a repetition moves exactly
 * that, and every output is verified inside its window and untouched
 * outside it. */
static const char *one_unit_windows = "CROSSROOF_STREAM_WINDOW_S=1e-9";
static const char *window_args = "--sweeps concurrency --size 1M --reps 5:5";

static void test_concurrency_windows_move_and_verify_what_they_touch(void **state)
{
    (void)state;
    table t = run_csv(one_unit_windows, "stream-opencl", window_args, "windows", 0, NULL);
    expect_all_valid(&t);
    const char *kernels[] = {"copy", "mul", "add", "triad", "dot"};
    const unsigned moved[] = {2, 2, 3, 3, 2};
    int windowed = 0;
    for (int i = 0; i < t.nrows; ++i) {
        assert_string_equal(cell(&t, i, "sweep"), "concurrency");
        int k = 0;
        while (strcmp(kernels[k], cell(&t, i, "variant")) != 0)
            assert_true(++k < 5);
        double es = strcmp(cell(&t, i, "dtype"), "double") == 0 ? 8 : 4;
        double items = strtod(cell(&t, i, "work_items"), NULL), n = strtod(cell(&t, i, "size_bytes"), NULL) / es;
        double window = 16 * items <= n ? 16 * items : n;
        assert_true(strtod(cell(&t, i, "bytes_per_rep"), NULL) == moved[k] * window * es);
        windowed += window < n;
    }
    assert_true(windowed >= 10); /* every kernel and type at 1 work-item at least */
    table_free(&t);
}

static void test_planted_faults_inside_and_outside_a_window_fail_the_run(void **state)
{
    (void)state;
    const struct {
        const char *fault, *kernels, *note;
    } cases[] = {
        {"verify", "copy", "elements wrong"},
        {"window-spill", "triad", "elements written outside the window"},
        {"dot-drop", "dot", "dot misses or repeats products"},
        {"verify", "dot", "dot off by"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        char args[256], dir[64];
        snprintf(args, sizeof args, "%s --dtype float --kernels %s --concurrency 1:4:x2", window_args,
                 cases[c].kernels);
        snprintf(dir, sizeof dir, "window-fault-%zu", c);
        run_result r;
        table t = run_faulty_csv(cases[c].fault, one_unit_windows, "stream-opencl", args, dir, 1, &r);
        expect_in(r.err, "1 result(s) failed verification");
        run_free(&r);
        int j = only_invalid_row(&t);
        assert_string_equal(cell(&t, j, "work_items"), "1"); /* the first device result, windowed */
        expect_cell_has(&t, j, "note", cases[c].note);
        table_free(&t);
    }
}

/* Listing the devices where there are none exits 77 too, so that scripts
 * tell "no device" from a failure the same way. */
static void test_no_device_to_list(void **state)
{
    (void)state;
    run_result r = run_with_status(77, no_opencl_env(), "stream-opencl", "--list-devices");
    run_free(&r);
}

static void test_help_version_and_listing(void **state)
{
    (void)state;
    expect_output("stream-opencl", "--help", 0, "--footprint RANGE", "77 no device",
                  "2 bad usage (an option or value refused, or a --device that matches none)");
    expect_output("stream-opencl", "--version", 0, "crossroof");
    run_result r = run_with_status(0, NULL, "stream-opencl", "--list-devices");
    assert_true(count_lines(r.out) >= 1);
    expect_in(r.out, "0  (0:0)");
    run_free(&r);
}

static const char *small = "--sweeps fixed --size 1M --reps 5:10 --max-time 0.5";

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    const char *kernels[] = {"triad", "dot"};
    for (int i = 0; i < 2; ++i) {
        char args[256], dir[64];
        snprintf(args, sizeof args, "%s --dtype double --kernels copy,%s", small, kernels[i]);
        snprintf(dir, sizeof dir, "fault-%s", kernels[i]);
        table t = run_planted("verify", "stream-opencl", args, dir);
        int j = only_invalid_row(&t);
        assert_string_equal(cell(&t, j, "backend"), "opencl");
        /* The first device result is the one corrupted: copy. */
        assert_string_equal(cell(&t, j, "variant"), "copy");
        expect_cell_has(&t, j, "note", "elements wrong");
        table_free(&t);
    }
    char args[256];
    snprintf(args, sizeof args, "%s --dtype float --kernels dot", small);
    table t = run_planted("verify", "stream-opencl", args, "fault-dot-only");
    expect_cell_has(&t, only_invalid_row(&t), "note", "dot off by");
    table_free(&t);
    /* One product the device leaves out: inside the tolerance of a large
     * float dot, caught by the exact coverage check. */
    t = run_planted("dot-drop", "stream-opencl", args, "fault-dot-drop");
    int j = only_invalid_row(&t);
    assert_string_equal(cell(&t, j, "backend"), "opencl");
    expect_cell_has(&t, j, "note", "dot misses or repeats products");
    table_free(&t);
}

static void test_insane_events_fall_back_to_host_timing(void **state)
{
    (void)state;
    char args[256];
    snprintf(args, sizeof args, "%s --dtype float --kernels triad", small);
    run_result r;
    table t = run_faulty_csv("events", NULL, "stream-opencl", args, "events", 0, &r);
    expect_in(r.err, "note: event end before start; timing with the host clock from now on");
    assert_int_equal(count_where(&t, "backend", "opencl", "timer", "host-fallback", NULL), 1);
    table_free(&t);
    run_free(&r);
}

static void test_csv_on_stdout(void **state)
{
    (void)state;
    char args[256];
    snprintf(args, sizeof args, "%s --dtype double --kernels add --csv --out %s/stdout-csv", small, tmp);
    run_result r = run_with_status(0, NULL, "stream-opencl", args);
    const char *p = r.out;
    csv_record rec;
    assert_int_equal(csv_next(&p, rec), (int)cr_result_ncolumns);
    assert_string_equal(rec[0], "benchmark");
    int rows = 0, n;
    while ((n = csv_next(&p, rec)) > 0) {
        assert_int_equal(n, (int)cr_result_ncolumns);
        rows++;
    }
    assert_int_equal(rows, 3); /* host, device and the row saying there is no energy sensor (the tests see none) */
    run_free(&r);
}

static void test_interrupted_run_keeps_completed_rows(void **state)
{
    (void)state;
    char cmd[512], path[256];
    snprintf(path, sizeof path, "%s/interrupted/stream-opencl.csv", tmp);
    snprintf(cmd, sizeof cmd,
             "exec %s/stream-opencl --sweeps footprint --footprint 64K:256M:x2 --reps 10:20 --out %s/interrupted",
             bin_dir, tmp);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    /* Wait until a few rows are on disk, then interrupt mid-run. */
    int rows = 0;
    for (int tries = 0; tries < 600 && rows < 6; ++tries) {
        usleep(50000);
        char *text = csv_slurp(path);
        rows = text ? count_lines(text) - 1 : 0;
        free(text);
    }
    assert_true(rows >= 6);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    table t = read_table(path); /* complete, parseable, every row whole */
    assert_true(t.nrows >= 6);
    expect_all_valid(&t);
    table_free(&t);
}

/* Its help needs no GPU. */
static void test_cuda_help_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary("stream-cuda");
    run_result r = run_with_status(0, NULL, "stream-cuda", "--help");
    run_free(&r);
}

/* Sizes with a tail, which the sweeps' powers of two never leave: 4,000,024
 * bytes (1,000,006 floats, 500,003 doubles) over the concurrency sweep's
 * work-item counts end every work-item's loop in a remainder, whose every
 * element must verify (the coverage check counts a dot's products). */
static void test_sizes_with_tails_are_verified(void **state)
{
    (void)state;
    const char *tails = "--quick --sweeps fixed,concurrency --size 4000024 --host-ref off --reps 2:3 --max-time 0.2";
    table t = run_csv(NULL, "stream-opencl", tails, "tails", 0, NULL);
    /* Exit 0: every row verified; the dots of that size among them are
     * both types' fixed point and concurrency points. */
    int dots = 0;
    for (int i = 0; i < t.nrows; ++i)
        dots += !strcmp(cell(&t, i, "variant"), "dot") && !strcmp(cell(&t, i, "size_bytes"), "4000024") &&
                !strcmp(cell(&t, i, "valid"), "1") && !strcmp(cell(&t, i, "backend"), "opencl");
    assert_true(dots >= 4);
    table_free(&t);
}

CLI_TEST_MAIN(test_help_version_and_listing, test_bad_inputs, test_shared_options_are_refused,
              test_unwritable_stdout_fails, test_locked_output_is_refused, test_no_device_is_skipped,
              test_no_device_to_list, test_cuda_help_without_gpu, test_cuda_binary_without_gpu,
              test_planted_verification_failure_fails_the_run, test_insane_events_fall_back_to_host_timing,
              test_csv_on_stdout, test_interrupted_run_keeps_completed_rows, test_sizes_with_tails_are_verified,
              test_concurrency_sweep_structure, test_concurrency_windows_move_and_verify_what_they_touch,
              test_planted_faults_inside_and_outside_a_window_fail_the_run, TIMED(test_quick_run_is_complete_and_valid),
              TIMED(test_rows_pass_the_plausibility_gate), TIMED(test_a_planted_inflation_is_above_the_host_limit),
              test_the_defaults_fit_this_host, test_without_the_host_limit_the_memory_peak_is_unknown)
