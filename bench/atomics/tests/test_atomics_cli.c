/* End-to-end tests of the atomics executables: a small run on the OpenCL
 * device with the host reference, every row verified; the quick run's
 * stride curves, each of at least five strides; the planted verification
 * failure; bad input; no device; CUDA without a GPU. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define BENCHMARK "atomics"
#include "tests/cli_harness.h"

#include <math.h>

/* A small run; the degree sweep's part of it alone, which --strides would
 * not change. */
#define SMALL_DEGREES "--reps 3:5 --max-time 0.2 --warmup 1 --iters 300 --ops add,xchg,read --types uint32,float " \
                      "--degrees 1:128:x8"
static const char *small = SMALL_DEGREES " --strides 1:64:x8";

/* The stride row of variant in space at stride 1, -1 if none. */
static int stride_one_row(const table *t, const char *variant, const char *space)
{
    char buf[32];
    for (int j = 0; j < t->nrows; ++j)
        if (cell_is(t, j, "sweep", "stride") && cell_is(t, j, "backend", "opencl") &&
            cell_is(t, j, "variant", variant) && param_ll(t, j, "stride") == 1 &&
            strcmp(param_text(t, j, "space", buf, sizeof buf), space) == 0)
            return j;
    return -1;
}

/* Every stride row's size_bytes is what its uint32 counters span as the
 * benchmark lays them out, items counters stride elements apart:
 * ((items - 1) * stride + 1) * 4 bytes, items being every work-item in
 * global memory; in local memory each group's own work-items, in each
 * group's local memory, so the groups times that. Either way it grows
 * with the stride. */
static void expect_stride_rows_span_their_counters(const table *t)
{
    int checked = 0, grown_local = 0;
    char space[32];
    for (int j = 0; j < t->nrows; ++j) {
        if (!cell_is(t, j, "sweep", "stride") || !cell_is(t, j, "backend", "opencl"))
            continue;
        long long stride = param_ll(t, j, "stride");
        param_text(t, j, "space", space, sizeof space);
        bool local = strcmp(space, "local") == 0;
        long long wi = atoll(cell(t, j, "work_items")), wg = atoll(cell(t, j, "work_group"));
        assert_true(stride >= 1 && wg >= 1 && wi >= wg && wi % wg == 0);
        long long items = local ? wg : wi, groups = local ? wi / wg : 1;
        long long want = groups * ((items - 1) * stride + 1) * 4, size = atoll(cell(t, j, "size_bytes"));
        if (size != want)
            fail_msg("row %d: %s %s stride %lld, %lld work-items in groups of %lld: size_bytes %lld, want %lld", j,
                     cell(t, j, "variant"), space, stride, wi, wg, size, want);
        ++checked;
        int one = stride_one_row(t, cell(t, j, "variant"), space);
        assert_true(one >= 0);
        if (stride > 1 && items > 1) {
            long long base = atoll(cell(t, one, "size_bytes"));
            if (!(size > base))
                fail_msg("row %d: %s %s: size_bytes %lld at stride %lld, not above %lld at stride 1", j,
                         cell(t, j, "variant"), space, size, stride, base);
            grown_local += local;
        }
    }
    assert_int_equal(checked, 3 * 3 * 2);
    assert_true(grown_local > 0); /* groups of one work-item would show no growth */
}

/* The launch rows give the median as their figure and the mean (what Lee's
 * Table 4.1 reports) as mean_us=, both in microseconds: the median_s and
 * mean_s columns, to the 4 digits written. */
static void expect_launch_rows_carry_mean_and_median(const table *t)
{
    int checked = 0;
    for (int j = 0; j < t->nrows; ++j) {
        if (!cell_is(t, j, "sweep", "launch") || !cell_is(t, j, "backend", "opencl") ||
            cell(t, j, "figure")[0] == '\0')
            continue;
        assert_string_equal(cell(t, j, "unit"), "us");
        const char *mean = param_at(t, j, "mean_us");
        if (mean == NULL)
            fail_msg("row %d: launch %s: no mean_us= in params '%s'", j, cell(t, j, "variant"), cell(t, j, "params"));
        double want_mean = atof(cell(t, j, "mean_s")) * 1e6, want_median = atof(cell(t, j, "median_s")) * 1e6;
        assert_true(fabs(atof(mean) - want_mean) <= 1e-3 * want_mean);
        assert_true(fabs(atof(cell(t, j, "figure")) - want_median) <= 1e-3 * want_median);
        ++checked;
    }
    assert_true(checked >= 1); /* the round trip is always measured */
}

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
    expect_stride_rows_span_their_counters(&t);
    assert_true(count_where(&t, "sweep", "groups", "backend", "opencl", NULL) >= 2);
    assert_true(count_where(&t, "sweep", "groups-one-address", "backend", "opencl", NULL) >= 2);
    assert_int_equal(count_where(&t, "sweep", "launch", "backend", "opencl", NULL), 2);
    expect_launch_rows_carry_mean_and_median(&t);
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

/* The quick run's stride sweep: every curve (an operation in a memory
 * space) measured at five distinct strides at least, enough to show where
 * neighbouring counters leave a shared cache line and where they spread
 * over lines and pages. Only the stride sweep runs: its defaults do not
 * depend on the other sweeps, and the whole quick run takes half a minute. */
static void stride_curve(const table *t, int row, char *key, size_t len)
{
    char space[32];
    snprintf(key, len, "%s in %s", cell(t, row, "variant"), param_text(t, row, "space", space, sizeof space));
}

static void test_quick_stride_curves_have_five_strides(void **state)
{
    (void)state;
    table t = run_csv(NULL, "atomics-opencl", "--quick --sweeps stride", "quick", 0, NULL);
    expect_all_valid(&t);
    /* read, xchg and add, in global and local memory; a stride the device
     * cannot hold has an unsupported row, which is no point measured */
    assert_int_equal(expect_curves_of(&t, "stride", stride_curve, "stride", 5), 3 * 2);
    table_free(&t);
}

static void test_planted_verification_failure_fails_the_run(void **state)
{
    (void)state;
    table t = run_planted("verify", "atomics-opencl", SMALL_DEGREES " --sweeps degree --spaces global", "fault");
    expect_cell_has(&t, only_invalid_row(&t), "note", "counter 0 holds");
    table_free(&t);
    /* min, whose check walks the sorted operands instead of trying each */
    t = run_planted("verify", "atomics-opencl",
                    "--reps 3:5 --max-time 0.2 --warmup 1 --iters 3000 --ops min --types uint32 --degrees 1:8:x8 "
                    "--sweeps degree --spaces global",
                    "fault-min");
    int row = only_invalid_row(&t);
    assert_string_equal(cell(&t, row, "variant"), "min");
    expect_cell_has(&t, row, "note", "counter 0 holds");
    table_free(&t);
}

CLI_TEST_MAIN(test_bad_inputs, test_shared_options_are_refused, test_unwritable_stdout_fails,
              test_locked_output_is_refused, test_no_device_is_skipped, test_cuda_binary_without_gpu,
              test_planted_verification_failure_fails_the_run, test_small_run_is_verified,
              test_quick_stride_curves_have_five_strides)
