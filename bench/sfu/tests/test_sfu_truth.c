/* The SFU benchmark's chain check (bench/sfu/truth.c): the host's map, the
 * replay's closed-form tail against stepping every iteration, the bounds,
 * and a simulated device chain, accepted when it computes the chain and
 * rejected when it skips an iteration or ends elsewhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "sfu/truth.h"

#include <math.h>
#include <string.h>

static void test_host_map_values(void **state)
{
    (void)state;
    static const struct {
        sfu_func f;
        double x, y, want;
    } cases[] = {
        {SFU_DIV, 1, 4, 0.25}, {SFU_RCP, 4, 0, 0.25}, {SFU_SQRT, 9, 0, 3}, {SFU_RSQRT, 4, 0, 0.5},
        {SFU_POW, 2, 10, 1024}, {SFU_EXP2, 3, 0, 8},  {SFU_LOG2, 8, 0, 3}, {SFU_EXP, 0, 0, 1},
        {SFU_LOG, 1, 0, 0},     {SFU_SIN, 0, 0, 0},   {SFU_COS, 0, 0, 1},  {SFU_TAN, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        if (sfu_truth_f(cases[i].f, cases[i].x, cases[i].y) != cases[i].want)
            fail_msg("function %d at (%g, %g): %.17g, want %g", (int)cases[i].f, cases[i].x, cases[i].y,
                     sfu_truth_f(cases[i].f, cases[i].x, cases[i].y), cases[i].want);
}

/* x <- 0.5/x + 1.2 (the rcp chain) settles at the root of x^2 - 1.2x - 0.5:
 * (1.2 + sqrt(3.44)) / 2 = 1.52736184954957... */
static void test_replay_reaches_the_fixed_point(void **state)
{
    (void)state;
    double fixed = (1.2 + sqrt(3.44)) / 2;
    sfu_truth_chain r = sfu_truth_replay(SFU_RCP, 1.0, 0, 1000, 0.5, 1.2);
    assert_true(fabs(r.x - fixed) <= 4e-16);
    assert_true(r.tail_slack == 0);
    /* x1 = 0.5/1 + 1.2 = 1.7 exactly as the sum of one step. */
    sfu_truth_chain one = sfu_truth_replay(SFU_RCP, 1.0, 0, 1, 0.5, 1.2);
    assert_true(one.x == 0.5 + 1.2);
    assert_true(one.s == (long double)(0.5 + 1.2));
}

/* The closed-form tail equals stepping all 100000 iterations. */
static void test_replay_tail_matches_stepping(void **state)
{
    (void)state;
    const uint32_t iters = 100000;
    sfu_truth_chain r = sfu_truth_replay(SFU_RCP, 1.9, 0, iters, 0.5, 1.2);
    double x = 1.9;
    long double s = 0;
    double sum_abs = 0;
    for (uint32_t i = 0; i < iters; ++i) {
        x = 0.5 * (1.0 / x) + 1.2;
        s += x;
        sum_abs += fabsl(s);
    }
    assert_true(r.x == x);
    assert_true(fabsl(r.s - s) <= 1e-12L * s);
    /* The tail's |s_i| sum is an upper bound, tight for a constant tail. */
    assert_true(r.sum_abs_s >= sum_abs * (1 - 1e-12));
    assert_true(r.sum_abs_s <= sum_abs * (1 + 1e-9));
}

static void test_error_bounds(void **state)
{
    (void)state;
    /* rcp in float: |f| <= (2 + 1.2) / 0.5 = 6.4 on the chain, whose float
     * ulp is 2^-21. A precise version seen exact is still allowed its
     * specified 2.5 ulp; a fast one twice what was seen plus an ulp. */
    assert_true(sfu_truth_err_f(SFU_RCP, CR_FLOAT, 0, 2.5) == 2.5 * 0x1p-21);
    assert_true(sfu_truth_err_f(SFU_RCP, CR_FLOAT, 1e-3, NAN) == 2e-3 + 0x1p-21);
    /* tol_x = 2 * step, and the step grows by |a| * err_f: slope 2 * 0.5. */
    double t0 = sfu_truth_tol_x(SFU_RCP, CR_FLOAT, 0), t1 = sfu_truth_tol_x(SFU_RCP, CR_FLOAT, 1e-3);
    assert_true(fabs((t1 - t0) - 1e-3) <= 1e-15);
    /* With f exact: the kernel's rounding, an ulp of 3.2 in float (2^-22),
     * and the host's few double ulps, doubled. */
    assert_true(t0 >= 2 * 0x1p-22);
    assert_true(t0 <= 2 * 0x1p-22 * 1.001);
}

/* A float device whose 1/x is off by 1e-4 relative, step by step. */
static void simulate(uint32_t iters, uint32_t skip, double x0, float *x_end, float *s_end)
{
    float x = (float)x0, s = 0;
    for (uint32_t i = 0; i < iters - skip; ++i) {
        x = 0.5f * (float)(1.0 / x * (1 + 1e-4)) + 1.2f;
        s += x;
    }
    *x_end = x;
    *s_end = s;
}

static void test_check_accepts_a_computed_chain_and_catches_skips(void **state)
{
    (void)state;
    char why[200];
    /* The error of this device's f on [1, 2]: at most 1e-4 * |1/x| <= 1e-4. */
    double tol = sfu_truth_tol_x(SFU_RCP, CR_FLOAT, sfu_truth_err_f(SFU_RCP, CR_FLOAT, 1e-4, NAN));
    float x, s;
    simulate(300, 0, 1.25, &x, &s);
    assert_true(sfu_truth_check_chain(SFU_RCP, CR_FLOAT, 1.25, 0, 300, 0.5, 1.2, tol, x, s, why, sizeof why));
    /* One iteration missing: the sum is short by the fixed point, ~1.53. */
    simulate(300, 1, 1.25, &x, &s);
    assert_false(sfu_truth_check_chain(SFU_RCP, CR_FLOAT, 1.25, 0, 300, 0.5, 1.2, tol, x, s, why, sizeof why));
    assert_non_null(strstr(why, "sum"));
    /* An end value moved by the chain domain's width. */
    simulate(300, 0, 1.25, &x, &s);
    assert_false(sfu_truth_check_chain(SFU_RCP, CR_FLOAT, 1.25, 0, 300, 0.5, 1.2, tol, x + 1, s, why, sizeof why));
    assert_non_null(strstr(why, "end value"));
    assert_false(sfu_truth_check_chain(SFU_RCP, CR_FLOAT, 1.25, 0, 300, 0.5, 1.2, tol, NAN, s, why, sizeof why));
    assert_non_null(strstr(why, "not finite"));
    /* The same device against a bound that assumes an exact f: its 1e-4
     * error is far outside. */
    double exact_tol = sfu_truth_tol_x(SFU_RCP, CR_FLOAT, 0);
    assert_false(sfu_truth_check_chain(SFU_RCP, CR_FLOAT, 1.25, 0, 300, 0.5, 1.2, exact_tol, x, s, why, sizeof why));
}

TEST_MAIN(NULL, NULL, test_host_map_values, test_replay_reaches_the_fixed_point, test_replay_tail_matches_stepping,
          test_error_bounds, test_check_accepts_a_computed_chain_and_catches_skips)
