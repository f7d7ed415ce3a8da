/* End-to-end tests of the bandwidth executables: a quick run on the OpenCL
 * device with every path, the zero-copy guard and the model fit in its CSV,
 * bad input, a planted verification failure, and CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli_harness.h"

static void test_quick_run_covers_every_path(void **state)
{
    (void)state;
    char args[256], path[256];
    run_result list = run(NULL, "bandwidth-opencl", "--list-paths");
    assert_int_equal(list.status, 0);
    snprintf(args, sizeof args, "--quick --out %s/quick", tmp);
    run_result r = run(NULL, "bandwidth-opencl", args);
    assert_int_equal(r.status, 0);
    snprintf(path, sizeof path, "%s/quick/bandwidth-opencl.csv", tmp);
    table t = read_table(path);
    int refs = 0, maps = 0, fits = 0, techniques = 0, rankings = 0;
    for (int i = 0; i < t.nrows; ++i) {
        assert_string_equal(cell(&t, i, "benchmark"), "bandwidth");
        assert_string_equal(cell(&t, i, "valid"), "1");
        const char *sweep = cell(&t, i, "sweep"), *variant = cell(&t, i, "variant");
        if (strcmp(cell(&t, i, "stop"), "unsupported") == 0) {
            assert_non_null(strstr(cell(&t, i, "note"), "not supported: "));
            continue;
        }
        if (strcmp(cell(&t, i, "backend"), "host") == 0) {
            refs++;
            continue;
        }
        if (strcmp(sweep, "ranking") == 0) {
            rankings++;
            assert_non_null(strstr(cell(&t, i, "params"), "measured="));
            assert_non_null(strstr(cell(&t, i, "params"), ";predicted="));
            /* Either the model agrees or the row says where and why not. */
            if (strstr(cell(&t, i, "params"), "match=0"))
                assert_non_null(strstr(cell(&t, i, "note"), " vs "));
            else
                assert_non_null(strstr(cell(&t, i, "note"), "ranks the techniques as measured"));
        } else if (strcmp(sweep, "technique") == 0) {
            techniques++;
            assert_string_equal(cell(&t, i, "unit"), "ms");
            assert_non_null(strstr(cell(&t, i, "params"), "predicted_ms="));
        } else if (strcmp(sweep, "fit") == 0) {
            fits++;
            assert_non_null(strstr(cell(&t, i, "params"), "c_us="));
            assert_true(strtod(cell(&t, i, "figure"), NULL) > 0);
        } else if (strstr(variant, ":map") || strstr(variant, ":unmap")) {
            maps++;
            /* A map is a latency, never a bandwidth. */
            assert_string_equal(cell(&t, i, "unit"), "us");
            assert_non_null(strstr(cell(&t, i, "params"), "data_moved="));
        } else if (strcmp(sweep, "size") == 0 && strstr(cell(&t, i, "params"), "workload=")) {
            assert_string_equal(cell(&t, i, "unit"), "ms"); /* a technique's measured time */
        } else if (strcmp(sweep, "size") == 0) {
            assert_string_equal(cell(&t, i, "unit"), "GB/s");
            assert_true(strtod(cell(&t, i, "figure"), NULL) > 0);
            assert_true(strtod(cell(&t, i, "ref_ratio"), NULL) > 0);
        } else {
            assert_string_equal(sweep, "fit-error");
            assert_string_equal(cell(&t, i, "unit"), "%");
        }
    }
    /* Every listed path has rows (measured or a clear "not supported"). */
    int paths = 0;
    for (const char *line = list.out; *line; ++paths) {
        char key[64];
        assert_int_equal(sscanf(line, "%63s", key), 1);
        bool found = false;
        for (int i = 0; i < t.nrows && !found; ++i)
            found = strcmp(cell(&t, i, "variant"), key) == 0;
        if (!found)
            fail_msg("path %s has no row", key);
        line = strchr(line, '\n') + 1;
    }
    assert_true(paths >= 20);
    assert_true(refs >= 3 * 4);  /* three host references per size */
    assert_true(maps >= 2 * 4 * 4);
    assert_true(fits >= 20);
    assert_int_equal(techniques, 8 * 4); /* four techniques, two workloads, four sizes */
    assert_int_equal(rankings, 2);
    free(t.rows);
    run_free(&r);
    run_free(&list);
}

static void expect_error(const char *args, int status, const char *text)
{
    run_result r = run(NULL, "bandwidth-opencl", args);
    if (r.status != status || count_lines(r.err) != 1 || strstr(r.err, text) == NULL ||
        strncmp(r.err, "bandwidth-opencl: error: ", 25) != 0)
        fail_msg("'%s': status %d (want %d), stderr: %s", args, r.status, status, r.err);
    run_free(&r);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_error("--bogus", 2, "unknown or ambiguous option");
    expect_error("--sizes 0", 2, "must be positive");
    expect_error("--sizes -4K", 2, "negative");
    expect_error("--sizes 1K:64T:x2", 2, "above the device's allocation limit");
    expect_error("--sizes 1000", 2, "not a multiple of 16");
    expect_error("--sizes 99999999999999999999", 2, "64 bits");
    expect_error("--paths nowhere", 2, "unknown path 'nowhere'");
    expect_error("--paths h2d-write-pinned,", 2, "unknown path ''");
    expect_error("--paths ''", 2, "empty list");
    expect_error("--device no-such-device-here", 1, "no OpenCL device matches");
}

static void test_planted_failure_fails_the_run(void **state)
{
    (void)state;
    char args[256], path[256];
    snprintf(args, sizeof args, "--sizes 64K --paths h2d-write-pageable,kernel-read-device --reps 5:10 --out %s/fault",
             tmp);
    run_result r = run("CROSSROOF_FAULT=verify", "bandwidth-opencl", args);
    assert_int_equal(r.status, 1);
    snprintf(path, sizeof path, "%s/fault/bandwidth-opencl.csv", tmp);
    table t = read_table(path);
    int invalid = 0;
    for (int i = 0; i < t.nrows; ++i)
        if (strcmp(cell(&t, i, "valid"), "0") == 0) {
            invalid++;
            assert_string_equal(cell(&t, i, "variant"), "h2d-write-pageable");
            assert_non_null(strstr(cell(&t, i, "note"), "destination differs from the source"));
        }
    assert_int_equal(invalid, 1);
    free(t.rows);
    run_free(&r);
}

static void test_cuda_binary_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary("bandwidth-cuda");
    run_result r = run(NULL, "bandwidth-cuda", "--list-paths");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "kernel-read-mapped"));
    run_free(&r);
    expect_skip_without_gpu("bandwidth-cuda");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_planted_failure_fails_the_run),
        cmocka_unit_test(test_cuda_binary_without_gpu),
        cmocka_unit_test(test_quick_run_covers_every_path),
    };
    return cmocka_run_group_tests_name("bandwidth executables", tests, setup, teardown);
}
