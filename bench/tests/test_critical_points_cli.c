/* End-to-end tests of the critical-points tool: Li's Fdtd3d example through
 * the command line in both output forms, and bad input. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli_harness.h"

/* The tools sit beside the benchmark executables' directory. */
static const char *tool = "../tools/critical-points";

static void test_fdtd3d_on_maxwell(void **state)
{
    (void)state;
    run_result r = run(NULL, tool, "--arch sm_50 --warps 16 --smem 3840 --regs 16:64");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "per-block: Li Eq. 4.3"));
    assert_non_null(strstr(r.out, "critical points: 32 42 64\n"));
    assert_non_null(strstr(r.out, "critical points: 32 40 64\n"));
    run_free(&r);

    r = run(NULL, tool, "--arch maxwell --threads 512 --smem 3840 --regs 16:64 --rule per-warp --csv");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "rule,r_lo,r_hi,critical_point,blocks_per_sm,warps_per_sm,occupancy,limiter\n"
                               "per-warp,16,32,32,4,64,1.000000,warps\n"
                               "per-warp,33,40,40,3,48,0.750000,registers\n"
                               "per-warp,41,64,64,2,32,0.500000,registers\n");
    run_free(&r);
}

static void expect_error(const char *args, const char *text)
{
    run_result r = run(NULL, tool, args);
    if (r.status != 2 || count_lines(r.err) != 1 || strstr(r.err, text) == NULL ||
        strncmp(r.err, "critical-points: error: ", 24) != 0)
        fail_msg("'%s': status %d, stderr: %s", args, r.status, r.err);
    assert_string_equal(r.out, "");
    run_free(&r);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_error("--warps 16", "--arch");
    expect_error("--arch sm_50", "--threads");
    expect_error("--arch sm_99 --warps 4", "sm_99");
    expect_error("--arch sm_50 --threads 0", "threads");
    expect_error("--arch sm_50 --threads 2048", "threads");
    expect_error("--arch sm_50 --warps 4 --regs 0:10", "regs");
    expect_error("--arch sm_50 --warps 4 --regs 40:20", "regs");
    expect_error("--arch sm_50 --warps 4 --regs 16:256", "regs");
    expect_error("--arch sm_50 --warps 4 --smem 60000", "smem");
    expect_error("--arch sm_50 --warps 4 --smem -1", "smem");
    expect_error("--arch sm_50 --warps 4 --rule sideways", "rule");
    expect_error("--arch sm_50 --warps x", "warps");
    expect_error("--bogus", "bogus");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fdtd3d_on_maxwell),
        cmocka_unit_test(test_bad_inputs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
