/* End-to-end tests of the register-spill executables: a live-value sweep on
 * the OpenCL device, the planted verification failure, bad input, no
 * device, and the CUDA executable's offline spill table, which needs the
 * toolkit but no GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli_harness.h"


/* The value of key in a row's "k=v;k=v" params, or -1 when absent. */
static long param(const table *t, int row, const char *key)
{
    const char *p = cell(t, row, "params");
    size_t klen = strlen(key);
    while (p && *p) {
        if (strncmp(p, key, klen) == 0 && p[klen] == '=')
            return strtol(p + klen + 1, NULL, 10);
        p = strchr(p, ';');
        p = p ? p + 1 : NULL;
    }
    return -1;
}

static const char *fast = "--reps 3:5 --max-time 0.3 --warmup 1";

static void test_live_sweep_rows_are_verified(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "%s --quick --live 4,8,16,48 --out %s/live", fast, tmp);
    run_result r = run(NULL, "regspill-opencl", args);
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    snprintf(path, sizeof path, "%s/live/regspill-opencl.csv", tmp);
    table t = read_table(path);
    const long want[] = {4, 8, 16, 48};
    int live_rows = 0, cliff_rows = 0;
    for (int j = 0; j < t.nrows; ++j) {
        assert_string_equal(cell(&t, j, "benchmark"), "regspill");
        assert_string_equal(cell(&t, j, "valid"), "1");
        if (strcmp(cell(&t, j, "variant"), "live-values") == 0) {
            assert_true(live_rows < 4);
            assert_int_equal(param(&t, j, "live"), want[live_rows]);
            assert_true(param(&t, j, "rounds") >= 1);
            assert_true(atof(cell(&t, j, "figure")) > 0);
            assert_string_equal(cell(&t, j, "unit"), "Gop/s");
            assert_true(atoi(cell(&t, j, "n")) >= 3);
            /* Every point does the same work per work-item. */
            assert_true(param(&t, j, "rounds") * want[live_rows] >= param(&t, 0, "rounds") * want[0] - want[live_rows]);
            live_rows++;
        } else {
            assert_string_equal(cell(&t, j, "variant"), "cliff");
            /* Either the cliff's position or why there is none. */
            assert_true(param(&t, j, "first_spilling") > param(&t, j, "last_fitting") ||
                        strstr(cell(&t, j, "note"), "no drop below") != NULL);
            cliff_rows++;
        }
    }
    assert_int_equal(live_rows, 4);
    assert_int_equal(cliff_rows, 1);
    free(t.rows);
    snprintf(path, sizeof path, "%s/live/regspill-opencl.meta.csv", tmp);
    char *meta = csv_slurp(path);
    assert_non_null(meta);
    assert_non_null(strstr(meta, "register_cap,"));
    assert_non_null(strstr(meta, "critical_point_rule,"));
    free(meta);
    run_free(&r);
}

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "%s --quick --live 4,8 --out %s/fault", fast, tmp);
    run_result r = run("CROSSROOF_FAULT=verify", "regspill-opencl", args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "1 result(s) failed verification"));
    snprintf(path, sizeof path, "%s/fault/regspill-opencl.csv", tmp);
    table t = read_table(path);
    int invalid = 0;
    for (int j = 0; j < t.nrows; ++j)
        if (strcmp(cell(&t, j, "valid"), "0") == 0) {
            invalid++;
            assert_non_null(strstr(cell(&t, j, "note"), "outputs wrong"));
            assert_int_equal(param(&t, j, "live"), 4);
        }
    assert_int_equal(invalid, 1);
    free(t.rows);
    run_free(&r);
}

static void expect_error(const char *bin, const char *args, int status, const char *text)
{
    run_result r = run(NULL, bin, args);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s: error: ", bin);
    if (r.status != status || count_lines(r.err) != 1 || strstr(r.err, text) == NULL ||
        strncmp(r.err, prefix, strlen(prefix)) != 0)
        fail_msg("'%s %s': status %d (want %d), stderr: %s", bin, args, r.status, status, r.err);
    run_free(&r);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    const char *b = "regspill-opencl";
    expect_error(b, "--live 0", 2, "must be positive");
    expect_error(b, "--live 8,4", 2, "not strictly increasing");
    expect_error(b, "--live 4,,8", 2, "empty or overlong item");
    expect_error(b, "--live 2000", 2, "above the kernel's limit of 1024");
    expect_error(b, "--sweep-live 0", 2, "must be positive");
    expect_error(b, "--sweep-live 5000", 2, "above the kernel's limit");
    expect_error(b, "--regs 0:10", 2, "must be positive");
    expect_error(b, "--regs 40:20", 2, "MIN is larger than MAX");
    expect_error(b, "--regs 16:300", 2, "above 255");
    expect_error(b, "--arch sm_1", 2, "unknown architecture 'sm_1'");
    expect_error(b, "--rule sideways", 2, "not per-warp or per-block");
    expect_error(b, "--updates 99999999999", 2, "above 2^32-1");
    expect_error(b, "--work-group 0", 2, "must be positive");
    expect_error(b, "--work-group 100000", 2, "above the device's maximum");
    expect_error(b, "--offline", 2, "has no offline compiler");
    expect_error(b, "--bogus", 2, "unknown or ambiguous option");
    expect_error(b, "--device no-such-device-anywhere", 1, "no OpenCL device matches");
}

