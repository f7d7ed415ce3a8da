/* The host truth of the stream kernels: the bytes each moves (the table
 * stream_kernels, declared in backend.h), gold values and the rules that
 * verify a device's output, independent of any backend so that they are
 * unit-tested on their own. */
#ifndef CR_STREAM_TRUTH_H
#define CR_STREAM_TRUTH_H

#include "stream/backend.h"

/* Applies kernel k to the host arrays (the expected state after it ran).
 * For dot, returns the sum of the products, compensated in long double. */
long double stream_apply_gold(stream_kernel k, cr_dtype t, void *a, void *b, void *c, uint64_t n, double scalar);

/* Compares got[] with want[]: |got-want| <= 4 eps |want| (copy: exact).
 * Returns the number of mismatches and the first one's index. */
uint64_t stream_compare(stream_kernel k, cr_dtype t, const void *got, const void *want, uint64_t n,
                        uint64_t *first_bad);

/* Relative tolerance of a dot product over n positive terms computed by
 * work_items work-items under the STREAM_DOT_BLOCK contract: a proven
 * bound on the rounding error of any such computation, so a correct
 * result always passes. It catches wrong results, not one missing
 * product: in float, from a few thousand elements on, the device's own
 * rounding (not only the bound) exceeds a product. */
double stream_dot_tolerance(cr_dtype t, uint64_t n, uint64_t work_items);

/* The dot's coverage check, which sees a single missing or extra product
 * at any size. The dot runs again on a pattern: a all ones, b ones over a
 * stretch of fewer than 2^24 (float; double 2^53) elements and zeros
 * elsewhere. Every product is then 0 or 1 and every partial sum a correct
 * dot forms, in any order, vectorised or with FMA, is an integer below
 * 2^24, which float holds exactly: a correct dot equals the count of ones
 * exactly, whatever the device's geometry. Missing products leave a
 * smaller exact integer; extra ones push some partial sum to 2^24 or
 * beyond, and rounding a sum of nonnegative terms never brings it back
 * below. The stretches cover the array in stream_dot_check_runs(t, n)
 * runs (float: 2 at 16 Mi elements; double: always 1). */
uint64_t stream_dot_check_runs(cr_dtype t, uint64_t n);
/* a's pattern: n ones. */
void stream_dot_check_ones(cr_dtype t, void *dst, uint64_t n);
/* b's pattern of check run `run`: ones at [*first, *first + count), zeros
 * elsewhere. Returns count, the exact dot expected. */
uint64_t stream_dot_check_fill(cr_dtype t, void *dst, uint64_t n, uint64_t run, uint64_t *first);
/* Whether a check run's dot is exactly the count expected. */
bool stream_dot_check_ok(double got, uint64_t want);

#endif
