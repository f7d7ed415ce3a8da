#define _POSIX_C_SOURCE 200809L
#include "host_limit.h"

#include "random.h"
#include "stats.h"
#include "timer.h"

#include <inttypes.h>
#include <omp.h>
#include <stdbool.h>
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

/* The read: both sources' bits summed as integers, wrapping, so that the
 * result is exact in any order and the host can check it. */
static uint64_t read_sum(const double *b, const double *c, uint64_t n)
{
    const uint64_t *x = (const uint64_t *)b, *y = (const uint64_t *)c;
    uint64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (uint64_t i = 0; i < n; ++i)
        sum += x[i] + y[i];
    return sum;
}

static uint64_t serial_sum(const double *b, const double *c, uint64_t n)
{
    uint64_t sum = 0, x, y;
    for (uint64_t i = 0; i < n; ++i) {
        memcpy(&x, &b[i], sizeof x);
        memcpy(&y, &c[i], sizeof y);
        sum += x + y;
    }
    return sum;
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

/* reps timed runs of one kernel after two untimed ones, as rates of bytes
 * per run. */
static cr_host_rate time_kernel(double *const v[3], uint64_t n, int reps, bool triad_kernel, double bytes,
                                double *times, uint64_t *sum)
{
    for (int r = -2; r < reps; ++r) {
        uint64_t t0 = cr_now_ns();
        if (triad_kernel)
            triad(v[0], v[1], v[2], n);
        else
            *sum = read_sum(v[1], v[2], n);
        if (r >= 0)
            times[r] = (double)(cr_now_ns() - t0) * 1e-9;
    }
    cr_summary s;
    cr_summarize(times, (size_t)reps, &s);
    return (cr_host_rate){.best_gbs = bytes / s.min * 1e-9, .median_gbs = bytes / s.median * 1e-9};
}

int cr_host_limit_measure(uint64_t array_bytes, int reps, cr_host_limit *out, char *err, size_t errlen)
{
    uint64_t n = array_bytes / sizeof(double);
    double *v[3] = {NULL, NULL, NULL};
    double *times = reps > 0 ? malloc((size_t)reps * sizeof *times) : NULL;
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
    uint64_t sum = 0;
    double elements = (double)n * sizeof(double);
    cr_host_rate t = time_kernel(v, n, reps, true, 3 * elements, times, &sum);
    cr_host_rate r = time_kernel(v, n, reps, false, 2 * elements, times, &sum);
    uint64_t bad = wrong_elements(v[0], v[1], v[2], n);
    if (bad || sum != serial_sum(v[1], v[2], n)) {
        snprintf(err, errlen, "the host limit's %s wrong (%" PRIu64 " of %" PRIu64 " triad elements)",
                 bad ? "triad got elements" : "read's sum came out", bad, n);
        goto out;
    }
    *out = (cr_host_limit){.triad = t, .read = r, .array_bytes = n * sizeof(double), .reps = reps,
                           .threads = omp_get_max_threads()};
    rc = 0;
out:
    for (int i = 0; i < 3; ++i)
        free(v[i]);
    free(times);
    return rc;
}
