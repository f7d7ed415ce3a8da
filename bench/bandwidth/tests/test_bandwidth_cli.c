/* End-to-end tests of the bandwidth executables: a quick run on the OpenCL
 * device with every path, the zero-copy guard and the model fit in its CSV,
 * bad input, a planted verification failure, and CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define BENCHMARK "bandwidth"
#include "tests/cli_harness.h"

static void test_quick_run_covers_every_path(void **state)
{
    (void)state;
    run_result list = run_with_status(0, NULL, "bandwidth-opencl", "--list-paths");
    table t = run_csv(NULL, "bandwidth-opencl", "--quick", "quick", 0, NULL);
    expect_all_valid(&t);
    int refs = 0, maps = 0, fits = 0, techniques = 0, rankings = 0;
    for (int i = 0; i < t.nrows; ++i) {
        assert_string_equal(cell(&t, i, "benchmark"), "bandwidth");
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
    table_free(&t);
    run_free(&list);
}

static void test_planted_failure_fails_the_run(void **state)
{
    (void)state;
    table t = run_planted("verify", "bandwidth-opencl",
                          "--sizes 64K --paths h2d-write-pageable,kernel-read-device --reps 5:10", "fault");
    int j = only_invalid_row(&t);
    assert_string_equal(cell(&t, j, "variant"), "h2d-write-pageable");
    expect_cell_has(&t, j, "note", "destination differs from the source");
    table_free(&t);
}

/* Listing the paths needs no GPU. */
static void test_cuda_lists_paths_without_gpu(void **state)
{
    (void)state;
    require_cuda_binary("bandwidth-cuda");
    expect_output("bandwidth-cuda", "--list-paths", 0, "kernel-read-mapped");
}

CLI_TEST_MAIN(test_bad_inputs, test_shared_options_are_refused, test_locked_output_is_refused,
              test_planted_failure_fails_the_run, test_cuda_lists_paths_without_gpu, test_cuda_binary_without_gpu,
              test_quick_run_covers_every_path)
