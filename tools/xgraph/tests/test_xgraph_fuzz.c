/* xgraph's reading of a device directory against mutants of a real one:
 * the stream, fma and latency results and the stream metadata of
 * tools/shared/tests/data/run, one or two changed at a time, loaded
 * in-process as `xgraph DIR` loads them. The directory is refused with one
 * line, or read; what is read is fitted and its parameters built, as
 * xgraph goes on to do. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "shared/tests/fuzz.h"
#include "tests/test_main.h"
#include "xgraph/data.h"
#include "xgraph/params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const inputs[] = {"opencl-0-cpu/stream-opencl.csv", "opencl-0-cpu/stream-opencl.meta.csv",
                                     "opencl-0-cpu/fma-opencl.csv", "opencl-0-cpu/latency-opencl.csv"};

static fuzz_copy copy;
static char dev_dir[160];

static int setup(void **state)
{
    (void)state;
    if (fuzz_copy_make(&copy, inputs, sizeof inputs / sizeof *inputs) != 0)
        return -1;
    snprintf(dev_dir, sizeof dev_dir, "%s/opencl-0-cpu", copy.run);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return fuzz_copy_free(&copy);
}

/* The fit and the parameter rows of what was read. */
static void fit(const xg_data *d)
{
    xg_fits fits;
    xg_fit_all(d, &fits);
    xg_param_list params = {0};
    assert_int_equal(xg_params_build(d, &fits, &params), 0);
    assert_true(params.n > 0);
    xg_params_free(&params);
}

static void test_the_real_directory_reads(void **state)
{
    (void)state;
    xg_data d;
    char err[1024] = "";
    if (xg_data_load(&d, dev_dir, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(d.have_compute && d.have_latency);
    fit(&d);
    xg_data_free(&d);
}

/* The mutated device directory: read and fitted, or refused. */
static int read_mutant(fuzz_rng *r, const fuzz_run *f, size_t i, char *err, size_t errlen)
{
    (void)r, (void)f, (void)i;
    xg_data d;
    int rc = xg_data_load(&d, dev_dir, NULL, err, errlen);
    if (rc == 0) {
        fit(&d);
        xg_data_free(&d);
    }
    return rc;
}

static void test_mutants_are_read_or_refused(void **state)
{
    (void)state;
    fuzz_drive_planted("xgraph", 2500, 10, &copy, read_mutant);
}

TEST_MAIN(setup, teardown, test_the_real_directory_reads, test_mutants_are_read_or_refused)
