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

/* A path's sweep: each size's time and verification flag. */
typedef struct {
    double bytes[NPTS], seconds[NPTS];
    bool valid[NPTS];
} sweep;

/* T = 12 us + S / 9.5 GB/s at 4 KiB, 16 KiB, ... 64 MiB, every point's
 * verification flag as given. */
static sweep exact_points(bool all_valid)
{
    sweep w;
    for (int i = 0; i < NPTS; ++i) {
        w.bytes[i] = (double)(UINT64_C(4096) << (2 * i));
        w.seconds[i] = C_TRUE + w.bytes[i] / B_TRUE;
        w.valid[i] = all_valid;
    }
    return w;
}

static void expect_note(const bw_fit_outcome *o, const char *want)
{
    char note[320];
    bw_fit_outcome_note(o, note, sizeof note);
    if (strcmp(note, want) != 0)
        fail_msg("note '%s', want '%s'", note, want);
}

/* The outcome of fitting the n points, which must have the verdict and
 * count of valid points given; it is a valid fit exactly when made. */
static bw_fit_outcome fitted(const double *bytes, const double *seconds, const bool *valid, size_t n,
                             bw_fit_verdict verdict, size_t nvalid)
{
    bw_fit_outcome o;
    assert_int_equal(bw_fit_valid_points(bytes, seconds, valid, n, &o), 0);
    assert_int_equal(o.verdict, verdict);
    assert_int_equal(o.points, n);
    assert_int_equal(o.valid, nvalid);
    assert_int_equal(bw_fit_outcome_valid(&o), verdict == BW_FIT_MADE);
    return o;
}

static void test_all_invalid_makes_no_fit(void **state)
{
    (void)state;
    sweep w = exact_points(false);
    bw_fit_outcome o = fitted(w.bytes, w.seconds, w.valid, NPTS, BW_FIT_NO_VALID, 0);
    expect_note(&o, "no valid point of 8: no fit");
}

/* Two points whose data were wrong and whose times are wild: the fit over
 * the rest is the fit over those points alone, bit for bit, and finds the
 * true c and b, which the fit over every point misses. */
static void test_invalid_points_are_left_out(void **state)
{
    (void)state;
    sweep w = exact_points(true);
    w.valid[2] = w.valid[5] = false;
    w.seconds[2] *= 40;
    w.seconds[5] /= 30;
    double kept_b[NPTS - 2], kept_t[NPTS - 2];
    size_t m = 0;
    for (int i = 0; i < NPTS; ++i)
        if (w.valid[i])
            kept_b[m] = w.bytes[i], kept_t[m++] = w.seconds[i];
    bw_fit alone, everything;
    assert_int_equal(bw_fit_transfer(kept_b, kept_t, m, &alone), 0);
    assert_int_equal(bw_fit_transfer(w.bytes, w.seconds, NPTS, &everything), 0);

    bw_fit_outcome o = fitted(w.bytes, w.seconds, w.valid, NPTS, BW_FIT_MADE, NPTS - 2);
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
    sweep w = exact_points(true);
    bw_fit plain;
    assert_int_equal(bw_fit_transfer(w.bytes, w.seconds, NPTS, &plain), 0);
    bw_fit_outcome o = fitted(w.bytes, w.seconds, w.valid, NPTS, BW_FIT_MADE, NPTS);
    assert_true(o.fit.c_s == plain.c_s && o.fit.b_Bps == plain.b_Bps);
    expect_note(&o, "B(S) = S/(c + S/b) over 8 sizes");
}

/* One valid point cannot fix two parameters: no fit, even though the
 * invalid points would have given one. */
static void test_too_few_valid_points_make_no_fit(void **state)
{
    (void)state;
    sweep w = exact_points(false);
    w.valid[3] = true;
    bw_fit_outcome o = fitted(w.bytes, w.seconds, w.valid, NPTS, BW_FIT_TOO_FEW, 1);
    assert_true(o.valid < BW_FIT_MIN_POINTS);
    expect_note(&o, "fitted over 1 valid of 8 points: too few (the fit needs 2)");
    /* Two valid points are enough. */
    w.valid[6] = true;
    o = fitted(w.bytes, w.seconds, w.valid, NPTS, BW_FIT_MADE, 2);
    assert_true(fabs(o.fit.b_Bps - B_TRUE) / B_TRUE < 1e-3);
}

/* Enough valid points that still fix no bandwidth (time flat in size). */
static void test_undetermined_fit_is_invalid(void **state)
{
    (void)state;
    double bytes[3] = {1e6, 1e7, 1e8}, seconds[3] = {1e-3, 1e-3, 5.0};
    bool valid[3] = {true, true, false};
    bw_fit_outcome o = fitted(bytes, seconds, valid, 3, BW_FIT_UNDETERMINED, 2);
    expect_note(&o, "no fit: the 2 valid sizes determine no finite bandwidth; 1 invalid point left out");
}

static void test_no_point_at_all(void **state)
{
    (void)state;
    fitted(NULL, NULL, NULL, 0, BW_FIT_NO_VALID, 0);
}

TEST_MAIN(NULL, NULL, test_all_invalid_makes_no_fit, test_invalid_points_are_left_out, test_all_valid_is_the_plain_fit,
          test_too_few_valid_points_make_no_fit, test_undetermined_fit_is_invalid, test_no_point_at_all)
