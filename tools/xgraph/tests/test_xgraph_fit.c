/* The roofline fit of f(k) and g_E(x) on synthetic curves with known
 * parameters: exact, noisy, with an outlier, degenerate, bad. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xgraph/fit.h"

#include <math.h>

static void within_(double got, double want, double rel, int line)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("line %d: got %.9g, want %.9g within %g%%", line, got, want, 100 * rel);
}
#define within(a, b, rel) within_((a), (b), (rel), __LINE__)

/* f = min(10k, 100), k = 2, 4, ..., 30: the knee is at 10. */
static size_t exact_roof(xg_point *p)
{
    size_t n = 0;
    for (int k = 2; k <= 30; k += 2, ++n)
        p[n] = (xg_point){k, fmin(10.0 * k, 100)};
    return n;
}

static void test_exact_roof_recovered(void **state)
{
    (void)state;
    xg_point p[16];
    size_t n = exact_roof(p);
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(p, n, &f), 0);
    assert_int_equal(f.status, XG_FIT_OK);
    within(f.slope, 10, 1e-12);
    within(f.plateau, 100, 1e-12);
    within(f.knee, 10, 1e-12);
    within(f.reach95, 10, 0); /* 2..8 are below 95, 10 is the first at 100 */
    assert_true(f.rel_rms < 1e-12);
    assert_int_equal(f.n_rising, 4); /* k = 2..8 */
    assert_int_equal(f.n_plateau, 11);
    within(xg_roof_eval(&f, 5), 50, 1e-12);
    within(xg_roof_eval(&f, 25), 100, 1e-12);
    /* Little: triad float moves b = 3 x 4 = 12 bytes per work-item and
     * iteration; 10 work-items per CU on 2 CUs at 100 GB/s: 10*2*12/100 =
     * 2.4 ns. On a GPU: 10 warps of 32 on 15 SMs, b = 12: 57600/100 = 576 ns. */
    within(xg_little_latency_ns(f.knee, 1, 2, 12, f.plateau), 2.4, 1e-12);
    within(xg_little_latency_ns(f.knee, 32, 15, 12, f.plateau), 576, 1e-12);
}

static void test_order_does_not_matter(void **state)
{
    (void)state;
    xg_point p[16], q[16];
    size_t n = exact_roof(p);
    for (size_t i = 0; i < n; ++i)
        q[i] = p[(i * 7) % n]; /* 7 is prime to 15: a permutation */
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(q, n, &f), 0);
    within(f.knee, 10, 1e-12);
    within(f.plateau, 100, 1e-12);
}

static void test_noise_and_an_outlier(void **state)
{
    (void)state;
    xg_point p[16];
    size_t n = exact_roof(p);
    for (size_t i = 0; i < n; ++i)
        p[i].y *= i % 2 ? 1.03 : 0.97; /* +-3% */
    p[11].y = 160;                     /* k = 24: a plateau point 60% high */
    p[1].y = 12;                       /* k = 4: a rising point 70% low */
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(p, n, &f), 0);
    assert_int_equal(f.status, XG_FIT_OK);
    /* The plateau holds 97, 103, ..., the median stays within the noise;
     * a mean of the same points would sit 6% high. */
    within(f.plateau, 100, 0.03);
    within(f.slope, 10, 0.031);
    within(f.knee, 10, 0.06);
    /* 95% of the plateau is first reached at k = 10 (97); the point above
     * the plateau (160 at k = 24) is no level to reach. */
    within(f.reach95, 10, 0);
    assert_true(f.max_rel > 0.5); /* the outliers stay visible in the quality */
    assert_true(f.rel_rms > 0.03);
}

/* Rising points whose ratios y/k differ: the slope minimises the summed
 * relative error sum |y - s*k| / y, so it is the median of the ratios
 * weighted by k/y, not their plain median. Ratios 10, 8, 12, 13 (k = 1..4)
 * weigh 1/10, 1/8, 1/12, 1/13: sorted, the running weight passes half of
 * the total (0.385) at 10; the plain median would be 11. Still rising at
 * its last point: a slope and no plateau. */
static void test_unequal_ratios_weighted_slope(void **state)
{
    (void)state;
    xg_point p[] = {{1, 10}, {2, 16}, {3, 36}, {4, 52}};
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(p, 4, &f), 0);
    assert_int_equal(f.status, XG_FIT_UNSATURATED);
    within(f.slope, 10, 0);
    within(f.plateau, 52, 0); /* a lower bound: the highest point */
}

/* The same roof near the largest double (plateau 1.7e308): the fit is the
 * same, its quality finite (it read inf, which the report refuses), and a
 * median of two such figures does not overflow. */
