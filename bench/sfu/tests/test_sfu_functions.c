/* The SFU benchmark's yardstick: the function table and its chains, the
 * MPFR reference against constants computed independently (50-digit
 * series), the ulp and relative error metrics on hand-built cases, special
 * values, flush-to-zero accounting, and the sampled inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "row_names.h"
#include "sfu/functions.h"
#include "sfu/truth.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SUB_F 0x1p-149
#define MAX_SUB_F (0x1p-126 - 0x1p-149)
#define MIN_SUB_D 0x1p-1074

static sfu_exact_value R(double hi, double lo) { return (sfu_exact_value){hi, lo}; }

static bool is_float(double v) { return isnan(v) || (double)(float)v == v; }

static void assert_ref(sfu_exact_value e, double hi, double lo)
{
    assert_true(e.hi == hi);
    assert_true(e.lo == lo);
}

static void assert_near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%.17g is not within %g of %.17g", got, tol, want);
}

/* ---- table and names ---- */

static void test_names_and_table(void **state)
{
    (void)state;
    for (int f = 0; f < SFU_NFUNCS; ++f)
        assert_int_equal(sfu_func_by_name(sfu_functions[f].name), f);
    for (int v = 0; v < SFU_NVERSIONS; ++v)
        assert_int_equal(sfu_version_by_name(sfu_version_names[v]), v);
    assert_int_equal(sfu_func_by_name("nope"), -1);
    assert_int_equal(sfu_func_by_name("SIN"), -1);
    assert_int_equal(sfu_func_by_name(""), -1);
    assert_int_equal(sfu_func_by_name(NULL), -1);
    assert_int_equal(sfu_func_by_name("tan"), SFU_TAN);
    assert_int_equal(sfu_version_by_name("ptx-approx"), SFU_PTX_APPROX);
    assert_int_equal(sfu_version_by_name("relaxed-math"), SFU_RELAXED);
    assert_int_equal(sfu_version_by_name("fast"), -1);
    /* Li's double set and the arities. */
    for (int f = 0; f < SFU_NFUNCS; ++f) {
        bool dbl = f == SFU_DIV || f == SFU_RCP || f == SFU_SQRT || f == SFU_RSQRT;
        assert_int_equal(sfu_functions[f].has_double, dbl);
        assert_int_equal(sfu_functions[f].arity, f == SFU_DIV || f == SFU_POW ? 2 : 1);
        assert_non_null(sfu_functions[f].math);
    }
    /* OpenCL 1.2, tables 7.1 and 7.2. */
    const double single[SFU_NFUNCS] = {2.5, 2.5, 3, 2, 16, 3, 3, 4, 4, 3, 3, 5};
    for (int f = 0; f < SFU_NFUNCS; ++f)
        assert_true(sfu_functions[f].ulp_bound[CR_FLOAT] == single[f]);
    assert_true(sfu_functions[SFU_DIV].ulp_bound[CR_DOUBLE] == 0.5);
    assert_true(sfu_functions[SFU_RCP].ulp_bound[CR_DOUBLE] == 0.5);
    assert_true(sfu_functions[SFU_SQRT].ulp_bound[CR_DOUBLE] == 0.5);
    assert_true(sfu_functions[SFU_RSQRT].ulp_bound[CR_DOUBLE] == 2);
    /* Typical domains are shared; wide ones are per type. */
    sfu_domain d = sfu_domain_of(SFU_SQRT, CR_DOUBLE, true, 0);
    assert_true(d.lo == DBL_MIN && d.hi == DBL_MAX && d.log_uniform && !d.is_signed);
    d = sfu_domain_of(SFU_SQRT, CR_FLOAT, true, 0);
    assert_true(d.lo == FLT_MIN && d.hi == FLT_MAX);
    d = sfu_domain_of(SFU_SIN, CR_DOUBLE, false, 0);
    assert_true(d.lo < -3.14159 && d.hi > 3.14159 && !d.log_uniform);
}

/* ---- chains ---- */

/* Every function's version, and precise beside each (the partition), is a
 * variant bench/sfu/descriptor lists: the harness records no other. */
static void test_variants_are_listed(void **state)
{
    (void)state;
    for (int f = 0; f < SFU_NFUNCS; ++f)
        for (int v = 0; v < SFU_NVERSIONS; ++v)
            for (int paired = 0; paired < 2; ++paired) {
                char variant[64];
                snprintf(variant, sizeof variant, "%s/%s%s%s", sfu_functions[f].name,
                         paired ? sfu_version_names[SFU_PRECISE] : "", paired ? "+" : "", sfu_version_names[v]);
                if (cr_row_name_unknown("sfu", variant, "partition") != NULL)
                    fail_msg("%s: no variant of bench/sfu/descriptor", variant);
            }
}

static void test_chains_contract(void **state)
{
    (void)state;
    const int nx = 2001, ny = 41;
    for (int f = 0; f < SFU_NFUNCS; ++f) {
        const sfu_function *fn = &sfu_functions[f];
        double xl = fn->chain_x_lo, xh = fn->chain_x_hi, a = fn->chain_a, b = fn->chain_b;
        assert_true(xl < xh);
        assert_true(a != 0);
        int ys = fn->arity == 2 ? ny : 1;
        if (fn->arity == 2)
            assert_true(fn->chain_y_lo < fn->chain_y_hi);
        double h = 1e-6 * (xh - xl), worst = 0;
        for (int j = 0; j < ys; ++j) {
            double y = fn->arity == 2 ? fn->chain_y_lo + (fn->chain_y_hi - fn->chain_y_lo) * j / (ny - 1) : 0;
            for (int i = 0; i < nx; ++i) {
                double x = xl + (xh - xl) * i / (nx - 1);
                double next = a * sfu_truth_f(f, x, y) + b;
                if (!(next >= xl && next <= xh))
                    fail_msg("%s: x=%g y=%g maps to %g outside [%g, %g]", fn->name, x, y, next, xl, xh);
                /* Central difference, one-sided at the ends. */
                double lo = i == 0 ? x : x - h, hi = i == nx - 1 ? x : x + h;
                double slope = a * (sfu_truth_f(f, hi, y) - sfu_truth_f(f, lo, y)) / (hi - lo);
                if (fabs(slope) > worst)
                    worst = fabs(slope);
            }
        }
        if (!(worst <= 0.5 + 1e-6))
            fail_msg("%s: |a f'| reaches %g > 1/2", fn->name, worst);
        /* And not trivially flat: the chain depends on f. */
        assert_true(worst > 0.01);
    }
}

