#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "measure.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void test_summary_of_known_values(void **state)
{
    (void)state;
    const double x[] = {4, 1, 3, 2};
    cr_summary s;
    cr_summarize(x, 4, &s);
    assert_int_equal(s.n, 4);
    assert_true(s.min == 1 && s.max == 4);
    assert_true(s.median == 2.5);
    assert_true(s.mean == 2.5);
    assert_true(fabs(s.stddev - sqrt(5.0 / 3.0)) < 1e-12);
    assert_true(isinf(s.ci_rel)); /* too few samples for an interval */
    assert_true(x[0] == 4);      /* input untouched */

    const double odd[] = {9, 1, 5};
    cr_summarize(odd, 3, &s);
    assert_true(s.median == 5);

    const double one[] = {7};
    cr_summarize(one, 1, &s);
    assert_true(s.median == 7 && s.stddev == 0);
}

static void test_mean_is_stable_for_large_offsets(void **state)
{
    (void)state;
    /* Naive sum-of-squares variance loses everything here. */
    double x[1000];
    for (int i = 0; i < 1000; ++i)
        x[i] = 1e9 + (i % 2 ? 1.0 : -1.0);
    cr_summary s;
    cr_summarize(x, 1000, &s);
    assert_true(fabs(s.mean - 1e9) < 1e-6);
    assert_true(fabs(s.stddev - 1.0) < 1e-3);
}

static void test_median_confidence_interval(void **state)
{
    (void)state;
    double x[100];
    for (int i = 0; i < 100; ++i)
        x[i] = 1.0;
    assert_true(cr_median_ci_rel(x, 100) == 0.0);
    /* Sorted 1..100: ranks 50 -/+ 9.8 -> x[40] = 41 and x[60] = 61,
     * half-width 10 relative to the median 50.5. */
    for (int i = 0; i < 100; ++i)
        x[i] = i + 1;
    assert_true(fabs(cr_median_ci_rel(x, 100) - 10.0 / 50.5) < 1e-12);
    /* More samples of the same spread give a tighter interval. */
    double y[400];
    for (int i = 0; i < 400; ++i)
        y[i] = 1.0 + (i % 100) / 100.0;
    double z[400];
    for (int i = 0; i < 400; ++i)
        z[i] = y[i];
    /* sort z */
    for (int i = 1; i < 400; ++i)
        for (int j = i; j > 0 && z[j - 1] > z[j]; --j) {
            double t = z[j];
            z[j] = z[j - 1];
            z[j - 1] = t;
        }
    double w[100];
    for (int i = 0; i < 100; ++i)
        w[i] = 1.0 + i / 100.0;
    assert_true(cr_median_ci_rel(z, 400) < cr_median_ci_rel(w, 100));
}

static void test_median_of_paired_ratios(void **state)
{
    (void)state;
    /* Both series drift by the same factor per pair: the paired ratio sees
     * through it, the ratio of medians does not. */
    const double drift[] = {1.0, 1.6, 1.2, 2.0, 1.1};
    double a[5], b[5];
    for (int i = 0; i < 5; ++i) {
        a[i] = 3.0 * drift[i];
        b[i] = 2.0 * drift[i];
    }
    b[4] = 100.0; /* one outlier pair does not move the median */
    assert_true(fabs(cr_median_of_ratios(a, b, 5) - 1.5) < 1e-12);
    assert_true(isnan(cr_median_of_ratios(a, b, 0)));
}

static const cr_stop_rule rule = {.min_reps = 10, .max_reps = 50, .min_time_s = 0.0, .max_time_s = 10, .target_ci = 0.01};

