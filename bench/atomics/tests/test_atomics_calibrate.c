/* The arithmetic that sizes every point of the atomics sweeps: a pilot's
 * time scaled to the target, never 0 operations, never above the cap, with
 * no overflow; and the pilots of a point against a model of it whose
 * operations cost a fixed launch plus a time per operation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "atomics/calibrate.h"
#include "tests/test_main.h"

#include <math.h>
#include <stdio.h>

#define TARGET 0.01
#define BUDGET 1.0 /* a point's time budget (--max-time) */
#define CAP AT_MAX_ITERS

static void test_fast_pilot_scales_up_to_the_target(void **state)
{
    (void)state;
    assert_int_equal(at_iters_for(1000, 0.001, TARGET, CAP), 10000);
    assert_int_equal(at_iters_for(1, 1e-6, TARGET, CAP), 10000);
}

static void test_slow_pilot_scales_down_never_to_zero(void **state)
{
    (void)state;
    assert_int_equal(at_iters_for(1000, 0.1, TARGET, CAP), 100);
    /* one operation per work-item already takes 50 ms: one it stays */
    assert_int_equal(at_iters_for(1, 0.05, TARGET, CAP), 1);
    assert_int_equal(at_iters_for(UINT64_MAX, 1e300, 1e-300, CAP), 1);
}

static void test_the_cap_holds(void **state)
{
    (void)state;
    assert_int_equal(at_iters_for(1, 1e-9, TARGET, CAP), CAP);
    assert_int_equal(at_iters_for(10, 1e-9, TARGET, 7), 7);
    assert_int_equal(at_iters_for(1, 1.0, TARGET, 0), 1); /* a cap of 0 is one */
}

/* Products far beyond 64 bits come out clamped, not wrapped. */
static void test_no_overflow(void **state)
{
    (void)state;
    assert_int_equal(at_iters_for(UINT64_MAX, 1e-300, 1e300, UINT32_MAX), UINT32_MAX);
    assert_int_equal(at_iters_for(UINT64_MAX, 1.0, 1.0, UINT32_MAX), UINT32_MAX);
    assert_int_equal(at_iters_for(UINT64_C(1) << 40, 1.0, 1.0 / (1 << 20), UINT32_MAX), 1u << 20);
}

static void test_pilots_without_a_time(void **state)
{
    (void)state;
    assert_int_equal(at_iters_for(100, 0, TARGET, CAP), CAP);     /* too fast for the clock */
    assert_int_equal(at_iters_for(100, NAN, TARGET, CAP), 1);     /* no time at all */
    assert_int_equal(at_iters_for(100, -1.0, TARGET, CAP), 1);
    assert_int_equal(at_iters_for(0, 0.001, TARGET, CAP), 1);
}

/* ---- the pilots of one point ---- */

typedef struct {
    double launch_s, per_op_s; /* the point's model */
    double first_extra_s;      /* a one-off cost of the very first run */
    unsigned runs;
    double longest_s;          /* the longest pilot */
    unsigned fail_at;          /* the run (from 1) that fails, or 0 */
} point_model;

static cr_status model_pilot(void *ctx, uint32_t iters, double *seconds, char *err, size_t errlen)
{
    point_model *m = ctx;
    assert_true(iters >= 1);
    if (m->fail_at && m->runs + 1 == m->fail_at) {
        snprintf(err, errlen, "launch failed");
        return CR_ERR;
    }
    *seconds = m->launch_s + iters * m->per_op_s + (m->runs == 0 ? m->first_extra_s : 0);
    m->runs++;
    m->longest_s = *seconds > m->longest_s ? *seconds : m->longest_s;
    return CR_OK;
}

static double model_time(const point_model *m, uint32_t iters) { return m->launch_s + iters * m->per_op_s; }

/* Uncontended: a few microseconds of launch, nanoseconds an operation. The
 * repetition lands near the target; no pilot runs much past it. */