/* ---- ulp, distance, errors ---- */

static void test_ulp_distance(void **state)
{
    (void)state;
    assert_int_equal(sfu_ulp_distance(1.0, nextafterf(1.0f, 2.0f), CR_FLOAT), 1);
    assert_int_equal(sfu_ulp_distance(nextafterf(1.0f, 2.0f), 1.0, CR_FLOAT), 1);
    assert_int_equal(sfu_ulp_distance(0.0, -0.0, CR_FLOAT), 0);
    assert_int_equal(sfu_ulp_distance(-MIN_SUB_F, MIN_SUB_F, CR_FLOAT), 2);
    assert_int_equal(sfu_ulp_distance(FLT_MAX, INFINITY, CR_FLOAT), 1);
    assert_int_equal(sfu_ulp_distance(-INFINITY, INFINITY, CR_FLOAT), 2 * (uint64_t)0x7f800000);
    assert_int_equal(sfu_ulp_distance(1.0, 2.0, CR_FLOAT), 1u << 23);
    assert_int_equal(sfu_ulp_distance(-1.0, 1.0, CR_FLOAT), 2 * (uint64_t)0x3f800000);
    assert_true(sfu_ulp_distance(NAN, 1.0, CR_FLOAT) == UINT64_MAX);
    assert_true(sfu_ulp_distance(1.0, NAN, CR_DOUBLE) == UINT64_MAX);
    assert_int_equal(sfu_ulp_distance(1.0, nextafter(1.0, 2.0), CR_DOUBLE), 1);
    assert_int_equal(sfu_ulp_distance(-MIN_SUB_D, MIN_SUB_D, CR_DOUBLE), 2);
    assert_int_equal(sfu_ulp_distance(DBL_MAX, INFINITY, CR_DOUBLE), 1);
    assert_true(sfu_ulp_distance(1.0, 2.0, CR_DOUBLE) == (UINT64_C(1) << 52));
    /* The largest distance there is fits. */
    assert_true(sfu_ulp_distance(-INFINITY, INFINITY, CR_DOUBLE) == 2 * UINT64_C(0x7ff0000000000000));
}

static void test_ulp(void **state)
{
    (void)state;
    assert_true(sfu_ulp(1.0, CR_FLOAT) == 0x1p-23);
    assert_true(sfu_ulp(1.99, CR_FLOAT) == 0x1p-23);
    assert_true(sfu_ulp(-0.99, CR_FLOAT) == 0x1p-24);
    assert_true(sfu_ulp(0.0, CR_FLOAT) == 0x1p-149);
    assert_true(sfu_ulp(1e-40, CR_FLOAT) == 0x1p-149);
    assert_true(sfu_ulp(FLT_MIN, CR_FLOAT) == 0x1p-149);
    assert_true(sfu_ulp(2 * (double)FLT_MIN, CR_FLOAT) == 0x1p-148);
    assert_true(sfu_ulp(FLT_MAX, CR_FLOAT) == 0x1p104);
    assert_true(sfu_ulp(1e39, CR_FLOAT) == 0x1p104);
    assert_true(sfu_ulp(-INFINITY, CR_FLOAT) == 0x1p104);
    assert_true(sfu_ulp(1.0, CR_DOUBLE) == 0x1p-52);
    assert_true(sfu_ulp(-3.0, CR_DOUBLE) == 0x1p-51);
    assert_true(sfu_ulp(0.0, CR_DOUBLE) == 0x1p-1074);
    assert_true(sfu_ulp(DBL_MAX, CR_DOUBLE) == 0x1p971);
    assert_true(isnan(sfu_ulp(NAN, CR_DOUBLE)));
}