static void test_stop_rule(void **state)
{
    (void)state;
    double same[60];
    for (int i = 0; i < 60; ++i)
        same[i] = 1e-3;
    assert_int_equal(cr_stop_check(&rule, same, 9, 0.009, 0.1), CR_CONTINUE); /* below min reps */
    assert_int_equal(cr_stop_check(&rule, same, 10, 0.01, 0.1), CR_STOP_STABLE);
    cr_stop_rule timed = rule;
    timed.min_time_s = 1.0;
    assert_int_equal(cr_stop_check(&timed, same, 10, 0.01, 0.1), CR_CONTINUE); /* not enough measured time */

    double noisy[60];
    for (int i = 0; i < 60; ++i)
        noisy[i] = 1e-3 * (1 + (i % 7) * 0.1);
    assert_int_equal(cr_stop_check(&rule, noisy, 12, 0.012, 0.1), CR_CONTINUE);
    assert_int_equal(cr_stop_check(&rule, noisy, 20, 0.02, 11.0), CR_STOP_BUDGET);
    assert_int_equal(cr_stop_check(&rule, noisy, 50, 0.05, 0.1), CR_STOP_MAX_REPS);
    /* The budget never cuts a point short of its minimum repetitions. */
    assert_int_equal(cr_stop_check(&rule, noisy, 5, 0.005, 11.0), CR_CONTINUE);
    assert_string_equal(cr_stop_reason_name(CR_STOP_BUDGET), "time-budget");
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Fills noisy[60] with seven levels 10% apart, repeating; returns the
 * median's interval of its first n (<= 60) samples. */
static double noisy_samples(double *noisy, size_t n)
{
    for (int i = 0; i < 60; ++i)
        noisy[i] = 1e-3 * (1 + (i % 7) * 0.1);
    double sorted[60];
    memcpy(sorted, noisy, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_value);
    return cr_median_ci_rel(sorted, n);
}

/* Past a quarter of its budget, a point whose interval would need more
 * than twice the samples the budget allows stops, out of reach; one that
 * could still make it, or before a quarter of the budget, goes on. */
static void test_out_of_reach(void **state)
{
    (void)state;
    double noisy[60];
    double ci = noisy_samples(noisy, 20);
    cr_stop_rule timed = rule; /* time, not repetitions, is what runs out here */
    timed.max_reps = 200;
    /* 20 samples at +-ci: the target needs 20 (ci/target)^2 of them. */
    double needed = 20 * (ci / rule.target_ci) * (ci / rule.target_ci);
    assert_true(needed > 2 * 80); /* more than the 80 repetitions 10 s allow at 20 per 2.5 s */
    assert_int_equal(cr_stop_check(&timed, noisy, 20, 0.02, 2.4), CR_CONTINUE); /* before a quarter of the budget */
    assert_int_equal(cr_stop_check(&timed, noisy, 20, 0.02, 2.5), CR_STOP_OUT_OF_REACH);
    assert_string_equal(cr_stop_reason_name(CR_STOP_OUT_OF_REACH), "out-of-reach");
    /* A headline point is given half its budget before it may stop so. */
    cr_stop_rule headline = timed;
    headline.headline = true;
    assert_int_equal(cr_stop_check(&headline, noisy, 20, 0.02, 4.9), CR_CONTINUE);
    assert_int_equal(cr_stop_check(&headline, noisy, 20, 0.02, 5.0), CR_STOP_OUT_OF_REACH);

    /* A target the budget can reach: 20 samples now, 40 by the end, 2x
     * that allowed; needing 1.5x the affordable goes on. */
    cr_stop_rule near = timed;
    near.target_ci = ci / sqrt(1.5 * 40 / 20.0);
    assert_int_equal(cr_stop_check(&near, noisy, 20, 0.02, 5.0), CR_CONTINUE);
    near.target_ci = ci / sqrt(2.5 * 40 / 20.0);
    assert_int_equal(cr_stop_check(&near, noisy, 20, 0.02, 5.0), CR_STOP_OUT_OF_REACH);
}

/* The repetitions are a budget too: a point that has spent a quarter of
 * them, early in its time, whose interval would need more than twice the
 * cap, stops out of reach; one sample short of a quarter, or one that the
 * rest of the repetitions could still bring to the target, goes on. */
static void test_out_of_reach_by_repetitions(void **state)
{
    (void)state;
    double noisy[60];
    double ci = noisy_samples(noisy, 13);
    cr_stop_rule by_reps = rule; /* 50 repetitions, 10 s */
    by_reps.min_reps = 5;
    by_reps.target_ci = ci / sqrt(2.5 * 50 / 13.0);
    assert_int_equal(cr_stop_check(&by_reps, noisy, 13, 0.013, 0.1), CR_STOP_OUT_OF_REACH);
    assert_int_equal(cr_stop_check(&by_reps, noisy, 12, 0.012, 0.1), CR_CONTINUE);
    /* Too few samples to project from, whatever share of the cap they are:
     * 5 of 10 repetitions goes on. */
    cr_stop_rule short_run = by_reps;
    short_run.max_reps = 10;
    assert_int_equal(cr_stop_check(&short_run, noisy, 5, 0.005, 0.1), CR_CONTINUE);
    assert_int_equal(cr_stop_check(&short_run, noisy, 9, 0.009, 0.1), CR_CONTINUE);
    by_reps.headline = true; /* half its time; its repetitions do not count */
    assert_int_equal(cr_stop_check(&by_reps, noisy, 13, 0.013, 0.1), CR_CONTINUE);
    assert_int_equal(cr_stop_check(&by_reps, noisy, 40, 0.04, 0.1), CR_CONTINUE);
    by_reps.target_ci = ci / sqrt(1.5 * 50 / 13.0);
    assert_int_equal(cr_stop_check(&by_reps, noisy, 13, 0.013, 0.1), CR_CONTINUE);
}

/* ---- the measurement loop, with scripted repetitions ---- */

typedef struct {
    int calls;
    uint64_t ns;          /* duration reported */
    bool events;
    bool bad_event_at;    /* report end-before-start from call bad_from on */
    int bad_from;
} script;

static cr_status scripted(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    script *s = arg;
    s->calls++;
    t->host_ns = s->ns + 500; /* the host interval contains the device one */
    t->has_event = s->events;
    t->ev_start_ns = 1000;
    t->ev_end_ns = 1000 + s->ns;
    if (s->bad_event_at && s->calls >= s->bad_from) {
        t->ev_start_ns = 5000;
        t->ev_end_ns = 4000;
    }
    return CR_OK;
}

static void test_measure_uses_events_and_discards_warmup(void **state)
{
    (void)state;
    cr_measure_ctx m;
    cr_measure_init(&m, &rule, 3, 1e-9);
    script s = {.ns = 2000000, .events = true};
    cr_measurement out;
    char err[CR_ERRLEN];
    assert_int_equal(cr_measure(&m, scripted, &s, &out, err, sizeof err), CR_OK);
    assert_int_equal(out.stats.n, 10);
    assert_int_equal(s.calls, 13); /* 3 warm-up repetitions not counted */
    assert_string_equal(out.timer, "event");
    assert_true(fabs(out.stats.median - 2e-3) < 1e-15);
    assert_int_equal(out.stop, CR_STOP_STABLE);
    assert_false(out.below_resolution);
}

static void test_measure_falls_back_on_insane_events(void **state)
{
    (void)state;
    cr_measure_ctx m;
    cr_measure_init(&m, &rule, 0, 1e-9);
    script s = {.ns = 1000000, .events = true, .bad_event_at = true, .bad_from = 4};
    cr_measurement out;
    char err[CR_ERRLEN];
    assert_int_equal(cr_measure(&m, scripted, &s, &out, err, sizeof err), CR_OK);
    assert_string_equal(out.timer, "host-fallback");
    /* Restarted on the host clock: only host samples, all of them 1.0005 ms. */
    assert_int_equal(out.stats.n, 10);
    assert_true(fabs(out.stats.median - 1.0005e-3) < 1e-15);
    assert_true(m.timer.fell_back);
    assert_int_equal(m.timer.why, CR_EVENT_END_BEFORE_START);
}

static void test_interleaved_series_share_the_stop(void **state)
{
    (void)state;
    cr_measure_ctx a, b;
    cr_measure_init(&a, &rule, 1, 1e-9);
    cr_measure_init(&b, &rule, 2, 1e-9);
    script sa = {.ns = 3000000, .events = false}, sb = {.ns = 1000000, .events = true};
    cr_series series[2] = {{.ctx = &a, .fn = scripted, .arg = &sa}, {.ctx = &b, .fn = scripted, .arg = &sb}};
    char err[CR_ERRLEN];
    assert_int_equal(cr_measure_interleaved(series, 2, err, sizeof err), CR_OK);
    assert_int_equal(series[0].out.stats.n, series[1].out.stats.n);
    /* Warm-up rounds cover every series: the larger count applies to both. */
    assert_int_equal(sa.calls, 2 + (int)series[0].out.stats.n);
    assert_int_equal(sb.calls, 2 + (int)series[1].out.stats.n);
    assert_string_equal(series[0].out.timer, "host");
    assert_string_equal(series[1].out.timer, "event");
    assert_true(fabs(series[0].out.stats.median - 3.0005e-3) < 1e-15);
}

/* Two points on one device timer: when the second one's events go bad,
 * the first must not keep its event samples beside host ones. */
static void test_fallback_restarts_every_series_on_that_timer(void **state)
{
    (void)state;
    cr_measure_ctx dev;
    cr_measure_init(&dev, &rule, 0, 1e-9);
    script good = {.ns = 1000000, .events = true};
    script bad = {.ns = 1000000, .events = true, .bad_event_at = true, .bad_from = 4};
    cr_series series[2] = {{.ctx = &dev, .fn = scripted, .arg = &good}, {.ctx = &dev, .fn = scripted, .arg = &bad}};
    char err[CR_ERRLEN];
    assert_int_equal(cr_measure_interleaved(series, 2, err, sizeof err), CR_OK);
    for (int i = 0; i < 2; ++i) {
        assert_string_equal(series[i].out.timer, "host-fallback");
        assert_true(fabs(series[i].out.stats.min - 1.0005e-3) < 1e-15); /* host samples only */
        assert_true(fabs(series[i].out.stats.max - 1.0005e-3) < 1e-15);
    }
    /* The first one lost the round it had taken before the switch. */
    assert_int_equal(series[0].out.stats.n + 1, series[1].out.stats.n);
}

/* A repetition of real wall time whose length never settles. */
static cr_status restless(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    int *calls = arg;
    struct timespec pause = {0, 2000000};
    nanosleep(&pause, NULL);
    *t = (cr_timing){.host_ns = 2000000 + (uint64_t)(++*calls % 5) * 400000};
    return CR_OK;
}

static void test_sweep_budget_is_per_point(void **state)
{
    (void)state;
    /* Half a second: out of reach needs 10 samples by a quarter of it, which
     * a group of three 2-ms points under the sanitizers on a loaded virtual
     * machine reached in 0.2 s once only at the budget itself. */
    cr_stop_rule tight = {.min_reps = 2, .max_reps = 100000, .min_time_s = 0, .max_time_s = 0.5, .target_ci = 1e-9};
    cr_measure_ctx m;
    cr_measure_init(&m, &tight, 0, 0);
    int calls[2][3] = {{0}};
    cr_series plain[3], sweep[3];
    for (int i = 0; i < 3; ++i) {
        plain[i] = (cr_series){.ctx = &m, .fn = restless, .arg = &calls[0][i]};
        sweep[i] = (cr_series){.ctx = &m, .fn = restless, .arg = &calls[1][i]};
    }
    char err[CR_ERRLEN];
    assert_int_equal(cr_measure_interleaved(plain, 3, err, sizeof err), CR_OK);
    assert_int_equal(cr_measure_sweep_interleaved(sweep, 3, 3, err, sizeof err), CR_OK);
    /* No interval reaches 1e-9: both stop, out of reach, at a quarter of their budget. */
    assert_int_equal(plain[0].out.stop, CR_STOP_OUT_OF_REACH);
    assert_int_equal(sweep[0].out.stop, CR_STOP_OUT_OF_REACH);
    /* 0.5 s for the group against 0.5 s for each of 3 points: about 17
     * rounds of 7 ms (21 at the most: three 2-ms sleeps a round) against
     * about 50 by a quarter of the budget. */
    assert_true(plain[0].out.stats.n < 25);
    assert_true(sweep[0].out.stats.n >= 2 * plain[0].out.stats.n);
}

typedef struct {
    int id;
    int *log, *len;
} logged;

static cr_status log_call(void *arg, cr_timing *t, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    logged *l = arg;
    l->log[(*l->len)++] = l->id;
    *t = (cr_timing){.host_ns = 1000000};
    return CR_OK;
}

static void test_sweep_points_rotate_behind_the_references(void **state)
{
    (void)state;
    cr_stop_rule six = {.min_reps = 6, .max_reps = 6, .min_time_s = 0, .max_time_s = 100, .target_ci = 0};
    cr_measure_ctx m;
    cr_measure_init(&m, &six, 0, 0);
    int log[64], len = 0;
    logged ids[4];
    cr_series series[4];
    for (int i = 0; i < 4; ++i) {
        ids[i] = (logged){i, log, &len};
        series[i] = (cr_series){.ctx = &m, .fn = log_call, .arg = &ids[i]};
    }
    char err[CR_ERRLEN];
    assert_int_equal(cr_measure_sweep_interleaved(series, 4, 3, err, sizeof err), CR_OK);
    assert_int_equal(len, 24);
    int first_after_ref[4] = {0};
    for (int r = 0; r < 6; ++r) {
        const int *round = log + 4 * r;
        assert_int_equal(round[0], 0); /* the reference leads every round */
        assert_true(round[1] != round[2] && round[2] != round[3] && round[1] != round[3]);
        first_after_ref[round[1]]++;
    }
    for (int p = 1; p < 4; ++p)
        assert_int_equal(first_after_ref[p], 2);
    for (int i = 0; i < 4; ++i)
        assert_int_equal(series[i].out.stats.n, 6);
    /* Points must be among the series. */
    assert_int_equal(cr_measure_sweep_interleaved(series, 4, 5, err, sizeof err), CR_ERR);
}

static void test_below_resolution_flag(void **state)
{
    (void)state;
    cr_measure_ctx m;
    cr_measure_init(&m, &rule, 0, 1e-6); /* 1 us device timer */
    script s = {.ns = 10000, .events = true}; /* 10 us: only 10 ticks */
    cr_measurement out;
    char err[CR_ERRLEN];
    assert_int_equal(cr_measure(&m, scripted, &s, &out, err, sizeof err), CR_OK);
    assert_true(out.below_resolution);
}

TEST_MAIN(NULL, NULL, test_summary_of_known_values, test_mean_is_stable_for_large_offsets,
          test_median_confidence_interval, test_median_of_paired_ratios, test_stop_rule, test_out_of_reach,
          test_out_of_reach_by_repetitions,
          test_measure_uses_events_and_discards_warmup, test_measure_falls_back_on_insane_events,
          test_interleaved_series_share_the_stop, test_fallback_restarts_every_series_on_that_timer,
          test_sweep_budget_is_per_point, test_sweep_points_rotate_behind_the_references, test_below_resolution_flag)
