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

#define BENCHMARK "regspill"
#include "tests/cli_harness.h"

static const char *fast = "--reps 3:5 --max-time 0.3 --warmup 1";

static void test_live_sweep_rows_are_verified(void **state)
{
    (void)state;
    char args[256];
    snprintf(args, sizeof args, "%s --quick --live 4,8,16,48", fast);
    table t = run_csv(NULL, "regspill-opencl", args, "live", 0, NULL);
    expect_all_valid(&t);
    const long long want[] = {4, 8, 16, 48};
    int live_rows = 0, cliff_rows = 0;
    for (int j = 0; j < t.nrows; ++j) {
        assert_string_equal(cell(&t, j, "benchmark"), "regspill");
        if (strcmp(cell(&t, j, "variant"), "live-values") == 0) {
            assert_true(live_rows < 4);
            assert_int_equal(param_ll(&t, j, "live"), want[live_rows]);
            assert_true(param_ll(&t, j, "rounds") >= 1);
            assert_true(atof(cell(&t, j, "figure")) > 0);
            assert_string_equal(cell(&t, j, "unit"), "Gop/s");
            assert_true(atoi(cell(&t, j, "n")) >= 3);
            /* Every point does the same work per work-item. */
            assert_true(param_ll(&t, j, "rounds") * want[live_rows] >=
                        param_ll(&t, 0, "rounds") * want[0] - want[live_rows]);
            live_rows++;
        } else {
            assert_string_equal(cell(&t, j, "variant"), "cliff");
            /* Either the cliff's position or why there is none. */
            assert_true(param_ll(&t, j, "first_spilling") > param_ll(&t, j, "last_fitting") ||
                        strstr(cell(&t, j, "note"), "no drop below") != NULL);
            cliff_rows++;
        }
    }
    assert_int_equal(live_rows, 4);
    assert_int_equal(cliff_rows, 1);
    table_free(&t);
    expect_meta_keys("live", "regspill-opencl", "register_cap", "critical_point_rule");
}

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    char args[256];
    snprintf(args, sizeof args, "%s --quick --live 4,8", fast);
    table t = run_planted("verify", "regspill-opencl", args, "fault");
    int j = only_invalid_row(&t);
    expect_cell_has(&t, j, "note", "checked outputs wrong");
    assert_int_equal(param_ll(&t, j, "live"), 4);
    assert_true(param_ll(&t, j, "checked") >= 2);
    table_free(&t);
}

/* A CPU runtime keeps live values on its worker threads' stacks and does
 * not guard them: with threads of 1 MiB, one group of 256 work-items of
 * 256 live values each (some 32 KiB a work-item under PoCL) takes the
 * process down. Such a run is refused in one line, exit 2, before anything
 * is written; a runtime that copes runs it whole. Never a signal. */
static void test_group_too_large_for_the_runtime_is_refused(void **state)
{
    (void)state;
    char args[512], out[256], csv[300];
    snprintf(out, sizeof out, "%s/stack", tmp);
    snprintf(args, sizeof args, "%s --quick --work-group 256 --live 256 --out %s", fast, out);
    run_result r = run("ulimit -s 1024 &&", "regspill-opencl", args);
    if (r.status == 0) {
        snprintf(csv, sizeof csv, "%s/regspill-opencl.csv", out);
        table t = read_table(csv);
        expect_all_valid(&t);
        table_free(&t);
    } else {
        expect_error_line(&r, "regspill-opencl", args, 2, "one group, launched in a child process first, ");
        assert_int_not_equal(access(out, F_OK), 0);
    }
    run_free(&r);
}

/* ---- CUDA: the offline table needs ptxas, not a GPU ---- */

/* Spill bytes per cap for one architecture, checked as a table: every cap
 * of the effective region present, registers within the cap, spills
 * shrinking to none as the cap rises. */