static void test_ulp_error(void **state)
{
    (void)state;
    assert_true(sfu_ulp_error(1 + 0x1p-23, R(1, 0), CR_FLOAT) == 1);
    assert_true(sfu_ulp_error(1, R(1 + 0x1p-24, 0), CR_FLOAT) == 0.5);
    assert_true(sfu_ulp_error(1, R(1, 0), CR_FLOAT) == 0);
    assert_true(sfu_ulp_error(3 + 3 * 0x1p-22, R(3, 0), CR_FLOAT) == 3);
    /* lo counts: double results measured below their own ulp. */
    assert_true(sfu_ulp_error(1, R(1, 0x1p-60), CR_DOUBLE) == 0x1p-8);
    assert_true(sfu_ulp_error(1 + 0x1p-52, R(1, 0x1p-60), CR_DOUBLE) == 1 - 0x1p-8);
    /* Just below a power of two the spacing is half. */
    assert_true(sfu_ulp_error(1 - 0x1p-53, R(1, -0x1p-60), CR_DOUBLE) == 1 - 0x1p-7);
    assert_true(sfu_ulp_error(1 - 0x1p-24, R(1, -0x1p-60), CR_FLOAT) == 1 - 0x1p-36);
    /* 0.1 against MPFR's 1/10: 0x1.999999999999ap-58 / 2^-56. */
    double e = sfu_ulp_error(0.1, sfu_exact(SFU_DIV, 1, 10), CR_DOUBLE);
    assert_true(e == 0x1.999999999999ap-2);
    assert_true(e < 0.5);
    /* Classes. */
    assert_true(sfu_ulp_error(NAN, R(NAN, 0), CR_FLOAT) == 0);
    assert_true(isinf(sfu_ulp_error(NAN, R(1, 0), CR_FLOAT)));
    assert_true(isinf(sfu_ulp_error(1, R(NAN, 0), CR_DOUBLE)));
    assert_true(sfu_ulp_error(INFINITY, R(INFINITY, 0), CR_DOUBLE) == 0);
    assert_true(isinf(sfu_ulp_error(-INFINITY, R(INFINITY, 0), CR_DOUBLE)));
    assert_true(isinf(sfu_ulp_error(INFINITY, R(1, 0), CR_FLOAT)));
    assert_true(isinf(sfu_ulp_error(FLT_MAX, R(INFINITY, 0), CR_FLOAT)));
    /* 1e39 is beyond float: inf is the right float, FLT_MAX is not. */
    assert_true(sfu_ulp_error(INFINITY, R(1e39, 0), CR_FLOAT) == 0);
    assert_true(isinf(sfu_ulp_error(FLT_MAX, R(1e39, 0), CR_FLOAT)));
    assert_true(isinf(sfu_ulp_error(INFINITY, R(1e39, 0), CR_DOUBLE)));
    /* Just above FLT_MAX it still rounds to FLT_MAX: finite, half an ulp. */
    assert_true(sfu_ulp_error(FLT_MAX, R(FLT_MAX + 0x1p103, -0x1p60), CR_FLOAT) == 0.5 - 0x1p-44);
    /* An exact zero: the subnormal spacing. */
    assert_true(sfu_ulp_error(MIN_SUB_F, R(0, 0), CR_FLOAT) == 1);
    assert_true(sfu_ulp_error(-0.0, R(0, 0), CR_FLOAT) == 0);
    assert_true(sfu_ulp_error(3 * MIN_SUB_D, R(-0.0, 0), CR_DOUBLE) == 3);
}

static void test_ref_to_type(void **state)
{
    (void)state;
    /* A tie in float is decided by lo. */
    assert_true(sfu_exact_to_type(R(1 + 0x1p-24, 0x1p-80), CR_FLOAT) == 1 + 0x1p-23);
    assert_true(sfu_exact_to_type(R(1 + 0x1p-24, -0x1p-80), CR_FLOAT) == 1);
    assert_true(sfu_exact_to_type(R(1 + 0x1p-24, 0), CR_FLOAT) == 1);
    assert_true(sfu_exact_to_type(R(-(1 + 0x1p-24), -0x1p-80), CR_FLOAT) == -(1 + 0x1p-23));
    /* The overflow threshold 2^128 - 2^103. */
    double thr = 0x1p128 - 0x1p103;
    assert_true(sfu_exact_to_type(R(thr, -0x1p70), CR_FLOAT) == FLT_MAX);
    assert_true(isinf(sfu_exact_to_type(R(thr, 0), CR_FLOAT)));
    assert_true(isinf(sfu_exact_to_type(R(thr, 0x1p70), CR_FLOAT)));
    assert_true(sfu_exact_to_type(R(-thr, 0x1p70), CR_FLOAT) == -FLT_MAX);
    /* Half the smallest subnormal. */
    assert_true(sfu_exact_to_type(R(0x1p-150, 0x1p-200), CR_FLOAT) == MIN_SUB_F);
    double z = sfu_exact_to_type(R(0x1p-150, -0x1p-200), CR_FLOAT);
    assert_true(z == 0 && !signbit(z));
    z = sfu_exact_to_type(R(-0x1p-151, 0), CR_FLOAT);
    assert_true(z == 0 && signbit(z));
    assert_true(sfu_exact_to_type(R(0.1, 1e-20), CR_DOUBLE) == 0.1);
    assert_true(sfu_exact_to_type(R(0.1, 0), CR_FLOAT) == (double)0.1f);
    assert_true(isnan(sfu_exact_to_type(R(NAN, 0), CR_FLOAT)));
    /* Subnormal helpers. */
    assert_true(sfu_is_subnormal(MAX_SUB_F, CR_FLOAT));
    assert_false(sfu_is_subnormal(FLT_MIN, CR_FLOAT));
    assert_false(sfu_is_subnormal(0.0, CR_FLOAT));
    assert_true(sfu_is_subnormal(1e-310, CR_DOUBLE));
    assert_false(sfu_is_subnormal(1e-40, CR_DOUBLE));
    z = sfu_flush_subnormal(-MIN_SUB_F, CR_FLOAT);
    assert_true(z == 0 && signbit(z));
    assert_true(sfu_flush_subnormal(FLT_MIN, CR_FLOAT) == FLT_MIN);
    assert_true(isnan(sfu_flush_subnormal(NAN, CR_FLOAT)));
}

static void test_rel_error(void **state)
{
    (void)state;
    assert_true(sfu_rel_error(2.5, R(2, 0)) == 0.25);
    assert_true(sfu_rel_error(-2.5, R(-2, 0)) == 0.25);
    assert_true(sfu_rel_error(1, R(1, 0x1p-60)) == 0x1p-60);
    assert_true(sfu_rel_error(1, R(1, 0)) == 0);
    assert_true(isnan(sfu_rel_error(1, R(0, 0))));
    assert_true(isnan(sfu_rel_error(0, R(-0.0, 0))));
    assert_true(isnan(sfu_rel_error(1, R(INFINITY, 0))));
    assert_true(isnan(sfu_rel_error(1, R(NAN, 0))));
    assert_true(isinf(sfu_rel_error(NAN, R(1, 0))));
    assert_true(isinf(sfu_rel_error(INFINITY, R(1, 0))));
}

