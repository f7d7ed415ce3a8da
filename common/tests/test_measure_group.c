/* The measure -> verify -> record sequence of a group (measure_group.h):
 * the order each of the three orders runs its series in, every point's
 * failure row where a repetition fails, the references' step before the
 * points, the paired and unpaired ratios, and the verdict on a row. The
 * series are fakes whose repetitions log their turn and report a time
 * chosen per series. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_main.h"

#include "measure_group.h"

#include <math.h>
#include <string.h>

#define REPS 4

static char order_log[256]; /* the series' names, one letter a repetition */

typedef struct {
    char name;
    uint64_t ns;    /* what each repetition takes */
    int fail_at;    /* the repetition that fails (1-based), 0 never */
    int calls;
    uint64_t ns_even; /* what each second repetition takes instead, 0: ns */
} fake_series;

static cr_status fake_rep(void *arg, cr_timing *t, char *err, size_t errlen)
{
    fake_series *f = arg;
    size_t used = strlen(order_log);
    if (used + 1 < sizeof order_log)
        order_log[used] = f->name, order_log[used + 1] = '\0';
    if (++f->calls == f->fail_at) {
        snprintf(err, errlen, "%c failed", f->name);
        return CR_ERR;
    }
    *t = (cr_timing){.host_ns = f->ns_even && f->calls % 2 == 0 ? f->ns_even : f->ns};
    return CR_OK;
}

static cr_measure_ctx ctx;

static int setup(void **state)
{
    (void)state;
    cr_stop_rule rule = {.min_reps = REPS, .max_reps = REPS, .min_time_s = 0, .max_time_s = 10, .target_ci = 0.5};
    cr_measure_init(&ctx, &rule, 0, 0);
    order_log[0] = '\0';
    return 0;
}

/* What the steps saw. */
typedef struct {
    char seen[64]; /* "m" for the references' step, "pN" for point N, "fN" for point N's failure */
    char err[CR_ERRLEN];
    int fail_record_at; /* the step call (1-based) that cannot write its row, 0 never */
    int calls;
} step_log;

static int note_step(step_log *l, char kind, size_t p)
{
    size_t used = strlen(l->seen);
    snprintf(l->seen + used, sizeof l->seen - used, "%c%zu", kind, p);
    return ++l->calls == l->fail_record_at ? -1 : 0;
}

static int failed(void *vl, size_t p, const char *err)
{
    step_log *l = vl;
    snprintf(l->err, sizeof l->err, "%s", err);
    return note_step(l, 'f', p);
}

static int measured(void *vl, const cr_group *g)
{
    (void)g;
    return note_step(vl, 'm', 0);
}

static int point(void *vl, const cr_group *g, size_t p)
{
    (void)g;
    return note_step(vl, 'p', p);
}

/* A group of two references (a, b) and two points (x, y). */
static void build(cr_group *g, fake_series f[4])
{
    assert_int_equal(cr_group_init(g, 4, REPS), 0);
    for (int i = 0; i < 4; ++i) {
        if (i == 2)
            cr_group_points(g);
        assert_int_equal(cr_group_add(g, &ctx, fake_rep, &f[i]), (size_t)i);
    }
}

static void expect_order(cr_group_order order, const char *want)
{
    fake_series f[4] = {{'a', 1000, 0, 0, 0}, {'b', 1000, 0, 0, 0}, {'x', 1000, 0, 0, 0}, {'y', 1000, 0, 0, 0}};
    cr_group g;
    build(&g, f);
    step_log l = {0};
    const cr_group_steps steps = {.points = 2, .ctx = &l, .failed = failed, .measured = measured, .point = point};
    order_log[0] = '\0';
    assert_int_equal(cr_group_run(&g, order, &steps), 0);
    assert_string_equal(order_log, want);
    assert_string_equal(l.seen, "m0p0p1");
    for (int i = 0; i < 4; ++i)
        assert_int_equal(g.series[i].out.stats.n, REPS);
    cr_group_free(&g);
}

static void test_each_order_runs_the_series_as_it_says(void **state)
{
    (void)state;
    /* Every series each round, in the order added. */
    expect_order(CR_GROUP_ROUNDS, "abxyabxyabxyabxy");
    /* The references first each round, the points after them rotating. */
    expect_order(CR_GROUP_SWEEP, "abxyabyxabxyabyx");
    /* The points on their own, rotating; then the references together. */
    expect_order(CR_GROUP_APART, "xyyxxyyxabababab");
}

static void test_a_failed_repetition_gives_every_point_its_failure_row(void **state)
{
    (void)state;
    fake_series f[4] = {{'a', 1000, 0, 0, 0}, {'b', 1000, 0, 0, 0}, {'x', 1000, 0, 0, 0}, {'y', 1000, 2, 0, 0}};
    cr_group g;
    build(&g, f);
    step_log l = {0};
    const cr_group_steps steps = {.points = 2, .ctx = &l, .failed = failed, .measured = measured, .point = point};
    assert_int_equal(cr_group_run(&g, CR_GROUP_SWEEP, &steps), 0);
    assert_string_equal(l.seen, "f0f1"); /* no references' step, no point verified */
    assert_string_equal(l.err, "y failed");
    cr_group_free(&g);
}

