/* End-to-end tests of the latency executables: a small run on the OpenCL
 * device beside the host's walk, every row verified and the level rows
 * derived from it; latency growing from L1 to beyond the caches; the
 * planted verification failure; bad input; no device; CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli_harness.h"

#include <math.h>

static bool is(const table *t, int j, const char *col, const char *value)
{
    return strcmp(cell(t, j, col), value) == 0;
}

/* The footprint row's figure at size bytes on backend, NaN when absent. */
static double latency_at(const table *t, const char *backend, uint64_t size)
{
    for (int j = 0; j < t->nrows; ++j)
        if (is(t, j, "sweep", "footprint") && is(t, j, "backend", backend) &&
            strtoull(cell(t, j, "size_bytes"), NULL, 10) == size)
            return strtod(cell(t, j, "figure"), NULL);
    return NAN;
}

static uint64_t param_u64(const char *params, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "%s=", key);
    const char *p = strstr(params, k);
    return p ? strtoull(p + strlen(k), NULL, 10) : 0;
}

static void test_small_run_is_verified(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "--footprint 4K:1M:x4 --quick --out %s/small", tmp);
    run_result r = run(NULL, "latency-opencl", args);
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    snprintf(path, sizeof path, "%s/small/latency-opencl.csv", tmp);
    table t = read_table(path);
    const char *backends[] = {"opencl", "host"};
    int footprint_rows[2] = {0}, memory_rows[2] = {0}, cache_rows[2] = {0};
    for (int j = 0; j < t.nrows; ++j) {
        if (!is(&t, j, "valid", "1"))
            fail_msg("row %d invalid: %s", j, cell(&t, j, "note"));
        assert_string_equal(cell(&t, j, "benchmark"), "latency");
        assert_string_equal(cell(&t, j, "unit"), "ns");
        assert_string_equal(cell(&t, j, "work_items"), "1");
        int b = is(&t, j, "backend", "host");
        assert_true(b || is(&t, j, "backend", "opencl"));
        const char *params = cell(&t, j, "params");
        if (is(&t, j, "sweep", "footprint")) {
            footprint_rows[b]++;
            assert_string_equal(cell(&t, j, "variant"), "pointer-chase");
            double ns = strtod(cell(&t, j, "figure"), NULL), best = strtod(cell(&t, j, "figure_best"), NULL);
            assert_true(ns > 0 && best > 0 && best <= ns);
            /* ns per load is the median repetition over the steps it walked */
            uint64_t steps = param_u64(params, "steps");
            assert_true(steps >= 1024);
            assert_true(fabs(strtod(cell(&t, j, "median_s"), NULL) / (double)steps * 1e9 - ns) <= 1e-3 * ns);
            assert_int_equal(param_u64(params, "line"), 64); /* PoCL and the host: 64-byte lines */
            assert_string_equal(cell(&t, j, "timer"), b ? "host" : "event");
            if (!b)
                assert_true(strtod(cell(&t, j, "ref_ratio"), NULL) > 0);
        } else {
            assert_string_equal(cell(&t, j, "sweep"), "level");
            if (is(&t, j, "variant", "memory")) {
                memory_rows[b]++;
                /* 1 MiB is not 4x any last-level cache: no L, and the row says so. */
                assert_true(isnan(strtod(cell(&t, j, "figure"), NULL)) || cell(&t, j, "figure")[0] == '\0');
                assert_non_null(strstr(cell(&t, j, "note"), "no main-memory latency"));
                continue;
            }
            cache_rows[b]++;
            assert_true(param_u64(params, "cache_bytes") > 0);
            uint64_t fp = param_u64(params, "footprint");
            if (fp == 0) { /* no footprint fits the level: unmeasured, with why */
                assert_non_null(strstr(cell(&t, j, "note"), "no swept footprint"));
                continue;
            }
            /* The level's figure is the footprint row's, at most half the level. */
            assert_true(fp <= param_u64(params, "cache_bytes") / 2);
            assert_true(strtod(cell(&t, j, "figure"), NULL) == latency_at(&t, backends[b], fp));
            assert_non_null(strstr(cell(&t, j, "note"), "from the footprint row at"));
        }
    }
    for (int b = 0; b < 2; ++b) {
        assert_int_equal(footprint_rows[b], 5); /* 4K, 16K, 64K, 256K, 1M */
        assert_int_equal(memory_rows[b], 1);
        assert_true(cache_rows[b] >= 1);        /* hwloc knows an L1 at least */
        /* 1 MiB is 256 times 4 KiB: it cannot be served by the L1 that serves 4 KiB. */
        double small = latency_at(&t, backends[b], 4096), large = latency_at(&t, backends[b], 1 << 20);
        if (!(large > small))
            fail_msg("%s: %g ns at 1 MiB, %g ns at 4 KiB", backends[b], large, small);
    }
    free(t.rows);

    snprintf(path, sizeof path, "%s/small/latency-opencl.meta.csv", tmp);
    char *meta = csv_slurp(path);
    assert_non_null(meta);
    const char *keys[] = {"\nchain,", "\ndevice_cache_levels,", "\ndevice_line_bytes,", "\nhost_cache_levels,",
                          "\nhost_reference,", "\ndevice.name,"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
        assert_non_null(strstr(meta, keys[i]));
    free(meta);
    run_free(&r);
}

