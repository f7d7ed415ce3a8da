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

/* The triad with non-temporal stores, in the widest vectors the build has:
 * its lines go to memory without being read first, so it moves the 24
 * bytes an element that it is counted for. Separate multiply and add, as
 * the scalar triad (ISO C does not contract them), so that its result is
 * the same bits. Where the ISA has no such store, the ordinary triad runs
 * and its write-allocate read is counted instead (STREAMED_ISA NULL). */
#if defined(__AVX512F__)
#include <immintrin.h>
#define STREAMED_ISA "AVX-512"
#define LANES 8
#define VEC(op) _mm512_##op##_pd
#elif defined(__AVX__)
#include <immintrin.h>
#define STREAMED_ISA "AVX"
#define LANES 4
#define VEC(op) _mm256_##op##_pd
#elif defined(__SSE2__)
#include <immintrin.h>
#define STREAMED_ISA "SSE2"
#define LANES 2
#define VEC(op) _mm_##op##_pd
#else
#define STREAMED_ISA NULL
#endif

static void triad_streamed(double *restrict a, const double *restrict b, const double *restrict c, uint64_t n)
{
#ifdef LANES
    /* a is page-aligned (cr_host_limit_measure): every vector store is whole. */
    uint64_t body = n - n % LANES;
#pragma omp parallel
    {
        const __typeof__(VEC(set1)(0)) s = VEC(set1)(SCALAR);
#pragma omp for schedule(static)
        for (uint64_t i = 0; i < body; i += LANES)
            VEC(stream)(a + i, VEC(add)(VEC(loadu)(b + i), VEC(mul)(s, VEC(loadu)(c + i))));
        _mm_sfence(); /* this thread's streamed lines are in memory before the timer stops */
    }
    for (uint64_t i = body; i < n; ++i)
        a[i] = b[i] + SCALAR * c[i];
#else
    triad(a, b, c, n);
#endif
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

enum { TRIAD, STREAMED, READ };

/* reps timed runs of one kernel after two untimed ones, as rates of bytes
 * per run. */
static cr_host_rate time_kernel(double *const v[3], uint64_t n, int reps, int kernel, double bytes, double *times,
                                uint64_t *sum)
{
    for (int r = -2; r < reps; ++r) {
        uint64_t t0 = cr_now_ns();
        if (kernel == TRIAD)
            triad(v[0], v[1], v[2], n);
        else if (kernel == STREAMED)
            triad_streamed(v[0], v[1], v[2], n);
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
    cr_host_rate t = time_kernel(v, n, reps, TRIAD, 3 * elements, times, &sum);
    uint64_t bad = wrong_elements(v[0], v[1], v[2], n);
    memset(v[0], 0, (size_t)n * sizeof(double)); /* what the streamed triad leaves is its own */
    cr_host_rate st = time_kernel(v, n, reps, STREAMED, (STREAMED_ISA ? 3 : 4) * elements, times, &sum);
    bad += wrong_elements(v[0], v[1], v[2], n);
    cr_host_rate r = time_kernel(v, n, reps, READ, 2 * elements, times, &sum);
    if (bad || sum != serial_sum(v[1], v[2], n)) {
        snprintf(err, errlen, "the host limit's %s wrong (%" PRIu64 " of %" PRIu64 " triad elements)",
                 bad ? "triad got elements" : "read's sum came out", bad, n);
        goto out;
    }
    *out = (cr_host_limit){.triad = t, .streamed = st, .read = r, .streamed_isa = STREAMED_ISA,
                           .array_bytes = n * sizeof(double), .reps = reps, .threads = omp_get_max_threads()};
    rc = 0;
out:
    for (int i = 0; i < 3; ++i)
        free(v[i]);
    free(times);
    return rc;
}
