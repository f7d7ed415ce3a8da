/* How each gesummv point is verified: it runs once more on a y filled
 * with NaN, every row within its rounding bound of the long double truth
 * of the random matrices; then, as that bound cannot see one product left
 * out of a long float row, on the coverage pattern (truth.h), every row
 * exactly its value. A, B and x then get the random contents back. */
#include "gesummv/run.h"

#include "gesummv/truth.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Point k once more, its y filled with NaN before and read back after. */
static cr_status rerun(gesummv_run *run, cr_dtype t, uint64_t n, uint64_t k, uint64_t group, char *err,
                       size_t errlen)
{
    cr_timing ignored;
    memset(run->host[GESUMMV_Y], 0xff, n * cr_dtype_size(t)); /* all-ones: a NaN in either type */
    if (run->be->upload(GESUMMV_Y, run->host[GESUMMV_Y], err, errlen) != CR_OK ||
        run->be->run(k, group, GESUMMV_ALPHA, GESUMMV_BETA, &ignored, err, errlen) != CR_OK)
        return CR_ERR;
    return run->be->download(GESUMMV_Y, run->host[GESUMMV_Y], err, errlen);
}

static bool check_rounding(gesummv_run *run, cr_dtype t, uint64_t n, uint64_t k, uint64_t group, cr_result *r)
{
    char err[CR_ERRLEN];
    if (rerun(run, t, n, k, group, err, sizeof err) != CR_OK) {
        snprintf(r->note, sizeof r->note, "check run failed: %s", err);
        return false;
    }
    gesummv_check c = gesummv_compare(t, run->host[GESUMMV_Y], run->gold, run->scale, n);
    cr_result_add_param(r, "err_over_bound=%.3g", c.worst);
    if (c.bad == 0)
        return true;
    long double got = gesummv_value(t, run->host[GESUMMV_Y], c.first);
    snprintf(r->note, sizeof r->note, "%" PRIu64 " of %" PRIu64 " rows beyond the rounding bound; row %" PRIu64
                                      " is %.9Lg, the host's %.9Lg (bound %.3Lg)",
             c.bad, n, c.first, got, run->gold[c.first], gesummv_bound(t, n, run->scale[c.first]));
    return false;
}

/* One pass of the coverage check: x's pattern (built in y's host array,
 * free until the run reads y back), the run, every row compared. */
static bool cover_pass(gesummv_run *run, cr_dtype t, uint64_t n, uint64_t k, uint64_t group, uint64_t pass,
                       cr_result *r)
{
    char err[CR_ERRLEN];
    uint64_t first, ones = gesummv_cover_x(t, run->host[GESUMMV_Y], n, pass, &first);
    if (run->be->upload(GESUMMV_X, run->host[GESUMMV_Y], err, sizeof err) != CR_OK ||
        rerun(run, t, n, k, group, err, sizeof err) != CR_OK) {
        snprintf(r->note, sizeof r->note, "coverage check run failed: %s", err);
        return false;
    }
    gesummv_exact c = gesummv_compare_exact(t, run->host[GESUMMV_Y], n, ones);
    if (c.bad == 0)
        return true;
    snprintf(r->note, sizeof r->note,
             "%" PRIu64 " of %" PRIu64 " rows miss or repeat products: with A and B all ones and x ones over [%" PRIu64
             ", %" PRIu64 "), row %" PRIu64 " is %.9Lg instead of exactly %.9Lg",
             c.bad, n, first, first + ones, c.first, gesummv_value(t, run->host[GESUMMV_Y], c.first), c.want);
    return false;
}

static bool check_coverage(gesummv_run *run, cr_dtype t, uint64_t n, uint64_t k, uint64_t group, cr_result *r)
{
    char err[CR_ERRLEN];
    bool ok = run->be->upload(GESUMMV_A, run->ones, err, sizeof err) == CR_OK &&
              run->be->upload(GESUMMV_B, run->ones, err, sizeof err) == CR_OK;
    if (!ok)
        snprintf(r->note, sizeof r->note, "coverage check run failed: %s", err);
    for (uint64_t pass = 0; ok && pass < gesummv_cover_passes(t, n); ++pass)
        ok = cover_pass(run, t, n, k, group, pass, r);
    for (int i = GESUMMV_A; i <= GESUMMV_X; ++i)
        if (run->be->upload((gesummv_array)i, run->host[i], err, sizeof err) != CR_OK) {
            if (ok)
                snprintf(r->note, sizeof r->note, "restoring the matrices after the coverage check failed: %s", err);
            return false;
        }
    return ok;
}

bool gesummv_verify(gesummv_run *run, cr_dtype t, uint64_t n, uint64_t k, uint64_t group, cr_result *r)
{
    return check_rounding(run, t, n, k, group, r) && check_coverage(run, t, n, k, group, r);
}