/* Beyond the last-level cache a load waits for DRAM (and a page walk):
 * tens of L1 hits' worth on any machine. 64 MiB is beyond the LLC of the
 * machines this runs on; four times is a margin no noise closes. */
static void test_latency_grows_beyond_the_caches(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "--footprint 4K:64M:x16384 --quick --host-ref off --out %s/grow", tmp);
    run_result r = run(NULL, "latency-opencl", args);
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    snprintf(path, sizeof path, "%s/grow/latency-opencl.csv", tmp);
    table t = read_table(path);
    double small = latency_at(&t, "opencl", 4096), large = latency_at(&t, "opencl", UINT64_C(64) << 20);
    if (!(large > 4 * small))
        fail_msg("%g ns at 64 MiB, %g ns at 4 KiB", large, small);
    assert_true(isnan(latency_at(&t, "host", 4096))); /* --host-ref off */
    free(t.rows);
    run_free(&r);
}

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "--footprint 4K:16K:x4 --quick --out %s/fault", tmp);
    run_result r = run("CROSSROOF_FAULT=verify", "latency-opencl", args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "1 result(s) failed verification"));
    snprintf(path, sizeof path, "%s/fault/latency-opencl.csv", tmp);
    table t = read_table(path);
    int invalid = 0;
    for (int j = 0; j < t.nrows; ++j)
        if (is(&t, j, "valid", "0")) {
            invalid++;
            /* the device's first point; the host's walk is not touched */
            assert_string_equal(cell(&t, j, "backend"), "opencl");
            assert_string_equal(cell(&t, j, "size_bytes"), "4096");
            assert_non_null(strstr(cell(&t, j, "note"), "verification:"));
            assert_non_null(strstr(cell(&t, j, "note"), "expected"));
        }
    assert_int_equal(invalid, 1);
    free(t.rows);
    run_free(&r);
}

static void expect_error(const char *args, int status, const char *text)
{
    char full[512];
    snprintf(full, sizeof full, "%s --out %s/bad", args, tmp);
    run_result r = run(NULL, "latency-opencl", full);
    if (r.status != status || count_lines(r.err) != 1 || strstr(r.err, text) == NULL ||
        strncmp(r.err, "latency-opencl: error: ", 23) != 0)
        fail_msg("'%s': status %d (want %d), stderr: %s", args, r.status, status, r.err);
    run_free(&r);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_error("--footprint 0", 2, "must be positive");
    expect_error("--footprint 1K", 2, "below the 4 KiB minimum");
    expect_error("--footprint 2K:1M:x2", 2, "below the 4 KiB minimum");
    expect_error("--footprint 16K:4K:x2", 2, "start is larger");
    expect_error("--footprint 4K:1T:x2", 2, "--footprint reaches 1 TiB, above");
    expect_error("--footprint 5000:1M:x2", 2, "5000 B is not a multiple of the 64-byte line");
    expect_error("--footprint 4K:1M:x1", 2, "factor must be at least 2");
    expect_error("--host-ref maybe", 2, "'maybe' is not auto, on or off");
    expect_error("--seed 0", 2, "must be positive");
    expect_error("--bogus", 2, "unknown or ambiguous option");
    expect_error("--device 99", 1, "no OpenCL device with index 99");
    expect_error("--device no-such-device-anywhere", 1, "no OpenCL device matches");
}

static void test_no_device_is_skipped(void **state)
{
    (void)state;
    expect_skip_without_opencl("latency-opencl");
}

static void test_cuda_binary_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary("latency-cuda");
    expect_skip_without_gpu("latency-cuda");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_no_device_is_skipped),
        cmocka_unit_test(test_cuda_binary_without_gpu),
        cmocka_unit_test(test_planted_verification_failure_fails_the_run),
        cmocka_unit_test(test_small_run_is_verified),
        cmocka_unit_test(test_latency_grows_beyond_the_caches),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
