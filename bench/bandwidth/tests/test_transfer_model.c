#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "bandwidth/backend.h"
#include "bandwidth/transfer_model.h"

#include <math.h>

static void test_fit_recovers_known_parameters(void **state)
{
    (void)state;
    /* T = 12 us + S / 9.5 GB/s, sizes 1 KiB .. 1 GiB */
    double bytes[21], seconds[21];
    for (int i = 0; i < 21; ++i) {
        bytes[i] = (double)(UINT64_C(1024) << i);
        seconds[i] = 12e-6 + bytes[i] / 9.5e9;
    }
    bw_fit f;
    assert_int_equal(bw_fit_transfer(bytes, seconds, 21, &f), 0);
    assert_true(fabs(f.c_s - 12e-6) / 12e-6 < 1e-3);
    assert_true(fabs(f.b_Bps - 9.5e9) / 9.5e9 < 1e-3);
    assert_true(f.max_rel_err < 1e-3);
    assert_false(f.intercept_clamped);
    assert_int_equal(f.n, 21);
    assert_true(fabs(bw_fit_seconds(&f, 1e6) - (12e-6 + 1e6 / 9.5e9)) / (12e-6 + 1e6 / 9.5e9) < 1e-3);
}

static void test_fit_with_noise_reports_its_error(void **state)
{
    (void)state;
    double bytes[8], seconds[8];
    for (int i = 0; i < 8; ++i) {
        bytes[i] = (double)(UINT64_C(4096) << (2 * i));
        seconds[i] = (5e-6 + bytes[i] / 20e9) * (i % 2 ? 1.05 : 0.95); /* +-5% */
    }
    bw_fit f;
    assert_int_equal(bw_fit_transfer(bytes, seconds, 8, &f), 0);
    assert_true(fabs(f.b_Bps - 20e9) / 20e9 < 0.08);
    assert_true(fabs(f.c_s - 5e-6) / 5e-6 < 0.15);
    assert_true(f.max_rel_err > 0.03 && f.max_rel_err < 0.08);
    assert_true(f.rms_rel_err <= f.max_rel_err);
    /* The per-point error is the relative bandwidth error: T_meas/T_fit - 1. */
    assert_true(fabs(bw_fit_rel_err(&f, bytes[1], seconds[1]) - (seconds[1] / bw_fit_seconds(&f, bytes[1]) - 1)) <
                1e-15);
}

static void test_fit_without_fixed_cost(void **state)
{
    (void)state;
    /* Pure bandwidth, no fixed cost: c comes out as 0. */
    double bytes[3] = {1e3, 1e6, 1e9}, seconds[3] = {1e-7, 1e-4, 1e-1};
    bw_fit f;
    assert_int_equal(bw_fit_transfer(bytes, seconds, 3, &f), 0);
    assert_true(f.c_s == 0);
    assert_true(f.intercept_clamped);
    assert_true(fabs(f.b_Bps - 1e10) / 1e10 < 1e-3);
}

/* Two sizes whose times want a negative fixed cost (the larger transfer
 * relatively faster): c is 0 and said to be, never the smallest c allowed
 * with the fit held off both points unsaid. */
static void test_fit_wanting_negative_cost_is_clamped(void **state)
{
    (void)state;
    double bytes[2] = {1e6, 4e6}, seconds[2] = {9e-4, 3.9e-3}; /* c = -0.1 ms, b = 1 GB/s */
    bw_fit f;
    assert_int_equal(bw_fit_transfer(bytes, seconds, 2, &f), 0);
    assert_true(f.intercept_clamped);
    assert_true(f.c_s == 0);
}

/* Two points a fixed cost can pass through exactly, that cost a few per
 * cent of either time (a run measured so): the fit finds it, not a point of
 * the narrow valley near it (the grid alone gave c = 0.37 us, 0.25% off). */
static void test_fit_passes_through_two_points(void **state)
{
    (void)state;
    double bytes[2] = {262144, 1048576}, seconds[2] = {8.147e-6, 31.6365e-6};
    bw_fit f;
    assert_int_equal(bw_fit_transfer(bytes, seconds, 2, &f), 0);
    assert_false(f.intercept_clamped);
    assert_true(f.max_rel_err < 1e-6);
    double b = (bytes[1] - bytes[0]) / (seconds[1] - seconds[0]);
    assert_true(fabs(f.b_Bps - b) / b < 1e-6);
    assert_true(fabs(f.c_s - (seconds[0] - bytes[0] / b)) < 1e-12);
}

static void test_fit_is_not_dragged_by_one_outlier(void **state)
{
    (void)state;
    /* A runtime fast path makes the smallest transfer 100 times quicker
     * than the model: the other points still fit within a few percent. */
    double bytes[8], seconds[8];
    for (int i = 0; i < 8; ++i) {
        bytes[i] = (double)(UINT64_C(4096) << (2 * i));
        seconds[i] = 30e-6 + bytes[i] / 12e9;
    }
    seconds[0] /= 100;
    bw_fit f;
    assert_int_equal(bw_fit_transfer(bytes, seconds, 8, &f), 0);
    assert_true(fabs(f.b_Bps - 12e9) / 12e9 < 0.05);
    for (int i = 3; i < 8; ++i)
        assert_true(fabs(bw_fit_rel_err(&f, bytes[i], seconds[i])) < 0.1);
    assert_true(f.max_rel_err > 0.9); /* and the outlier shows in the error */
}

