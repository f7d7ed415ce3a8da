#include "gesummv/truth.h"

#include "ones_window.h"

#include <float.h>
#include <math.h>

/* One row of either type, the sums and their absolute values in long double. */
#define GOLD_ROW(T)                                                                                                  \
    do {                                                                                                             \
        const T *a = (const T *)A + i * n, *b = (const T *)B + i * n, *v = x;                                        \
        long double sa = 0, sb = 0, abs_a = 0, abs_b = 0;                                                            \
        for (uint64_t j = 0; j < n; ++j) {                                                                           \
            long double pa = (long double)a[j] * v[j], pb = (long double)b[j] * v[j];                                \
            sa += pa, sb += pb, abs_a += fabsl(pa), abs_b += fabsl(pb);                                              \
        }                                                                                                            \
        gold[i] = (long double)alpha * sa + (long double)beta * sb;                                                  \
        scale[i] = fabsl((long double)alpha) * abs_a + fabsl((long double)beta) * abs_b;                             \
    } while (0)

void gesummv_gold(cr_dtype t, const void *A, const void *B, const void *x, uint64_t n, double alpha, double beta,
                  long double *gold, long double *scale)
{
#pragma omp parallel for schedule(static)
    for (uint64_t i = 0; i < n; ++i) {
        if (t == CR_DOUBLE)
            GOLD_ROW(double);
        else
            GOLD_ROW(float);
    }
}

static long double gamma_of(uint64_t k, long double u)
{
    long double ku = (long double)k * u;
    return ku < 1 ? ku / (1 - ku) : INFINITY;
}

long double gesummv_bound(cr_dtype t, uint64_t n, long double scale)
{
    long double u = t == CR_DOUBLE ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
    long double host = gamma_of(n + 2, LDBL_EPSILON / 2);
    /* scale is itself a long double sum, low by at most host*scale */
    return (gamma_of(n + 2, u) + host) * scale / (1 - host);
}

gesummv_check gesummv_compare(cr_dtype t, const void *y, const long double *gold, const long double *scale,
                              uint64_t n)
{
    gesummv_check c = {0, 0, 0};
    for (uint64_t i = 0; i < n; ++i) {
        long double err = fabsl(gesummv_value(t, y, i) - gold[i]);
        long double bound = gesummv_bound(t, n, scale[i]);
        double ratio = bound > 0 ? (double)(err / bound) : err == 0 ? 0 : INFINITY;
        if (!(err <= bound) && c.bad++ == 0)
            c.first = i;
        if (!isnan(c.worst) && !(ratio <= c.worst))
            c.worst = ratio; /* a NaN row's NaN, which then stays */
    }
    return c;
}

/* The most ones of a window: with y below 2*2*window, 2^22 in float and
 * 2^50 in double, where every multiple of 1/4 is exact (truth.h). */
static uint64_t cover_window(cr_dtype t)
{
    return t == CR_DOUBLE ? UINT64_C(1) << 48 : UINT64_C(1) << 20;
}

uint64_t gesummv_cover_passes(cr_dtype t, uint64_t n) { return cr_ones_windows(n, cover_window(t)); }

uint64_t gesummv_cover_x(cr_dtype t, void *x, uint64_t n, uint64_t pass, uint64_t *first)
{
    return cr_fill_ones_window(t, x, n, cover_window(t), pass, first);
}

gesummv_exact gesummv_compare_exact(cr_dtype t, const void *y, uint64_t n, uint64_t ones)
{
    gesummv_exact c = {0, 0, ((long double)GESUMMV_ALPHA + (long double)GESUMMV_BETA) * (long double)ones};
    for (uint64_t i = 0; i < n; ++i)
        if (gesummv_value(t, y, i) != c.want && c.bad++ == 0)
            c.first = i;
    return c;
}
