/* The host truth of the stream kernels: the bytes each moves (the table
 * stream_kernels, declared in backend.h), gold values and the rules that
 * verify a device's output, independent of any backend so that they are
 * unit-tested on their own. */
#ifndef CR_STREAM_TRUTH_H
#define CR_STREAM_TRUTH_H

#include "stream/backend.h"

/* Fills n elements of type t with pseudo-random values in [1, 2) whose
 * mantissas are random (incompressible). *state is a splitmix64 state. */
void stream_fill_random(cr_dtype t, void *dst, uint64_t n, uint64_t *state);

/* Applies kernel k to the host arrays (the expected state after it ran).
 * For dot, returns the exact-as-possible sum (long double accumulation). */
long double stream_apply_gold(stream_kernel k, cr_dtype t, void *a, void *b, void *c, uint64_t n, double scalar);

/* Compares got[] with want[]: |got-want| <= 4 eps |want| (copy: exact).
 * Returns the number of mismatches and the first one's index. */
uint64_t stream_compare(stream_kernel k, cr_dtype t, const void *got, const void *want, uint64_t n,
                        uint64_t *first_bad);

/* Relative tolerance of a dot product over n positive terms computed by
 * work_items work-items under the STREAM_DOT_BLOCK contract. */
double stream_dot_tolerance(cr_dtype t, uint64_t n, uint64_t work_items);

#endif
