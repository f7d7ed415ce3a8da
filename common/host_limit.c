#define _POSIX_C_SOURCE 200809L
#include "host_limit.h"

#include "random.h"
#include "stats.h"
#include "timer.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCALAR 0.4 /* not 0 or 1, so that nothing simplifies the triad */

/* Each thread touches first the pages it will stream, so that they sit
 * where that thread runs; the values are random so no compression helps. */
static void fill(double *b, double *c, uint64_t n)
{
#pragma omp parallel
    {
        uint64_t state = UINT64_C(0x5EED) + (uint64_t)omp_get_thread_num();
#pragma omp for schedule(static)
        for (uint64_t i = 0; i < n; ++i) {
            b[i] = (double)(cr_splitmix64(&state) >> 11) * 0x1p-53;
            c[i] = (double)(cr_splitmix64(&state) >> 11) * 0x1p-53;
        }
    }
}

static void triad(double *restrict a, const double *restrict b, const double *restrict c, uint64_t n)
{
#pragma omp parallel for schedule(static)
    for (uint64_t i = 0; i < n; ++i)
        a[i] = b[i] + SCALAR * c[i];
}

static uint64_t wrong_elements(const double *a, const double *b, const double *c, uint64_t n)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; ++i) {
        double want = b[i] + SCALAR * c[i];
        bad += memcmp(&a[i], &want, sizeof want) != 0;
    }
    return bad;
}

int cr_host_limit_measure(uint64_t array_bytes, int reps, cr_host_limit *out, char *err, size_t errlen)
{
    uint64_t n = array_bytes / sizeof(double);
    double *v[3] = {NULL, NULL, NULL};
    double *times = malloc((size_t)reps * sizeof *times);
    int rc = -1;
    for (int i = 0; i < 3; ++i)
        if (posix_memalign((void **)&v[i], 4096, (size_t)n * sizeof(double)) != 0)
            v[i] = NULL;
    if (reps < 1 || n == 0 || times == NULL || v[0] == NULL || v[1] == NULL || v[2] == NULL) {
        snprintf(err, errlen, "cannot allocate three host arrays of %" PRIu64 " bytes for the host limit", array_bytes);
        goto out;
    }
    fill(v[1], v[2], n);
    memset(v[0], 0, (size_t)n * sizeof(double));
    for (int r = -2; r < reps; ++r) {
        uint64_t t0 = cr_now_ns();
        triad(v[0], v[1], v[2], n);
        if (r >= 0)
            times[r] = (double)(cr_now_ns() - t0) * 1e-9;
    }
    uint64_t bad = wrong_elements(v[0], v[1], v[2], n);
    if (bad) {
        snprintf(err, errlen, "the host limit's triad got %" PRIu64 " of %" PRIu64 " elements wrong", bad, n);
        goto out;
    }
    cr_summary s;
    cr_summarize(times, (size_t)reps, &s);
    double bytes = 3.0 * (double)n * sizeof(double);
    *out = (cr_host_limit){.best_gbs = bytes / s.min * 1e-9, .median_gbs = bytes / s.median * 1e-9,
                           .array_bytes = n * sizeof(double), .reps = reps, .threads = omp_get_max_threads()};
    rc = 0;
out:
    for (int i = 0; i < 3; ++i)
        free(v[i]);
    free(times);
    return rc;
}
