/* End-to-end tests of the energy-levels tool: a device directory of real
 * results written before energy was measured (every level says why it has
 * no value, the thesis's values stand), a results file cut short (its
 * file and line, exit 1, nothing written), and bad usage. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/cli_harness.h"

/* The tools sit beside the benchmark executables' directory. */
static const char *tool = "../tools/energy-levels";

#define FIXTURE CR_SOURCE_DIR "/tools/shared/tests/data/run/opencl-0-cpu"

static void test_results_without_energy(void **state)
{
    (void)state;
    sh("cp -r '%s' '%s/dev'", FIXTURE, tmp);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/dev", tmp);
    expect_output(tool, dir, 0, "energy-levels.csv: 9 level(s)", "dram       per-byte");
    char *csv = slurp_tmp("dev/energy-levels.csv");
    expect_in(csv, "level,basis,pj,rows,sensor,status,thesis_pj,thesis_symbol,source,reason\n");
    /* Rows stand for the level, but the CSV predates the energy columns. */
    expect_in(csv, "sp-op,per-op,,0,,no-sensor,45,(e_fadd+e_fmultiply)/2,");
    expect_in(csv, "fma-opencl.csv has no energy columns");
    /* The fixture keeps stream's fixed-size rows alone: no footprint point to place in a level. */
    expect_in(csv, "dram,per-byte,,0,,no-rows,550,e_gs/4B,,no stream footprint row has a working set of at least "
                   "4x the 32 MiB last-level cache");
    /* A CPU device: no PCIe between it and the host. */
    expect_in(csv, "pcie,per-byte,,0,,no-rows,,,,the device shares the host's memory");
    /* The fixture's bandwidth run predates the local-memory path. */
    expect_in(csv, "shared,per-byte,,0,,no-rows,55.75,e_sr/4B,,\"no kernel-local-memory row verified");
    free(csv);
}

static void test_a_file_cut_short_is_named(void **state)
{
    (void)state;
    sh("cp -r '%s' '%s/cut' && printf 'stream,opencl,cut\\n' >> '%s/cut/stream-opencl.csv'", FIXTURE, tmp, tmp);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/cut", tmp);
    expect_error(tool, dir, 1, "cut/stream-opencl.csv:22:");
    sh("test ! -e '%s/cut/energy-levels.csv'", tmp);
}

/* What it prints must arrive: into a full disk or a closed stdout it is
 * one line and exit 1, not exit 0 with the output lost. */
static void test_unwritable_stdout_fails(void **state)
{
    (void)state;
    sh("cp -r '%s' '%s/full'", FIXTURE, tmp);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/full", tmp);
    expect_output_must_arrive(tool, dir);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    expect_listed_bad_inputs(tool, "tools/energy_levels/tests/bad_inputs.txt");
}

CLI_TEST_MAIN(test_results_without_energy, test_a_file_cut_short_is_named, test_bad_inputs, test_unwritable_stdout_fails)