/* ---- the reference ---- */

static void test_reference_constants(void **state)
{
    (void)state;
    /* Double-doubles of 50-digit values (Taylor series and Decimal). */
    assert_ref(sfu_exact(SFU_SIN, 1, 0), 0x1.aed548f090ceep-1, 0x1.06374f484e288p-59);
    assert_ref(sfu_exact(SFU_EXP, 1, 0), 0x1.5bf0a8b145769p+1, 0x1.4d57ee2b1013ap-53);
    assert_ref(sfu_exact(SFU_SQRT, 2, 0), 0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54);
    assert_ref(sfu_exact(SFU_POW, 2, 0.5), 0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54);
    assert_ref(sfu_exact(SFU_RSQRT, 2, 0), 0x1.6a09e667f3bcdp-1, -0x1.bdd3413b26456p-55);
    assert_ref(sfu_exact(SFU_RCP, 3, 0), 0x1.5555555555555p-2, 0x1.5555555555555p-56);
    assert_ref(sfu_exact(SFU_DIV, 1, 10), 0x1.999999999999ap-4, -0x1.999999999999ap-58);
    /* Exact results. */
    assert_ref(sfu_exact(SFU_LOG2, 8, 0), 3, 0);
    assert_ref(sfu_exact(SFU_EXP2, -3, 0), 0.125, 0);
    assert_ref(sfu_exact(SFU_POW, 2, 10), 1024, 0);
    assert_ref(sfu_exact(SFU_RSQRT, 4, 0), 0.5, 0);
    assert_ref(sfu_exact(SFU_COS, 0, 0), 1, 0);
    assert_ref(sfu_exact(SFU_EXP2, -1074, 0), MIN_SUB_D, 0);
    /* 2^-1075 ties to the even 0. */
    assert_ref(sfu_exact(SFU_EXP2, -1075, 0), 0, 0);
    /* ln 2 and log2 of 10 by their relations with exp and exp2. */
    sfu_exact_value ln2 = sfu_exact(SFU_LOG, 2, 0);
    assert_true(ln2.hi == 0x1.62e42fefa39efp-1);
    assert_near(ln2.lo, 0x1.abc9e3b39803fp-56, 0x1p-100);
    /* cos(1e22): a famous range reduction; a double of sin^2 + cos^2 = 1. */
    sfu_exact_value s = sfu_exact(SFU_SIN, 1e22, 0), c = sfu_exact(SFU_COS, 1e22, 0);
    assert_near(s.hi * s.hi + c.hi * c.hi, 1, 1e-15);
    assert_near(s.hi, -0.8522008497671888, 1e-16);
}

static void test_reference_special_values(void **state)
{
    (void)state;
    sfu_exact_value e = sfu_exact(SFU_SQRT, -0.0, 0);
    assert_true(e.hi == 0 && signbit(e.hi) && e.lo == 0);
    e = sfu_exact(SFU_LOG, 0, 0);
    assert_true(e.hi == -INFINITY && e.lo == 0);
    assert_true(sfu_exact(SFU_LOG, -0.0, 0).hi == -INFINITY);
    assert_true(isnan(sfu_exact(SFU_LOG, -1, 0).hi));
    assert_true(isnan(sfu_exact(SFU_LOG2, -MIN_SUB_F, 0).hi));
    e = sfu_exact(SFU_LOG, 1, 0);
    assert_true(e.hi == 0 && !signbit(e.hi));
    e = sfu_exact(SFU_RSQRT, INFINITY, 0);
    assert_true(e.hi == 0 && !signbit(e.hi));
    assert_true(sfu_exact(SFU_RSQRT, 0, 0).hi == INFINITY);
    assert_true(sfu_exact(SFU_RSQRT, -0.0, 0).hi == -INFINITY);
    assert_true(isnan(sfu_exact(SFU_RSQRT, -1, 0).hi));
    assert_true(sfu_exact(SFU_RCP, -0.0, 0).hi == -INFINITY);
    assert_true(sfu_exact(SFU_DIV, 1, -0.0).hi == -INFINITY);
    assert_true(isnan(sfu_exact(SFU_DIV, 0, 0).hi));
    assert_true(isnan(sfu_exact(SFU_DIV, INFINITY, -INFINITY).hi));
    e = sfu_exact(SFU_DIV, -0.0, 5);
    assert_true(e.hi == 0 && signbit(e.hi));
    e = sfu_exact(SFU_EXP, -INFINITY, 0);
    assert_true(e.hi == 0 && !signbit(e.hi));
    assert_true(sfu_exact(SFU_EXP, 1000, 0).hi == INFINITY);
    assert_true(isnan(sfu_exact(SFU_SIN, INFINITY, 0).hi));
    assert_true(isnan(sfu_exact(SFU_COS, -INFINITY, 0).hi));
    e = sfu_exact(SFU_SIN, -0.0, 0);
    assert_true(e.hi == 0 && signbit(e.hi));
    e = sfu_exact(SFU_TAN, -0.0, 0);
    assert_true(e.hi == 0 && signbit(e.hi));
    /* C99 pow. */
    assert_true(sfu_exact(SFU_POW, 1, NAN).hi == 1);
    assert_true(sfu_exact(SFU_POW, NAN, 0).hi == 1);
    assert_true(sfu_exact(SFU_POW, 1, 7.5).hi == 1);
    assert_true(sfu_exact(SFU_POW, 0, -1).hi == INFINITY);
    assert_true(sfu_exact(SFU_POW, -0.0, -1).hi == -INFINITY);
    assert_true(isnan(sfu_exact(SFU_POW, -2, 0.5).hi));
    /* A float subnormal result is a normal double. */
    assert_ref(sfu_exact(SFU_EXP2, -140, 0), 0x1p-140, 0);
    /* sin of a subnormal: the subnormal, a hair below. */
    e = sfu_exact(SFU_SIN, MIN_SUB_F, 0);
    /* x - x^3/6 is x to 298 bits, far beyond the reference's 128: lo = 0. */
    assert_true(e.hi == MIN_SUB_F && e.lo == 0);
    assert_true(sfu_exact_to_type(e, CR_FLOAT) == MIN_SUB_F);
}

