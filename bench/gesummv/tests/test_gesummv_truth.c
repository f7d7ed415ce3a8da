/* The host truth of gesummv: the order a size gives, the rounding bound,
 * and the row-by-row comparison (a kernel's own rows pass it; a row off,
 * or NaN, fails it and is named). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gesummv/run.h"
#include "gesummv/truth.h"
#include "random.h"
#include "tests/test_main.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static void test_the_order_is_the_smallest_multiple_of_32_that_holds_the_size(void **state)
{
    (void)state;
    assert_int_equal(gesummv_order(UINT64_C(2) << 20, CR_FLOAT), 512);  /* 2 x 512^2 x 4 = 2 MiB */
    assert_int_equal(gesummv_order((UINT64_C(2) << 20) + 1, CR_FLOAT), 544);
    assert_int_equal(gesummv_order(UINT64_C(2) << 20, CR_DOUBLE), 384); /* 2 x 352^2 x 8 < 2 MiB */
    assert_int_equal(gesummv_order(1, CR_DOUBLE), 32);
    for (uint64_t size = 1000; size < (UINT64_C(1) << 34); size = size * 3 + 7) {
        uint64_t n = gesummv_order(size, CR_DOUBLE);
        assert_true(n % 32 == 0 && 16 * n * n >= size && (n == 32 || 16 * (n - 32) * (n - 32) < size));
    }
    assert_int_equal(gesummv_order(UINT64_MAX, CR_FLOAT), 0);
}

static void test_the_bound_is_gamma_n_plus_2(void **state)
{
    (void)state;
    long double u = FLT_EPSILON / 2, g = 1002 * u / (1 - 1002 * u);
    long double b = gesummv_bound(CR_FLOAT, 1000, 1);
    assert_true(b >= g && b <= g * (1 + 1e-6L));
    assert_true(gesummv_bound(CR_DOUBLE, 1000, 1) < b * 1e-8L);
    assert_true(gesummv_bound(CR_FLOAT, 1000, 2) == 2 * b);
}

/* Random rows of order N computed as the kernels compute them (row.h),
 * with the gold beside them. */
#define N 1000
static float A[N * N], B[N * N], x[N], y[N];
static long double gold[N], scale[N];

static void kernel_rows(void)
{
    uint64_t s = 7;
    cr_fill_random_unit(CR_FLOAT, A, N * N, &s);
    cr_fill_random_unit(CR_FLOAT, B, N * N, &s);
    cr_fill_random_unit(CR_FLOAT, x, N, &s);
    const uint64_t n = N;
    for (uint64_t i = 0; i < n; ++i)
        GESUMMV_ROW(float, uint64_t, A, B, x, y, n, i, (float)GESUMMV_ALPHA, (float)GESUMMV_BETA);
    gesummv_gold(CR_FLOAT, A, B, x, n, GESUMMV_ALPHA, GESUMMV_BETA, gold, scale);
}

static void test_the_kernels_rows_pass(void **state)
{
    (void)state;
    kernel_rows();
    gesummv_check c = gesummv_compare(CR_FLOAT, y, gold, scale, N);
    assert_int_equal(c.bad, 0);
    /* a real error, and below its bound */
    assert_true(c.worst > 0 && c.worst <= 1);
}

static void test_a_row_off_or_nan_fails_and_is_named(void **state)
{
    (void)state;
    kernel_rows();
    y[600] = (float)(gold[600] + 2 * gesummv_bound(CR_FLOAT, N, scale[600]));
    gesummv_check c = gesummv_compare(CR_FLOAT, y, gold, scale, N);
    assert_int_equal(c.bad, 1);
    assert_int_equal(c.first, 600);
    assert_true(c.worst > 1.5);
    y[300] = NAN;
    c = gesummv_compare(CR_FLOAT, y, gold, scale, N);
    assert_int_equal(c.bad, 2);
    assert_int_equal(c.first, 300);
    assert_true(isnan(c.worst));
    y[300] = y[299]; /* the row before */
    c = gesummv_compare(CR_FLOAT, y, gold, scale, N);
    assert_int_equal(c.first, 300);
}

TEST_MAIN(NULL, NULL, test_the_order_is_the_smallest_multiple_of_32_that_holds_the_size,
          test_the_bound_is_gamma_n_plus_2, test_the_kernels_rows_pass, test_a_row_off_or_nan_fails_and_is_named)