static void test_no_device_is_skipped(void **state)
{
    (void)state;
    expect_skip_without_opencl("regspill-opencl");
}

/* ---- CUDA: the offline table needs ptxas, not a GPU ---- */

static bool cuda_built(void)
{
    if (has_binary("regspill-cuda"))
        return true;
    if (system("command -v nvcc >/dev/null 2>&1") == 0)
        fail_msg("nvcc is installed but %s/regspill-cuda was not built", bin_dir);
    return false;
}

/* Spill bytes per cap for one architecture, checked as a table: every cap
 * of the effective region present, registers within the cap, spills
 * shrinking to none as the cap rises. */
static void check_spill_table(const table *t, const char *arch)
{
    long prev_cap = -1, first_spill = -1, last_spill = -1, rises = 0, prev_spill = -1, caps = 0;
    for (int j = 0; j < t->nrows; ++j) {
        if (strcmp(cell(t, j, "variant"), "offline-cap") != 0 || strcmp(cell(t, j, "device"), arch) != 0)
            continue;
        assert_string_equal(cell(t, j, "valid"), "1");
        assert_string_equal(cell(t, j, "backend"), "offline");
        long cap = param(t, j, "cap"), regs = param(t, j, "registers");
        long spill = param(t, j, "spill_store_bytes") + param(t, j, "spill_load_bytes");
        assert_true(regs > 0 && regs <= cap);
        assert_true(spill >= 0);
        if (prev_cap >= 0)
            assert_int_equal(cap, prev_cap + 1);
        if (first_spill < 0)
            first_spill = spill;
        rises += prev_spill >= 0 && spill > prev_spill;
        prev_spill = last_spill = spill;
        prev_cap = cap;
        caps++;
    }
    assert_true(caps >= 8);
    assert_true(first_spill > 0);  /* the lowest cap spills */
    assert_int_equal(last_spill, 0); /* r_max holds every value */
    /* The compiler's heuristics may wobble by a few bytes, never the trend. */
    assert_true(rises <= caps / 8);
}

static void test_cuda_offline_spill_table(void **state)
{
    (void)state;
    if (!cuda_built())
        skip();
    char args[256], path[256];
    snprintf(args, sizeof args, "--offline --arch sm_80,sm_90 --out %s/offline", tmp);
    run_result r = run(NULL, "regspill-cuda", args);
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    snprintf(path, sizeof path, "%s/offline/regspill-cuda.csv", tmp);
    table t = read_table(path);
    check_spill_table(&t, "sm_80");
    check_spill_table(&t, "sm_90");
    /* The default build of every live count: past 255 values nothing fits. */
    long spill_at_256 = -1, regs_at_8 = -1;
    for (int j = 0; j < t.nrows; ++j) {
        if (strcmp(cell(&t, j, "variant"), "offline-default") != 0 || strcmp(cell(&t, j, "device"), "sm_90") != 0)
            continue;
        if (param(&t, j, "live") == 256)
            spill_at_256 = param(&t, j, "spill_store_bytes");
        if (param(&t, j, "live") == 8)
            regs_at_8 = param(&t, j, "registers");
    }
    assert_true(spill_at_256 > 0);
    assert_true(regs_at_8 > 0 && regs_at_8 < 64);
    free(t.rows);
    run_free(&r);

    expect_error("regspill-cuda", "--offline --arch sm_bogus", 2, "unknown architecture");
}

static void test_cuda_without_gpu_writes_the_offline_table(void **state)
{
    (void)state;
    if (!cuda_built())
        skip();
    if (system("nvidia-smi -L >/dev/null 2>&1") == 0)
        skip(); /* a GPU is present: the skip path is not reachable here */
    char args[256], path[256];
    snprintf(args, sizeof args, "--quick --out %s/nogpu", tmp);
    run_result r = run(NULL, "regspill-cuda", args);
    assert_int_equal(r.status, 77);
    assert_int_equal(count_lines(r.err), 1);
    assert_non_null(strstr(r.err, "regspill-cuda: skipped: no CUDA device"));
    assert_non_null(strstr(r.err, "offline spill table written"));
    snprintf(path, sizeof path, "%s/nogpu/regspill-cuda.csv", tmp);
    table t = read_table(path);
    check_spill_table(&t, "sm_90");
    free(t.rows);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_no_device_is_skipped),
        cmocka_unit_test(test_planted_verification_failure_fails_the_run),
        cmocka_unit_test(test_live_sweep_rows_are_verified),
        cmocka_unit_test(test_cuda_offline_spill_table),
        cmocka_unit_test(test_cuda_without_gpu_writes_the_offline_table),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
