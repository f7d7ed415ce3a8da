#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "random.h"
#include "stream/truth.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_bytes_table(void **state)
{
    (void)state;
    assert_int_equal(stream_kernels[STREAM_COPY].arrays_moved, 2);
    assert_int_equal(stream_kernels[STREAM_MUL].arrays_moved, 2);
    assert_int_equal(stream_kernels[STREAM_ADD].arrays_moved, 3);
    assert_int_equal(stream_kernels[STREAM_TRIAD].arrays_moved, 3);
    assert_int_equal(stream_kernels[STREAM_DOT].arrays_moved, 2);
    assert_int_equal(stream_kernels[STREAM_TRIAD].output, STREAM_A);
    assert_string_equal(stream_kernels[STREAM_DOT].name, "dot");
}

static void test_random_fill(void **state)
{
    (void)state;
    enum { N = 4097 };
    double d[N], d2[N];
    float f[N];
    uint64_t s1 = 42, s2 = 42;
    cr_fill_random_unit(CR_DOUBLE, d, N, &s1);
    cr_fill_random_unit(CR_DOUBLE, d2, N, &s2);
    assert_memory_equal(d, d2, sizeof d); /* reproducible from the seed */
    for (int i = 0; i < N; ++i)
        assert_true(d[i] >= 1.0 && d[i] < 2.0);
    cr_fill_random_unit(CR_FLOAT, f, N, &s1);
    for (int i = 0; i < N; ++i)
        assert_true(f[i] >= 1.0f && f[i] < 2.0f);
    /* Incompressible: low mantissa bytes take many values, no runs. */
    int seen[256] = {0}, distinct = 0, repeats = 0;
    for (int i = 0; i < N; ++i) {
        unsigned char low;
        memcpy(&low, &d[i], 1);
        distinct += !seen[low]++;
        repeats += i > 0 && d[i] == d[i - 1];
    }
    assert_true(distinct > 250);
    assert_int_equal(repeats, 0);
}

static void test_gold_kernels(void **state)
{
    (void)state;
    double a[3] = {1, 2, 3}, b[3] = {4, 5, 6}, c[3] = {7, 8, 9};
    stream_apply_gold(STREAM_COPY, CR_DOUBLE, a, b, c, 3, 0.5);
    assert_true(c[0] == 1 && c[2] == 3);
    stream_apply_gold(STREAM_MUL, CR_DOUBLE, a, b, c, 3, 0.5);
    assert_true(b[0] == 0.5 && b[2] == 1.5);
    stream_apply_gold(STREAM_ADD, CR_DOUBLE, a, b, c, 3, 0.5);
    assert_true(c[0] == 1.5 && c[2] == 4.5);
    stream_apply_gold(STREAM_TRIAD, CR_DOUBLE, a, b, c, 3, 0.5);
    assert_true(a[0] == 0.5 + 0.75 && a[2] == 1.5 + 2.25);
    long double dot = stream_apply_gold(STREAM_DOT, CR_DOUBLE, a, b, c, 3, 0.5);
    assert_true(dot == 1.25L * 0.5L + 2.5L * 1.0L + 3.75L * 1.5L);
}

static void test_compare_tolerance(void **state)
{
    (void)state;
    double want[4] = {1.5, 1.25, 1.75, 1.0}, got[4];
    uint64_t first = 99;
    memcpy(got, want, sizeof got);
    assert_int_equal(stream_compare(STREAM_TRIAD, CR_DOUBLE, got, want, 4, &first), 0);
    got[1] = nextafter(want[1], 2.0); /* one rounding apart, as an FMA gives */
    assert_int_equal(stream_compare(STREAM_TRIAD, CR_DOUBLE, got, want, 4, &first), 0);
    /* ...but a copy must be exact. */
    assert_int_equal(stream_compare(STREAM_COPY, CR_DOUBLE, got, want, 4, &first), 1);
    assert_int_equal(first, 1);
    got[1] = want[1] * (1 + 1e-9);
    got[3] = NAN;
    assert_int_equal(stream_compare(STREAM_TRIAD, CR_DOUBLE, got, want, 4, &first), 2);
    assert_int_equal(first, 1);
    float fw[2] = {1.5f, 1.25f}, fg[2] = {1.5f, 1.25f * (1 + 1e-5f)};
    assert_int_equal(stream_compare(STREAM_ADD, CR_FLOAT, fg, fw, 2, &first), 1);
    fg[1] = nextafterf(fw[1], 2.0f);
    assert_int_equal(stream_compare(STREAM_ADD, CR_FLOAT, fg, fw, 2, &first), 0);
}

/* A float dot computed the way the backends must (blocks of
 * STREAM_DOT_BLOCK, one running sum per work-item) stays inside the
 * tolerance, and a 1% error does not. */
static void test_dot_tolerance(void **state)
{
    (void)state;
    enum { N = 1 << 22, ITEMS = 4 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    uint64_t seed = 7;
    cr_fill_random_unit(CR_FLOAT, a, N, &seed);
    cr_fill_random_unit(CR_FLOAT, b, N, &seed);
    long double exact = stream_apply_gold(STREAM_DOT, CR_FLOAT, a, b, NULL, N, 0);
    double total = 0;
    for (int w = 0; w < ITEMS; ++w) {
        float running = 0;
        for (size_t lo = (size_t)w * (N / ITEMS); lo < (size_t)(w + 1) * (N / ITEMS); lo += STREAM_DOT_BLOCK) {
            float block = 0;
            for (size_t i = lo; i < lo + STREAM_DOT_BLOCK; ++i)
                block += a[i] * b[i];
            running += block;
        }
        total += running;
    }
    double tol = stream_dot_tolerance(CR_FLOAT, N, ITEMS);
    double rel = fabs((double)(total - exact)) / (double)exact;
    assert_true(rel <= tol);
    assert_true(tol < 1e-3);
    assert_true(0.01 > tol);
    /* Tighter for double, and it grows with the chain length. */
    assert_true(stream_dot_tolerance(CR_DOUBLE, N, ITEMS) < 1e-11);
    assert_true(stream_dot_tolerance(CR_FLOAT, N, 1) > stream_dot_tolerance(CR_FLOAT, N, 64));
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes_table),
        cmocka_unit_test(test_random_fill),
        cmocka_unit_test(test_gold_kernels),
        cmocka_unit_test(test_compare_tolerance),
        cmocka_unit_test(test_dot_tolerance),
    };
    return cmocka_run_group_tests_name("stream verification", tests, NULL, NULL);
}
