/* Summary statistics of repeated measurements and the rule that decides when
 * enough repetitions have been taken. */
#ifndef CR_STATS_H
#define CR_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t n;
    double min, median, mean, max, stddev; /* stddev: sample (n-1) standard deviation */
    double ci_rel; /* half-width of a distribution-free 95% CI of the median, relative to it */
} cr_summary;

/* Summarises n samples (n >= 1); the input is not modified. */
void cr_summarize(const double *samples, size_t n, cr_summary *out);

/* Relative half-width of the 95% confidence interval of the median, from
 * order statistics of the sorted samples (no normality assumed). Returns
 * +inf when n is too small for such an interval (n < 6). */
double cr_median_ci_rel(const double *sorted, size_t n);

/* Median of a[i] / b[i] over n pairs (n >= 1): the ratio of two series
 * measured interleaved, robust to drift that moves both. */
double cr_median_of_ratios(const double *a, const double *b, size_t n);

typedef struct {
    uint64_t min_reps;
    uint64_t max_reps;
    double min_time_s;  /* keep going until this much has been measured... */
    double max_time_s;  /* ...but never past this budget */
    double target_ci;   /* relative CI half-width that counts as stable */
    /* A headline point (a figure the report's tables show) is judged out
     * of reach only from half its time budget; a sweep point from a
     * quarter of its time or of its repetitions, whichever comes first. */
    bool headline;
} cr_stop_rule;

#define CR_REACH_SWEEP 0.25
#define CR_REACH_HEADLINE 0.5
#define CR_REACH_MIN_SAMPLES 10

typedef enum {
    CR_CONTINUE = 0,
    CR_STOP_STABLE,     /* the median is stable */
    CR_STOP_MAX_REPS,   /* repetition cap reached before stability */
    CR_STOP_BUDGET,     /* time budget spent before stability */
    CR_STOP_OUT_OF_REACH, /* past a share of the budget, stability out of reach within it */
} cr_stop_reason;

/* Decides after n samples (measured_s = their sum, elapsed_s = wall time
 * spent on the point so far) whether to take another one. A point past its
 * share of the budget (rule->headline) with CR_REACH_MIN_SAMPLES samples
 * whose median's interval would need more than twice the
 * samples the whole budget allows (the interval narrowing as 1/sqrt(n))
 * stops there, out of reach: spending the rest would leave it as unstable. */
cr_stop_reason cr_stop_check(const cr_stop_rule *rule, const double *samples, size_t n, double measured_s,
                             double elapsed_s);

const char *cr_stop_reason_name(cr_stop_reason r);

#endif
