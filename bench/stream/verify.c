/* How each stream result is verified: an output array against the
 * mirrors, inside its window and (all-ones) outside it; a dot within its
 * tolerance, then exactly on the coverage check's pattern. */
#include "stream/run.h"

#include "stream/truth.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The dot's coverage check (truth.h): the dot runs again at geometry g on
 * the check pattern and must give its count exactly. It exists because the
 * tolerance cannot see one missing product of the random arrays: in float
 * a correct dot of 16 Mi of them is off by tens of products. a and b get
 * the mirrors back afterwards. */
static bool check_dot_coverage(stream_run *run, stream_endpoint *ep, cr_dtype t, uint64_t n,
                               const stream_geometry *g, char *note, size_t notelen)
{
    char err[CR_ERRLEN];
    size_t es = cr_dtype_size(t);
    char *window = (char *)run->scratch + g->first * es;
    uint64_t runs = stream_dot_check_runs(t, g->count);
    stream_dot_check_ones(t, run->scratch, n);
    bool ok = ep->be->upload(STREAM_A, run->scratch, err, sizeof err) == CR_OK;
    if (!ok)
        snprintf(note, notelen, "dot check run failed: %s", err);
    memset(run->scratch, 0, n * es); /* b outside the window: zeros (all-zero bits in either type) */
    for (uint64_t r = 0; r < runs && ok; ++r) {
        uint64_t first, want = stream_dot_check_fill(t, window, g->count, r, &first);
        cr_timing ignored;
        double got = 0;
        if (ep->be->upload(STREAM_B, run->scratch, err, sizeof err) != CR_OK ||
            ep->be->run(STREAM_DOT, g, STREAM_SCALAR, &ignored, &got, err, sizeof err) != CR_OK) {
            snprintf(note, notelen, "dot check run failed: %s", err);
            ok = false;
        } else if (!stream_dot_check_ok(got, want)) {
            snprintf(note, notelen,
                     "dot misses or repeats products: %.17g instead of exactly %" PRIu64
                     " on check pattern %" PRIu64 " of %" PRIu64,
                     got, want, r + 1, runs);
            ok = false;
        }
    }
    if (ep->be->upload(STREAM_A, run->mirror[STREAM_A], err, sizeof err) != CR_OK ||
        ep->be->upload(STREAM_B, run->mirror[STREAM_B], err, sizeof err) != CR_OK) {
        if (ok)
            snprintf(note, notelen, "restoring the arrays after the dot check failed: %s", err);
        ok = false;
    }
    return ok;
}

/* Elements of x[0..n) that are not all-one bits: written where nothing
 * should have been. */
static uint64_t count_written(const void *x, size_t es, uint64_t n, uint64_t *first)
{
    const unsigned char *bytes = x;
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; ++i)
        for (size_t j = 0; j < es; ++j)
            if (bytes[i * es + j] != 0xff) {
                if (count++ == 0)
                    *first = i;
                break;
            }
    return count;
}

/* A window's gold dot is computed here. An output run over a window (after
 * the point's rerun for the check) must hold the kernel's values inside it
 * and the all-ones fill outside. */
bool stream_verify(stream_run *run, stream_endpoint *ep, stream_kernel k, cr_dtype t, uint64_t n, double dot,
                   long double gold_dot, const stream_geometry *g, char *note, size_t notelen)
{
    size_t es = cr_dtype_size(t);
    bool windowed = g->count < n;
    if (k == STREAM_DOT) {
        if (windowed) {
            char *at[3];
            for (int i = 0; i < 3; ++i)
                at[i] = (char *)run->mirror[i] + g->first * es;
            gold_dot = stream_apply_gold(STREAM_DOT, t, at[0], at[1], at[2], g->count, STREAM_SCALAR);
        }
        double tol = stream_dot_tolerance(t, g->count, g->work_items);
        double rel = fabs((double)((long double)dot - gold_dot)) / (double)gold_dot;
        if (!(rel <= tol)) {
            snprintf(note, notelen, "dot off by %.3g relative (tolerance %.3g)", rel, tol);
            return false;
        }
        return check_dot_coverage(run, ep, t, n, g, note, notelen);
    }
    char err[CR_ERRLEN];
    stream_array out = stream_kernels[k].output;
    if (ep->be->download(out, run->scratch, err, sizeof err) != CR_OK) {
        snprintf(note, notelen, "download failed: %s", err);
        return false;
    }
    uint64_t first = 0, at = g->first * es;
    uint64_t bad = stream_compare(k, t, (char *)run->scratch + at, (char *)run->mirror[out] + at, g->count, &first);
    if (bad) {
        snprintf(note, notelen, "%" PRIu64 " of %" PRIu64 " elements wrong, first at %" PRIu64, bad, g->count,
                 g->first + first);
        return false;
    }
    uint64_t end = g->first + g->count;
    if (windowed && ((bad = count_written(run->scratch, es, g->first, &first)) != 0 ||
                     (bad = count_written((char *)run->scratch + end * es, es, n - end, &first)) != 0)) {
        snprintf(note, notelen, "%" PRIu64 " elements written outside the window [%" PRIu64 ", %" PRIu64 ")", bad,
                 g->first, end);
        return false;
    }
    return true;
}
