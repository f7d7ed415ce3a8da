/* End-to-end tests of the stream executables as a user runs them: real
 * runs on the OpenCL device, the CSV and metadata they write, every bad
 * input, the planted faults, and the CUDA binary without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli_harness.h"

#include <signal.h>

static void test_quick_run_is_complete_and_valid(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "--quick --out %s/quick", tmp);
    run_result r = run(NULL, "stream-opencl", args);
    assert_int_equal(r.status, 0);
    snprintf(path, sizeof path, "%s/quick/stream-opencl.csv", tmp);
    table t = read_table(path);
    assert_true(t.nrows >= 50);
    bool seen[3][2][5] = {{{false}}}; /* sweep x dtype x kernel on the device */
    const char *sweeps[] = {"footprint", "fixed", "concurrency"}, *dtypes[] = {"float", "double"},
               *kernels[] = {"copy", "mul", "add", "triad", "dot"};
    const unsigned moved[] = {2, 2, 3, 3, 2};
    int host_rows = 0;
    for (int i = 0; i < t.nrows; ++i) {
        assert_string_equal(cell(&t, i, "benchmark"), "stream");
        assert_string_equal(cell(&t, i, "valid"), "1");
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
        /* Bytes per repetition follow the table: arrays moved x array size. */
        assert_true(strtod(cell(&t, i, "bytes_per_rep"), NULL) ==
                    (double)moved[k] * strtod(cell(&t, i, "size_bytes"), NULL));
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
    free(t.rows);

    snprintf(path, sizeof path, "%s/quick/stream-opencl.meta.csv", tmp);
    char *meta = csv_slurp(path);
    assert_non_null(meta);
    const char *keys[] = {"\ndate,", "\nhost,", "\ncpu,", "\ntopology,", "\ncommand_line,", "\ngit_revision,",
                          "\ndevice.name,", "\ndevice.vendor,", "\ndevice.driver,", "\ndevice.api_version,",
                          "\ndevice.compute_units,", "\ndevice.clock_mhz,", "\ndevice.global_mem_bytes,",
                          "\nhost_reference,", "\nbinding,"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
        assert_non_null(strstr(meta, keys[i]));
    assert_non_null(strstr(meta, "NUMA"));
    free(meta);
    run_free(&r);
}

/* The shape of the curve is a measurement, reported by the suite, not a
 * test assertion; the test checks the sweep's structure. */
static void test_concurrency_sweep_structure(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "--sweeps fixed,concurrency --dtype double --kernels triad --size 64M --reps 5:20 "
                                "--max-time 1 --out %s/conc", tmp);
    run_result r = run(NULL, "stream-opencl", args);
    assert_int_equal(r.status, 0);
    snprintf(path, sizeof path, "%s/conc/stream-opencl.csv", tmp);
    table t = read_table(path);
    /* The host's and the device's fixed-size rows come first: the fixed
     * point and every concurrency point were measured as one interleaved
     * group, with one host limit and as many repetitions each. */
    assert_true(t.nrows >= 5);
    assert_string_equal(cell(&t, 0, "backend"), "host-openmp");
    assert_string_equal(cell(&t, 1, "sweep"), "fixed");
    assert_string_equal(cell(&t, 1, "backend"), "opencl");
    for (int i = 1; i < t.nrows; ++i) {
        assert_string_equal(cell(&t, i, "params"), cell(&t, 0, "params"));
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
    free(t.rows);
    run_free(&r);
}

/* ---- bad input: one line on stderr naming the problem, non-zero exit ---- */

static void expect_error(const char *args, int status, const char *text)
{
    run_result r = run(NULL, "stream-opencl", args);
    if (r.status != status || count_lines(r.err) != 1 || strstr(r.err, text) == NULL ||
        strncmp(r.err, "stream-opencl: error: ", 22) != 0)
        fail_msg("'%s': status %d (want %d), stderr: %s", args, r.status, status, r.err);
    assert_string_equal(r.out, "");
    run_free(&r);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_error("--bogus", 2, "unknown or ambiguous option '--bogus'");
    expect_error("--size", 2, "needs a value");
    expect_error("extra", 2, "unexpected argument 'extra'");
    expect_error("--size 0", 2, "must be positive");
    expect_error("--size -8M", 2, "negative");
    expect_error("--size 99999999999999999999", 2, "64 bits");
    expect_error("--size 16777216T", 2, "64 bits");
    expect_error("--size 12Z", 2, "unknown suffix");
    expect_error("--size 1T", 2, "exceeds the device limit");
    expect_error("--size 12", 2, "not a multiple of 8 bytes");
    expect_error("--footprint 1G:1K:x2", 2, "start is larger");
    expect_error("--footprint 1K:64T:x2", 2, "above the device limit");
    expect_error("--concurrency 1:0:x2", 2, "positive");
    expect_error("--reps 0", 2, "must be positive");
    expect_error("--reps 9:3", 2, "MAX is smaller than MIN");
    expect_error("--min-time -1", 2, "negative");
    expect_error("--max-time abc", 2, "not a number");
    expect_error("--spread 250", 2, "below 100 percent");
    expect_error("--dtype half", 2, "unknown name 'half'");
    expect_error("--kernels triad,foo", 2, "unknown name 'foo'");
    expect_error("--sweeps all,nothing", 2, "unknown name 'nothing'");
    expect_error("--host-ref maybe", 2, "not auto, on or off");
    expect_error("--seed 0", 2, "must be positive");
    expect_error("--device no-such-device-anywhere", 1, "no OpenCL device matches 'no-such-device-anywhere'");
    expect_error("--device 99", 1, "no OpenCL device with index 99");
    expect_error("--quick --out /proc/crossroof", 2, "cannot create directory /proc/crossroof");
}

static void test_no_device_is_skipped(void **state)
{
    (void)state;
    expect_skip_without_opencl("stream-opencl");
    run_result r = run(no_opencl_env(), "stream-opencl", "--list-devices");
    assert_int_equal(r.status, 77);
    run_free(&r);
}

static void test_help_version_and_listing(void **state)
{
    (void)state;
    run_result r = run(NULL, "stream-opencl", "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--footprint RANGE"));
    assert_non_null(strstr(r.out, "77 no device"));
    run_free(&r);
    r = run(NULL, "stream-opencl", "--version");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "crossroof"));
    run_free(&r);
    r = run(NULL, "stream-opencl", "--list-devices");
    assert_int_equal(r.status, 0);
    assert_true(count_lines(r.out) >= 1);
    assert_non_null(strstr(r.out, "0  (0:0)"));
    run_free(&r);
}

