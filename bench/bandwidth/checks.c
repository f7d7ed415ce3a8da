/* What verifies a path: its destination against the source or the write
 * pattern, a read's word sum, a technique's workload output. */
#include "bandwidth/run.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

uint64_t bw_word_sum(const void *p, uint64_t bytes)
{
    const uint32_t *w = p;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < bytes / 4; ++i)
        sum += w[i];
    return sum;
}

uint64_t bw_first_pattern_mismatch(const void *p, uint64_t bytes, uint32_t seed)
{
    const uint32_t *w = p;
    for (uint64_t i = 0; i < bytes / 4; ++i)
        if (w[i] != bw_pattern_word(i, seed))
            return i;
    return UINT64_MAX;
}

uint64_t bw_first_byte_mismatch(const void *a, const void *b, uint64_t bytes)
{
    /* memcmp answers the common case a byte loop would take 16 MiB of
     * steps for (and, under the sanitizers, a check a byte). */
    if (bytes == 0 || memcmp(a, b, bytes) == 0)
        return UINT64_MAX;
    const unsigned char *x = a, *y = b;
    for (uint64_t i = 0; i < bytes; ++i)
        if (x[i] != y[i])
            return i;
    return UINT64_MAX;
}

void bw_spoil_copy_target(bw_run *run, uint64_t bytes, unsigned segments)
{
    const unsigned char *s = run->src;
    for (unsigned k = 0; k < segments; ++k) {
        unsigned char *d = (unsigned char *)run->check + (uint64_t)k * bytes;
        for (uint64_t i = 0; i < bytes; ++i)
            d[i] = (unsigned char)~s[i];
    }
}

/* Vector add must be exact (one float addition per element); the reduce's
 * double sum of n floats within n rounding steps of the exact sum. */
static bool verify_technique(bw_run *run, const bw_path *p, uint64_t bytes, char *note, size_t len)
{
    if (p->workload == BW_VECTOR_ADD) {
        uint64_t n = bytes / 8;
        const float *a = run->floats, *b = run->floats + n, *c = run->check;
        for (uint64_t i = 0; i < n; ++i)
            if (c[i] != a[i] + b[i]) {
                snprintf(note, len, "vector add wrong at element %" PRIu64 ": %g instead of %g", i, c[i], a[i] + b[i]);
                return false;
            }
        return true;
    }
    uint64_t n = bytes / 4;
    long double exact = 0;
    for (uint64_t i = 0; i < n; ++i)
        exact += run->floats[i];
    double got;
    memcpy(&got, run->check, sizeof got);
    double rel = fabs((double)((long double)got - exact)) / (double)exact, tol = DBL_EPSILON * (double)(n + 16);
    if (!(rel <= tol)) {
        snprintf(note, len, "reduce off by %.3g relative (tolerance %.3g)", rel, tol);
        return false;
    }
    return true;
}

bool bw_verify_path(bw_run *run, const bw_path *p, uint64_t bytes, uint64_t expected_sum, char *note,
                        size_t len)
{
    char err[CR_ERRLEN];
    uint64_t sum = 0;
    unsigned transfers = bw_transfers_of(run, p);
    /* One transfer's destination is the backend's, zeroed before it ran;
     * the later ones of several land here beside it, where another path's
     * copy of the same source could still be. */
    if (transfers > 1)
        bw_spoil_copy_target(run, bytes, transfers);
    if (run->be->result(p, run->check, &sum, err, sizeof err) != CR_OK) {
        snprintf(note, len, "reading the result failed: %s", err);
        return false;
    }
    uint64_t bad = UINT64_MAX;
    switch (p->kind) {
    case BW_TECHNIQUE:
        return verify_technique(run, p, bytes, note, len);
    case BW_KERNEL_READ:
        if (sum != expected_sum) {
            snprintf(note, len, "kernel read sum %" PRIu64 " differs from %" PRIu64, sum, expected_sum);
            return false;
        }
        return true;
    case BW_KERNEL_WRITE:
        bad = bw_first_pattern_mismatch(run->check, bytes, (uint32_t)bytes);
        break;
    default:
        for (unsigned k = 0; k < transfers; ++k) {
            bad = bw_first_byte_mismatch((const unsigned char *)run->check + (uint64_t)k * bytes, run->src, bytes);
            if (bad != UINT64_MAX && transfers > 1) {
                snprintf(note, len, "destination of transfer %u of %u differs from the source, first at byte %" PRIu64,
                         k + 1, transfers, bad);
                return false;
            }
        }
        break;
    }
    if (bad != UINT64_MAX) {
        snprintf(note, len, "destination differs from the source, first at %s %" PRIu64,
                 p->kind == BW_KERNEL_WRITE ? "word" : "byte", bad);
        return false;
    }
    return true;
}
