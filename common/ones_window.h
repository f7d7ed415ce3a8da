/* The patterns of the exact coverage checks (stream's dot, gesummv's rows):
 * ones, which a correct kernel sums without a rounding, over windows short
 * enough that the type holds every partial sum; the windows cover an array
 * in turn, so that every element is one in exactly one of them. */
#ifndef CR_ONES_WINDOW_H
#define CR_ONES_WINDOW_H

#include "cr.h"

#include <stdint.h>
#include <string.h>

/* n ones of type t at dst. */
static inline void cr_fill_ones(cr_dtype t, void *dst, uint64_t n)
{
    for (uint64_t i = 0; i < n; ++i)
        if (t == CR_DOUBLE)
            ((double *)dst)[i] = 1;
        else
            ((float *)dst)[i] = 1;
}

/* The windows of at most `window` elements that cover n. */
static inline uint64_t cr_ones_windows(uint64_t n, uint64_t window)
{
    return n / window + (n % window != 0);
}

/* dst, n elements of type t: ones over window `which`, [*first, *first +
 * count), zeros elsewhere. Returns count. */
static inline uint64_t cr_fill_ones_window(cr_dtype t, void *dst, uint64_t n, uint64_t window, uint64_t which,
                                           uint64_t *first)
{
    uint64_t lo = which < cr_ones_windows(n, window) ? which * window : n, hi = n - lo > window ? lo + window : n;
    size_t es = cr_dtype_size(t);
    memset(dst, 0, n * es); /* all-zero bits: +0.0 in either type */
    cr_fill_ones(t, (char *)dst + lo * es, hi - lo);
    *first = lo;
    return hi - lo;
}

#endif
