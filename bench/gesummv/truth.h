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

/* A row's value as the kernel wrote it. */
static inline long double gesummv_value(cr_dtype t, const void *y, uint64_t i)
{
    return t == CR_DOUBLE ? (long double)((const double *)y)[i] : (long double)((const float *)y)[i];
}

#endif