static void test_uncontended_point_reaches_the_target(void **state)
{
    (void)state;
    point_model m = {.launch_s = 5e-6, .per_op_s = 1e-7};
    at_calibration c;
    assert_int_equal(at_calibrate(model_pilot, &m, TARGET, BUDGET, CAP, &c, NULL, 0), CR_OK);
    assert_true(c.iters > 50000 && c.iters < 110000);
    assert_true(model_time(&m, c.iters) > 0.9 * TARGET && model_time(&m, c.iters) <= 1.01 * TARGET);
    assert_true(m.longest_s <= 1.01 * TARGET);
    assert_int_equal(c.pilots, m.runs);
    assert_true(m.runs <= 1 + AT_MAX_PILOTS);
}

/* A point whose one operation per work-item takes per_op_s: one
 * operation, not zero, and not the uncontended count, after `runs` pilots. */
static void expect_one_operation(double per_op_s, unsigned runs)
{
    point_model m = {.launch_s = 5e-6, .per_op_s = per_op_s};
    at_calibration c;
    assert_int_equal(at_calibrate(model_pilot, &m, TARGET, BUDGET, CAP, &c, NULL, 0), CR_OK);
    assert_int_equal(c.iters, 1);
    assert_int_equal(m.runs, runs);
    assert_int_equal(c.pilots, runs);
    assert_true(fabs(c.one_op_s - model_time(&m, 1)) < 1e-12);
}

/* One operation per work-item takes 50 ms (every work-item in a
 * compare-and-swap loop on one word): the slow pilot is confirmed once. */
static void test_contended_point_runs_one_operation(void **state)
{
    (void)state;
    expect_one_operation(0.05, 2);
}

/* One operation per work-item takes 5.1 s, past the point's 1 s budget
 * (every work-item of an H200 in a compare-and-swap loop on one word): the
 * point is over its budget from the first trial, which is not run again. */
static void test_point_over_its_budget_is_tried_once(void **state)
{
    (void)state;
    expect_one_operation(5.1, 1);
}

/* A first run that pays a one-off cost (a module loaded on first launch)
 * is not taken for the point's speed. */
static void test_one_off_first_cost_is_not_the_point_speed(void **state)
{
    (void)state;
    point_model m = {.launch_s = 5e-6, .per_op_s = 1e-7, .first_extra_s = 0.2};
    at_calibration c;
    assert_int_equal(at_calibrate(model_pilot, &m, TARGET, BUDGET, CAP, &c, NULL, 0), CR_OK);
    assert_true(model_time(&m, c.iters) > 0.9 * TARGET && model_time(&m, c.iters) <= 1.01 * TARGET);
}

/* Between the two: every degree of contention gets its own count, the
 * more contended the fewer, each repetition near the target. */
static void test_count_follows_contention(void **state)
{
    (void)state;
    uint32_t last = UINT32_MAX;
    for (int degree = 1; degree <= 1 << 16; degree *= 4) {
        point_model m = {.launch_s = 5e-6, .per_op_s = 1e-8 * degree};
        at_calibration c;
        assert_int_equal(at_calibrate(model_pilot, &m, TARGET, BUDGET, CAP, &c, NULL, 0), CR_OK);
        assert_true(c.iters >= 1 && c.iters <= CAP);
        assert_true(c.iters <= last);
        if (c.iters > 1 && c.iters < CAP)
            assert_true(c.iters < last && model_time(&m, c.iters) > 0.5 * TARGET);
        assert_true(model_time(&m, c.iters) <= 1.01 * TARGET || c.iters == 1);
        last = c.iters;
    }
    assert_int_equal(last, 15); /* 65536e-8 s an operation: 15 fill 10 ms */
}

static void test_a_failing_pilot_is_reported(void **state)
{
    (void)state;
    point_model m = {.launch_s = 5e-6, .per_op_s = 1e-7, .fail_at = 2};
    at_calibration c;
    char err[64] = "";
    assert_int_equal(at_calibrate(model_pilot, &m, TARGET, BUDGET, CAP, &c, err, sizeof err), CR_ERR);
    assert_string_equal(err, "launch failed");
}

TEST_MAIN(NULL, NULL, test_fast_pilot_scales_up_to_the_target, test_slow_pilot_scales_down_never_to_zero,
          test_the_cap_holds, test_no_overflow, test_pilots_without_a_time, test_uncontended_point_reaches_the_target,
          test_contended_point_runs_one_operation, test_point_over_its_budget_is_tried_once,
          test_one_off_first_cost_is_not_the_point_speed,
          test_count_follows_contention, test_a_failing_pilot_is_reported)
