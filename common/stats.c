#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cr_median_ci_rel(const double *sorted, size_t n)
{
    if (n < 6)
        return INFINITY;
    /* Ranks n/2 -/+ 1.96*sqrt(n)/2 bracket the median with ~95% probability
     * for any continuous distribution (normal approximation to the binomial). */
    double half = 1.96 * sqrt((double)n) / 2.0;
    double lo_rank = floor((double)n / 2.0 - half);
    double hi_rank = ceil((double)n / 2.0 + half);
    size_t lo = lo_rank < 0 ? 0 : (size_t)lo_rank;
    size_t hi = hi_rank > (double)(n - 1) ? n - 1 : (size_t)hi_rank;
    double median = (n % 2) ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    if (median <= 0)
        return INFINITY;
    return (sorted[hi] - sorted[lo]) / (2.0 * median);
}

void cr_summarize(const double *samples, size_t n, cr_summary *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n == 0) {
        out->min = out->median = out->mean = out->max = out->stddev = NAN;
        out->ci_rel = INFINITY;
        return;
    }
    double *sorted = malloc(n * sizeof *sorted);
    if (sorted == NULL) {
        out->min = out->median = out->mean = out->max = out->stddev = NAN;
        out->ci_rel = INFINITY;
        return;
    }
    memcpy(sorted, samples, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    out->min = sorted[0];
    out->max = sorted[n - 1];
    out->median = (n % 2) ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    /* Welford: stable for many nearly equal samples. */
    double mean = 0, m2 = 0;
    for (size_t i = 0; i < n; ++i) {
        double d = samples[i] - mean;
        mean += d / (double)(i + 1);
        m2 += d * (samples[i] - mean);
    }
    out->mean = mean;
    out->stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
    out->ci_rel = cr_median_ci_rel(sorted, n);
    free(sorted);
}

double cr_median_of_ratios(const double *a, const double *b, size_t n)
{
    double *r = malloc(n * sizeof *r);
    if (r == NULL || n == 0) {
        free(r);
        return NAN;
    }
    for (size_t i = 0; i < n; ++i)
        r[i] = a[i] / b[i];
    cr_summary s;
    cr_summarize(r, n, &s);
    free(r);
    return s.median;
}

/* Whether the target is beyond twice what the whole budget could give; the
 * factor leaves room for an interval that narrows faster than 1/sqrt(n)
 * once a drift in the machine has passed. A sweep point's budget is time
 * or repetitions, whichever runs out first, and from a quarter of either
 * on the interval is known well enough to project: a point that cannot
 * make it would spend the rest to end as unstable as it is. A headline
 * point is given half its time, whatever its repetitions, since a drift
 * that passes can still bring it in. Below CR_REACH_MIN_SAMPLES the
 * median's interval is too wide to project from (with 5 samples it spans
 * nearly all of them): a point with fewer goes on. */
static bool out_of_reach(const cr_stop_rule *rule, size_t n, double ci_rel, double elapsed_s)
{
    bool past = rule->headline ? elapsed_s >= CR_REACH_HEADLINE * rule->max_time_s
                               : elapsed_s >= CR_REACH_SWEEP * rule->max_time_s ||
                                     (double)n >= CR_REACH_SWEEP * (double)rule->max_reps;
    if (!past || n < CR_REACH_MIN_SAMPLES || !isfinite(ci_rel) || !(rule->target_ci > 0))
        return false;
    double affordable = (double)rule->max_reps;
    if (elapsed_s > 0 && (double)n * rule->max_time_s / elapsed_s < affordable)
        affordable = (double)n * rule->max_time_s / elapsed_s;
    double ratio = ci_rel / rule->target_ci;
    return (double)n * ratio * ratio > 2 * affordable;
}

cr_stop_reason cr_stop_check(const cr_stop_rule *rule, const double *samples, size_t n, double measured_s,
                             double elapsed_s)
{
    if (n >= rule->max_reps)
        return CR_STOP_MAX_REPS;
    if (n >= rule->min_reps && elapsed_s >= rule->max_time_s)
        return CR_STOP_BUDGET;
    if (n < rule->min_reps || measured_s < rule->min_time_s)
        return CR_CONTINUE;
    cr_summary s;
    cr_summarize(samples, n, &s);
    if (s.ci_rel <= rule->target_ci)
        return CR_STOP_STABLE;
    return out_of_reach(rule, n, s.ci_rel, elapsed_s) ? CR_STOP_OUT_OF_REACH : CR_CONTINUE;
}

const char *cr_stop_reason_name(cr_stop_reason r)
{
    switch (r) {
    case CR_CONTINUE: return "running";
    case CR_STOP_STABLE: return "stable";
    case CR_STOP_MAX_REPS: return "max-reps";
    case CR_STOP_BUDGET: return "time-budget";
    case CR_STOP_OUT_OF_REACH: return "out-of-reach";
    }
    return "?";
}
