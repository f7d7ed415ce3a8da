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
#include "ones_window.h"
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

/* ---- the coverage check ---- */

/* Rows of order L computed in the kernel's order (row.h), product `drop`
 * of A's sum left out (L: none). */
#define L 8192
static float ra[L], rb[L], rx[L];

static float row_without(uint64_t drop)
{
    float tmp = 0, acc = 0, alpha = (float)GESUMMV_ALPHA, beta = (float)GESUMMV_BETA;
    for (uint64_t j = 0; j < L; ++j) {
        tmp += j == drop ? 0.0f : ra[j] * rx[j];
        acc += rb[j] * rx[j];
    }
    return alpha * tmp + beta * acc;
}

/* The rounding bound of a row of L random products cannot see the
 * largest of them left out; on the coverage pattern every one left out
 * moves the row by alpha exactly. */
static void test_one_product_left_out_is_seen_only_on_ones(void **state)
{
    (void)state;
    uint64_t s = 11;
    cr_fill_random_unit(CR_FLOAT, ra, L, &s);
    cr_fill_random_unit(CR_FLOAT, rb, L, &s);
    cr_fill_random_unit(CR_FLOAT, rx, L, &s);
    long double sa = 0, sb = 0, abs_sum = 0;
    uint64_t largest = 0;
    for (uint64_t j = 0; j < L; ++j) {
        sa += (long double)ra[j] * rx[j], sb += (long double)rb[j] * rx[j];
        abs_sum += GESUMMV_ALPHA * (long double)ra[j] * rx[j] + GESUMMV_BETA * (long double)rb[j] * rx[j];
        if (ra[j] * rx[j] > ra[largest] * rx[largest])
            largest = j;
    }
    long double gold_row = GESUMMV_ALPHA * sa + GESUMMV_BETA * sb, bound = gesummv_bound(CR_FLOAT, L, abs_sum);
    float faulty = row_without(largest);
    assert_true(ra[largest] * rx[largest] > 3.9f);
    assert_true(fabsl(faulty - gold_row) <= bound);
    cr_fill_ones(CR_FLOAT, ra, L);
    cr_fill_ones(CR_FLOAT, rb, L);
    uint64_t first;
    assert_int_equal(gesummv_cover_x(CR_FLOAT, rx, L, 0, &first), L);
    assert_int_equal(first, 0);
    float rows[3] = {row_without(L), row_without(largest), row_without(0)};
    gesummv_exact c = gesummv_compare_exact(CR_FLOAT, rows, 1, L);
    assert_int_equal(c.bad, 0);
    assert_true(c.want == 2.75L * L);
    c = gesummv_compare_exact(CR_FLOAT, rows, 3, L);
    assert_int_equal(c.bad, 2);
    assert_int_equal(c.first, 1);
    assert_true(rows[1] == c.want - 1.5L && rows[2] == c.want - 1.5L);
}

/* alpha and beta are multiples of 1/4 below 2: what makes the pattern's
 * rows exact (truth.h). */
static void test_the_scalars_keep_the_pattern_exact(void **state)
{
    (void)state;
    const double scalars[] = {GESUMMV_ALPHA, GESUMMV_BETA};
    for (int i = 0; i < 2; ++i)
        assert_true(scalars[i] > 0 && scalars[i] < 2 && scalars[i] * 4 == floor(scalars[i] * 4));
    /* the largest float window's rows, and a quarter above them */
    float y = (float)((GESUMMV_ALPHA + GESUMMV_BETA) * (1 << 20));
    assert_true((long double)y == (GESUMMV_ALPHA + GESUMMV_BETA) * (1 << 20));
    assert_true((long double)(y - 0.25f) == (long double)y - 0.25L);
}

/* x's windows: float's of 2^20 ones cover x in turn, each pass its own;
 * double's one pass; NaN and a row off by one count, named first. */
static void test_the_windows_cover_x_and_the_compare_is_exact(void **state)
{
    (void)state;
    const uint64_t w = UINT64_C(1) << 20;
    assert_int_equal(gesummv_cover_passes(CR_FLOAT, w), 1);
    assert_int_equal(gesummv_cover_passes(CR_FLOAT, w + 1), 2);
    assert_int_equal(gesummv_cover_passes(CR_DOUBLE, UINT64_C(1) << 30), 1);
    float *v = malloc((w + 3) * sizeof *v);
    assert_non_null(v);
    uint64_t first, seen = 0;
    for (uint64_t pass = 0; pass < 2; ++pass) {
        uint64_t ones = gesummv_cover_x(CR_FLOAT, v, w + 3, pass, &first);
        assert_int_equal(first, pass * w);
        assert_int_equal(ones, pass == 0 ? w : 3);
        for (uint64_t j = 0; j < w + 3; ++j)
            assert_true(v[j] == (j >= first && j < first + ones ? 1.0f : 0.0f));
        seen += ones;
    }
    assert_int_equal(seen, w + 3);
    free(v);
    double y[4] = {5.5, 5.5, 5.5, 5.5};
    assert_int_equal(gesummv_compare_exact(CR_DOUBLE, y, 4, 2).bad, 0);
    y[3] = NAN, y[2] = 5.5 + 0x1p-40;
    gesummv_exact c = gesummv_compare_exact(CR_DOUBLE, y, 4, 2);
    assert_int_equal(c.bad, 2);
    assert_int_equal(c.first, 2);
}

TEST_MAIN(NULL, NULL, test_the_order_is_the_smallest_multiple_of_32_that_holds_the_size,
          test_the_bound_is_gamma_n_plus_2, test_the_kernels_rows_pass, test_a_row_off_or_nan_fails_and_is_named,
          test_one_product_left_out_is_seen_only_on_ones, test_the_scalars_keep_the_pattern_exact,
          test_the_windows_cover_x_and_the_compare_is_exact)
