/* The host truth of gesummv: the gold y in long double, each row's scale,
 * the bound a kernel's row must keep to, derived from the rounding of its
 * n products, and the comparison of a device's y with the gold. Independent
 * of any backend, so that it is unit-tested on its own. */
#ifndef CR_GESUMMV_TRUTH_H
#define CR_GESUMMV_TRUTH_H

#include "gesummv/backend.h"

#include <stdint.h>

/* gold[i] = alpha*sum_j A[i][j]x[j] + beta*sum_j B[i][j]x[j] and scale[i] =
 * |alpha|*sum_j |A[i][j]x[j]| + |beta|*sum_j |B[i][j]x[j]|, both summed in
 * long double, for the n rows of A and B of type t. */
void gesummv_gold(cr_dtype t, const void *A, const void *B, const void *x, uint64_t n, double alpha, double beta,
                  long double *gold, long double *scale);

/* The most a row of type t, of order n and scale `scale`, may differ from
 * the gold: a kernel's sum of n products in any order rounds each term at
 * most n times (its product and n - 1 additions; a fused multiply-add
 * fewer), and alpha*tmp, beta*acc and their sum twice more, so |y - exact| <=
 * gamma_(n+2) * scale (Higham's gamma_k = k*u / (1 - k*u), u of type t); the
 * gold and the scale carry the same in long double's u, counted too. */
long double gesummv_bound(cr_dtype t, uint64_t n, long double scale);

typedef struct {
    uint64_t bad;   /* rows beyond their bound (a NaN among them) */
    uint64_t first; /* the first such row */
    double worst;   /* the largest |y - gold| / bound over the rows (NaN where a row is NaN) */
} gesummv_check;

/* Compares y (n elements of type t) with the gold, row by row. */
gesummv_check gesummv_compare(cr_dtype t, const void *y, const long double *gold, const long double *scale,
                              uint64_t n);

/* The coverage check, which sees one product left out or taken twice in
 * any row of any order. The rounding bound cannot: in float, that of a row
 * of 4096 products of [1, 2) exceeds alpha times the largest of them. The
 * kernel runs again, with its own alpha and beta, on A and B of ones and x
 * of ones over a window of at most 2^20 elements (double 2^48), zeros
 * elsewhere. Every product is then 0 or 1 and every partial sum an integer
 * no larger than the window; alpha and beta are multiples of 1/4 below 2
 * (backend.h), so alpha*tmp, beta*acc and y are multiples of 1/4 below
 * 2^22 (2^50), which float (double) holds exactly: a correct kernel writes
 * (alpha + beta) * ones in every row, whatever its order of additions and
 * its fused multiply-adds. A product left out or taken twice moves its
 * row by alpha or beta exactly. The windows cover x in
 * gesummv_cover_passes(t, n) passes (1 below 2^20 rows, in float); A and
 * B are ones (common/ones_window.h). */
uint64_t gesummv_cover_passes(cr_dtype t, uint64_t n);
/* x's pattern of pass `pass`: ones over [*first, *first + ones), zeros
 * elsewhere. Returns ones. */
uint64_t gesummv_cover_x(cr_dtype t, void *x, uint64_t n, uint64_t pass, uint64_t *first);

typedef struct {
    uint64_t bad;     /* rows that are not exactly want (a NaN among them) */
    uint64_t first;   /* the first such row */
    long double want; /* every row's exact value */
} gesummv_exact;

/* Compares every row of y (n elements of type t) with the exact value of
 * a pass over `ones` ones. */
gesummv_exact gesummv_compare_exact(cr_dtype t, const void *y, uint64_t n, uint64_t ones);

/* A row's value as the kernel wrote it. */
static inline long double gesummv_value(cr_dtype t, const void *y, uint64_t i)
{
    return t == CR_DOUBLE ? (long double)((const double *)y)[i] : (long double)((const float *)y)[i];
}

#endif
