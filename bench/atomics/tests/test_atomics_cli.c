/* End-to-end tests of the atomics executables: a small run on the OpenCL
 * device with the host reference, every row verified; the planted
 * verification failure; bad input; no device; CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define BENCHMARK "atomics"
#include "tests/cli_harness.h"

static const char *small = "--reps 3:5 --max-time 0.2 --warmup 1 --iters 300 --ops add,xchg,read "
                           "--types uint32,float --strides 1:64:x8 --degrees 1:128:x8";

static void test_small_run_is_verified(void **state)
{
    (void)state;
    table t = run_csv(NULL, "atomics-opencl", small, "small", 0, NULL);
    expect_all_valid(&t);
    for (int j = 0; j < t.nrows; ++j) {
        const char *sweep = cell(&t, j, "sweep");
        if (strcmp(sweep, "degree") == 0 || strcmp(sweep, "stride") == 0 || strcmp(sweep, "locks") == 0) {
            assert_string_equal(cell(&t, j, "unit"), "Mop/s");
            assert_true(atof(cell(&t, j, "figure")) > 0);
        }
    }
    /* global: add, xchg, read on uint32 and add on float, 3 degrees (1, 8,
     * 64) below 128 and 128 itself; local: the degrees up to the group. */
    assert_true(count_where(&t, "sweep", "degree", "backend", "opencl", NULL) >= 4 * 4);
    assert_int_equal(count_where(&t, "sweep", "ratio", "backend", "opencl", NULL), 4 * 2);
    /* 3 ops, strides 1, 8, 64, 2 spaces */
    assert_int_equal(count_where(&t, "sweep", "stride", "backend", "opencl", NULL), 3 * 3 * 2);
    assert_true(count_where(&t, "sweep", "groups", "backend", "opencl", NULL) >= 2);
    assert_true(count_where(&t, "sweep", "groups-one-address", "backend", "opencl", NULL) >= 2);
    assert_int_equal(count_where(&t, "sweep", "launch", "backend", "opencl", NULL), 2);
    assert_true(count_where(&t, "sweep", "locks", "backend", "opencl", NULL) >= 4);
    assert_true(count_where(&t, "sweep", "host-threads", "backend", "host-c11", NULL) >= 4);
    assert_true(count_where(&t, "sweep", "locks", "backend", "host-c11", NULL) >= 2);
    /* The uncontended device rows carry their ratio to the host's own limit. */
    bool has_ref = false;
    for (int j = 0; j < t.nrows; ++j)
        has_ref = has_ref || (cell_is(&t, j, "sweep", "degree") && cell(&t, j, "ref_ratio")[0] != '\0' &&
                              param_at(&t, j, "host_ref_Mops") != NULL);
    assert_true(has_ref);
    table_free(&t);
}

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    char args[512];
    snprintf(args, sizeof args, "%s --sweeps degree --spaces global", small);
    table t = run_planted("verify", "atomics-opencl", args, "fault");
    expect_cell_has(&t, only_invalid_row(&t), "note", "counter 0 holds");
    table_free(&t);
}

CLI_TEST_MAIN(test_bad_inputs, test_shared_options_are_refused, test_locked_output_is_refused,
              test_no_device_is_skipped, test_cuda_binary_without_gpu, test_planted_verification_failure_fails_the_run,
              test_small_run_is_verified)