static void test_fit_rejects_degenerate_data(void **state)
{
    (void)state;
    bw_fit f;
    double one_b[1] = {1e6}, one_t[1] = {1e-3};
    assert_int_equal(bw_fit_transfer(one_b, one_t, 1, &f), -1);
    double same_b[3] = {1e6, 1e6, 1e6}, same_t[3] = {1e-3, 2e-3, 3e-3};
    assert_int_equal(bw_fit_transfer(same_b, same_t, 3, &f), -1);
    double bad_b[2] = {1e6, 2e6}, bad_t[2] = {1e-3, 0};
    assert_int_equal(bw_fit_transfer(bad_b, bad_t, 2, &f), -1);
    double flat_b[3] = {1e6, 1e7, 1e8}, flat_t[3] = {1e-3, 1e-3, 1e-3}; /* time does not grow with size */
    assert_int_equal(bw_fit_transfer(flat_b, flat_t, 3, &f), -1);
}

static void test_zero_copy_guard(void **state)
{
    (void)state;
    /* A 256 MiB map in 20 us would be 13 TB/s: no data moved. */
    assert_true(bw_moved_no_data(256.0 * (1 << 20), 20e-6, 12e9));
    /* The same map in 30 ms (9 GB/s) may have copied. */
    assert_false(bw_moved_no_data(256.0 * (1 << 20), 30e-3, 12e9));
    /* A small map is latency-bound: nothing can be concluded. */
    assert_false(bw_moved_no_data(4096, 20e-6, 12e9));
    assert_false(bw_moved_no_data(1e9, 0, 12e9));
    assert_false(bw_moved_no_data(1e9, 1e-6, 0));
}

static void test_pattern_words(void **state)
{
    (void)state;
    /* Distinct neighbours, seed-dependent, and not constant. */
    for (uint64_t i = 0; i < 10000; ++i)
        assert_true(bw_pattern_word(i, 7) != bw_pattern_word(i + 1, 7));
    assert_true(bw_pattern_word(5, 1) != bw_pattern_word(5, 2));
    assert_int_equal(bw_pattern_word(0, 0x1234), 0x1234);
}

/* Lee's b above the memory limit, and a fit far from its own points, are
 * flagged; a close fit under the limit, or one with no limit known, is not
 * judged against one. */
static void test_fit_judged_against_the_limit_and_its_points(void **state)
{
    (void)state;
    cr_peaks pk;
    cr_peaks_unknown(&pk);
    pk.memory_gbs = 30;
    snprintf(pk.memory_source, sizeof pk.memory_source, "measured");
    static const struct {
        double b_gbs, rms;
        const char *flags;
    } cases[] = {{68.3, 0.05, "above-peak"}, {25, 0.05, ""}, {25, 0.9, "poor-fit"}, {68.3, 0.9, "above-peak;poor-fit"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        cr_result r;
        memset(&r, 0, sizeof r);
        bw_fit f = {.c_s = 1e-6, .b_Bps = cases[i].b_gbs * 1e9, .rms_rel_err = cases[i].rms, .max_rel_err = 1.47};
        bw_judge_fit(&pk, &f, &r);
        assert_string_equal(r.flags, cases[i].flags);
    }
    pk.memory_gbs = NAN;
    cr_result r;
    memset(&r, 0, sizeof r);
    bw_fit f = {.c_s = 1e-6, .b_Bps = 1e12, .rms_rel_err = 0.01};
    bw_judge_fit(&pk, &f, &r);
    assert_string_equal(r.flags, "");
}

/* The regimes fitted apart: at most the cache, 4x it or more, and the
 * sizes between in neither. */
static void test_regimes_by_size(void **state)
{
    (void)state;
    const uint64_t llc = UINT64_C(32) << 20;
    static const struct {
        double bytes;
        bw_regime regime;
    } cases[] = {{64 << 10, BW_REGIME_CACHE},      {32 << 20, BW_REGIME_CACHE},         {(32 << 20) + 1.0, BW_REGIME_BETWEEN},
                 {127.9 * (1 << 20), BW_REGIME_BETWEEN}, {128 << 20, BW_REGIME_MEMORY}, {1e12, BW_REGIME_MEMORY}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        assert_int_equal(bw_regime_of(cases[i].bytes, llc), cases[i].regime);
    assert_string_equal(bw_regime_name(BW_REGIME_CACHE), "cache");
    assert_string_equal(bw_regime_name(BW_REGIME_MEMORY), "memory");
}

TEST_MAIN(NULL, NULL, test_regimes_by_size, test_fit_recovers_known_parameters, test_fit_wanting_negative_cost_is_clamped, test_fit_passes_through_two_points, test_fit_with_noise_reports_its_error,
          test_fit_without_fixed_cost, test_fit_is_not_dragged_by_one_outlier, test_fit_rejects_degenerate_data,
          test_zero_copy_guard, test_pattern_words,
          test_fit_judged_against_the_limit_and_its_points)