static void test_a_row_that_cannot_be_written_stops_the_steps(void **state)
{
    (void)state;
    fake_series f[4] = {{'a', 1000, 0, 0, 0}, {'b', 1000, 0, 0, 0}, {'x', 1000, 0, 0, 0}, {'y', 1000, 0, 0, 0}};
    cr_group g;
    build(&g, f);
    step_log l = {.fail_record_at = 2};
    const cr_group_steps steps = {.points = 2, .ctx = &l, .failed = failed, .measured = measured, .point = point};
    assert_int_equal(cr_group_run(&g, CR_GROUP_SWEEP, &steps), -1);
    assert_string_equal(l.seen, "m0p0");
    l = (step_log){.fail_record_at = 1};
    assert_int_equal(cr_group_fail(&steps, "before the measurement"), -1);
    assert_string_equal(l.seen, "f0");
    assert_string_equal(l.err, "before the measurement");
    cr_group_free(&g);
}

/* A group goes on until its slowest series is stable; a series that met the
 * rule on the way is stable itself, not "max-reps" for the other's sake. */
static void test_each_series_stops_by_its_own_samples(void **state)
{
    (void)state;
    cr_stop_rule rule = {.min_reps = 3, .max_reps = 12, .min_time_s = 0, .max_time_s = 10, .target_ci = 0.01};
    cr_measure_ctx m;
    cr_measure_init(&m, &rule, 0, 0);
    fake_series steady = {.name = 's', .ns = 2000000}, noisy = {.name = 'n', .ns = 1000000, .ns_even = 9000000};
    cr_series s[2] = {{.ctx = &m, .fn = fake_rep, .arg = &steady}, {.ctx = &m, .fn = fake_rep, .arg = &noisy}};
    char err[CR_ERRLEN];
    assert_int_equal(cr_measure_interleaved(s, 2, err, sizeof err), CR_OK);
    assert_true(s[1].out.stop == CR_STOP_MAX_REPS || s[1].out.stop == CR_STOP_OUT_OF_REACH);
    assert_int_equal(s[0].out.stats.n, s[1].out.stats.n); /* measured as long as the other */
    assert_int_equal(s[0].out.stop, CR_STOP_STABLE);
}

static void test_ratios_pair_the_repetitions_or_compare_medians(void **state)
{
    (void)state;
    double ref_samples[4] = {1, 2, 4, 8}, x_samples[4] = {1, 1, 1, 1};
    cr_series ref = {.samples = ref_samples}, x = {.samples = x_samples};
    ref.out.stats = (cr_summary){.n = 4, .median = 3};
    x.out.stats = (cr_summary){.n = 4, .median = 1};
    /* Paired: the median of 1, 2, 4, 8 is 3; x did twice the work. */
    assert_true(fabs(cr_group_ratio(&ref, &x, 1, 2, true) - 2 * 3.0) < 1e-12);
    /* The pairs, not the medians: one slow repetition of x moves it
     * (ratios 1, 2, 4, 0.08: median 1.5). */
    x_samples[3] = 100;
    assert_true(fabs(cr_group_ratio(&ref, &x, 1, 2, true) - 2 * 1.5) < 1e-12);
    /* Unpaired, or paired with a different count: the ratio of medians. */
    x.out.stats.median = 1.5;
    assert_true(fabs(cr_group_ratio(&ref, &x, 1, 2, false) - 2 * 3 / 1.5) < 1e-12);
    x.out.stats.n = 3;
    assert_true(fabs(cr_group_ratio(&ref, &x, 1, 2, true) - 2 * 3 / 1.5) < 1e-12);
}

static void test_verdict_keeps_the_check_and_names_a_median_below_resolution(void **state)
{
    (void)state;
    cr_measurement m = {.below_resolution = false};
    cr_result r;
    memset(&r, 0, sizeof r);
    cr_result_verdict(&r, false, "3 of 16 elements wrong", &m);
    assert_false(r.valid);
    assert_string_equal(r.note, "3 of 16 elements wrong");
    m.below_resolution = true;
    cr_result_verdict(&r, false, "3 of 16 elements wrong", &m); /* an invalid row keeps why */
    assert_string_equal(r.note, "3 of 16 elements wrong");
    snprintf(r.note, sizeof r.note, "kept in place");
    cr_result_verdict(&r, true, r.note, &m); /* the note may be the row's own */
    assert_true(r.valid);
    assert_string_equal(r.note, "median below 20 timer ticks");
    m.below_resolution = false;
    cr_result_verdict(&r, true, "", &m);
    assert_string_equal(r.note, "");
}

TEST_MAIN(setup, NULL, test_each_order_runs_the_series_as_it_says,
          test_a_failed_repetition_gives_every_point_its_failure_row,
          test_a_row_that_cannot_be_written_stops_the_steps, test_ratios_pair_the_repetitions_or_compare_medians,
          test_each_series_stops_by_its_own_samples,
          test_verdict_keeps_the_check_and_names_a_median_below_resolution)