static void test_huge_figures_fit_as_small_ones(void **state)
{
    (void)state;
    xg_point p[16];
    size_t n = exact_roof(p);
    for (size_t i = 0; i < n; ++i)
        p[i].y *= 1.7e306;
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(p, n, &f), 0);
    assert_int_equal(f.status, XG_FIT_OK);
    within(f.plateau, 1.7e308, 1e-12);
    within(f.knee, 10, 1e-12);
    assert_true(isfinite(f.rel_rms) && f.rel_rms < 1e-12);
    xg_point two[] = {{1, 1.0e308}, {2, 1.7e308}, {4, 1.7e308}, {8, 1.6e308}};
    assert_int_equal(xg_fit_roof(two, 4, &f), 0);
    assert_true(isfinite(f.plateau) && isfinite(f.rel_rms) && isfinite(f.max_rel));
}

static void test_one_point(void **state)
{
    (void)state;
    xg_point p[1] = {{4, 80}};
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(p, 1, &f), 0);
    assert_int_equal(f.status, XG_FIT_ONE_POINT);
    within(f.plateau, 80, 0); /* R >= 80 */
    within(f.slope, 20, 0);   /* s >= 20 */
    assert_true(isnan(f.knee));
}

static void test_all_equal_is_saturated(void **state)
{
    (void)state;
    xg_point p[4] = {{1, 50}, {2, 50}, {4, 50}, {8, 50}};
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(p, 4, &f), 0);
    assert_int_equal(f.status, XG_FIT_SATURATED);
    within(f.plateau, 50, 0);
    within(f.knee, 1, 0);  /* delta <= k_min = 1 */
    within(f.slope, 50, 0); /* s >= R / k_min */
    within(f.reach95, 1, 0);
    assert_true(f.rel_rms == 0);
}

static void test_saturated_at_the_first_point(void **state)
{
    (void)state;
    /* As PoCL's stream concurrency curve on two cores nearly is: the first
     * point is within the plateau's noise (2% low). */
    xg_point p[6] = {{0.5, 28.6}, {1, 29.4}, {2, 28.9}, {4, 29.5}, {8, 29.0}, {16, 29.2}};
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(p, 6, &f), 0);
    assert_int_equal(f.status, XG_FIT_SATURATED);
    within(f.plateau, 29.1, 1e-12); /* median of the six */
    within(f.knee, 0.5, 0);
    within(f.slope, 29.1 / 0.5, 1e-12);
    /* A first point clearly below the plateau is a rising part. */
    p[0].y = 20;
    assert_int_equal(xg_fit_roof(p, 6, &f), 0);
    assert_int_equal(f.status, XG_FIT_OK);
    within(f.slope, 40, 1e-12);
    within(f.plateau, 29.2, 1e-12); /* median of 29.4 28.9 29.5 29.0 29.2 */
    within(f.knee, 29.2 / 40, 1e-12);
    within(f.reach95, 1, 0);
}

static void test_still_rising(void **state)
{
    (void)state;
    xg_point p[5] = {{1, 10}, {2, 20}, {3, 30}, {4, 40}, {5, 50}};
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(p, 5, &f), 0);
    assert_int_equal(f.status, XG_FIT_UNSATURATED);
    within(f.slope, 10, 1e-12);
    within(f.plateau, 50, 0); /* R >= 50 */
    within(f.knee, 5, 0);     /* delta >= 5 */
    assert_true(isnan(f.reach95));
}

static void test_bad_input(void **state)
{
    (void)state;
    xg_point p[3] = {{1, 10}, {2, -1}, {3, 30}};
    xg_roof_fit f;
    assert_int_equal(xg_fit_roof(p, 0, &f), -1);
    assert_int_equal(f.status, XG_FIT_BAD_INPUT);
    assert_int_equal(xg_fit_roof(p, 3, &f), -1);
    p[1].y = NAN;
    assert_int_equal(xg_fit_roof(p, 3, &f), -1);
    p[1] = (xg_point){0, 20}; /* k = 0: no concurrency */
    assert_int_equal(xg_fit_roof(p, 3, &f), -1);
}

static void test_g_family_recovered(void **state)
{
    (void)state;
    /* g_E(x) = min(5E·x, 200) on x = 1, 2, 4, ..., 64 for E = 1, 2, 4:
     * pi_E = 200/(5E) = 40, 20, 10; M = 200 for every E. */
    for (int e = 1; e <= 4; e *= 2) {
        xg_point p[7];
        for (int i = 0; i < 7; ++i) {
            double x = (double)(1 << i);
            p[i] = (xg_point){x, fmin(5.0 * e * x, 200)};
        }
        xg_roof_fit f, g;
        assert_int_equal(xg_fit_roof(p, 7, &f), 0);
        assert_int_equal(f.status, XG_FIT_OK);
        within(f.slope, 5.0 * e, 1e-12);
        within(f.plateau, 200, 1e-12);
        within(f.knee, 40.0 / e, 1e-12);
        /* A flat plateau: its peak is the plateau. */
        assert_int_equal(xg_fit_peak(p, 7, &g), 0);
        assert_int_equal(g.status, XG_FIT_OK);
        within(g.plateau, 200, 1e-12);
        within(g.settled, 200, 1e-12);
        within(g.knee, 40.0 / e, 1e-12);
    }
}

