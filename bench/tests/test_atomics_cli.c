/* End-to-end tests of the atomics executables: a small run on the OpenCL
 * device with the host reference, every row verified; the planted
 * verification failure; bad input; no device; CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli_harness.h"


static const char *small = "--reps 3:5 --max-time 0.2 --warmup 1 --iters 300 --ops add,xchg,read "
                           "--types uint32,float --strides 1:64:x8 --degrees 1:128:x8";

static int count_rows(const table *t, const char *sweep, const char *backend)
{
    int n = 0;
    for (int j = 0; j < t->nrows; ++j)
        n += strcmp(cell(t, j, "sweep"), sweep) == 0 && (!backend || strcmp(cell(t, j, "backend"), backend) == 0);
    return n;
}

static void test_small_run_is_verified(void **state)
{
    (void)state;
    char args[512], path[256];
    snprintf(args, sizeof args, "%s --out %s/small", small, tmp);
    run_result r = run(NULL, "atomics-opencl", args);
    if (r.status != 0)
        fail_msg("status %d: %s", r.status, r.err);
    snprintf(path, sizeof path, "%s/small/atomics-opencl.csv", tmp);
    table t = read_table(path);
    for (int j = 0; j < t.nrows; ++j) {
        if (strcmp(cell(&t, j, "valid"), "1") != 0)
            fail_msg("row %d invalid: %s", j, cell(&t, j, "note"));
        const char *sweep = cell(&t, j, "sweep");
        if (strcmp(sweep, "degree") == 0 || strcmp(sweep, "stride") == 0 || strcmp(sweep, "locks") == 0) {
            assert_string_equal(cell(&t, j, "unit"), "Mop/s");
            assert_true(atof(cell(&t, j, "figure")) > 0);
        }
    }
    /* global: add, xchg, read on uint32 and add on float, 3 degrees (1, 8,
     * 64) below 128 and 128 itself; local: the degrees up to the group. */
    assert_true(count_rows(&t, "degree", "opencl") >= 4 * 4);
    assert_int_equal(count_rows(&t, "ratio", "opencl"), 4 * 2);
    assert_int_equal(count_rows(&t, "stride", "opencl"), 3 * 3 * 2); /* 3 ops, strides 1, 8, 64, 2 spaces */
    assert_true(count_rows(&t, "groups", "opencl") >= 2);
    assert_true(count_rows(&t, "groups-one-address", "opencl") >= 2);
    assert_int_equal(count_rows(&t, "launch", "opencl"), 2);
    assert_true(count_rows(&t, "locks", "opencl") >= 4);
    assert_true(count_rows(&t, "host-threads", "host-c11") >= 4);
    assert_true(count_rows(&t, "locks", "host-c11") >= 2);
    /* The uncontended device rows carry their ratio to the host's own limit. */
    bool has_ref = false;
    for (int j = 0; j < t.nrows; ++j)
        has_ref = has_ref || (strcmp(cell(&t, j, "sweep"), "degree") == 0 && cell(&t, j, "ref_ratio")[0] != '\0' &&
                              strstr(cell(&t, j, "params"), "host_ref_Mops=") != NULL);
    assert_true(has_ref);
    free(t.rows);
    run_free(&r);
}

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    char args[512], path[256];
    snprintf(args, sizeof args, "%s --sweeps degree --spaces global --out %s/fault", small, tmp);
    run_result r = run("CROSSROOF_FAULT=verify", "atomics-opencl", args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "1 result(s) failed verification"));
    snprintf(path, sizeof path, "%s/fault/atomics-opencl.csv", tmp);
    table t = read_table(path);
    int invalid = 0;
    for (int j = 0; j < t.nrows; ++j)
        if (strcmp(cell(&t, j, "valid"), "0") == 0) {
            invalid++;
            assert_non_null(strstr(cell(&t, j, "note"), "counter 0 holds"));
        }
    assert_int_equal(invalid, 1);
    free(t.rows);
    run_free(&r);
}

static void expect_error(const char *args, int status, const char *text)
{
    run_result r = run(NULL, "atomics-opencl", args);
    if (r.status != status || count_lines(r.err) != 1 || strstr(r.err, text) == NULL ||
        strncmp(r.err, "atomics-opencl: error: ", 23) != 0)
        fail_msg("'%s': status %d (want %d), stderr: %s", args, r.status, status, r.err);
    run_free(&r);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_error("--strides 0:8:x2", 2, "must be positive");
    expect_error("--strides 64:8:x2", 2, "start is larger");
    expect_error("--degrees 0:8:x2", 2, "must be positive");
    expect_error("--degrees 1:1048576:x2", 2, "more than the");
    expect_error("--iters 0", 2, "must be positive");
    expect_error("--iters 2000000", 2, "above 1000000");
    expect_error("--ops add,swap", 2, "unknown name 'swap'");
    expect_error("--types half", 2, "unknown name 'half'");
    expect_error("--spaces shared", 2, "unknown name 'shared'");
    expect_error("--sweeps everything", 2, "unknown name 'everything'");
    expect_error("--bogus", 2, "unknown or ambiguous option");
    expect_error("--device no-such-device-anywhere", 1, "no OpenCL device matches");
}

static void test_no_device_is_skipped(void **state)
{
    (void)state;
    expect_skip_without_opencl("atomics-opencl");
}

static void test_cuda_binary_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary("atomics-cuda");
    expect_skip_without_gpu("atomics-cuda");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_no_device_is_skipped),
        cmocka_unit_test(test_cuda_binary_without_gpu),
        cmocka_unit_test(test_planted_verification_failure_fails_the_run),
        cmocka_unit_test(test_small_run_is_verified),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
