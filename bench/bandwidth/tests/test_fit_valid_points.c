/* The transfer-model fit decided from points with their verification flags:
 * only valid points are fitted, and too few of them make no fit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "bandwidth/transfer_model.h"

#include <math.h>
#include <string.h>

#define NPTS 8
#define C_TRUE 12e-6 /* s */
#define B_TRUE 9.5e9 /* B/s */

/* T = 12 us + S / 9.5 GB/s at 4 KiB, 16 KiB, ... 64 MiB. */
static void exact_points(double *bytes, double *seconds)
{
    for (int i = 0; i < NPTS; ++i) {
        bytes[i] = (double)(UINT64_C(4096) << (2 * i));
        seconds[i] = C_TRUE + bytes[i] / B_TRUE;
    }
}

static void expect_note(const bw_fit_outcome *o, const char *want)
{
    char note[320];
    bw_fit_outcome_note(o, note, sizeof note);
    if (strcmp(note, want) != 0)
        fail_msg("note '%s', want '%s'", note, want);
}

static void test_all_invalid_makes_no_fit(void **state)
{
    (void)state;
    double bytes[NPTS], seconds[NPTS];
    bool valid[NPTS] = {false};
    exact_points(bytes, seconds);
    bw_fit_outcome o;
    assert_int_equal(bw_fit_valid_points(bytes, seconds, valid, NPTS, &o), 0);
    assert_int_equal(o.verdict, BW_FIT_NO_VALID);
    assert_false(bw_fit_outcome_valid(&o));
    assert_int_equal(o.points, NPTS);
    assert_int_equal(o.valid, 0);
    expect_note(&o, "no valid point of 8: no fit");
}

/* Two points whose data were wrong and whose times are wild: the fit over
 * the rest is the fit over those points alone, bit for bit, and finds the
 * true c and b, which the fit over every point misses. */
static void test_invalid_points_are_left_out(void **state)
{
    (void)state;
    double bytes[NPTS], seconds[NPTS];
    bool valid[NPTS];
    exact_points(bytes, seconds);
    for (int i = 0; i < NPTS; ++i)
        valid[i] = i != 2 && i != 5;
    seconds[2] *= 40;
    seconds[5] /= 30;
    double kept_b[NPTS - 2], kept_t[NPTS - 2];
    size_t m = 0;
    for (int i = 0; i < NPTS; ++i)
        if (valid[i])
            kept_b[m] = bytes[i], kept_t[m++] = seconds[i];
    bw_fit alone, everything;
    assert_int_equal(bw_fit_transfer(kept_b, kept_t, m, &alone), 0);
    assert_int_equal(bw_fit_transfer(bytes, seconds, NPTS, &everything), 0);

    bw_fit_outcome o;
    assert_int_equal(bw_fit_valid_points(bytes, seconds, valid, NPTS, &o), 0);
    assert_int_equal(o.verdict, BW_FIT_MADE);
    assert_true(bw_fit_outcome_valid(&o));
    assert_int_equal(o.points, NPTS);
    assert_int_equal(o.valid, NPTS - 2);
    assert_int_equal(o.fit.n, NPTS - 2);
    assert_true(o.fit.c_s == alone.c_s);
    assert_true(o.fit.b_Bps == alone.b_Bps);
    assert_true(o.fit.max_rel_err == alone.max_rel_err);
    assert_true(o.fit.rms_rel_err == alone.rms_rel_err);
    assert_true(fabs(o.fit.c_s - C_TRUE) / C_TRUE < 1e-3);
    assert_true(fabs(o.fit.b_Bps - B_TRUE) / B_TRUE < 1e-3);
    assert_true(o.fit.max_rel_err < 1e-3);
    assert_true(everything.max_rel_err > 0.9); /* the wild points were in it */
    expect_note(&o, "B(S) = S/(c + S/b) over 6 valid of 8 sizes; 2 invalid points left out");
}

static void test_all_valid_is_the_plain_fit(void **state)
{
    (void)state;
    double bytes[NPTS], seconds[NPTS];
    bool valid[NPTS];
    exact_points(bytes, seconds);
    for (int i = 0; i < NPTS; ++i)
        valid[i] = true;
    bw_fit plain;
    assert_int_equal(bw_fit_transfer(bytes, seconds, NPTS, &plain), 0);
    bw_fit_outcome o;
    assert_int_equal(bw_fit_valid_points(bytes, seconds, valid, NPTS, &o), 0);
    assert_int_equal(o.verdict, BW_FIT_MADE);
    assert_int_equal(o.valid, NPTS);
    assert_true(o.fit.c_s == plain.c_s && o.fit.b_Bps == plain.b_Bps);
    expect_note(&o, "B(S) = S/(c + S/b) over 8 sizes");
}

/* One valid point cannot fix two parameters: no fit, even though the
 * invalid points would have given one. */
static void test_too_few_valid_points_make_no_fit(void **state)
{
    (void)state;
    double bytes[NPTS], seconds[NPTS];
    bool valid[NPTS] = {false};
    exact_points(bytes, seconds);
    valid[3] = true;
    bw_fit_outcome o;
    assert_int_equal(bw_fit_valid_points(bytes, seconds, valid, NPTS, &o), 0);
    assert_int_equal(o.verdict, BW_FIT_TOO_FEW);
    assert_false(bw_fit_outcome_valid(&o));
    assert_int_equal(o.valid, 1);
    assert_true(o.valid < BW_FIT_MIN_POINTS);
    expect_note(&o, "fitted over 1 valid of 8 points: too few (the fit needs 2)");
    /* Two valid points are enough. */
    valid[6] = true;
    assert_int_equal(bw_fit_valid_points(bytes, seconds, valid, NPTS, &o), 0);
    assert_int_equal(o.verdict, BW_FIT_MADE);
    assert_true(fabs(o.fit.b_Bps - B_TRUE) / B_TRUE < 1e-3);
}

/* Enough valid points that still fix no bandwidth (time flat in size). */
static void test_undetermined_fit_is_invalid(void **state)
{
    (void)state;
    double bytes[3] = {1e6, 1e7, 1e8}, seconds[3] = {1e-3, 1e-3, 5.0};
    bool valid[3] = {true, true, false};
    bw_fit_outcome o;
    assert_int_equal(bw_fit_valid_points(bytes, seconds, valid, 3, &o), 0);
    assert_int_equal(o.verdict, BW_FIT_UNDETERMINED);
    assert_false(bw_fit_outcome_valid(&o));
    assert_int_equal(o.valid, 2);
    expect_note(&o, "no fit: the 2 valid sizes determine no finite bandwidth; 1 invalid point left out");
}

static void test_no_point_at_all(void **state)
{
    (void)state;
    bw_fit_outcome o;
    assert_int_equal(bw_fit_valid_points(NULL, NULL, NULL, 0, &o), 0);
    assert_int_equal(o.verdict, BW_FIT_NO_VALID);
    assert_int_equal(o.points, 0);
}

TEST_MAIN(NULL, NULL, test_all_invalid_makes_no_fit, test_invalid_points_are_left_out, test_all_valid_is_the_plain_fit,
          test_too_few_valid_points_make_no_fit, test_undetermined_fit_is_invalid, test_no_point_at_all)