/* g rises as 10x to its peak of 100 at x = 10 and 12, then loses a little
 * more at every larger x, down to 75 at x = 40. */
static void test_sagging_g_keeps_its_peak(void **state)
{
    (void)state;
    const xg_point p[] = {{2, 20}, {4, 40}, {6, 60}, {8, 80}, {10, 100}, {12, 100},
                          {16, 90}, {24, 85}, {32, 80}, {40, 75}};
    size_t n = sizeof p / sizeof p[0];
    xg_roof_fit roof, peak;
    assert_int_equal(xg_fit_roof(p, n, &roof), 0);
    assert_true(roof.plateau < 90); /* the median of the plateau points sits in the sag */
    assert_int_equal(xg_fit_peak(p, n, &peak), 0);
    assert_int_equal(peak.status, XG_FIT_OK);
    within(peak.plateau, 100, 1e-12);
    within(peak.settled, roof.plateau, 1e-12);
    within(peak.slope, 10, 1e-12);
    within(peak.knee, 10, 1e-12);
    within(peak.reach95, 10, 0);
    assert_int_equal(peak.n_plateau, 6); /* x = 10 .. 40 */
    /* The sag is a deviation from the model, and the fit quality says so:
     * 75 against 100 is a third. */
    within(peak.max_rel, 1.0 / 3, 1e-12);

    /* Saturated at the first x, as one work-item per core of a CPU is, and
     * sagging after x = 2: the peak is the top two points' median. */
    const xg_point q[] = {{1, 225}, {2, 227}, {4, 197}, {8, 194}, {16, 184}, {32, 181}, {64, 157}};
    n = sizeof q / sizeof q[0];
    assert_int_equal(xg_fit_peak(q, n, &peak), 0);
    assert_int_equal(peak.status, XG_FIT_SATURATED);
    within(peak.plateau, 226, 1e-12);
    within(peak.slope, 226, 1e-12); /* a lower bound: plateau / x_min */
    within(peak.knee, 1, 0);
    assert_true(peak.settled < 200);
}

static void test_cache_form_recovered(void **state)
{
    (void)state;
    /* Eq. 3.5 with L$ = 1, L = 40, R = 40, S$/beta = 32, alpha = 4, b = 8,
     * on k = 1.15^i up to 256: rising to a cache peak of about 54 near
     * k = 12, down to a valley of about 41 near k = 50, up again (the cache
     * still serves a share beyond R). */
    const xg_cache_params truth = {.l_cache = 1, .l_mem = 40, .r = 40, .s_cache = 32, .alpha = 4, .beta = 1};
    xg_point p[40];
    size_t n = 0;
    for (double k = 1; k <= 256; k *= 1.15)
        p[n] = (xg_point){k, xg_cache_eval(&truth, 8, k)}, ++n;
    double peak = 0, valley = INFINITY;
    for (size_t i = 0; i < n; ++i) {
        if (p[i].k < 20)
            peak = fmax(peak, p[i].y);
        else if (p[i].k < 100)
            valley = fmin(valley, p[i].y);
    }
    assert_true(peak > 53 && valley < 42); /* the shape the fit is for */
    xg_cache_fit f;
    assert_int_equal(xg_fit_cache(p, n, 8, &f), 0);
    assert_true(f.rel_rms < 0.01);
    within(f.p.r, 40, 0.02);
    within(f.p.l_mem, 40, 0.05);
    within(f.p.l_cache, 1, 0.05);
    within(f.p.s_cache / f.p.beta, 32, 0.05);
    within(f.p.alpha, 4, 0.05);
    assert_int_equal(xg_fit_cache(p, 5, 8, &f), -1); /* five parameters need six points */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_roof_recovered),
        cmocka_unit_test(test_order_does_not_matter),
        cmocka_unit_test(test_noise_and_an_outlier),
        cmocka_unit_test(test_unequal_ratios_weighted_slope),
        cmocka_unit_test(test_huge_figures_fit_as_small_ones),
        cmocka_unit_test(test_one_point),
        cmocka_unit_test(test_all_equal_is_saturated),
        cmocka_unit_test(test_saturated_at_the_first_point),
        cmocka_unit_test(test_still_rising),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_g_family_recovered),
        cmocka_unit_test(test_sagging_g_keeps_its_peak),
        cmocka_unit_test(test_cache_form_recovered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