static void check_spill_table(const table *t, const char *arch)
{
    long long prev_cap = -1, first_spill = -1, last_spill = -1, rises = 0, prev_spill = -1, caps = 0;
    for (int j = 0; j < t->nrows; ++j) {
        if (strcmp(cell(t, j, "variant"), "offline-cap") != 0 || strcmp(cell(t, j, "device"), arch) != 0)
            continue;
        assert_string_equal(cell(t, j, "valid"), "1");
        assert_string_equal(cell(t, j, "backend"), "offline");
        long long cap = param_ll(t, j, "cap"), regs = param_ll(t, j, "registers");
        long long spill = param_ll(t, j, "spill_store_bytes") + param_ll(t, j, "spill_load_bytes");
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
    require_cuda_binary("regspill-cuda");
    plain_pass_only("regspill-cuda is not built with the sanitizers: this pass would run the same binary");
    /* A cap sweep of 32 live values spills over a shorter range of caps than the default 64's. */
    table t = run_csv(NULL, "regspill-cuda", "--offline --arch sm_80,sm_90 --sweep-live 32", "offline", 0, NULL);
    check_spill_table(&t, "sm_80");
    check_spill_table(&t, "sm_90");
    /* The default build of every live count: past 255 values nothing fits. */
    long long spill_at_256 = -1, regs_at_8 = -1;
    for (int j = 0; j < t.nrows; ++j) {
        if (strcmp(cell(&t, j, "variant"), "offline-default") != 0 || strcmp(cell(&t, j, "device"), "sm_90") != 0)
            continue;
        if (param_ll(&t, j, "live") == 256)
            spill_at_256 = param_ll(&t, j, "spill_store_bytes");
        if (param_ll(&t, j, "live") == 8)
            regs_at_8 = param_ll(&t, j, "registers");
    }
    assert_true(spill_at_256 > 0);
    assert_true(regs_at_8 > 0 && regs_at_8 < 64);
    table_free(&t);

    expect_error("regspill-cuda", "--offline --arch sm_bogus", 2, "unknown architecture");
}

/* A machine with a GPU driver and no toolkit: the offline table is not
 * supported there, which one row says; the run does not fail for it. */
static void test_cuda_offline_table_without_a_toolkit(void **state)
{
    (void)state;
    require_cuda_binary("regspill-cuda");
    table t = run_csv("CUDA_HOME=/nonexistent-toolkit", "regspill-cuda", "--offline --arch sm_90", "no-toolkit", 0,
                      NULL);
    int rows = 0;
    for (int j = 0; j < t.nrows; ++j) {
        if (strcmp(cell(&t, j, "backend"), "offline") != 0)
            continue;
        ++rows;
        assert_string_equal(cell(&t, j, "valid"), "1");
        assert_string_equal(cell(&t, j, "stop"), "unsupported");
        expect_cell_has(&t, j, "note", "not supported: no ptxas in CUDA_HOME's bin (/nonexistent-toolkit/bin)");
    }
    assert_int_equal(rows, 1);
    table_free(&t);
}

/* The CUDA kernels are built for some live-value counts only: any other is
 * bad usage, refused before a device is looked for, with or without a GPU. */
static void test_cuda_live_count_without_kernel_is_refused(void **state)
{
    (void)state;
    require_cuda_binary("regspill-cuda");
    expect_error("regspill-cuda", "--live 4,5", 2, "--live: no CUDA kernel for 5 live values (built for: 2 4 8");
    expect_error("regspill-cuda", "--offline --sweep-live 7", 2, "--sweep-live: no CUDA kernel for 7 live values");
    /* No CUDA device runs a block of more than 1024 threads. */
    expect_error("regspill-cuda", "--work-group 1025", 2,
                 "--work-group 1025 is above the 1024 work-items a group runs on any cuda device");
}

static void test_cuda_without_gpu_writes_the_offline_table(void **state)
{
    (void)state;
    require_cuda_binary("regspill-cuda");
    plain_pass_only("regspill-cuda is not built with the sanitizers: this pass would run the same binary");
    require_no_gpu();
    run_result r;
    table t = run_csv(NULL, "regspill-cuda", "--quick --sweep-live 32 --live 4,8,16", "nogpu", 77, &r);
    expect_skip_line(&r, "regspill-cuda", "no CUDA device");
    expect_in(r.err, "offline spill table written");
    run_free(&r);
    check_spill_table(&t, "sm_90");
    table_free(&t);
}

CLI_TEST_MAIN(test_bad_inputs, test_group_too_large_for_the_runtime_is_refused, test_shared_options_are_refused,
              test_unwritable_stdout_fails,
              test_locked_output_is_refused, test_no_device_is_skipped, test_planted_verification_failure_fails_the_run,
              test_live_sweep_rows_are_verified, test_cuda_offline_spill_table,
              test_cuda_offline_table_without_a_toolkit, test_cuda_live_count_without_kernel_is_refused,
              test_cuda_without_gpu_writes_the_offline_table)
