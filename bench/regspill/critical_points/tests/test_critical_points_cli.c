/* End-to-end tests of the critical-points tool: Li's Fdtd3d example through
 * the command line in both output forms, and bad input. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

/* The tools sit beside the benchmark executables' directory. */
static const char *tool = "../tools/critical-points";

static void test_fdtd3d_on_maxwell(void **state)
{
    (void)state;
    expect_output(tool, "--arch sm_50 --warps 16 --smem 3840 --regs 16:64", 0, "per-block: Li Eq. 4.3",
                  "critical points: 32 42 64\n", "critical points: 32 40 64\n");
    run_result r =
        run_with_status(0, NULL, tool, "--arch maxwell --threads 512 --smem 3840 --regs 16:64 --rule per-warp --csv");
    assert_string_equal(r.out, "rule,r_lo,r_hi,critical_point,blocks_per_sm,warps_per_sm,occupancy,limiter\n"
                               "per-warp,16,32,32,4,64,1.000000,warps\n"
                               "per-warp,33,40,40,3,48,0.750000,registers\n"
                               "per-warp,41,64,64,2,32,0.500000,registers\n");
    run_free(&r);
}

/* What it prints must arrive: into a full disk or a closed stdout it is
 * one line and exit 1, not exit 0 with the output lost. */
static void test_unwritable_stdout_fails(void **state)
{
    (void)state;
    expect_output_must_arrive(tool, "--list-archs");
    expect_output_must_arrive(tool, "--arch maxwell --threads 512 --csv");
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_listed_bad_inputs(tool, "bench/regspill/critical_points/tests/bad_inputs.txt");
}

CLI_TEST_MAIN(test_fdtd3d_on_maxwell, test_bad_inputs, test_unwritable_stdout_fails)