static const char *small = "--sweeps fixed --size 1M --reps 5:10 --max-time 0.5";

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    const char *kernels[] = {"triad", "dot"};
    for (int i = 0; i < 2; ++i) {
        char args[256], path[256];
        snprintf(args, sizeof args, "%s --dtype double --kernels copy,%s --out %s/fault-%s", small, kernels[i], tmp,
                 kernels[i]);
        run_result r = run("CROSSROOF_FAULT=verify", "stream-opencl", args);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, "1 result(s) failed verification"));
        snprintf(path, sizeof path, "%s/fault-%s/stream-opencl.csv", tmp, kernels[i]);
        table t = read_table(path);
        int invalid = 0;
        for (int j = 0; j < t.nrows; ++j) {
            if (strcmp(cell(&t, j, "valid"), "0") == 0) {
                invalid++;
                assert_string_equal(cell(&t, j, "backend"), "opencl");
                /* The first device result is the one corrupted: copy. */
                assert_string_equal(cell(&t, j, "variant"), "copy");
                assert_non_null(strstr(cell(&t, j, "note"), "elements wrong"));
            }
        }
        assert_int_equal(invalid, 1);
        free(t.rows);
        run_free(&r);
    }
    char args[256], path[256];
    snprintf(args, sizeof args, "%s --dtype float --kernels dot --out %s/fault-dot-only", small, tmp);
    run_result r = run("CROSSROOF_FAULT=verify", "stream-opencl", args);
    assert_int_equal(r.status, 1);
    snprintf(path, sizeof path, "%s/fault-dot-only/stream-opencl.csv", tmp);
    table t = read_table(path);
    bool found = false;
    for (int j = 0; j < t.nrows; ++j)
        if (strcmp(cell(&t, j, "valid"), "0") == 0)
            found = strstr(cell(&t, j, "note"), "dot off by") != NULL;
    assert_true(found);
    free(t.rows);
    run_free(&r);
}

static void test_insane_events_fall_back_to_host_timing(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "%s --dtype float --kernels triad --out %s/events", small, tmp);
    run_result r = run("CROSSROOF_FAULT=events", "stream-opencl", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "note: event end before start; timing with the host clock from now on"));
    snprintf(path, sizeof path, "%s/events/stream-opencl.csv", tmp);
    table t = read_table(path);
    int fallback = 0;
    for (int j = 0; j < t.nrows; ++j)
        fallback += strcmp(cell(&t, j, "backend"), "opencl") == 0 &&
                    strcmp(cell(&t, j, "timer"), "host-fallback") == 0;
    assert_int_equal(fallback, 1);
    free(t.rows);
    run_free(&r);
}

static void test_csv_on_stdout(void **state)
{
    (void)state;
    char args[256];
    snprintf(args, sizeof args, "%s --dtype double --kernels add --csv --out %s/stdout-csv", small, tmp);
    run_result r = run(NULL, "stream-opencl", args);
    assert_int_equal(r.status, 0);
    const char *p = r.out;
    csv_record rec;
    assert_int_equal(csv_next(&p, rec), (int)cr_result_ncolumns);
    assert_string_equal(rec[0], "benchmark");
    int rows = 0, n;
    while ((n = csv_next(&p, rec)) > 0) {
        assert_int_equal(n, (int)cr_result_ncolumns);
        rows++;
    }
    assert_int_equal(rows, 2); /* host and device */
    run_free(&r);
}

static void test_interrupted_run_keeps_completed_rows(void **state)
{
    (void)state;
    char cmd[512], path[256];
    snprintf(path, sizeof path, "%s/interrupted/stream-opencl.csv", tmp);
    snprintf(cmd, sizeof cmd, "exec %s/stream-opencl --sweeps footprint --footprint 64K:256M:x2 --reps 10:20 --out %s/interrupted",
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
    for (int j = 0; j < t.nrows; ++j)
        assert_string_equal(cell(&t, j, "valid"), "1");
    free(t.rows);
}

static void test_cuda_binary_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary("stream-cuda");
    run_result r = run(NULL, "stream-cuda", "--help");
    assert_int_equal(r.status, 0);
    run_free(&r);
    expect_skip_without_gpu("stream-cuda");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_version_and_listing),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_no_device_is_skipped),
        cmocka_unit_test(test_cuda_binary_without_gpu),
        cmocka_unit_test(test_planted_verification_failure_fails_the_run),
        cmocka_unit_test(test_insane_events_fall_back_to_host_timing),
        cmocka_unit_test(test_csv_on_stdout),
        cmocka_unit_test(test_interrupted_run_keeps_completed_rows),
        cmocka_unit_test(test_concurrency_sweep_structure),
        cmocka_unit_test(test_quick_run_is_complete_and_valid),
    };
    return cmocka_run_group_tests_name("stream executables", tests, setup, teardown);
}