static void test_reference_many_matches_single(void **state)
{
    (void)state;
    enum { N = 3000 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    sfu_exact_value *many = malloc(N * sizeof *many);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(many);
    const sfu_func fs[] = {SFU_POW, SFU_SIN, SFU_RSQRT};
    for (size_t k = 0; k < 3; ++k) {
        sfu_sample(fs[k], CR_FLOAT, true, 7 + k, N, x, y);
        sfu_exact_many(fs[k], x, sfu_functions[fs[k]].arity == 2 ? y : NULL, N, many);
        for (size_t i = 0; i < N; i += 7) {
            sfu_exact_value one = sfu_exact(fs[k], x[i], y[i]);
            assert_true(one.hi == many[i].hi && one.lo == many[i].lo);
        }
    }
    free(x);
    free(y);
    free(many);
}

/* ---- special values ---- */

static void test_special_ok(void **state)
{
    (void)state;
    const double inf = INFINITY;
    assert_true(sfu_special_ok(NAN, R(NAN, 0), CR_FLOAT, 3, false));
    assert_false(sfu_special_ok(0, R(NAN, 0), CR_FLOAT, 3, false));
    assert_false(sfu_special_ok(NAN, R(1, 0), CR_FLOAT, 3, false));
    assert_true(sfu_special_ok(-inf, R(-inf, 0), CR_FLOAT, 3, false));
    assert_false(sfu_special_ok(inf, R(-inf, 0), CR_FLOAT, 3, false));
    assert_false(sfu_special_ok(FLT_MAX, R(inf, 0), CR_FLOAT, 3, false));
    assert_true(sfu_special_ok(inf, R(1e39, 0), CR_FLOAT, 3, false));
    /* Signed zeros. */
    assert_true(sfu_special_ok(-0.0, R(-0.0, 0), CR_FLOAT, 3, false));
    assert_false(sfu_special_ok(0.0, R(-0.0, 0), CR_FLOAT, 3, false));
    assert_false(sfu_special_ok(MIN_SUB_F, R(0.0, 0), CR_FLOAT, 3, false));
    /* Within the bound. */
    assert_false(sfu_special_ok(1 + 0x1p-23, R(1, 0), CR_FLOAT, 0.5, false));
    assert_true(sfu_special_ok(1 + 0x1p-23, R(1, 0), CR_FLOAT, 1, false));
    assert_true(sfu_special_ok(1, R(1, 0), CR_DOUBLE, 0.5, false));
    assert_false(sfu_special_ok(1 + 0x1p-52, R(1, 0), CR_DOUBLE, 0.5, false));
    /* A subnormal result flushed to the zero of its sign. */
    assert_true(sfu_special_ok(0.0, R(0x1p-130, 0), CR_FLOAT, 3, true));
    assert_false(sfu_special_ok(0.0, R(0x1p-130, 0), CR_FLOAT, 3, false));
    assert_false(sfu_special_ok(-0.0, R(0x1p-130, 0), CR_FLOAT, 3, true));
    assert_true(sfu_special_ok(-0.0, R(-0x1p-130, 0), CR_FLOAT, 3, true));
    /* 2^-130 is a normal double: no flush there. */
    assert_false(sfu_special_ok(0.0, R(0x1p-130, 0), CR_DOUBLE, 3, true));
}

/* Where C99 pow and OpenCL powr disagree (OpenCL 1.2 section 7.5.1):
 * powr is NaN for every x < 0, for 0^0, inf^0, 1^inf, 1^NaN and NaN^0, and
 * treats -0 as +0; pow is NaN for x < 0 only with a finite non-integral y. */
static bool pow_conventions_differ(double x, double y)
{
    bool y_int = isfinite(y) && y == nearbyint(y);
    bool y_odd = y_int && fmod(fabs(y), 2) == 1;
    if (isnan(x))
        return y == 0;
    if (x < 0)
        return !isnan(y) && !(isfinite(x) && isfinite(y) && !y_int);
    if (x == 0 && y == 0)
        return true;
    if (x == 0 && signbit(x) && y_odd)
        return true;
    if (isinf(x) && y == 0)
        return true;
    return x == 1 && (isinf(y) || isnan(y));
}

static void test_special_inputs(void **state)
{
    (void)state;
    double x[SFU_MAX_SPECIAL], y[SFU_MAX_SPECIAL];
    for (int f = 0; f < SFU_NFUNCS; ++f)
        for (int t = 0; t < CR_NDTYPES; ++t) {
            size_t n = sfu_special_inputs(f, t, x, y, SFU_MAX_SPECIAL);
            assert_true(n >= 16 && n <= SFU_MAX_SPECIAL);
            bool nan = false, pinf = false, ninf = false, pzero = false, nzero = false, sub = false;
            for (size_t i = 0; i < n; ++i) {
                if (t == CR_FLOAT)
                    assert_true(is_float(x[i]) && is_float(y[i]));
                nan |= isnan(x[i]) || isnan(y[i]);
                pinf |= x[i] == INFINITY || y[i] == INFINITY;
                ninf |= x[i] == -INFINITY || y[i] == -INFINITY;
                pzero |= x[i] == 0 && !signbit(x[i]);
                nzero |= x[i] == 0 && signbit(x[i]);
                sub |= sfu_is_subnormal(x[i], t);
                if (f == SFU_POW && pow_conventions_differ(x[i], y[i]))
                    fail_msg("pow special (%g, %g) is where pow and powr differ", x[i], y[i]);
                if (sfu_functions[f].arity == 1)
                    assert_true(y[i] == 0);
            }
            assert_true(nan && pinf && ninf && pzero && nzero && sub);
            /* A small cap truncates. */
            assert_int_equal(sfu_special_inputs(f, t, x, y, 5), 5);
        }
    /* The listed edge cases, with their expected values from the reference. */
    size_t n = sfu_special_inputs(SFU_EXP, CR_FLOAT, x, NULL, SFU_MAX_SPECIAL);
    int overflow = 0, finite_near_edge = 0, to_zero = 0;
    for (size_t i = 0; i < n; ++i) {
        double r = sfu_exact_to_type(sfu_exact(SFU_EXP, x[i], 0), CR_FLOAT);
        if (x[i] > 88 && x[i] < 89)
            r == INFINITY ? ++overflow : ++finite_near_edge;
        if (x[i] < -103 && x[i] > -105 && r == 0)
            ++to_zero;
    }
    assert_int_equal(overflow, 1);
    assert_int_equal(finite_near_edge, 1);
    assert_int_equal(to_zero, 1);
}

/* ---- error statistics ---- */

/* The floor of every version: near is within 1/64 of max(|exact|, 1);
 * more than 1/8 of the results far off is another function. */
static void test_far_off(void **state)
{
    (void)state;
    assert_false(sfu_far_off(1.0 + 1.0 / 128, 1.0));
    assert_true(sfu_far_off(1.0 + 1.0 / 32, 1.0));
    assert_false(sfu_far_off(0.01, 0.0)); /* near a zero: 1/64 of 1 */
    assert_true(sfu_far_off(0.5, 0.0));
    assert_false(sfu_far_off(1000 * (1 + 1.0 / 128), 1000)); /* relative above 1 */
    assert_true(sfu_far_off(1000 * 1.05, 1000));
    assert_true(sfu_far_off(NAN, 1.0));
    assert_false(sfu_far_off(INFINITY, INFINITY));
    assert_true(sfu_far_off(-INFINITY, INFINITY));
    assert_true(sfu_far_off(INFINITY, 1e30));
    assert_false(sfu_far_off(NAN, NAN));
    assert_true(sfu_far_off(0.0, NAN));
    const double pi = 3.14159265358979323846;
    uint64_t far = 0, n = 1000;
    for (uint64_t i = 0; i < n; ++i) {
        double x = -pi + 2 * pi * (double)i / (double)n;
        far += sfu_far_off(cos(x), sin(x));
    }
    assert_true(sfu_mostly_far(far, n)); /* cos for sin */
    assert_false(sfu_mostly_far(n / 8, n));
    assert_true(sfu_mostly_far(n / 8 + 1, n));
    sfu_error_stats s = {0};
    sfu_error_add(&s, 0.5, 0, cos(0.5), R(sin(0.5), 0), CR_DOUBLE, INFINITY, false);
    sfu_error_add(&s, 0.5, 0, sin(0.5), R(sin(0.5), 0), CR_DOUBLE, INFINITY, false);
    assert_int_equal(s.far, 1);
}

static void test_error_stats(void **state)
{
    (void)state;
    sfu_error_stats s = {0};
    assert_true(isnan(sfu_error_mean_rel(&s)));
    sfu_error_add(&s, 1, 0, 1, R(1, 0), CR_FLOAT, 2.5, false);                 /* 0 ulp */
    sfu_error_add(&s, 2, 0, 1 + 0x1p-23, R(1, 0), CR_FLOAT, 2.5, false);       /* 1 ulp, rel 2^-23 */
    sfu_error_add(&s, 3, 9, 3 + 3 * 0x1p-22, R(3, 0), CR_FLOAT, 2.5, false);   /* 3 ulp, rel 2^-22 */
    sfu_error_add(&s, 4, 0, INFINITY, R(1e39, 0), CR_FLOAT, 2.5, false);       /* right: 0 ulp, no rel */
    sfu_error_add(&s, 5, 0, 0.0, R(0x1p-130, 0), CR_FLOAT, 2.5, true);         /* flushed, allowed */
    assert_int_equal(s.n, 5);
    assert_int_equal(s.n_rel, 3);
    assert_int_equal(s.flushed, 1);
    assert_int_equal(s.over_bound, 1);
    assert_true(s.max_ulp == 3);
    assert_true(s.worst_x == 3 && s.worst_y == 9);
    assert_true(s.max_rel == 0x1p-22);
    assert_true(s.sum_rel == 0x1p-23 + 0x1p-22);
    assert_true(sfu_error_mean_rel(&s) == (0x1p-23 + 0x1p-22) / 3);
    /* Not allowed: the flush is counted and is an error of 2^19 ulps. */
    sfu_error_add(&s, 6, 0, 0.0, R(0x1p-130, 0), CR_FLOAT, 2.5, false);
    assert_int_equal(s.flushed, 2);
    assert_int_equal(s.over_bound, 2);
    assert_true(s.max_ulp == 0x1p19);
    assert_true(s.worst_x == 6);
    assert_int_equal(s.n_rel, 4);
    assert_true(s.max_rel == 1);
    /* A wrong infinity and a NaN are infinitely wrong. */
    sfu_error_add(&s, 7, 0, NAN, R(2, 0), CR_FLOAT, INFINITY, false);
    assert_true(isinf(s.max_ulp) && s.worst_x == 7);
    assert_int_equal(s.over_bound, 2); /* no bound */
    assert_true(isinf(sfu_error_mean_rel(&s)));
    /* Double: measured against lo. */
    sfu_error_stats d = {0};
    sfu_error_add(&d, 1, 10, 0.1, sfu_exact(SFU_DIV, 1, 10), CR_DOUBLE, 0.5, false);
    assert_true(d.max_ulp == 0x1.999999999999ap-2);
    assert_int_equal(d.over_bound, 0);
    sfu_error_add(&d, 1, 10, nextafter(0.1, 1), sfu_exact(SFU_DIV, 1, 10), CR_DOUBLE, 0.5, false);
    assert_int_equal(d.over_bound, 1);
    assert_near(d.max_ulp, 1.4, 1e-12);
}

/* ---- flush-to-zero probes ---- */

static void test_ftz_probes(void **state)
{
    (void)state;
    double x[SFU_MAX_FTZ_PROBES], y[SFU_MAX_FTZ_PROBES];
    sfu_ftz_kind kind[SFU_MAX_FTZ_PROBES];
    for (int f = 0; f < SFU_NFUNCS; ++f)
        for (int t = 0; t < CR_NDTYPES; ++t) {
            size_t n = sfu_ftz_probes(f, t, x, y, kind, SFU_MAX_FTZ_PROBES);
            assert_true(n <= SFU_MAX_FTZ_PROBES);
            assert_true(f == SFU_COS ? n == 0 : n >= 2);
            for (size_t i = 0; i < n; ++i) {
                if (t == CR_FLOAT)
                    assert_true(is_float(x[i]) && is_float(y[i]));
                bool sub_arg = sfu_is_subnormal(x[i], t) || sfu_is_subnormal(y[i], t);
                sfu_exact_value exact = sfu_exact(f, x[i], y[i]);
                double ex = sfu_exact_to_type(exact, t);
                if (kind[i] == SFU_FTZ_INPUT) {
                    assert_true(sub_arg);
                    sfu_exact_value z = sfu_exact(f, sfu_flush_subnormal(x[i], t), sfu_flush_subnormal(y[i], t));
                    double zt = sfu_exact_to_type(z, t);
                    if (ex == zt || isnan(ex))
                        fail_msg("%s probe %zu: exact %g is the zero argument's", sfu_functions[f].name, i, ex);
                    /* The flushed answer is detected, the right one not. */
                    assert_true(sfu_ftz_flushed(kind[i], zt, exact, z, t));
                    assert_false(sfu_ftz_flushed(kind[i], ex, exact, z, t));
                } else {
                    assert_false(sub_arg);
                    if (!sfu_is_subnormal(ex, t))
                        fail_msg("%s probe %zu: result %g not subnormal", sfu_functions[f].name, i, ex);
                    assert_true(sfu_ftz_flushed(kind[i], 0.0, exact, exact, t));
                    assert_true(sfu_ftz_flushed(kind[i], -0.0, exact, exact, t));
                    assert_false(sfu_ftz_flushed(kind[i], ex, exact, exact, t));
                }
            }
        }
    /* By hand: sqrt(2^-149) = 2^-74.5, flushed to sqrt(0) = 0. */
    sfu_exact_value e = sfu_exact(SFU_SQRT, MIN_SUB_F, 0), z = sfu_exact(SFU_SQRT, 0, 0);
    assert_true(sfu_ftz_flushed(SFU_FTZ_INPUT, 0.0, e, z, CR_FLOAT));
    assert_false(sfu_ftz_flushed(SFU_FTZ_INPUT, 0x1.6a09e6p-75, e, z, CR_FLOAT));
    /* rcp(max subnormal) against 1/0 = inf. */
    e = sfu_exact(SFU_RCP, MAX_SUB_F, 0);
    z = sfu_exact(SFU_RCP, 0, 0);
    assert_true(sfu_ftz_flushed(SFU_FTZ_INPUT, INFINITY, e, z, CR_FLOAT));
    assert_false(sfu_ftz_flushed(SFU_FTZ_INPUT, 0x1p126, e, z, CR_FLOAT));
    /* exp(-100) in float is subnormal: 0 shows a flush. */
    e = sfu_exact(SFU_EXP, -100, 0);
    assert_true(sfu_is_subnormal(sfu_exact_to_type(e, CR_FLOAT), CR_FLOAT));
    assert_true(sfu_ftz_flushed(SFU_FTZ_RESULT, 0.0, e, e, CR_FLOAT));
    assert_false(sfu_ftz_flushed(SFU_FTZ_RESULT, MIN_SUB_F, e, e, CR_FLOAT));
}

/* ---- sampling ---- */

static bool in_domain(double v, sfu_domain d)
{
    if (!d.log_uniform)
        return v >= d.lo && v <= d.hi;
    if (v < 0 && !d.is_signed)
        return false;
    return fabs(v) >= d.lo && fabs(v) <= d.hi;
}

/* The domain's ends as values of t (rounded inwards), with both signs
 * where it is signed. Returns how many. */
static int domain_ends(sfu_domain d, cr_dtype t, double *v)
{
    double lo = d.lo, hi = d.hi;
    if (t == CR_FLOAT) {
        float l = (float)lo, h = (float)hi;
        lo = l < lo ? nextafterf(l, INFINITY) : l;
        hi = h > hi ? nextafterf(h, -INFINITY) : h;
    }
    int n = 0;
    v[n++] = lo;
    v[n++] = hi;
    if (d.log_uniform && d.is_signed) {
        v[n++] = -lo;
        v[n++] = -hi;
    }
    return n;
}

/* Finite and normal in t, or an exact zero. */
static void assert_result_normal(sfu_func f, cr_dtype t, bool wide, double x, double y)
{
    sfu_exact_value e = sfu_exact(f, x, y);
    double r = sfu_exact_to_type(e, t);
    if (!isfinite(r) || sfu_is_subnormal(r, t) || (r == 0 && e.hi != 0))
        fail_msg("%s %s %s: f(%a, %a) = %g", sfu_functions[f].name, cr_dtype_name(t), wide ? "wide" : "typical", x,
                 y, r);
}

/* The results are monotonic in each argument of every function but sin,
 * cos and tan (finite everywhere on floats): the domains' corners bound
 * them, and every corner's exact result must be finite and normal. */
static void test_domains_keep_results_normal(void **state)
{
    (void)state;
    for (int f = 0; f < SFU_NFUNCS; ++f)
        for (int t = 0; t < CR_NDTYPES; ++t)
            for (int wide = 0; wide < 2; ++wide) {
                double xs[4], ys[4] = {0};
                int nx = domain_ends(sfu_domain_of(f, t, wide, 0), t, xs);
                int ny = sfu_functions[f].arity == 2 ? domain_ends(sfu_domain_of(f, t, wide, 1), t, ys) : 1;
                for (int i = 0; i < nx; ++i)
                    for (int j = 0; j < ny; ++j)
                        assert_result_normal(f, t, wide, xs[i], ys[j]);
            }
}

static void test_sampling(void **state)
{
    (void)state;
    enum { N = 1500, NREF = 200 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *x2 = malloc(N * sizeof *x2),
           *y2 = malloc(N * sizeof *y2);
    sfu_exact_value *ref = malloc(NREF * sizeof *ref);
    assert_true(x && y && x2 && y2 && ref);
    for (int f = 0; f < SFU_NFUNCS; ++f)
        for (int t = 0; t < CR_NDTYPES; ++t)
            for (int wide = 0; wide < 2; ++wide) {
                sfu_domain dx = sfu_domain_of(f, t, wide, 0), dy = sfu_domain_of(f, t, wide, 1);
                bool binary = sfu_functions[f].arity == 2;
                sfu_sample(f, t, wide, 42, N, x, y);
                sfu_sample(f, t, wide, 42, N, x2, y2);
                assert_memory_equal(x, x2, N * sizeof *x);
                assert_memory_equal(y, y2, N * sizeof *y);
                sfu_sample(f, t, wide, 43, N, x2, y2);
                assert_memory_not_equal(x, x2, N * sizeof *x);
                int neg = 0, odd_mantissa = 0;
                double lo = INFINITY, hi = 0;
                for (size_t i = 0; i < N; ++i) {
                    if (!in_domain(x[i], dx) || (binary && !in_domain(y[i], dy)))
                        fail_msg("%s %s: (%g, %g) outside the domain", sfu_functions[f].name, cr_dtype_name(t),
                                 x[i], y[i]);
                    if (t == CR_FLOAT)
                        assert_true(is_float(x[i]) && is_float(y[i]));
                    if (!binary)
                        assert_true(y[i] == 0);
                    neg += x[i] < 0;
                    lo = fmin(lo, fabs(x[i]));
                    hi = fmax(hi, fabs(x[i]));
                    /* The last mantissa bit of t varies. */
                    double m = frexp(x[i], &(int){0}) * (t == CR_FLOAT ? 0x1p24 : 0x1p53);
                    odd_mantissa += fmod(fabs(m), 2) == 1;
                }
                if (!(odd_mantissa > N / 8))
                    fail_msg("%s %s %s: last mantissa bit set in %d of %d", sfu_functions[f].name, cr_dtype_name(t),
                             wide ? "wide" : "typical", odd_mantissa, N);
                if (dx.is_signed || dx.lo < 0)
                    assert_true(neg > N / 4 && neg < 3 * N / 4);
                else
                    assert_int_equal(neg, 0);
                if (dx.log_uniform) {
                    /* Binades uniformly: the lowest and the highest tenth of
                     * them are both sampled. */
                    double tenth = exp2(log2(dx.hi / dx.lo) / 10);
                    assert_true(lo < dx.lo * tenth && hi > dx.hi / tenth);
                }
                /* Every sampled input's exact result is finite and normal. */
                sfu_exact_many(f, x, binary ? y : NULL, NREF, ref);
                for (size_t i = 0; i < NREF; ++i) {
                    double r = sfu_exact_to_type(ref[i], t);
                    if (!isfinite(r) || sfu_is_subnormal(r, t) || (r == 0 && ref[i].hi != 0))
                        assert_result_normal(f, t, wide, x[i], y[i]); /* fails, with the inputs */
                }
            }
    /* A unary function needs no y. */
    sfu_sample(SFU_SIN, CR_FLOAT, false, 1, N, x, NULL);
    free(x);
    free(y);
    free(x2);
    free(y2);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_table),
        cmocka_unit_test(test_variants_are_listed),
        cmocka_unit_test(test_chains_contract),
        cmocka_unit_test(test_ulp_distance),
        cmocka_unit_test(test_ulp),
        cmocka_unit_test(test_ulp_error),
        cmocka_unit_test(test_ref_to_type),
        cmocka_unit_test(test_rel_error),
        cmocka_unit_test(test_reference_constants),
        cmocka_unit_test(test_reference_special_values),
        cmocka_unit_test(test_reference_many_matches_single),
        cmocka_unit_test(test_special_ok),
        cmocka_unit_test(test_special_inputs),
        cmocka_unit_test(test_far_off),
        cmocka_unit_test(test_error_stats),
        cmocka_unit_test(test_ftz_probes),
        cmocka_unit_test(test_domains_keep_results_normal),
        cmocka_unit_test(test_sampling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
