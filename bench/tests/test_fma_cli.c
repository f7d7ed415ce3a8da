/* End-to-end tests of the fma executables: a small sweep on the OpenCL
 * device whose rows are all verified, counted and in ascending concurrency;
 * the planted verification failure; bad input; no device; CUDA without a
 * GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli_harness.h"

#include <math.h>

/* The value of key in a row's "k=v;k=v" params, or -1 when absent. */
static long long param(const table *t, int row, const char *key)
{
    const char *p = cell(t, row, "params");
    size_t klen = strlen(key);
    while (p && *p) {
        if (strncmp(p, key, klen) == 0 && p[klen] == '=')
            return strtoll(p + klen + 1, NULL, 10);
        p = strchr(p, ';');
        p = p ? p + 1 : NULL;
    }
    return -1;
}

static void test_small_sweep_is_verified_and_ordered(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "--ilp 1,4 --per-cu 1:16:x4 --types float,double --quick --out %s/small", tmp);
    run_result r = run(NULL, "fma-opencl", args);
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    snprintf(path, sizeof path, "%s/small/fma-opencl.csv", tmp);
    table t = read_table(path);
    /* 2 types x 2 chain counts x concurrency 1, 4, 16. */
    assert_int_equal(t.nrows, 12);
    const char *types[2] = {"float", "double"};
    const long long ilps[2] = {1, 4}, per_cu[3] = {1, 4, 16};
    for (int j = 0; j < t.nrows; ++j) {
        if (strcmp(cell(&t, j, "valid"), "1") != 0)
            fail_msg("row %d invalid: %s", j, cell(&t, j, "note"));
        assert_string_equal(cell(&t, j, "benchmark"), "fma");
        assert_string_equal(cell(&t, j, "variant"), "fma");
        assert_string_equal(cell(&t, j, "sweep"), "concurrency");
        assert_string_equal(cell(&t, j, "unit"), "Gflop/s");
        /* Types, then chain counts, then concurrency ascending. */
        assert_string_equal(cell(&t, j, "dtype"), types[j / 6]);
        assert_int_equal(param(&t, j, "ilp"), ilps[j / 3 % 2]);
        assert_int_equal(param(&t, j, "per_cu"), per_cu[j % 3]);
        if (j % 3)
            assert_true(atoll(cell(&t, j, "work_items")) > atoll(cell(&t, j - 1, "work_items")));
        const char *params = cell(&t, j, "params");
        assert_true(strstr(params, "per_cu_unit=work-items") || strstr(params, "per_cu_unit=warps"));
        long long iters = param(&t, j, "iters"), lanes = param(&t, j, "lanes");
        assert_true(iters >= 32);
        lanes = lanes < 0 ? 1 : lanes;
        long long chains = atoll(cell(&t, j, "work_items")) * ilps[j / 3 % 2] * lanes;
        /* Two flops per fused multiply-add of every chain (the CSV keeps
         * nine digits). */
        double ops = 2.0 * (double)chains * (double)iters;
        assert_true(fabs(atof(cell(&t, j, "ops_per_rep")) - ops) <= 1e-8 * ops);
        assert_int_equal(param(&t, j, "checked"), chains < 4096 ? chains : 4096);
        double fig = atof(cell(&t, j, "figure")), best = atof(cell(&t, j, "figure_best"));
        assert_true(fig > 0 && best >= fig);
        assert_true(atoi(cell(&t, j, "n")) >= 5);
        /* The points of a type are measured as one interleaved group. */
        assert_string_equal(cell(&t, j, "n"), cell(&t, j / 6 * 6, "n"));
    }
    free(t.rows);
    snprintf(path, sizeof path, "%s/small/fma-opencl.meta.csv", tmp);
    char *meta = csv_slurp(path);
    assert_non_null(meta);
    assert_non_null(strstr(meta, "\nschedule,"));
    assert_non_null(strstr(meta, "\noperands,"));
    assert_non_null(strstr(meta, "\nverification,"));
    assert_non_null(strstr(meta, "\nper_cu_unit,"));
    free(meta);
    run_free(&r);
}

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "--ilp 2 --per-cu 1:4:x4 --types float --quick --out %s/fault", tmp);
    run_result r = run("CROSSROOF_FAULT=verify", "fma-opencl", args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "1 result(s) failed verification"));
    snprintf(path, sizeof path, "%s/fault/fma-opencl.csv", tmp);
    table t = read_table(path);
    assert_int_equal(t.nrows, 2);
    /* The first point is the one corrupted; the next one is checked anew. */
    assert_string_equal(cell(&t, 0, "valid"), "0");
    assert_non_null(strstr(cell(&t, 0, "note"), "1 of"));
    assert_non_null(strstr(cell(&t, 0, "note"), "differ from the host's fma"));
    assert_string_equal(cell(&t, 1, "valid"), "1");
    free(t.rows);
    run_free(&r);
}

static void expect_error(const char *args, int status, const char *text)
{
    run_result r = run(NULL, "fma-opencl", args);
    if (r.status != status || count_lines(r.err) != 1 || strstr(r.err, text) == NULL ||
        strncmp(r.err, "fma-opencl: error: ", 19) != 0)
        fail_msg("'%s': status %d (want %d), stderr: %s", args, r.status, status, r.err);
    run_free(&r);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_error("--ilp 0", 2, "must be positive");
    expect_error("--ilp 9", 2, "above 8");
    expect_error("--ilp 4,2", 2, "not strictly increasing");
    expect_error("--ilp two", 2, "not a whole number");
    expect_error("--per-cu 0", 2, "must be positive");
    expect_error("--per-cu 16:4:x2", 2, "start is larger");
    expect_error("--per-cu 1:1048576:x2", 2, "this device holds");
    expect_error("--types half", 2, "unknown name 'half'");
    expect_error("--iters 0", 2, "must be positive");
    expect_error("--bogus", 2, "unknown or ambiguous option");
    expect_error("--device no-such-device-anywhere", 1, "no OpenCL device matches");
    expect_error("--device 99", 1, "no OpenCL device with index 99");
}

static void test_help_names_the_options(void **state)
{
    (void)state;
    run_result r = run(NULL, "fma-opencl", "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--ilp"));
    assert_non_null(strstr(r.out, "--per-cu"));
    assert_non_null(strstr(r.out, "--types"));
    run_free(&r);
}

static void test_no_device_is_skipped(void **state)
{
    (void)state;
    expect_skip_without_opencl("fma-opencl");
}

static void test_cuda_binary_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary("fma-cuda");
    expect_skip_without_gpu("fma-cuda");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_help_names_the_options),
        cmocka_unit_test(test_no_device_is_skipped),
        cmocka_unit_test(test_cuda_binary_without_gpu),
        cmocka_unit_test(test_planted_verification_failure_fails_the_run),
        cmocka_unit_test(test_small_sweep_is_verified_and_ordered),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
